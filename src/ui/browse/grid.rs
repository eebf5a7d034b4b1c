//! The results grid: virtual rows, key columns first, then the union of attribute names, with
//! typed cells. Clicking a row opens the item; a number cell's menu edits it.

use egui::{RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::core::value::{self, Item};
use crate::ui::browse::results::Results;
use crate::ui::widgets::type_tag_ui;

const ROW_NUMBER_WIDTH: f32 = 56.0;
const KEY_WIDTH: f32 = 160.0;
const ATTRIBUTE_WIDTH: f32 = 120.0;

/// A number edit asked for from a cell's context menu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridAction {
    /// Add `delta` to `attribute` of row `row` right away.
    Add {
        /// The row.
        row: usize,
        /// The number attribute.
        attribute: String,
        /// `1` or `-1`.
        delta: &'static str,
    },
    /// Open the row with `attribute` ready in the counter editor.
    Edit {
        /// The row.
        row: usize,
        /// The attribute.
        attribute: String,
    },
}

/// Draw the grid with virtual rows; only visible rows are laid out.
///
/// Key columns stay on the left; the other columns scroll sideways by whole columns (buttons or
/// Shift + wheel), so the keys of a row are always beside its values.
#[must_use]
pub fn results_grid_ui(ui: &mut Ui, results: &mut Results, loading: bool) -> Option<GridAction> {
    if results.items.is_empty() {
        if !loading && results.request.is_some() && results.error.is_none() {
            ui.weak("No items matched.");
        }
        return None;
    }
    let keys = results.key_names.len().min(results.columns.len());
    let attributes = results.columns.len() - keys;
    let fixed = ROW_NUMBER_WIDTH + keys as f32 * KEY_WIDTH;
    let fit = (((ui.available_width() - fixed) / ATTRIBUTE_WIDTH).floor() as usize).max(1);
    let last_first = attributes.saturating_sub(fit);
    results.first_column = results.first_column.min(last_first);
    if last_first > 0 {
        column_scroll_ui(ui, results, attributes, fit, last_first);
    }
    let shown_attributes = results.first_column..(results.first_column + fit).min(attributes);
    let columns: Vec<String> = results.columns[..keys]
        .iter()
        .chain(&results.columns[keys + shown_attributes.start..keys + shown_attributes.end])
        .cloned()
        .collect();
    let key_names = results.key_names.clone();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let mut clicked = None;
    let mut action = None;

    // Cell text must not take the click that opens the row.
    ui.style_mut().interaction.selectable_labels = false;
    let mut table = TableBuilder::new(ui)
        .id_salt("results_grid")
        .striped(true)
        .resizable(true)
        .sense(egui::Sense::click())
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(ROW_NUMBER_WIDTH));
    for i in 0..columns.len() {
        let column = if i + 1 == columns.len() {
            Column::remainder()
        } else if i < keys {
            Column::initial(KEY_WIDTH)
        } else {
            Column::initial(ATTRIBUTE_WIDTH)
        };
        table = table.column(column.at_least(40.0).clip(true).resizable(true));
    }
    let output = table
        .header(row_height + 2.0, |mut header| {
            header.col(|ui| {
                ui.weak("#");
            });
            for (i, name) in columns.iter().enumerate() {
                header.col(|ui| {
                    let text = RichText::new(name).strong();
                    ui.label(if i < keys { text.underline() } else { text });
                });
            }
        })
        .body(|body| {
            body.rows(row_height, results.items.len(), |mut row| {
                let index = row.index();
                row.set_selected(results.selected == Some(index));
                let Some(item) = results.items.get(index) else {
                    return;
                };
                row.col(|ui| {
                    ui.weak((index + 1).to_string());
                });
                for name in &columns {
                    let (_, cell) = row.col(|ui| match item.get(name) {
                        Some(value) => {
                            type_tag_ui(ui, value::type_tag(value));
                            ui.add(egui::Label::new(value::cell_text(value)).truncate());
                        }
                        None => {
                            ui.label(" ");
                        }
                    });
                    cell.context_menu(|ui| {
                        if let Some(a) = cell_menu_ui(ui, item, name, &key_names, index) {
                            action = Some(a);
                        }
                    });
                }
                if row.response().clicked() {
                    clicked = Some(index);
                }
            });
        });
    if let Some(index) = clicked {
        results.selected = Some(index);
    }
    // Shift + wheel (or a sideways wheel) over the grid scrolls columns.
    let hovered = ui.rect_contains_pointer(output.inner_rect);
    let sideways: f32 = ui.input(|i| {
        i.events
            .iter()
            .map(|e| match e {
                egui::Event::MouseWheel {
                    delta, modifiers, ..
                } if modifiers.shift => delta.x + delta.y,
                egui::Event::MouseWheel { delta, .. } => delta.x,
                _ => 0.0,
            })
            .sum()
    });
    if hovered && sideways.abs() > 0.5 {
        let step = if sideways < 0.0 { 1 } else { -1 };
        results.first_column = results
            .first_column
            .saturating_add_signed(step)
            .min(last_first);
    }
    action
}

fn column_scroll_ui(
    ui: &mut Ui,
    results: &mut Results,
    attributes: usize,
    fit: usize,
    last_first: usize,
) {
    ui.horizontal(|ui| {
        let first = results.first_column;
        if ui
            .add_enabled(first > 0, egui::Button::new("< Columns"))
            .on_hover_text("Show the columns to the left (or Shift + wheel)")
            .clicked()
        {
            results.first_column = first.saturating_sub(1);
        }
        if ui
            .add_enabled(first < last_first, egui::Button::new("Columns >"))
            .on_hover_text("Show the columns to the right (or Shift + wheel)")
            .clicked()
        {
            results.first_column = (first + 1).min(last_first);
        }
        let last = (first + fit).min(attributes);
        ui.weak(format!(
            "attributes {}–{} of {attributes}; key columns stay in view",
            first + 1,
            last
        ));
    });
}

fn cell_menu_ui(
    ui: &mut Ui,
    item: &Item,
    name: &str,
    key_names: &[String],
    row: usize,
) -> Option<GridAction> {
    let mut action = None;
    let is_key = key_names.iter().any(|k| k == name);
    match item.get(name) {
        Some(aws_sdk_dynamodb::types::AttributeValue::N(_)) if !is_key => {
            for (text, delta) in [("+1", "1"), ("-1", "-1")] {
                if ui.button(format!("{text} on {name} (ADD)")).clicked() {
                    action = Some(GridAction::Add {
                        row,
                        attribute: name.to_owned(),
                        delta,
                    });
                    ui.close();
                }
            }
            if ui.button(format!("Edit {name}…")).clicked() {
                action = Some(GridAction::Edit {
                    row,
                    attribute: name.to_owned(),
                });
                ui.close();
            }
            ui.separator();
        }
        None => {
            if ui
                .button(format!("Add to {name} (missing here: starts from 0)…"))
                .clicked()
            {
                action = Some(GridAction::Edit {
                    row,
                    attribute: name.to_owned(),
                });
                ui.close();
            }
            ui.separator();
        }
        _ => {}
    }
    if let Some(value) = item.get(name) {
        // Strings copy as they are; everything else as plain JSON (numbers exact).
        let text = match value {
            aws_sdk_dynamodb::types::AttributeValue::S(s) => s.clone(),
            other => value::plain_json(other, false),
        };
        if ui.button(format!("Copy value of {name}")).clicked() {
            ui.ctx().copy_text(text);
            ui.close();
        }
    }
    if ui.button("Copy item as DynamoDB JSON").clicked() {
        ui.ctx()
            .copy_text(value::item_to_dynamodb_json(item, key_names, false));
        ui.close();
    }
    if ui.button("Copy item as JSON").clicked() {
        ui.ctx()
            .copy_text(value::item_to_plain_json(item, key_names, false));
        ui.close();
    }
    action
}
