//! The describe panel: keys, indexes, size, billing, stream and TTL of the open table.

use egui::{RichText, Ui};

use crate::core::error::Error;
use crate::core::table::{TableInfo, key_text};
use crate::ui::widgets::error_ui;

/// Draw the description of `table` (`info`, once known); returns an index the user chose to
/// browse.
#[must_use]
pub(super) fn describe_ui(
    ui: &mut Ui,
    table: &str,
    info: Option<&TableInfo>,
    loading: bool,
    error: Option<&Error>,
) -> Option<String> {
    let mut browse_index = None;
    ui.horizontal(|ui| {
        ui.heading(table);
        if loading {
            ui.spinner();
        }
    });
    if let Some(error) = error {
        error_ui(ui, error);
    }
    let info = info?;
    egui::Grid::new("describe_grid")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (name, value) in info.facts() {
                ui.weak(name);
                ui.label(value);
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    ui.label(RichText::new(format!("Indexes ({})", info.indexes.len())).strong());
    if info.indexes.is_empty() {
        ui.weak("none");
    }
    for index in &info.indexes {
        ui.group(|ui| {
            ui.label(RichText::new(format!("{} {}", index.kind_name(), index.name)).strong());
            ui.label(format!("Partition: {}", key_text(&index.partition)));
            if let Some(sort) = &index.sort {
                ui.label(format!("Sort: {}", key_text(sort)));
            }
            ui.label(format!("Projection: {}", index.projection));
            if let Some(status) = &index.status {
                ui.weak(format!("Status: {status}"));
            }
            if ui.small_button(format!("Browse {}", index.name)).clicked() {
                browse_index = Some(index.name.clone());
            }
        });
    }
    if let Some(arn) = &info.arn {
        ui.add_space(6.0);
        ui.weak(arn);
    }
    browse_index
}
