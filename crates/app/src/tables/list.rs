//! The table list with its filter box.

use egui::Ui;

use crate::widgets::{error_ui, labelled_text_ui};
use dynoscope_core::error::Error;

/// What the list shows.
pub(super) struct ListView<'a> {
    /// All table names (every page of ListTables).
    pub names: &'a [String],
    /// Whether a list is being fetched, or the open table described.
    pub loading: bool,
    /// Why the last list failed.
    pub error: Option<&'a Error>,
    /// The open table.
    pub selected: Option<&'a str>,
}

/// What the user did in the table list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ListAction {
    /// Open this table.
    Open(String),
    /// List the tables again.
    Refresh,
    /// Stop the listing or describing under way.
    Cancel,
    /// Show the Create table window.
    NewTable,
}

/// Draw the list with its `filter` box; returns what the user asked for.
#[must_use]
pub(super) fn tables_ui(
    ui: &mut Ui,
    panel: &ListView<'_>,
    filter: &mut String,
) -> Option<ListAction> {
    let selected = panel.selected;
    let mut action = None;
    ui.horizontal(|ui| {
        ui.heading("Tables");
        if ui
            .small_button("Refresh")
            .on_hover_text("List tables again")
            .clicked()
        {
            action = Some(ListAction::Refresh);
        }
        if panel.loading {
            ui.spinner();
            if ui.small_button("Cancel").clicked() {
                action = Some(ListAction::Cancel);
            }
        }
    });
    if ui
        .small_button("New table…")
        .on_hover_text("Create a table: keys, billing, indexes, stream, TTL, tags")
        .clicked()
    {
        action = Some(ListAction::NewTable);
    }
    labelled_text_ui(ui, "Filter tables", filter, f32::INFINITY, "part of a name");
    if let Some(error) = panel.error {
        error_ui(ui, error);
    }
    let needle = filter.trim().to_lowercase();
    let shown: Vec<&String> = panel
        .names
        .iter()
        .filter(|n| needle.is_empty() || n.to_lowercase().contains(&needle))
        .collect();
    ui.weak(format!("{} of {} tables", shown.len(), panel.names.len()));
    egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for name in shown {
                let is_selected = selected == Some(name.as_str());
                if ui.selectable_label(is_selected, name).clicked() && !is_selected {
                    action = Some(ListAction::Open(name.clone()));
                }
            }
        });
    action
}
