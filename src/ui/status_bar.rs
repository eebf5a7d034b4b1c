//! The status bar: items, pages and consumed RCU of the current run, with a progress bar while
//! all pages load.

use egui::Ui;

use crate::ui::results_grid::Results;

/// Draw the status of `results`; returns `true` when Cancel is clicked.
#[must_use]
pub fn status_bar_ui(ui: &mut Ui, results: &Results) -> bool {
    let mut cancel = false;
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
            cancel = ui.button("Cancel").clicked();
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
        }
    });
    cancel
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
