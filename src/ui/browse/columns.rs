//! The column chooser: which attributes the grid shows (key attributes always).

use egui::Ui;

use crate::ui::browse::results::Results;

/// A "Columns" menu with a checkbox per attribute, Show all and Hide all.
pub fn columns_menu_ui(ui: &mut Ui, results: &mut Results) {
    let hidden = results.hidden_count();
    let title = match hidden {
        0 => "Columns".to_owned(),
        n => format!("Columns ({n} hidden)"),
    };
    // Stays open while boxes are ticked; a click outside closes it.
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new(title)
        .config(config)
        .ui(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Show all").clicked() {
                    results.show_all_columns(true);
                }
                if ui.button("Hide all").clicked() {
                    results.show_all_columns(false);
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    let mut toggled = None;
                    for name in results.columns() {
                        if results.is_key(name) {
                            continue;
                        }
                        let mut shown = !results.is_hidden(name);
                        if ui.checkbox(&mut shown, name).changed() {
                            toggled = Some((name.clone(), shown));
                        }
                    }
                    if let Some((name, shown)) = toggled {
                        results.show_column(&name, shown);
                    }
                });
        });
}
