//! The watch view: the form and its buttons (or, without a stream, the two ways out), the
//! status line, the summary once ended; then the parents that diverged and the chart beside
//! the records.

use egui::{RichText, Ui};

use crate::scope::Scope;
use crate::watch::log::WatchLog;
use crate::watch::{WatchFeature, chart, form, records, stream};
use crate::widgets::{error_ui, lines_ui};
use dynoscope_core::stream::StreamSource;

/// Draw the whole view.
pub(super) fn panel_ui(ui: &mut Ui, watch: &mut WatchFeature, scope: &Scope<'_>) {
    ui.heading("Watch counters");
    let running = watch.job.is_some();
    let partition = format!(
        "{} ({})",
        scope.table.partition.name, scope.table.partition.kind
    );
    form::form_ui(ui, &mut watch.form, &partition, running);
    let source = StreamSource::of(scope.table);
    if let Err(why) = &source
        && stream::no_stream_ui(
            ui,
            &mut watch.enable,
            &mut watch.form.poll,
            scope,
            why,
            running,
        )
    {
        watch.start(scope, true);
    }
    if source.is_ok() {
        watch.enable.said_ui(ui);
    }
    controls_ui(ui, watch, scope, source.is_ok());
    if let Some(error) = &watch.error {
        error_ui(ui, error);
    }
    status_ui(ui, watch, &scope.connection.pricing(scope.table));
    match &watch.ended {
        Some(Ok(lines)) => lines_ui(ui, lines),
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
    let Some(log) = &watch.log else {
        return;
    };
    ui.separator();
    let mut chosen = None;
    // Columns lay out justified, which would spread a wrapped line's words across its width.
    let left = egui::Layout::top_down(egui::Align::LEFT);
    ui.columns(2, |columns| {
        columns[0].with_layout(left, |ui| {
            chosen = diverged_ui(ui, log);
            let parent = charted(log, &watch.filter);
            chart::chart_ui(ui, log, parent.as_deref());
        });
        columns[1].with_layout(left, |ui| {
            records::records_ui(ui, log, &mut watch.filter, &mut watch.selected);
        });
    });
    if let Some(parent) = chosen {
        watch.filter = parent;
        watch.selected = None;
    }
}

/// Start, or Pause / Resume and Stop while a watch runs.
fn controls_ui(ui: &mut Ui, watch: &mut WatchFeature, scope: &Scope<'_>, has_stream: bool) {
    ui.horizontal(|ui| match &watch.job {
        None => {
            let start = ui.add_enabled(has_stream, egui::Button::new("Start"));
            if start.clicked() {
                watch.start(scope, false);
            }
        }
        Some(job) => {
            let stopping = job.is_cancelled();
            if watch.paused {
                if ui.button("Resume").clicked() {
                    watch.resume();
                }
            } else if ui
                .button("Pause")
                .on_hover_text("Keeps reading; what arrives is held and shown on Resume")
                .clicked()
            {
                watch.paused = true;
            }
            if ui
                .add_enabled(!stopping, egui::Button::new("Stop"))
                .clicked()
            {
                watch.stop();
            }
            ui.spinner();
            ui.label(if stopping {
                "Stopping…"
            } else if watch.polling {
                "Polling"
            } else {
                "Watching"
            });
        }
    });
}

/// The start lines, the reader's last word, polls and what is held while paused.
fn status_ui(ui: &mut Ui, watch: &WatchFeature, pricing: &dynoscope_core::cost::Pricing) {
    let Some(log) = &watch.log else {
        return;
    };
    for line in &log.started {
        ui.label(RichText::new(line).monospace());
    }
    let mut said = Vec::new();
    said.push(format!("{} records", log.seen));
    if let Some(stream) = &log.stream {
        said.push(stream.clone());
    }
    if let Some((poll, rcu)) = log.polled {
        said.push(format!(
            "poll {poll}: {} (polling cannot name the write that drifted)",
            pricing.read(rcu)
        ));
    }
    if watch.paused {
        said.push(format!(
            "paused: still reading, {} reports held for the display",
            watch.held.len()
        ));
    }
    if watch.dropped > 0 {
        said.push(format!(
            "{} reports dropped from the display while paused (the summary counts them)",
            watch.dropped
        ));
    }
    ui.weak(said.join(" · "));
}

/// The parents whose tally diverged, worst first (open first), each with its lines; the one
/// clicked, to show.
fn diverged_ui(ui: &mut Ui, log: &WatchLog) -> Option<String> {
    const SHOWN: usize = 30;
    let diverged = log.diverged();
    if diverged.is_empty() {
        ui.label("No divergence so far.");
        return None;
    }
    ui.label(
        RichText::new(format!(
            "Diverged parents: {} open of {}",
            log.open_count(),
            diverged.len()
        ))
        .strong(),
    );
    // No scroll area of its own: the view scrolls, and at most SHOWN parents are listed.
    let mut chosen = None;
    for divergence in diverged.iter().take(SHOWN) {
        let open = divergence.closed_ms.is_none();
        let color = if open {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().warn_fg_color
        };
        let state = if open { "open" } else { "closed" };
        if ui
            .selectable_label(false, format!("{} ({state})", divergence.parent))
            .clicked()
        {
            chosen = Some(divergence.parent.clone());
        }
        for line in divergence.lines(&log.tally) {
            // Monospace: the proportional font has no arrow glyph.
            ui.label(RichText::new(line).monospace().color(color));
        }
    }
    if diverged.len() > SHOWN {
        ui.weak(format!("and {} more", diverged.len() - SHOWN));
    }
    chosen
}

/// The parent the chart shows: the one filtered on when charted, else the last record's.
fn charted(log: &WatchLog, filter: &str) -> Option<String> {
    let filter = filter.trim();
    if log.charts.contains_key(filter) {
        return Some(filter.to_owned());
    }
    log.records
        .iter()
        .find(|c| filter.is_empty() || c.parent.contains(filter))
        .map(|c| c.parent.clone())
}
