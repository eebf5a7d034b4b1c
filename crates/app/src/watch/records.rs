//! The records, newest first, filtered by parent: time, sequence, kind, parent, item and what
//! it did; the one selected with its attribute diff (before → after) and its evidence.

use egui::{RichText, Ui};

use crate::watch::log::{MAX_RECORDS, WatchLog};
use crate::widgets::labelled_text_ui;
use dynoscope_core::stream::time_text;
use dynoscope_core::value::item_to_dynamodb_json;
use dynoscope_core::watch::Change;

/// Draw the records of the parents matching `filter`; `selected` is the record shown below.
pub(super) fn records_ui(
    ui: &mut Ui,
    log: &WatchLog,
    filter: &mut String,
    selected: &mut Option<String>,
) {
    ui.horizontal(|ui| {
        labelled_text_ui(ui, "Filter by parent", filter, 160.0, "POST#a91f");
        if !filter.is_empty() && ui.small_button("Clear filter").clicked() {
            filter.clear();
        }
    });
    let wanted = filter.trim();
    let shown: Vec<&Change> = log
        .records
        .iter()
        .filter(|c| wanted.is_empty() || c.parent.contains(wanted))
        .collect();
    ui.weak(format!(
        "{} records shown, newest first (the last {MAX_RECORDS} kept of {} read)",
        shown.len(),
        log.seen
    ));
    let row_height = ui.text_style_height(&egui::TextStyle::Monospace) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("watch_records")
        .max_height(280.0)
        .auto_shrink([false, true])
        .show_rows(ui, row_height, shown.len(), |ui, rows| {
            for change in &shown[rows] {
                let is_selected = selected.as_deref() == Some(change.sequence.as_str());
                let text = RichText::new(row_text(change, &log.tally)).monospace();
                if ui.selectable_label(is_selected, text).clicked() {
                    *selected = (!is_selected).then(|| change.sequence.as_str().to_owned());
                }
            }
        });
    let chosen = selected
        .as_deref()
        .and_then(|s| log.records.iter().find(|c| c.sequence.as_str() == s));
    if let Some(change) = chosen {
        ui.separator();
        detail_ui(ui, change, &log.tally);
    }
}

/// One record in a line: `10:32:05.123  …4417  INSERT  POST#a91f  LIKE#USER#x  LIKE#USER#x
/// inserted`.
fn row_text(change: &Change, tally: &str) -> String {
    format!(
        "{}  {}  {}  {}  {}  {}",
        time_text(change.at_ms, false),
        short_sequence(change.sequence.as_str()),
        change.kind.name(),
        change.parent,
        change.item,
        change.what(tally)
    )
}

/// The end of a sequence number (they are 21 to 40 digits; the end tells them apart).
fn short_sequence(sequence: &str) -> String {
    let count = sequence.chars().count();
    if count <= 10 {
        sequence.to_owned()
    } else {
        let tail: String = sequence.chars().skip(count - 8).collect();
        format!("…{tail}")
    }
}

/// The record selected: its place, its attribute diff and its evidence.
fn detail_ui(ui: &mut Ui, change: &Change, tally: &str) {
    ui.label(RichText::new(format!("{} / {}", change.parent, change.item)).strong());
    // Monospace: the proportional font has no arrow glyph.
    ui.monospace(format!(
        "{} at {}, sequence {}: {}",
        change.kind.name(),
        time_text(change.at_ms, true),
        change.sequence,
        change.what(tally)
    ));
    let diff = change.diff();
    if diff.is_empty() {
        ui.weak("No attribute changed.");
    } else {
        ui.monospace("Attribute diff (before → after):");
        egui::Grid::new(("watch_diff", change.sequence.as_str()))
            .striped(true)
            .show(ui, |ui| {
                for diff in &diff {
                    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(absent)".into());
                    ui.monospace(&diff.name);
                    ui.monospace(shown(&diff.before));
                    ui.monospace("→");
                    ui.monospace(shown(&diff.after));
                    ui.end_row();
                }
            });
    }
    // The whole images, as the stream carried them (DynamoDB JSON).
    for (title, image) in [("Old image", &change.old), ("New image", &change.new)] {
        match image {
            Some(item) => {
                ui.label(title);
                ui.add(
                    egui::Label::new(
                        RichText::new(item_to_dynamodb_json(item, &[], false)).monospace(),
                    )
                    .wrap(),
                );
            }
            None => {
                ui.weak(format!("{title}: none"));
            }
        }
    }
    if change.evidence.is_empty() {
        ui.weak("The item carries no evidence of who or when (no updatedAt, request id…).");
    } else {
        ui.label("Evidence:");
        for (name, value) in &change.evidence {
            ui.monospace(format!("{name} = {value}"));
        }
    }
}
