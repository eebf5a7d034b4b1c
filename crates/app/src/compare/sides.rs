//! The two sides laid out: the other connection picked, then one row per key — only on A, only
//! on B, or each attribute that differs with its value on each side — or one row per parent
//! with each side's tally, children and drift.

use egui::{Color32, RichText, Ui};

use crate::connection::colour32;
use crate::scope::OpenConnection;
use dynoscope_core::diff::{TableDiff, TallyDiff, TallyPair};
use dynoscope_core::tally::ParentCheck;
use dynoscope_core::value::key_shown;

/// Only on side A (gone on B): red; only on B (added): green; changed: amber.
const REMOVED: Color32 = Color32::from_rgb(219, 68, 55);
const ADDED: Color32 = Color32::from_rgb(76, 175, 80);
const CHANGED: Color32 = Color32::from_rgb(230, 160, 40);

/// The other connection's menu, each in its colour.
pub(super) fn other_ui(ui: &mut Ui, other: &mut Option<String>, others: &[OpenConnection]) {
    let label = ui.label("Other connection");
    let shown = other.clone().unwrap_or_default();
    egui::ComboBox::from_id_salt("compare_other")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for open in others {
                let text = RichText::new(&open.name).color(colour32(open.colour));
                ui.selectable_value(other, Some(open.name.clone()), text);
            }
        })
        .response
        .labelled_by(label.id);
}

/// The items side by side: the keys only on one side, then each changed attribute.
pub(super) fn items_ui(ui: &mut Ui, diff: &TableDiff, (a, b): &(String, String)) {
    if diff.agrees() {
        ui.colored_label(ADDED, format!("{a} and {b} hold the same items."));
        return;
    }
    let keys = &diff.a.key_names;
    egui::Grid::new("compare_items")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            for header in ["Key", "Attribute", &format!("A · {a}"), &format!("B · {b}")] {
                ui.strong(header);
            }
            ui.end_row();
            for key in &diff.only_a.keys {
                ui.colored_label(REMOVED, key_shown(key, keys));
                ui.colored_label(REMOVED, "only on A");
                ui.label("item");
                ui.weak("—");
                ui.end_row();
            }
            for key in &diff.only_b.keys {
                ui.colored_label(ADDED, key_shown(key, keys));
                ui.colored_label(ADDED, "only on B");
                ui.weak("—");
                ui.label("item");
                ui.end_row();
            }
            for (key, changes) in &diff.changed {
                for (at, change) in changes.iter().enumerate() {
                    let shown = if at == 0 {
                        key_shown(key, keys)
                    } else {
                        String::new()
                    };
                    ui.colored_label(CHANGED, shown);
                    ui.colored_label(CHANGED, &change.name);
                    ui.label(change.a.as_deref().unwrap_or("(absent)"));
                    ui.label(change.b.as_deref().unwrap_or("(absent)"));
                    ui.end_row();
                }
            }
        });
}

/// The counters side by side: each parent that differs or drifted, each side's tally,
/// children and drift.
pub(super) fn tallies_ui(ui: &mut Ui, diff: &TallyDiff, (a, b): &(String, String)) {
    if diff.pairs.is_empty() {
        ui.colored_label(
            ADDED,
            format!("{a} and {b}: every parent's {} agrees.", diff.tally),
        );
        return;
    }
    egui::Grid::new("compare_tallies")
        .striped(true)
        .num_columns(3)
        .show(ui, |ui| {
            for header in ["Parent", &format!("A · {a}"), &format!("B · {b}")] {
                ui.strong(header);
            }
            ui.end_row();
            for pair in &diff.pairs {
                ui.label(&pair.parent);
                side_ui(ui, pair.a.as_ref(), pair);
                side_ui(ui, pair.b.as_ref(), pair);
                ui.end_row();
            }
        });
}

/// One side of a parent: tally / children (drift), red when it drifted, amber when it only
/// differs from the other side.
fn side_ui(ui: &mut Ui, check: Option<&ParentCheck>, pair: &TallyPair) {
    let Some(check) = check else {
        ui.colored_label(REMOVED, "not a parent");
        return;
    };
    let text = TallyPair::side_text(Some(check));
    let colour = if check.drifted() {
        REMOVED
    } else if pair.a.is_some() && pair.b.is_some() {
        CHANGED
    } else {
        ui.visuals().text_color()
    };
    ui.colored_label(colour, text);
}
