//! An SQL tab: SQL over the rows loaded in the other tabs. Each tab with rows is an SQL table
//! named as the tab (key attributes and every top-level scalar as columns, the whole item as
//! JSON in `item`; numbers exact), loaded into an in-memory SQLite on a worker when Run is
//! pressed. The result opens in the same grid (sortable, findable, exportable); an error names
//! its line and column. The shipped reconciliation can be inserted.

use egui::Ui;

use crate::browse::results::Results;
use crate::scope::Scope;
use crate::widgets::error_ui;
use dynoscope_core::error::Error;
use dynoscope_core::sql::{self, SqlRun, SqlSource, SqlStep};
use dynoscope_core::task::Job;

/// What the tab remembers between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SqlForm {
    /// The SQL text.
    pub sql: String,
}

/// An SQL tab's state.
#[derive(Default)]
pub(super) struct SqlTab {
    /// The form.
    pub form: SqlForm,
    /// The rows of the last statement that returned rows.
    pub results: Results,
    running: Option<Job<SqlStep, SqlRun>>,
    /// Where the run under way is.
    step: Option<SqlStep>,
    loaded: Vec<String>,
    summary: Option<(String, Vec<String>)>,
    error: Option<Error>,
}

impl SqlTab {
    /// A tab with `form` and nothing run.
    pub(super) fn new(form: SqlForm) -> Self {
        Self {
            form,
            ..Self::default()
        }
    }

    /// Whether a run is under way.
    pub(super) fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Take in a finished run.
    pub(super) fn poll(&mut self) {
        let polled = Job::poll_slot(&mut self.running);
        if let Some(step) = polled.progress.into_iter().last() {
            self.step = Some(step);
        }
        let Some(done) = polled.done else {
            return;
        };
        self.step = None;
        match done {
            Ok(run) => {
                let mut results = Results::for_rows(Vec::new(), self.results.run + 1);
                results.set_columns(run.rows.columns.clone());
                results.add_items(&run.rows.rows);
                self.results = results;
                self.loaded = run
                    .loaded
                    .iter()
                    .map(dynoscope_core::sql::Loaded::summary)
                    .collect();
                self.summary = Some((run.rows.summary(), run.rows.notes));
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// Run the SQL over `sources` on a worker.
    pub(super) fn run(&mut self, scope: &Scope<'_>, sources: Vec<SqlSource>) {
        self.error = None;
        self.summary = None;
        let text = self.form.sql.clone();
        self.step = None;
        self.running = Some(
            scope
                .spawner
                .spawn_blocking_job("SQL", move |progress, cancel| {
                    sql::run_over(&sources, &text, &cancel, |s| progress.send(s))
                }),
        );
    }

    /// Draw the SQL, the tables it can read (`tables`: name and rows of each other tab), Run
    /// and Insert example; `true` when the SQL should run.
    #[must_use]
    pub(super) fn form_ui(&mut self, ui: &mut Ui, tables: &[(String, usize)], rerun: bool) -> bool {
        ui.horizontal_wrapped(|ui| {
            ui.label("Tables:");
            if tables.is_empty() {
                ui.weak("none yet — load rows in a table tab first; each tab is a table named as the tab");
            }
            for (name, rows) in tables {
                ui.monospace(format!("{name} ({rows} rows)"));
            }
        });
        let label = ui.label("SQL (Ctrl+Enter runs)");
        // A long query scrolls inside its box; the result keeps the room below.
        egui::ScrollArea::vertical()
            .id_salt("sql_text")
            .max_height(180.0)
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut self.form.sql)
                        .code_editor()
                        .desired_rows(6)
                        .desired_width(f32::INFINITY)
                        .hint_text("SELECT PK, count(*) FROM Social GROUP BY PK"),
                )
                .labelled_by(label.id);
            });
        let mut run = rerun && !self.busy();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.busy(), egui::Button::new("Run SQL"))
                .clicked()
            {
                run = true;
            }
            ui.menu_button("Insert example", |ui| {
                for example in sql::examples() {
                    if ui.button(example.title).clicked() {
                        example.sql.clone_into(&mut self.form.sql);
                        ui.close();
                    }
                }
            });
            if let Some(job) = &self.running {
                ui.spinner();
                let step = self
                    .step
                    .as_ref()
                    .map_or_else(|| "Starting…".to_owned(), ToString::to_string);
                ui.label(if job.is_cancelled() {
                    "Cancelling…".to_owned()
                } else {
                    step
                });
                if ui
                    .add_enabled(!job.is_cancelled(), egui::Button::new("Cancel"))
                    .clicked()
                {
                    job.cancel();
                }
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        if let Some((summary, notes)) = &self.summary {
            ui.label(summary);
            for note in notes.iter().chain(&self.loaded) {
                ui.weak(note);
            }
        }
        run
    }
}
