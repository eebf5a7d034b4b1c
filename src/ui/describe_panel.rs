//! The describe panel: keys, indexes, size, billing, stream and TTL of the open table.

use egui::{RichText, Ui};

use crate::core::error::Error;
use crate::core::table::{IndexKind, KeyAttr, TableInfo, human_bytes};
use crate::ui::widgets::error_ui;

/// The description of the open table; keeps the previous one while a new one loads.
#[derive(Debug, Default)]
pub struct Described {
    /// The table being described.
    pub table: String,
    /// The last description received for `table`.
    pub info: Option<TableInfo>,
    /// Whether a describe is under way.
    pub loading: bool,
    /// Why the last describe failed.
    pub error: Option<Error>,
}

fn key_text(key: &KeyAttr) -> String {
    format!("{} ({})", key.name, key.kind)
}

/// Draw the description; returns an index the user chose to browse.
#[must_use]
pub fn describe_ui(ui: &mut Ui, described: &Described) -> Option<String> {
    let mut browse_index = None;
    ui.horizontal(|ui| {
        ui.heading(&described.table);
        if described.loading {
            ui.spinner();
        }
    });
    if let Some(error) = &described.error {
        error_ui(ui, error);
    }
    let Some(info) = &described.info else {
        return None;
    };
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
