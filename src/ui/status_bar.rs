//! The status bar: items, pages and consumed RCU of the current run, with a progress bar while
//! all pages load.

use egui::Ui;

use crate::core::export::ExportFormat;
use crate::ui::results_grid::Results;

/// What the user asked for in the status bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusAction {
    /// Stop loading; keep what loaded.
    Cancel,
    /// Export the loaded rows in this format.
    Export(ExportFormat),
}

/// Draw the status of `results`; returns what the user asked for.
#[must_use]
pub fn status_bar_ui(ui: &mut Ui, results: &Results) -> Option<StatusAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        let Some(request) = &results.request else {
            ui.weak("Pick a table, then Query a partition or Scan.");
            return;
        };
        let summary = format!(
            "{} · {} · {} RCU · {} scanned",
            plural(results.items.len(), "item"),
            plural(results.pages, "page"),
            format_rcu(results.consumed_rcu),
            results.scanned
        );
        if results.loading && results.cancel.is_some() {
            let fraction = match (request.op(), results.estimate) {
                ("Scan", Some(total)) if total > 0 => {
                    (results.scanned as f32 / total as f32).min(1.0)
                }
                _ => 0.0,
            };
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(320.0)
                    .animate(true)
                    .text(format!("Loading all… {summary}")),
            );
            if ui.button("Cancel").clicked() {
                action = Some(StatusAction::Cancel);
            }
        } else {
            if results.loading {
                ui.spinner();
            }
            ui.label(summary);
            if results.cancelled {
                ui.weak("· cancelled, loaded rows kept");
            } else if results.has_more() {
                ui.weak("· more pages available");
            } else if !results.loading {
                ui.weak("· all pages loaded");
            }
            if !results.loading && !results.items.is_empty() {
                ui.menu_button("Export…", |ui| {
                    for format in ExportFormat::ALL {
                        if ui.button(format.label()).clicked() {
                            action = Some(StatusAction::Export(format));
                            ui.close();
                        }
                    }
                });
            }
        }
    });
    action
}

/// RCU with at most one decimal, the way the console shows it.
pub fn format_rcu(rcu: f64) -> String {
    if rcu.fract() == 0.0 {
        format!("{rcu:.0}")
    } else {
        format!("{rcu:.1}")
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
