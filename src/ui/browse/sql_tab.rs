//! An SQL tab: SQL over the rows loaded in the other tabs. Each tab with rows is an SQL table
//! named as the tab (key attributes and every top-level scalar as columns, the whole item as
//! JSON in `item`; numbers exact), loaded into an in-memory SQLite on a worker when Run is
//! pressed. The result opens in the same grid (sortable, findable, exportable); an error names
//! its line and column. The shipped reconciliation can be inserted.

use egui::Ui;

use crate::core::error::Error;
use crate::core::rows::Rows;
use crate::core::sql::{self, SqlRows, SqlSession};
use crate::task::Pending;
use crate::ui::Scope;
use crate::ui::browse::results::Results;
use crate::ui::widgets::error_ui;

/// What the tab remembers between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SqlForm {
    /// The SQL text.
    pub sql: String,
}

/// Another tab's rows, as an SQL table.
pub struct SqlSource {
    /// The tab's name: the table's name in SQL.
    pub name: String,
    /// Its key attributes (the first columns).
    pub key_names: Vec<String>,
    /// Its rows (a clone shares the store's chunks).
    pub rows: Rows,
}

/// What a run gave: a line per table loaded, and the rows.
struct SqlRun {
    loaded: Vec<String>,
    rows: SqlRows,
}

/// An SQL tab's state.
#[derive(Default)]
pub struct SqlTab {
    /// The form.
    pub form: SqlForm,
    /// The rows of the last statement that returned rows.
    pub results: Results,
    running: Option<Pending<SqlRun>>,
    loaded: Vec<String>,
    summary: Option<(String, Vec<String>)>,
    error: Option<Error>,
}

impl SqlTab {
    /// A tab with `form` and nothing run.
    pub fn new(form: SqlForm) -> Self {
        Self {
            form,
            ..Self::default()
        }
    }

    /// Whether a run is under way.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Take in a finished run.
    pub fn poll(&mut self) {
        let Some(done) = Pending::take_ready(&mut self.running) else {
            return;
        };
        match done {
            Ok(run) => {
                let mut results = Results::for_rows(Vec::new(), self.results.run + 1);
                results.set_columns(run.rows.columns.clone());
                results.add_items(&run.rows.rows);
                self.results = results;
                self.loaded = run.loaded;
                self.summary = Some((run.rows.summary(), run.rows.notes));
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// Run the SQL over `sources` on a worker.
    pub fn run(&mut self, scope: &Scope<'_>, sources: Vec<SqlSource>) {
        self.error = None;
        self.summary = None;
        let text = self.form.sql.clone();
        self.running = Some(scope.spawner.spawn_blocking("SQL", move || {
            let mut session = SqlSession::new()?;
            let mut loaded = Vec::new();
            for source in &sources {
                let table = session.load_rows(&source.name, &source.key_names, &source.rows)?;
                loaded.push(table.summary());
            }
            let rows = session.query(&text)?;
            Ok(SqlRun { loaded, rows })
        }));
    }

    /// Draw the SQL, the tables it can read (`tables`: name and rows of each other tab), Run
    /// and Insert example; `true` when the SQL should run.
    #[must_use]
    pub fn form_ui(&mut self, ui: &mut Ui, tables: &[(String, usize)], rerun: bool) -> bool {
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
                        self.form.sql = example.sql.to_owned();
                        ui.close();
                    }
                }
            });
            if self.busy() {
                ui.spinner();
                ui.label("Loading the tabs' rows into SQLite and running…");
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
