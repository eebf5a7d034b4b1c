//! The status bar: items, pages and consumed RCU of the current run, with a progress bar while
//! all pages load.

use egui::Ui;

use crate::browse::progress::segments_ui;
use crate::browse::results::Results;
use dynoscope_core::cost::Pricing;
use dynoscope_core::report::{age_text, capacity, read_summary};
use dynoscope_core::transfer::Format;

/// What the user asked for in the status bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StatusAction {
    /// Stop loading; keep what loaded.
    Cancel,
    /// Export the loaded rows in this format.
    Export(Format),
}

/// Whether pages are being fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loading {
    /// Nothing is being fetched.
    Idle,
    /// One page.
    Page,
    /// Every page, with a progress bar and Cancel.
    All,
}

/// Draw the status of `results`, and the Export… menu with its path field (`export_to`: a
/// file or folder, empty to ask with the dialog); returns what the user asked for.
#[must_use]
pub(super) fn status_bar_ui(
    ui: &mut Ui,
    results: &Results,
    loading: Loading,
    pricing: Option<&Pricing>,
    export_to: &mut String,
) -> Option<StatusAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        if results.load.request.is_none() && results.load.pages == 0 && results.rows.is_empty() {
            if loading == Loading::Idle {
                ui.weak("Nothing run in this tab yet.");
            }
            return;
        }
        // Rows computed here (SQL) were not read in pages.
        let computed = results.load.request.is_none() && results.load.pages == 0;
        let summary = summary_text(results, pricing, computed);
        let op = results
            .load
            .request
            .as_ref()
            .map(dynoscope_core::read::BrowseRequest::op);
        if loading == Loading::All {
            if loading_all_ui(ui, results, op, &summary) {
                action = Some(StatusAction::Cancel);
            }
        } else {
            if loading == Loading::Page {
                ui.spinner();
            }
            let shown = ui.label(summary);
            if let Some(note) = results.load.scanned_note() {
                shown.on_hover_text(note);
            }
            if loading == Loading::Page
                && let Some(note) = &results.progress.note
            {
                ui.colored_label(ui.visuals().warn_fg_color, note);
            }
            segments_ui(ui, &results.progress, false);
            where_it_stands_ui(ui, results, loading, computed);
            if results.filtering() {
                ui.weak(format!("· {} shown (find filter)", results.view().len()));
            }
            let selected = results.selected_count();
            if selected > 1 {
                ui.weak(format!("· {selected} selected"));
            }
            if loading == Loading::Idle && !results.rows.is_empty() {
                // Clicks inside stay inside: the Save to field takes a typed path (the default
                // menu closes on any click, so the field could never be focused).
                let config = egui::containers::menu::MenuConfig::new()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
                egui::containers::menu::MenuButton::new("Export…")
                    .config(config)
                    .ui(ui, |ui| {
                        crate::widgets::labelled_text_ui(
                            ui,
                            "Save to",
                            export_to,
                            220.0,
                            "a file or folder (empty: ask with a dialog)",
                        );
                        for format in Format::ALL {
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

/// How far the rows go and how current they are: not current after a failed run, cancelled,
/// stopped, more pages, or all loaded; how old the oldest row is, and a write of ours newer
/// than it.
fn where_it_stands_ui(ui: &mut Ui, results: &Results, loading: Loading, computed: bool) {
    if results.failed_run.is_some() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "· not current: the last run failed before its first page, so these are the \
             rows of the run before",
        );
    }
    if results.load.cancelled {
        ui.weak("· cancelled, loaded rows kept; Resume goes on from the last key");
    } else if results.load.error.is_some() && results.load.has_more() {
        ui.weak("· stopped, loaded rows kept; Resume goes on from the last key");
    } else if results.load.has_more() {
        ui.weak("· more pages available");
    } else if loading == Loading::Idle
        && !computed
        && results.load.error.is_none()
        && results.failed_run.is_none()
    {
        ui.weak("· all pages loaded");
    }
    if let Some(read) = results.times.oldest() {
        // As the item view says its age: how old the oldest row shown is.
        ui.weak(format!("· read {}", age_text(read.elapsed())))
            .on_hover_text("When the oldest row shown was read (its page)");
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs(1));
        if let Some(written) = results.times.written_since_read() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "· a write of ours {} is newer than some rows: Run again to be sure",
                    age_text(written.elapsed())
                ),
            );
        }
    }
}

/// The words of the status: rows, pages and what reading them cost (or that they were computed
/// here), with the items scanned.
fn summary_text(results: &Results, pricing: Option<&Pricing>, computed: bool) -> String {
    let mut summary = if computed {
        format!(
            "{} rows (computed on this machine, nothing read)",
            results.rows.len()
        )
    } else {
        let rcu = results.load.consumed_rcu;
        match pricing {
            Some(pricing) => {
                read_summary(results.rows.len(), results.load.pages, &pricing.read(rcu))
            }
            None => read_summary(
                results.rows.len(),
                results.load.pages,
                &format_args!("{} RCU", capacity(rcu)),
            ),
        }
    };
    if results.load.request.is_some() {
        summary.push_str(&format!(" · {} scanned", results.load.scanned));
        if results.load.scanned_note().is_some() {
            let beyond = results.load.scanned - results.load.matched;
            summary.push_str(&format!(" ({beyond} more than returned)"));
        }
    }
    summary
}

/// While every page loads: a progress bar (how far, for a Scan of a described table), the
/// summary, Cancel and the segments; whether Cancel was clicked.
fn loading_all_ui(ui: &mut Ui, results: &Results, op: Option<&str>, summary: &str) -> bool {
    let fraction = match (op, results.load.estimate) {
        (Some("Scan"), Some(total)) if total > 0 => {
            (results.load.scanned as f32 / total as f32).min(1.0)
        }
        _ => 0.0,
    };
    // The words beside the bar, not in it: its spinner would cover their end.
    // How far when it is known (a Scan of a described table), else that it moves.
    let bar = egui::ProgressBar::new(fraction).desired_width(160.0);
    ui.add(if fraction > 0.0 {
        bar.show_percentage()
    } else {
        bar.animate(true)
    });
    ui.label(format!("Loading all… {summary}"));
    let cancel = ui.button("Cancel").clicked();
    segments_ui(ui, &results.progress, true);
    if let Some(done) = results.progress.summary() {
        ui.weak(done);
    }
    if let Some(note) = &results.progress.note {
        ui.colored_label(ui.visuals().warn_fg_color, note);
    }
    cancel
}
