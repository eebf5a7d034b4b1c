//! The reconcile panel: where the parents come from, the plan and its estimate, progress, the
//! results by severity, and their export.

use std::time::Instant;

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::scope::{Loaded, Scope};
use crate::tally::reconcile::{Reconcile, Run, SourceChoice};
use crate::tally::routes::routes_ui;
use crate::widgets::{self, error_ui, labelled_text_ui};
use dynoscope_core::cost::Pricing;
use dynoscope_core::report::capacity;
use dynoscope_core::spec::PlanChoice;
use dynoscope_core::tally::{self, ParentCheck, TallyRule};

impl Reconcile {
    /// Draw the panel; returns a parent the user chose to check on its own.
    pub(super) fn reconcile_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        rule: &TallyRule,
        loaded: Loaded<'_>,
    ) -> Option<String> {
        self.form_ui(ui, scope, rule, loaded);
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        let run = self.run.as_ref()?;
        let pricing = scope.connection.pricing(scope.table);
        progress_ui(ui, run, &pricing);
        for failure in run.all.failures.iter().take(10) {
            error_ui(ui, failure);
        }
        if run.all.failures.len() > 10 {
            ui.weak(format!(
                "… and {} more not checked",
                run.all.failures.len() - 10
            ));
        }
        let totals = format!(
            "{} · {} in all",
            run.all.summary(),
            pricing.read(run.all.checked.totals.rcu)
        );
        if run.all.checked.totals.drifted > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, totals);
        } else {
            ui.label(totals);
        }
        let mut export = None;
        if !run.all.checked.checks.is_empty() && run.job.is_none() {
            ui.horizontal_wrapped(|ui| {
                labelled_text_ui(
                    ui,
                    "Save to",
                    &mut self.export_to,
                    220.0,
                    "a file or folder (empty: ask with a dialog)",
                );
                if ui.button("Export CSV").clicked() {
                    export = Some(true);
                }
                if ui.button("Export JSON").clicked() {
                    export = Some(false);
                }
            });
        }
        let why_not = (self.source == SourceChoice::Export).then_some(
            "An export's counts are as old as the export: reconcile the table to repair.",
        );
        let finished = run.job.is_none();
        let (checks, drifted) = (&run.all.checked.checks, run.all.checked.totals.drifted);
        if finished {
            self.repair_all
                .repair_all_ui(ui, scope, rule, checks, drifted, why_not);
        }
        let open = results_ui(ui, checks, &pricing);
        if let Some(csv) = export {
            let checked = run.all.checked.clone();
            self.export(scope, &checked, csv);
        }
        self.export_question_ui(ui);
        match &self.export_note {
            Some(Ok(note)) => {
                ui.label(note);
            }
            Some(Err(error)) => error_ui(ui, error),
            None => {}
        }
        open
    }

    fn form_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rule: &TallyRule, loaded: Loaded<'_>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Parents from");
            ui.radio_value(&mut self.source, SourceChoice::Table, "The whole table");
            ui.radio_value(
                &mut self.source,
                SourceChoice::Loaded,
                "Rows loaded in the grid",
            );
            ui.radio_value(&mut self.source, SourceChoice::IndexQuery, "Query an index");
            ui.radio_value(&mut self.source, SourceChoice::Export, "An export's files");
        });
        match self.source {
            SourceChoice::IndexQuery => {
                ui.horizontal(|ui| {
                    let label = ui.label("Parent index");
                    egui::ComboBox::from_id_salt("parent index")
                        .selected_text(self.index.clone())
                        .show_ui(ui, |ui| {
                            for index in &scope.table.indexes {
                                ui.selectable_value(
                                    &mut self.index,
                                    index.name.clone(),
                                    &index.name,
                                );
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    labelled_text_ui(
                        ui,
                        "Index key",
                        &mut self.index_partition,
                        110.0,
                        "partition value",
                    );
                });
            }
            SourceChoice::Export => self.export_form_ui(ui, scope, rule),
            SourceChoice::Table | SourceChoice::Loaded => {}
        }
        if let Some(estimate) = self.estimate(scope, loaded) {
            ui.horizontal_wrapped(|ui| {
                ui.label("Read by");
                ui.radio_value(&mut self.plan, PlanChoice::Auto, "The cheaper plan");
                ui.radio_value(
                    &mut self.plan,
                    PlanChoice::OnePass,
                    "One pass (a parallel scan)",
                );
                ui.radio_value(
                    &mut self.plan,
                    PlanChoice::PerParent,
                    "A COUNT query per parent",
                );
            });
            for line in estimate.lines(&scope.table.name, &scope.connection.pricing(scope.table)) {
                ui.weak(line);
            }
        }
        if self.source == SourceChoice::Table {
            routes_ui(ui, scope);
            self.program_ui(ui, scope, rule);
        }
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Concurrency", &mut self.concurrency, 40.0, "8");
            let running = self.running();
            if ui
                .add_enabled(!running, egui::Button::new("Reconcile"))
                .clicked()
            {
                self.start(scope, rule, loaded);
            }
            if ui
                .add_enabled(running, egui::Button::new("Cancel reconcile"))
                .clicked()
                && let Some(job) = self.run.as_ref().and_then(|run| run.job.as_ref())
            {
                job.cancel();
            }
        });
    }

    /// The reconcile of the whole table as a whole program, copied.
    fn program_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rule: &TallyRule) {
        ui.horizontal_wrapped(|ui| {
            for (target, label) in widgets::PROGRAM_COPIES {
                if ui.button(label).clicked() {
                    let setup = scope.connection.client_setup();
                    match tally::program(scope.table, rule, None, target, &setup) {
                        Ok(program) => {
                            self.program_note = Some(format!(
                                "Copied: the reconcile as a program; {}",
                                program.how_to_run()
                            ));
                            ui.ctx().copy_text(program.code);
                            self.error = None;
                        }
                        Err(error) => self.error = Some(error),
                    }
                }
            }
        });
        if let Some(note) = &self.program_note {
            ui.weak(note);
        }
    }

    fn export_form_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rule: &TallyRule) {
        ui.horizontal(|ui| {
            labelled_text_ui(
                ui,
                "Export path",
                &mut self.export_path,
                320.0,
                "a folder of .json.gz files (the export's data/), one file, or s3://bucket/prefix",
            );
        });
        ui.weak(
            "Read line by line, here or streamed from S3: no request to the table, no read \
             capacity used.",
        );
        ui.horizontal(|ui| {
            labelled_text_ui(
                ui,
                "S3 location",
                &mut self.s3_location,
                320.0,
                "s3://bucket/AWSDynamoDB/…/data/",
            );
            if ui.button("Copy as Athena SQL").clicked() {
                match self.athena_sql(scope, rule) {
                    Ok(sql) => {
                        ui.ctx().copy_text(sql);
                        self.note = Some(
                            "Copied: CREATE EXTERNAL TABLE over the export, then the GROUP BY query."
                                .into(),
                        );
                        self.error = None;
                    }
                    Err(error) => self.error = Some(error),
                }
            }
        });
        if let Some(note) = &self.note {
            ui.weak(note);
        }
    }
}

fn progress_ui(ui: &mut Ui, run: &Run, pricing: &Pricing) {
    let done = run.all.checked.checks.len() + run.all.failures.len();
    let secs = run
        .finished
        .unwrap_or_else(Instant::now)
        .duration_since(run.started)
        .as_secs_f64();
    let per_sec = |n: f64| if secs > 0.0 { n / secs } else { 0.0 };
    let rcu = pricing.read(run.all.checked.totals.rcu);
    let (text, fraction) = match run.total {
        Some(total) => (
            format!(
                "{done} of {total} parents · {:.1} parents/s · {rcu}",
                per_sec(done as f64)
            ),
            done as f32 / total.max(1) as f32,
        ),
        None if run.read.items > 0 => (
            format!(
                "Read {} items{} · {:.0} items/s · {rcu}",
                run.read.items,
                run.table_items
                    .map(|n| format!(" of about {n}"))
                    .unwrap_or_default(),
                per_sec(run.read.items as f64)
            ),
            run.table_items
                .map_or(0.0, |n| run.read.items as f32 / n.max(1) as f32),
        ),
        None => ("Finding parents…".to_owned(), 0.0),
    };
    ui.weak(format!("Plan: {}.", run.plan));
    run.notes.iter().for_each(|note| {
        ui.weak(note);
    });
    if run.job.is_some() {
        ui.add(
            egui::ProgressBar::new(fraction.min(1.0))
                .animate(true)
                .text(text),
        );
    } else {
        ui.label(text);
        if let Some(at) = run.finished {
            // The results are as old as the run: writes since are not in them.
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "Results read {}: writes since are not in them (Reconcile reads them afresh).",
                    dynoscope_core::report::age_text(at.elapsed())
                ),
            );
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        }
        if run.all.cancelled {
            ui.weak("Cancelled: the results so far are kept (a one pass has none until it ends).");
        }
    }
}

fn results_ui(ui: &mut Ui, checks: &[ParentCheck], pricing: &Pricing) -> Option<String> {
    let mut open = None;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let warn = ui.visuals().warn_fg_color;
    ui.push_id("reconcile_results", |ui| {
        ui.style_mut().interaction.selectable_labels = false;
        TableBuilder::new(ui)
            .striped(true)
            .sense(egui::Sense::click())
            .max_scroll_height(320.0)
            .column(Column::initial(170.0).resizable(true))
            .columns(Column::initial(100.0).resizable(true), 3)
            .column(Column::remainder())
            .header(row_height, |mut header| {
                for title in ["Parent", "Stored", "Counted", "Drift", "Cost"] {
                    header.col(|ui| {
                        ui.strong(title);
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, checks.len(), |mut row| {
                    let Some(check) = checks.get(row.index()) else {
                        return;
                    };
                    // No colour: the theme's text colour.
                    let color = if check.drifted() {
                        warn
                    } else {
                        Color32::PLACEHOLDER
                    };
                    row.col(|ui| {
                        ui.label(RichText::new(&check.partition).color(color));
                    });
                    row.col(|ui| {
                        ui.label(check.stored_text());
                    });
                    row.col(|ui| {
                        ui.label(check.count.count.to_string());
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(check.drift_text()).color(color));
                    });
                    row.col(|ui| {
                        // A one pass reads every child in one scan, not per parent.
                        if check.count.pages == 0 {
                            ui.weak("in the one pass");
                        } else {
                            ui.weak(format!(
                                "{} p · {} RCU",
                                check.count.pages,
                                capacity(check.count.consumed_rcu)
                            ))
                            .on_hover_text(pricing.read(check.count.consumed_rcu).text());
                        }
                    });
                    if row.response().clicked() {
                        open = Some(check.partition.clone());
                    }
                });
            });
    });
    open
}
