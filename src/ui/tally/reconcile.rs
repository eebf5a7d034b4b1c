//! Reconcile many parents: choose where they come from, check them concurrently with progress
//! and Cancel, list them by severity with totals, and export the result.

use std::time::Instant;

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::core::error::Error;
use crate::core::number;
use crate::core::report::capacity;
use crate::core::tally::{self, Checked, ParentCheck, ParentSource, ReconcileEvent, TallyRule};
use crate::core::transfer;
use crate::task::{Job, Pending};
use crate::ui::save::Saved;
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::ui::{Loaded, Scope};

/// Where the parents come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SourceChoice {
    /// A Scan with the parent filter.
    Scan,
    /// The rows loaded in the grid.
    Loaded,
    /// A Query on an index.
    IndexQuery,
}

/// One reconcile run: its job while it goes, and its results.
struct Run {
    job: Option<Job<ReconcileEvent, bool>>,
    /// Parents to check, once found.
    total: Option<usize>,
    checked: Checked,
    failures: Vec<Error>,
    started: Instant,
    finished: Option<Instant>,
    cancelled: bool,
}

/// The reconcile form, and the last run.
pub(super) struct Reconcile {
    source: SourceChoice,
    index: String,
    index_partition: String,
    concurrency: String,
    run: Option<Run>,
    /// Why the run could not start, or failed.
    error: Option<Error>,
    export: Option<Pending<Option<Saved>>>,
    export_note: Option<Result<String, Error>>,
}

impl Default for Reconcile {
    fn default() -> Self {
        Self {
            source: SourceChoice::Scan,
            index: String::new(),
            index_partition: String::new(),
            concurrency: "8".to_owned(),
            run: None,
            error: None,
            export: None,
            export_note: None,
        }
    }
}

impl Reconcile {
    fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|run| run.job.is_some())
    }

    /// Take in the checks and files that arrived.
    pub(super) fn poll(&mut self) {
        if let Some(run) = &mut self.run {
            let polled = Job::poll_slot(&mut run.job);
            for event in polled.progress {
                match event {
                    ReconcileEvent::Found(parents) => run.total = Some(parents),
                    ReconcileEvent::Checked(checked) => match *checked {
                        Ok(check) => run.checked.add(check),
                        Err(error) => run.failures.push(error),
                    },
                }
            }
            if let Some(done) = polled.done {
                run.finished = Some(Instant::now());
                match done {
                    Ok(cancelled) => run.cancelled = cancelled,
                    Err(error) => self.error = Some(error),
                }
            }
        }
        if let Some(saved) = Pending::take_ready(&mut self.export) {
            self.export_note = Some(Saved::note(saved, "parents"));
        }
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub(super) fn replace(&mut self, check: ParentCheck) {
        if let Some(run) = &mut self.run {
            run.checked.replace(check);
        }
    }

    fn source(&self, scope: &Scope<'_>, loaded: Loaded<'_>) -> Result<ParentSource, Error> {
        Ok(match self.source {
            SourceChoice::Scan => ParentSource::Scan,
            SourceChoice::Loaded => ParentSource::Loaded(loaded.rows.clone()),
            SourceChoice::IndexQuery => {
                let (key, _) = scope.table.keys_of(Some(&self.index)).ok_or_else(|| {
                    Error::Invalid("choose the index to query for parents".into())
                })?;
                ParentSource::IndexQuery {
                    index: self.index.clone(),
                    partition: key.kind.parse(self.index_partition.trim())?,
                }
            }
        })
    }

    fn start(&mut self, scope: &Scope<'_>, rule: &TallyRule, loaded: Loaded<'_>) {
        let concurrency = match number::whole_in(&self.concurrency, 1, 256, "concurrency") {
            Ok(n) => n,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let source = match self.source(scope, loaded) {
            Ok(source) => source,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        self.error = None;
        self.export_note = None;
        let (client, info, rule) = (
            scope.connection.client.clone(),
            scope.table.clone(),
            rule.clone(),
        );
        let job = Some(
            scope
                .spawner
                .spawn_job("Reconcile", move |events, cancel| async move {
                    tally::reconcile(
                        &client,
                        &info,
                        &rule,
                        &source,
                        concurrency,
                        &cancel,
                        |event| events.send(event),
                    )
                    .await
                }),
        );
        self.run = Some(Run {
            job,
            total: None,
            checked: Checked::default(),
            failures: Vec::new(),
            started: Instant::now(),
            finished: None,
            cancelled: false,
        });
    }

    fn export(&mut self, scope: &Scope<'_>, checked: &Checked, csv: bool) {
        let (contents, extension) = if csv {
            (checked.csv(), "csv")
        } else {
            (checked.json(), "json")
        };
        let records = checked.checks.len();
        let name = format!("{}-reconcile.{extension}", scope.table.name);
        self.export_note = None;
        self.export = Some(scope.saver.save(scope.spawner, name, move |path| {
            transfer::write_text_file(path, &contents, records)
        }));
    }

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
        progress_ui(ui, run);
        for failure in run.failures.iter().take(3) {
            error_ui(ui, failure);
        }
        let totals = run.checked.summary();
        if run.checked.totals.drifted > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, totals);
        } else {
            ui.label(totals);
        }
        let mut export = None;
        if !run.checked.checks.is_empty() && run.job.is_none() {
            ui.horizontal(|ui| {
                if ui.button("Export CSV").clicked() {
                    export = Some(true);
                }
                if ui.button("Export JSON").clicked() {
                    export = Some(false);
                }
            });
        }
        let open = results_ui(ui, &run.checked.checks);
        if let Some(csv) = export {
            let checked = run.checked.clone();
            self.export(scope, &checked, csv);
        }
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
            ui.radio_value(&mut self.source, SourceChoice::Scan, "Scan for parents");
            ui.radio_value(
                &mut self.source,
                SourceChoice::Loaded,
                "Rows loaded in the grid",
            );
            ui.radio_value(&mut self.source, SourceChoice::IndexQuery, "Query an index");
            if self.source == SourceChoice::IndexQuery {
                egui::ComboBox::from_label("Parent index")
                    .selected_text(self.index.clone())
                    .show_ui(ui, |ui| {
                        for index in &scope.table.indexes {
                            ui.selectable_value(&mut self.index, index.name.clone(), &index.name);
                        }
                    });
                labelled_text_ui(
                    ui,
                    "Index key",
                    &mut self.index_partition,
                    110.0,
                    "partition value",
                );
            }
        });
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
}

fn progress_ui(ui: &mut Ui, run: &Run) {
    let done = run.checked.checks.len() + run.failures.len();
    let secs = run
        .finished
        .unwrap_or_else(Instant::now)
        .duration_since(run.started)
        .as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let text = match run.total {
        Some(total) => format!(
            "{done} of {total} parents · {rate:.1} parents/s · {} RCU",
            capacity(run.checked.totals.rcu)
        ),
        None => "Finding parents…".to_owned(),
    };
    if run.job.is_some() {
        let fraction = run.total.map_or(0.0, |t| done as f32 / t.max(1) as f32);
        ui.add(egui::ProgressBar::new(fraction).animate(true).text(text));
    } else {
        ui.label(text);
        if run.cancelled {
            ui.weak("Cancelled: the results so far are kept.");
        }
    }
}

fn results_ui(ui: &mut Ui, checks: &[ParentCheck]) -> Option<String> {
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
                        ui.weak(format!(
                            "{} p · {} RCU",
                            check.count.pages,
                            capacity(check.count.consumed_rcu)
                        ));
                    });
                    if row.response().clicked() {
                        open = Some(check.partition.clone());
                    }
                });
            });
    });
    open
}
