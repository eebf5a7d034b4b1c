//! The describe panel: keys, indexes, size, billing, stream and TTL of the open table.

use egui::{RichText, Ui};

use crate::core::error::Error;
use crate::core::table::{IndexKind, KeyAttr, TableInfo, human_bytes};
use crate::ui::widgets::error_ui;

fn key_text(key: &KeyAttr) -> String {
    format!("{} ({})", key.name, key.kind)
}

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
            let row = |ui: &mut Ui, name: &str, value: String| {
                ui.weak(name);
                ui.label(value);
                ui.end_row();
            };
            row(ui, "Status", info.status.clone());
            row(ui, "Partition key", key_text(&info.partition));
            row(
                ui,
                "Sort key",
                info.sort.as_ref().map_or("none".to_owned(), key_text),
            );
            row(
                ui,
                "Items",
                info.item_count
                    .map_or("unknown".to_owned(), |c| c.to_string()),
            );
            row(
                ui,
                "Size",
                info.size_bytes.map_or("unknown".to_owned(), human_bytes),
            );
            row(ui, "Billing", info.billing.clone());
            row(
                ui,
                "Stream",
                info.stream.clone().unwrap_or_else(|| "off".to_owned()),
            );
            row(
                ui,
                "TTL",
                info.ttl.clone().unwrap_or_else(|| "unknown".to_owned()),
            );
        });
    ui.add_space(6.0);
    ui.label(RichText::new(format!("Indexes ({})", info.indexes.len())).strong());
    if info.indexes.is_empty() {
        ui.weak("none");
    }
    for index in &info.indexes {
        let kind = match index.kind {
            IndexKind::Global => "GSI",
            IndexKind::Local => "LSI",
        };
        ui.group(|ui| {
            ui.label(RichText::new(format!("{kind} {}", index.name)).strong());
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
