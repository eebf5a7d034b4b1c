//! The describe panel: keys, indexes, size, billing, stream and TTL of the open table.

use std::time::Instant;

use egui::{RichText, Ui};

use crate::widgets::error_ui;
use dynoscope_core::error::Error;
use dynoscope_core::report::age_text;
use dynoscope_core::table::{TableInfo, key_text};

/// What the panel shows: the table, its description once known, and how old it is.
pub(super) struct Described<'a> {
    pub(super) table: &'a str,
    pub(super) info: Option<&'a TableInfo>,
    /// When it was described.
    pub(super) at: Option<Instant>,
    pub(super) loading: bool,
    pub(super) error: Option<&'a Error>,
}

/// What the user asked of the panel.
pub(super) enum DescribeAction {
    /// Describe it again.
    Refresh,
    /// Browse this index.
    Browse(String),
}

/// Draw the description; what the user asked for.
#[must_use]
pub(super) fn describe_ui(ui: &mut Ui, shown: &Described<'_>) -> Option<DescribeAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        ui.heading(shown.table);
        if shown.loading {
            ui.spinner();
        }
    });
    ui.horizontal(|ui| {
        if let Some(at) = shown.at {
            ui.weak(format!("described {}", age_text(at.elapsed())));
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        }
        if ui
            .add_enabled(!shown.loading, egui::Button::new("Describe again").small())
            .on_hover_text("Describe the table again: item count, size, indexes")
            .clicked()
        {
            action = Some(DescribeAction::Refresh);
        }
    });
    if let Some(error) = shown.error {
        error_ui(ui, error);
    }
    let info = shown.info?;
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
                action = Some(DescribeAction::Browse(index.name.clone()));
            }
        });
    }
    if let Some(arn) = &info.arn {
        ui.add_space(6.0);
        ui.weak(arn);
    }
    action
}
