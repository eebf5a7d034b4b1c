//! The storm and the counter lab, each allowed outside the sandbox only once the table's name
//! is typed.

use egui::{RichText, Ui};

use crate::core::lab;
use crate::core::report::capacity;
use crate::core::write::Destination;
use crate::ui::Scope;
use crate::ui::likes::LikesFeature;
use crate::ui::widgets::{error_ui, labelled_text_ui, lines_ui, writes_to_ui};
use crate::ui::write_flow::typed_confirmation_ui;

/// Draw the storm: users, concurrency, progress, and the verdict.
pub(super) fn storm_ui(ui: &mut Ui, lab: &mut LikesFeature, scope: &Scope<'_>) {
    ui.heading("Storm");
    ui.weak(
        "Every user likes; every 5th sends the like twice (a client retry); every 7th then \
         unlikes.",
    );
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Users", &mut lab.users, 60.0, "1–10000");
        labelled_text_ui(ui, "Concurrency", &mut lab.concurrency, 40.0, "16");
        // The storm's own question once its form plans; the table's until then.
        let confirmation = lab.storm_plan(scope).map_or_else(
            |_| {
                Destination::of(scope.connection)
                    .confirmation(&format!("table {}", scope.table.name))
            },
            |plan| plan.confirmation(),
        );
        let (mut allowed, confirmed) =
            typed_confirmation_ui(ui, confirmation, &mut lab.typed_table, &scope.table.name);
        let running = lab.storm.is_some();
        allowed &= writes_to_ui(
            ui,
            &format!(
                "table {} · the parent's tally and children · {}",
                scope.table.name,
                scope.connection.label()
            ),
            scope.connection,
        );
        if ui
            .add_enabled(allowed && !running, egui::Button::new("Start storm"))
            .clicked()
        {
            lab.start_storm(scope, confirmed);
        }
        if ui
            .add_enabled(running, egui::Button::new("Cancel storm"))
            .clicked()
            && let Some(storm) = &lab.storm
        {
            storm.cancel();
        }
    });
    if let Some(stats) = &lab.storm_stats {
        if lab.storm.is_some() {
            let fraction = stats.done as f32 / stats.planned.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(fraction)
                    .animate(true)
                    .text(stats.progress()),
            );
        } else {
            ui.label(stats.progress());
        }
        lines_ui(ui, &stats.details());
    }
    match &lab.storm_result {
        Some(Ok(report)) => lines_ui(ui, &report.verdict()),
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
}

/// Draw the counter lab: writers, increments, and each method's result.
pub(super) fn lab_ui(ui: &mut Ui, lab: &mut LikesFeature, scope: &Scope<'_>) {
    ui.heading("Counter lab");
    ui.weak(
        "K writers increment a scratch item by three methods, in rounds: each round every writer \
         reads, then every writer writes. Scratch items are deleted afterwards.",
    );
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Writers", &mut lab.writers, 40.0, "1–64");
        labelled_text_ui(ui, "Increments each", &mut lab.increments, 50.0, "1–100");
        let confirmation = lab::confirmation(&Destination::of(scope.connection), scope.table);
        let (mut allowed, confirmed) =
            typed_confirmation_ui(ui, confirmation, &mut lab.typed_table, &scope.table.name);
        let running = lab.lab.is_some();
        allowed &= writes_to_ui(
            ui,
            &format!(
                "table {} · three SCRATCH#dynoscope-lab-… items · {}",
                scope.table.name,
                scope.connection.label()
            ),
            scope.connection,
        );
        if ui
            .add_enabled(allowed && !running, egui::Button::new("Run counter lab"))
            .clicked()
        {
            lab.run_lab(scope, confirmed);
        }
        if running {
            ui.spinner();
        }
    });
    let Some(run) = &lab.lab_run else {
        return;
    };
    if !run.results.is_empty() {
        egui::Grid::new("lab_results")
            .striped(true)
            .num_columns(8)
            .show(ui, |ui| {
                for title in [
                    "Method",
                    "Expected",
                    "Final",
                    "Lost updates",
                    "Failed conditions",
                    "RCU",
                    "WCU",
                    "ms",
                ] {
                    ui.strong(title);
                }
                ui.end_row();
                for r in &run.results {
                    ui.label(r.method.label());
                    ui.label(r.expected.to_string());
                    ui.label(r.final_value.clone().unwrap_or_else(|| "missing".into()));
                    let lost = RichText::new(r.lost.to_string());
                    ui.label(if r.lost > 0 {
                        lost.color(ui.visuals().error_fg_color)
                    } else {
                        lost
                    });
                    ui.label(r.conditional_failures.to_string());
                    ui.label(capacity(r.consumed_rcu));
                    ui.label(capacity(r.consumed_wcu));
                    ui.label(r.elapsed_ms.to_string());
                    ui.end_row();
                }
            });
    }
    for problem in run.problems() {
        ui.colored_label(ui.visuals().error_fg_color, problem);
    }
}
