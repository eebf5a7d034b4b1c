//! The column chooser: which attributes the grid shows (key attributes always).

use egui::Ui;

use crate::ui::browse::results::Results;

/// A "Columns" menu with a checkbox per attribute, Show all and Hide all.
pub fn columns_menu_ui(ui: &mut Ui, results: &mut Results) {
    let hidden = results.hidden.len();
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
                    results.hidden.clear();
                }
                if ui.button("Hide all").clicked() {
                    results.hidden = results
                        .columns
                        .iter()
                        .filter(|c| !results.key_names.contains(c))
                        .cloned()
                        .collect();
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for name in results.columns.clone() {
                        if results.key_names.contains(&name) {
                            continue;
                        }
                        let mut shown = !results.hidden.contains(&name);
                        if ui.checkbox(&mut shown, &name).changed() {
                            if shown {
                                results.hidden.remove(&name);
                            } else {
                                results.hidden.insert(name);
                            }
                            results.cursor = None;
                        }
                    }
                });
        });
}
