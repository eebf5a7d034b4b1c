//! A PartiQL tab: a statement with `?` parameters (typed, as DynamoDB JSON, one per line). A
//! `SELECT` pages with `NextToken` into the same grid (Load more, Load all, Cancel, consumed
//! capacity); `INSERT`/`UPDATE`/`DELETE` are write plans sent by the one write gateway — asked
//! about off this machine, never re-sent, their outcome in the core's words.

use egui::{RichText, Ui};

use crate::browse::results::Results;
use crate::intent::Intent;
use crate::scope::Scope;
use crate::widgets::{error_ui, lines_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::error::Error;
use dynoscope_core::partiql::{self, PartiqlPage, Statement, StatementReport};
use dynoscope_core::read::{Stopped, Until};
use dynoscope_core::report::Report;
use dynoscope_core::spec::{self, StatementSpec};
use dynoscope_core::task::{Job, Pending};
use dynoscope_core::write::{Destination, WritePlan, WriteRequest};

/// What the tab remembers between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PartiqlForm {
    /// The statement.
    pub statement: String,
    /// One DynamoDB JSON value per line, for the `?`s in order.
    pub params: String,
    /// `Limit` per request (empty: the server's page).
    pub page_size: String,
}

/// A PartiQL tab's state.
#[derive(Default)]
pub(super) struct PartiqlTab {
    /// The form.
    pub form: PartiqlForm,
    /// The rows the last statement returned (a SELECT's, or a write's RETURNING item).
    pub results: Results,
    /// The key attributes of the last statement's table, for its rows.
    keys: Vec<String>,
    read: Option<Job<PartiqlPage, Stopped>>,
    /// The statement being paged and where its next page starts.
    next: Option<(Statement, Option<i32>, String)>,
    write: WriteFlow<WritePlan, Pending<StatementReport>>,
    report: Option<StatementReport>,
    error: Option<Error>,
}

impl PartiqlTab {
    /// A tab with `form` and nothing run.
    pub(super) fn new(form: PartiqlForm) -> Self {
        Self {
            form,
            ..Self::default()
        }
    }

    /// Whether a write has been sent and not answered yet.
    pub(super) fn writing(&self) -> bool {
        self.write.is_sending()
    }

    /// Another connection: forget the rows, where the next page starts, a question waiting
    /// and the last outcome (a write under way still reports).
    pub(super) fn clear(&mut self) {
        self.cancel();
        self.read = None;
        self.next = None;
        self.write.drop_question();
        self.report = None;
        self.error = None;
        self.results = Results::default();
    }

    /// Whether a read or a write is under way.
    pub(super) fn busy(&self) -> bool {
        self.read.is_some() || self.write.is_sending()
    }

    /// Take in pages and the write's outcome.
    #[must_use]
    pub(super) fn poll(&mut self) -> Option<Intent> {
        let mut written = None;
        if let Some(job) = &mut self.read {
            let polled = job.poll();
            for page in polled.progress {
                let more = page.next_token.is_some();
                self.results
                    .load
                    .count_statement_page(page.consumed_rcu, more);
                self.results.add_items(&page.items);
                if let Some((_, _, token)) = &mut self.next {
                    *token = page.next_token.clone().unwrap_or_default();
                }
                if page.next_token.is_none() {
                    self.next = None;
                }
            }
            if let Some(done) = polled.done {
                self.read = None;
                self.results.ended(done, None);
            }
        }
        if let Some(report) = Pending::take_ready(self.write.sending()) {
            match report {
                Ok(report) => {
                    // A statement's rows replace the last one's: a write shows what it returned.
                    self.results = Results::for_rows(self.keys.clone(), self.results.run + 1);
                    if let Some(item) = report.item() {
                        self.results.load.count_statement_page(0.0, false);
                        self.results.add_items(std::slice::from_ref(item));
                    }
                    // Which items a statement wrote only the server knows; the table's facts
                    // are read again all the same.
                    if let WriteRequest::Statement(statement) = &report.plan.request
                        && let Ok(classified) = statement.classify()
                    {
                        written = Some(Intent::Written {
                            destination: Box::new(report.plan.destination.clone()),
                            table: classified.table,
                            keys: Vec::new(),
                        });
                    }
                    self.report = Some(report);
                }
                Err(error) => self.error = Some(error),
            }
        }
        written
    }

    /// Stop a read; keep what loaded.
    pub(super) fn cancel(&self) {
        if let Some(job) = &self.read {
            job.abort();
        }
    }

    /// The statement as the statement spec checks it, and (for a SELECT) the page size, in
    /// the words of every front end. A write ignores the page size it does not use.
    fn statement(&self) -> Result<(Statement, Option<i32>), Error> {
        let params = self
            .form
            .params
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::Value::String(l.to_owned()));
        let plan = StatementSpec {
            statement: self.form.statement.trim().to_owned(),
            params: params.collect(),
            ..StatementSpec::default()
        }
        .plan()?;
        let page = self.form.page_size.trim();
        let page_size = if plan.writes || page.is_empty() {
            None
        } else {
            Some(spec::page_size(page).map_err(|why| Error::Invalid(format!("page size {why}")))?)
        };
        Ok((plan.statement, page_size))
    }

    /// Run the statement: a SELECT reads its first page; a write is planned and sent (or
    /// asked about) through the gateway.
    pub(super) fn run(&mut self, scope: &Scope<'_>) {
        self.error = None;
        self.report = None;
        self.write.drop_question();
        let (statement, limit) = match self.statement() {
            Ok(parsed) => parsed,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let classified = match statement.check() {
            Ok(c) => c,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        self.keys = if classified.table == scope.table.name {
            scope.table.grid_key_names(classified.index.as_deref())
        } else {
            Vec::new()
        };
        if !classified.kind.writes() {
            self.cancel();
            self.results = Results::for_rows(self.keys.clone(), self.results.run + 1);
            self.read(scope, statement, limit, None, Until::OnePage);
            return;
        }
        let begun =
            partiql::plan_write(Destination::of(scope.connection), statement).and_then(|plan| {
                let confirmation = plan.confirmation();
                self.write.begin(plan, confirmation, |plan, confirmed| {
                    send(scope, plan, confirmed)
                })
            });
        self.error = begun.err();
    }

    fn read(
        &mut self,
        scope: &Scope<'_>,
        statement: Statement,
        limit: Option<i32>,
        start: Option<String>,
        until: Until,
    ) {
        let client = scope.connection.reader();
        // Until a page arrives, a stopped read goes on from where this one starts.
        self.next = Some((statement.clone(), limit, start.clone().unwrap_or_default()));
        self.results.load.resumed();
        self.read = Some(scope.spawner.spawn_job(
            "ExecuteStatement",
            move |pages, cancel| async move {
                partiql::read_statement(&client, &statement, start, limit, until, &cancel, |p| {
                    pages.send(p);
                })
                .await
            },
        ));
    }

    fn load_more(&mut self, scope: &Scope<'_>, until: Until) {
        if let Some((statement, limit, token)) = self.next.clone() {
            self.read(scope, statement, limit, Some(token), until);
        }
    }

    /// The statement, and its parameters for each `?` in order.
    fn statement_ui(&mut self, ui: &mut Ui) {
        let label = ui.label("Statement (Ctrl+Enter runs)");
        egui::ScrollArea::vertical()
            .id_salt("partiql_text")
            .max_height(120.0)
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut self.form.statement)
                        .code_editor()
                        .desired_rows(3)
                        .desired_width(f32::INFINITY)
                        .hint_text("SELECT * FROM \"Social\" WHERE PK = ?"),
                )
                .labelled_by(label.id);
            });
        ui.horizontal(|ui| {
            let label = ui.label("Parameters (DynamoDB JSON, one per line, for each ? in order)");
            ui.add(
                egui::TextEdit::multiline(&mut self.form.params)
                    .code_editor()
                    .desired_rows(1)
                    .desired_width(320.0)
                    .hint_text("{\"S\": \"POST#a91f\"}"),
            )
            .labelled_by(label.id);
        });
    }

    /// Draw the statement, its parameters, Run / Load more / Load all / Cancel, and the
    /// outcome of a write.
    pub(super) fn form_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rerun: bool, refresh: bool) {
        self.statement_ui(ui);
        let has_more = self.next.as_ref().is_some_and(|(_, _, t)| !t.is_empty());
        let busy = self.busy();
        ui.horizontal(|ui| {
            crate::widgets::labelled_text_ui(ui, "Page size", &mut self.form.page_size, 60.0, "");
            let reads = self
                .statement()
                .ok()
                .and_then(|(s, _)| s.classify().ok())
                .is_some_and(|c| !c.kind.writes());
            // A write on a read-only connection: the button says why it is off.
            let run = if reads {
                ui.add_enabled(!busy, egui::Button::new("Run statement"))
            } else {
                crate::widgets::write_button_ui(ui, scope.connection, !busy, "Run statement")
            }
            .clicked();
            if (run || rerun || (refresh && reads)) && !busy {
                self.run(scope);
            }
            if ui
                .add_enabled(has_more && !busy, egui::Button::new("Load more"))
                .clicked()
            {
                self.load_more(scope, Until::OnePage);
            }
            if ui
                .add_enabled(has_more && !busy, egui::Button::new("Load all"))
                .clicked()
            {
                self.load_more(scope, Until::LastPage);
            }
            if ui
                .add_enabled(self.read.is_some(), egui::Button::new("Cancel"))
                .clicked()
            {
                self.cancel();
            }
        });
        writes_to_ui(
            ui,
            &format!(
                "{} (INSERT, UPDATE, DELETE: sent once, asked first off this machine)",
                Destination::of(scope.connection).place()
            ),
            scope.connection,
        );
        self.write
            .question_ui(ui, |plan, confirmed| send(scope, plan, confirmed));
        if self.write.is_sending() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Writing…");
            });
        }
        if let Some(report) = &self.report {
            lines_ui(ui, &report.lines());
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        if let Some(error) = &self.results.load.error {
            error_ui(ui, error);
        }
        if self.results.load.pages > 0 && has_more {
            ui.label(RichText::new("More pages: Load more or Load all").weak());
        }
    }
}

/// Send a PartiQL write through the gateway (`confirmed`: the user said yes to its question).
fn send(scope: &Scope<'_>, plan: WritePlan, confirmed: bool) -> Pending<StatementReport> {
    let connection = scope.connection.clone();
    scope.spawner.spawn("ExecuteStatement", async move {
        let outcome = partiql::write(&connection, &plan, confirmed).await;
        let pricing = connection.pricing_undescribed();
        Ok(StatementReport {
            plan,
            outcome,
            pricing,
        })
    })
}
