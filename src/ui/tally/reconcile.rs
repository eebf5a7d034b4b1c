//! Reconcile many parents: choose where they come from, check them concurrently with progress
//! and Cancel, list them by severity with totals, and export the result.

use std::sync::Arc;
use std::time::Instant;

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::core::error::Error;
use crate::core::export;
use crate::core::number;
use crate::core::report::capacity;
use crate::core::tally::{self, Checked, ParentCheck, ParentSource, ReconcileEvent, TallyRule};
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

/// The state of a reconcile run and its results.
pub(super) struct Reconcile {
    source: SourceChoice,
    index: String,
    index_partition: String,
    concurrency: String,
    job: Option<Job<ReconcileEvent, bool>>,
    /// Whether a run was started (its results are shown).
    ran: bool,
    /// Parents to check, once found.
    total: Option<usize>,
    checked: Checked,
    failures: Vec<Error>,
    started: Option<Instant>,
    finished: Option<Instant>,
    cancelled: bool,
    /// Why the run could not start, or the form is wrong.
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
            job: None,
            ran: false,
            total: None,
            checked: Checked::default(),
            failures: Vec::new(),
            started: None,
            finished: None,
            cancelled: false,
            error: None,
            export: None,
            export_note: None,
        }
    }
}

impl Reconcile {
    fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Take in the checks and files that arrived.
    pub(super) fn poll(&mut self) {
        let polled = Job::poll_slot(&mut self.job);
        for event in polled.progress {
            match event {
                ReconcileEvent::Found(parents) => self.total = Some(parents),
                ReconcileEvent::Checked(checked) => match *checked {
                    Ok(check) => self.checked.add(check),
                    Err(error) => self.failures.push(error),
                },
            }
        }
        if let Some(done) = polled.done {
            self.finished = Some(Instant::now());
            match done {
                Ok(cancelled) => self.cancelled = cancelled,
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(saved) = Pending::take_ready(&mut self.export) {
            self.export_note = Some(Saved::note(saved, "parents"));
        }
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub(super) fn replace(&mut self, check: ParentCheck) {
        if self.ran {
            self.checked.replace(check);
        }
    }

    fn source(&self, scope: &Scope<'_>, loaded: Loaded<'_>) -> Result<ParentSource, Error> {
        Ok(match self.source {
            SourceChoice::Scan => ParentSource::Scan,
            SourceChoice::Loaded => ParentSource::Loaded(Arc::clone(loaded.items)),
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
        *self = Self {
            source: self.source,
            index: std::mem::take(&mut self.index),
            index_partition: std::mem::take(&mut self.index_partition),
            concurrency: std::mem::take(&mut self.concurrency),
            ran: true,
            started: Some(Instant::now()),
            ..Self::default()
        };
        let (client, info, rule) = (
            scope.connection.client.clone(),
            scope.table.clone(),
            rule.clone(),
        );
        self.job = Some(
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
    }

    fn export(&mut self, scope: &Scope<'_>, csv: bool) {
        let (contents, extension) = if csv {
            (self.checked.csv(), "csv")
        } else {
            (self.checked.json(), "json")
        };
        let records = self.checked.checks.len();
        let name = format!("{}-reconcile.{extension}", scope.table.name);
        self.export_note = None;
        self.export = Some(scope.saver.save(scope.spawner, name, move |path| {
            export::write_text_file(path, &contents, records)
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
        if !self.ran {
            return None;
        }
        self.progress_ui(ui);
        for failure in self.failures.iter().take(3) {
            error_ui(ui, failure);
        }
        let totals = self.checked.summary();
        if self.checked.totals.drifted > 0 {
            ui.colored_label(ui.visuals().warn_fg_color, totals);
        } else {
            ui.label(totals);
        }
        if !self.checked.checks.is_empty() && !self.running() {
            ui.horizontal(|ui| {
                if ui.button("Export CSV").clicked() {
                    self.export(scope, true);
                }
                if ui.button("Export JSON").clicked() {
                    self.export(scope, false);
                }
            });
        }
        match &self.export_note {
            Some(Ok(note)) => {
                ui.label(note);
            }
            Some(Err(error)) => error_ui(ui, error),
            None => {}
        }
        results_ui(ui, &self.checked.checks)
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
                && let Some(job) = &self.job
            {
                job.cancel();
            }
        });
    }

    fn progress_ui(&self, ui: &mut Ui) {
        let done = self.checked.checks.len() + self.failures.len();
        let secs = match (self.started, self.finished) {
            (Some(s), Some(f)) => f.duration_since(s).as_secs_f64(),
            (Some(s), None) => s.elapsed().as_secs_f64(),
            _ => 0.0,
        };
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        let text = match self.total {
            Some(total) => format!(
                "{done} of {total} parents · {rate:.1} parents/s · {} RCU",
                capacity(self.checked.totals.rcu)
            ),
            None => "Finding parents…".to_owned(),
        };
        if self.running() {
            let fraction = self.total.map_or(0.0, |t| done as f32 / t.max(1) as f32);
            ui.add(egui::ProgressBar::new(fraction).animate(true).text(text));
        } else {
            ui.label(text);
            if self.cancelled {
                ui.weak("Cancelled: the results so far are kept.");
            }
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
