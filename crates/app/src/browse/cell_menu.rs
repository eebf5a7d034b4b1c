//! The grid's menus: a column header's (move, hide, dates) and a cell's (ADD ±1 or edit a
//! number, copy the value or the item).

use aws_sdk_dynamodb::types::AttributeValue;
use egui::Ui;

use dynoscope_core::value::{self, Item};

/// What the user asked of the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridAction {
    /// Add `delta` to `attribute` of row `row` right away.
    Add {
        /// The row (an index into the loaded rows).
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

/// What a column header's menu asked for.
pub(super) enum HeaderAction {
    /// Move the column by so many places.
    Move(String, isize),
    /// Move a column to where another is (its header dropped there).
    MoveTo(String, String),
    /// Hide the column.
    Hide(String),
    /// Show its dates, or not.
    Dates(String, bool),
}

/// A column header's menu: move it, hide it, show its dates.
pub(super) fn header_menu_ui(ui: &mut Ui, name: &str, dates: bool) -> Option<HeaderAction> {
    let mut action = None;
    for (text, by) in [("Move left", -1), ("Move right", 1)] {
        if ui.button(format!("{text}: {name}")).clicked() {
            action = Some(HeaderAction::Move(name.to_owned(), by));
            ui.close();
        }
    }
    if ui.button(format!("Hide {name}")).clicked() {
        action = Some(HeaderAction::Hide(name.to_owned()));
        ui.close();
    }
    let text = if dates {
        format!("Hide the dates of {name}")
    } else {
        format!("Show the dates of {name} (numbers that look like times)")
    };
    if ui.button(text).clicked() {
        action = Some(HeaderAction::Dates(name.to_owned(), !dates));
        ui.close();
    }
    action
}

pub(super) fn cell_menu_ui(
    ui: &mut Ui,
    item: &Item,
    name: &str,
    key_names: &[String],
    row: usize,
    editable: bool,
) -> Option<GridAction> {
    let mut action = None;
    let is_key = key_names.iter().any(|k| k == name);
    match item.get(name).filter(|_| editable) {
        // A time held as a number (`likedAt`, epoch seconds) is not a counter: no ±1 on it.
        Some(AttributeValue::N(n))
            if !is_key && dynoscope_core::value::date_of(name, n).is_some() =>
        {
            ui.weak(format!("{name} holds a time, not a counter"));
            ui.separator();
        }
        Some(AttributeValue::N(_)) if !is_key => {
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
        None if editable => {
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
            AttributeValue::S(s) => s.clone(),
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
