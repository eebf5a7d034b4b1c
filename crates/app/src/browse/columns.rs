//! The column chooser: which attributes the grid shows (key attributes always), in what order,
//! and which numbers show their dates. What is chosen is the table's layout, remembered.

use egui::Ui;

use crate::browse::results::Results;

/// What a row of the chooser asked.
enum Change {
    Show(String, bool),
    Move(String, isize),
    Dates(String, bool),
}

/// A "Columns" menu with a row per attribute (shown, **Up** / **Down**, **dates**), Show all,
/// Hide all and Reset order.
pub(super) fn columns_menu_ui(ui: &mut Ui, results: &mut Results) {
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
            // A menu draws buttons without frames; these are buttons, not items to pick.
            crate::widgets::framed_buttons(ui);
            ui.set_min_width(330.0);
            ui.horizontal(|ui| {
                if ui.button("Show all").clicked() {
                    results.show_all_columns(true);
                }
                if ui.button("Hide all").clicked() {
                    results.show_all_columns(false);
                }
                if ui
                    .add_enabled(
                        !results.layout().order.is_empty(),
                        egui::Button::new("Reset order"),
                    )
                    .clicked()
                {
                    results.reset_order();
                }
            });
            ui.weak("Kept for this table, also after a reconnect or a restart.");
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    if let Some(change) = rows_ui(ui, results) {
                        match change {
                            Change::Show(name, shown) => results.show_column(&name, shown),
                            Change::Move(name, by) => results.move_column(&name, by),
                            Change::Dates(name, shown) => results.show_date(&name, shown),
                        }
                    }
                });
        });
}

/// A row per attribute that is not a key; what was changed.
fn rows_ui(ui: &mut Ui, results: &Results) -> Option<Change> {
    let mut change = None;
    let others: Vec<&str> = results
        .columns()
        .into_iter()
        .filter(|c| !results.is_key(c))
        .collect();
    egui::Grid::new("columns_chooser").show(ui, |ui| {
        for (i, name) in others.iter().enumerate() {
            let mut shown = !results.is_hidden(name);
            if ui.checkbox(&mut shown, *name).changed() {
                change = Some(Change::Show((*name).to_owned(), shown));
            }
            for (text, by, can) in [("Up", -1, i > 0), ("Down", 1, i + 1 < others.len())] {
                let what = format!("Move {name} {}", text.to_lowercase());
                let button = ui
                    .add_enabled(can, egui::Button::new(text).small())
                    .on_hover_text(&what)
                    .accessible_name(what);
                if button.clicked() {
                    change = Some(Change::Move((*name).to_owned(), by));
                }
            }
            let mut dates = results.shows_date(name);
            if ui
                .checkbox(&mut dates, "dates")
                .on_hover_text(format!(
                    "Show the date beside each {name} that looks like epoch seconds or milliseconds (the value stays as stored)"
                ))
                .accessible_name(format!("Dates of {name}"))
                .changed()
            {
                change = Some(Change::Dates((*name).to_owned(), dates));
            }
            ui.end_row();
        }
    });
    change
}

/// The attributes the counter rules suggested by `results`' first rows count: each tally and
/// each shard count, once.
pub(super) fn counted_attributes(results: &Results) -> Vec<String> {
    const SAMPLE: usize = 500;
    let keys = results.key_names();
    let (Some(pk), Some(sk)) = (keys.first(), keys.get(1)) else {
        return Vec::new();
    };
    let sample: Vec<dynoscope_core::value::Item> = results.rows.items().take(SAMPLE).collect();
    let mut counted: Vec<String> = Vec::new();
    for rule in dynoscope_core::tally::suggest(&sample, pk, sk) {
        let name = match rule {
            dynoscope_core::tally::Rule::Tally(rule) => rule.tally,
            dynoscope_core::tally::Rule::Shards(rule) => rule.attribute,
        };
        if !counted.contains(&name) {
            counted.push(name);
        }
    }
    counted
}
