//! The connection form's pickers: a saved connection, the colour, the profile, the region.

use egui::{Color32, RichText, Ui};

use dynoscope_core::connection::{COLOURS, REGIONS, SavedConnection, SavedConnections};

/// How the connection is named and guarded, in a menu of its own so the bar stays one row:
/// the saved connections (one picked fills the form: returned), the name, the colour and
/// Protected.
pub(super) fn naming_ui(
    ui: &mut Ui,
    name: &mut String,
    colour: &mut usize,
    protected: &mut bool,
    saved: &SavedConnections,
    default_name: &str,
) -> Option<SavedConnection> {
    let mut picked = None;
    let text = RichText::new("Name…").color(colour32(*colour));
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let (button, _) = egui::containers::menu::MenuButton::new(text)
        .config(config)
        .ui(ui, |ui| {
            crate::widgets::framed_buttons(ui);
            ui.set_min_width(260.0);
            if !saved.0.is_empty() {
                ui.weak("Saved connections (pick one to fill the form)");
                for connection in &saved.0 {
                    ui.horizontal(|ui| {
                        swatch_ui(ui, connection.colour);
                        if ui.selectable_label(false, &connection.name).clicked() {
                            picked = Some(connection.clone());
                        }
                        ui.weak(connection.spec.label());
                    });
                }
                ui.separator();
            }
            crate::widgets::labelled_text_ui(ui, "Name", name, 140.0, default_name);
            ui.horizontal_wrapped(|ui| {
                ui.label("Colour");
                for (at, (colour_name, _)) in COLOURS.iter().enumerate() {
                    let text = RichText::new(*colour_name).color(colour32(at));
                    ui.selectable_value(colour, at, text);
                }
            });
            ui.checkbox(protected, "Protected").on_hover_text(
                "A write on this connection needs its name typed, whatever the question",
            );
        });
    button.on_hover_text("The connection's name, colour and protection; the saved connections");
    picked
}

/// A dot in a connection's colour.
pub(super) fn swatch_ui(ui: &mut Ui, colour: usize) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), 5.0, colour32(colour));
}

/// A connection's colour for egui.
pub(crate) fn colour32(colour: usize) -> Color32 {
    let [r, g, b] = SavedConnection::rgb(colour);
    Color32::from_rgb(r, g, b)
}

pub(super) fn profile_ui(ui: &mut Ui, chosen: &mut Option<String>, profiles: &[String]) {
    let shown = chosen
        .clone()
        .unwrap_or_else(|| "(default chain)".to_owned());
    let label = ui.label("Profile");
    egui::ComboBox::from_id_salt("profile")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, "(default chain)");
            for name in profiles {
                ui.selectable_value(chosen, Some(name.clone()), name);
            }
        })
        .response
        .labelled_by(label.id);
}

pub(super) fn region_ui(ui: &mut Ui, chosen: &mut Option<String>, default_text: &str) {
    let shown = chosen.clone().unwrap_or_else(|| default_text.to_owned());
    let label = ui.label("Region");
    egui::ComboBox::from_id_salt("region")
        .selected_text(shown)
        .height(300.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, default_text);
            for region in REGIONS {
                ui.selectable_value(chosen, Some((*region).to_owned()), *region);
            }
        })
        .response
        .labelled_by(label.id);
}
