//! The eframe shell: owns the panels' state and the worker, drains events at the start of each
//! frame, draws the panels, and turns what they return into worker commands.

use egui::Ui;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::connection::ConnectionSpec;
use crate::core::counter::Outcome;
use crate::core::error::Error;
use crate::core::tally::Rule;
use crate::ui::connection_bar::{ConnectionBar, connection_bar_ui};
use crate::ui::counter_editor::{CounterEditor, counter_editor_ui};
use crate::ui::describe_panel::{Described, describe_ui};
use crate::ui::item_view::{ItemFormat, item_view_ui};
use crate::ui::query_form::{FormAction, QueryForm, ResultsState, query_form_ui};
use crate::ui::results_grid::{Results, results_grid_ui};
use crate::ui::status_bar::{StatusAction, status_bar_ui};
use crate::ui::tables_panel::{TablesAction, TablesPanel, tables_ui};
use crate::ui::tally_panel::{TallyPanel, repair_result_text};
use crate::ui::widgets::error_ui;

mod edit;
mod export;
mod expr;
mod likes;
mod tally;
use crate::worker::{CancelToken, Command, Event, Worker};

/// What is remembered between runs: the last connection and table, and counter rules per
/// connection and table. Never secrets.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Remembered {
    /// The last connection used.
    pub connection: Option<ConnectionSpec>,
    /// The last table opened.
    pub table: Option<String>,
    /// Counter rules, keyed by connection and table.
    #[serde(default)]
    pub rules: std::collections::BTreeMap<String, Vec<Rule>>,
}

/// The central view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Browse,
    Tally,
    Likes,
    Expr,
}

/// The dynoscope desktop app.
pub struct DynoscopeApp {
    worker: Worker,
    bar: ConnectionBar,
    tables: TablesPanel,
    selected_table: Option<String>,
    described: Described,
    form: QueryForm,
    results: Results,
    item_format: ItemFormat,
    editor: CounterEditor,
    next_job: u64,
    remembered: Remembered,
    seeded_note: Option<String>,
    /// The export under way, and what the last one did.
    export_job: Option<u64>,
    export_note: Option<Result<String, Error>>,
    view: View,
    tally: TallyPanel,
    likes: crate::ui::likes_panel::LikesPanel,
    expr: crate::ui::expr_panel::ExprPanel,
    tally_export_job: Option<u64>,
    /// Rules suggested by the loaded rows, for (run, rows) — computed once per change.
    suggestions: (u64, usize, Vec<Rule>),
}

impl DynoscopeApp {
    /// Start the app on `spec`; `remembered_table` is opened when the connection has it.
    pub fn new(worker: Worker, spec: ConnectionSpec, remembered_table: Option<String>) -> Self {
        let mut app = Self {
            worker,
            bar: ConnectionBar::new(&spec, Vec::new()),
            tables: TablesPanel::default(),
            selected_table: None,
            described: Described::default(),
            form: QueryForm::default(),
            results: Results::default(),
            item_format: ItemFormat::default(),
            editor: CounterEditor::default(),
            next_job: 0,
            remembered: Remembered {
                connection: Some(spec.clone()),
                table: remembered_table,
                rules: std::collections::BTreeMap::new(),
            },
            seeded_note: None,
            export_job: None,
            export_note: None,
            view: View::Browse,
            tally: TallyPanel::default(),
            likes: crate::ui::likes_panel::LikesPanel::default(),
            expr: crate::ui::expr_panel::ExprPanel::new(""),
            tally_export_job: None,
            suggestions: (0, 0, Vec::new()),
        };
        // Reading the AWS config files is I/O: the worker does it.
        app.worker.send(Command::ListProfiles);
        app.connect(spec);
        app
    }

    /// What to remember when the app closes.
    pub fn remembered(&self) -> &Remembered {
        &self.remembered
    }

    /// Start with saved counter rules (from the last run).
    #[must_use]
    pub fn with_saved_rules(
        mut self,
        rules: std::collections::BTreeMap<String, Vec<Rule>>,
    ) -> Self {
        self.remembered.rules = rules;
        self
    }

    /// Where the rules of the open table are kept: per connection and table.
    fn rules_key(&self) -> Option<String> {
        let connection = self.bar.active.as_ref()?.spec.label();
        Some(format!("{connection} | {}", self.selected_table.as_ref()?))
    }

    fn connect(&mut self, spec: ConnectionSpec) {
        self.bar.connecting = true;
        self.bar.error = None;
        self.tables.loading = true;
        self.worker.send(Command::Connect(spec));
    }

    fn handle_events(&mut self) {
        for event in self.worker.poll() {
            self.handle_event(event);
        }
    }

    fn handle_event(&mut self, event: Event) {
        let current = self.worker.generation();
        match event {
            Event::Connected { generation, result } if generation == current => {
                self.bar.connecting = false;
                match result {
                    Ok(info) => {
                        self.seeded_note = info.seeded.map(|(items, ms)| {
                            format!("Sandbox seeded with {items} items in {ms} ms")
                        });
                        self.remembered.connection = Some(info.spec.clone());
                        self.bar.active = Some(info);
                        self.tables = TablesPanel {
                            loading: true,
                            filter: std::mem::take(&mut self.tables.filter),
                            ..TablesPanel::default()
                        };
                        self.selected_table = None;
                        self.described = Described::default();
                        self.results = Results::default();
                    }
                    Err(error) => {
                        self.tables.loading = false;
                        self.bar.error = Some(error);
                    }
                }
            }
            Event::Profiles(profiles) => self.bar.profiles = profiles,
            Event::Tables { generation, result } if generation == current => {
                self.tables.loading = false;
                match result {
                    Ok(names) => {
                        self.tables.names = names;
                        self.tables.error = None;
                        let wanted = self.remembered.table.clone();
                        if self.selected_table.is_none()
                            && let Some(table) = wanted.filter(|t| self.tables.names.contains(t))
                        {
                            self.open_table(table);
                        }
                    }
                    Err(error) => self.tables.error = Some(error),
                }
            }
            Event::Described {
                generation,
                table,
                result,
            } if generation == current && table == self.described.table => {
                self.described.loading = false;
                match result {
                    Ok(info) => {
                        self.described.info = Some(info);
                        self.described.error = None;
                    }
                    Err(error) => self.described.error = Some(error),
                }
            }
            Event::Page { job, page } if job == self.results.job => self.results.add_page(page),
            Event::Ran { job, result } if self.expr.job == Some(job) => {
                self.expr.job = None;
                if let Ok(run) = &result
                    && matches!(
                        self.expr.input.kind,
                        crate::core::expr::builder::Kind::Update
                    )
                    && let Some(item) = run.items.first().cloned()
                {
                    self.refresh_row(&item);
                }
                self.expr.result = Some(result);
            }
            Event::Liked { job, report } if self.likes.job == Some(job) => {
                self.likes.job = None;
                self.likes.report = Some(*report);
            }
            Event::StormProgress { job, stats } if self.likes.storm_job == Some(job) => {
                self.likes.storm_stats = Some(stats);
            }
            Event::StormDone { job, result } if self.likes.storm_job == Some(job) => {
                self.likes.storm_job = None;
                self.likes.storm_cancel = None;
                if let Ok((stats, _, _)) = &result {
                    self.likes.storm_stats = Some(stats.clone());
                }
                self.likes.storm_result = Some(result);
            }
            Event::LabDone { job, result } if self.likes.lab_job == Some(job) => {
                self.likes.lab_job = None;
                self.likes.lab_result = Some(result);
            }
            Event::Exported { job, result } if self.tally_export_job == Some(job) => {
                self.tally_export_job = None;
                self.tally.export_note = Some(result.map(|done| match done {
                    Some((path, count)) => {
                        format!("Exported {count} parents to {}", path.display())
                    }
                    None => "No file chosen; nothing exported.".to_owned(),
                }));
            }
            Event::ParentChecked { job, result } if self.tally.check_job == Some(job) => {
                self.tally.check_job = None;
                match result {
                    Ok(found) => {
                        self.tally.check = Some(found);
                        self.tally.error = None;
                        self.tally.repair = None;
                    }
                    Err(error) => self.tally.error = Some(error),
                }
            }
            Event::ShardsSummed { job, result } if self.tally.shards_job == Some(job) => {
                self.tally.shards_job = None;
                match result {
                    Ok(total) => {
                        self.tally.shards = Some(total);
                        self.tally.error = None;
                    }
                    Err(error) => self.tally.error = Some(error),
                }
            }
            Event::ReconcileStarted { job, parents } if self.tally.reconcile.job == Some(job) => {
                self.tally.reconcile.total = Some(parents);
            }
            Event::ReconcileChecked { job, result } if self.tally.reconcile.job == Some(job) => {
                match result {
                    Ok(check) => self.tally.reconcile.add(check),
                    Err(error) => self.tally.reconcile.failures.push(error),
                }
            }
            Event::ReconcileDone {
                job,
                cancelled,
                error,
            } if self.tally.reconcile.job == Some(job) => {
                let reconcile = &mut self.tally.reconcile;
                reconcile.cancel = None;
                reconcile.finished = Some(std::time::Instant::now());
                reconcile.cancelled = cancelled;
                reconcile.error = error;
            }
            Event::Repaired {
                job,
                outcome,
                recheck,
            } if self.tally.repair.as_ref().and_then(|r| r.job) == Some(job) => {
                let rechecked = recheck.as_ref().ok().map(|(c, _)| c);
                let text = repair_result_text(&outcome, rechecked);
                if let Some(repair) = &mut self.tally.repair {
                    repair.job = None;
                    repair.result = Some(text);
                }
                if let Ok((check, parent)) = recheck {
                    let reconcile = &mut self.tally.reconcile;
                    if reconcile.job.is_some() {
                        reconcile.replace(check.clone());
                    }
                    self.tally.check = Some((check, parent));
                }
            }
            Event::Exported { job, result } if self.export_job == Some(job) => {
                self.export_job = None;
                self.export_note =
                    Some(result.map(|done| {
                        match done {
                    Some((path, count)) => format!("Exported {count} items to {}", path.display()),
                    None => "No file chosen; nothing exported. (If no dialog appeared: the save \
                             dialog needs xdg-desktop-portal or zenity.)"
                        .to_owned(),
                }
                    }));
            }
            Event::Edited { job, report } if self.editor.pending == Some(job) => {
                self.editor.pending = None;
                let server_value = match &report.outcome {
                    Outcome::Applied { new_value, .. } => new_value.clone(),
                    Outcome::ConditionFailed { current } => current.clone(),
                    Outcome::Unknown {
                        stored_now: Ok(value),
                        ..
                    } => value.clone(),
                    _ => None,
                };
                if let Some(server_value) = server_value
                    && let Some(item) = self.row_with_key(&report.plan.key)
                {
                    // The cell shows what the server returned, never a local guess.
                    item.insert(
                        report.plan.attribute.clone(),
                        AttributeValue::N(server_value),
                    );
                }
                self.editor.report = Some(*report);
            }
            Event::BrowseDone {
                job,
                cancelled,
                error,
            } if job == self.results.job => {
                self.results.loading = false;
                self.results.cancel = None;
                self.results.cancelled = cancelled;
                self.results.error = error;
            }
            _ => {} // An answer to an older connection or run.
        }
    }

    fn open_table(&mut self, table: String) {
        self.selected_table = Some(table.clone());
        self.remembered.table = Some(table.clone());
        self.described = Described {
            table: table.clone(),
            loading: true,
            ..Described::default()
        };
        self.results = Results::default();
        self.form = QueryForm::default();
        self.tally = TallyPanel::default();
        self.likes = crate::ui::likes_panel::LikesPanel::default();
        self.expr = crate::ui::expr_panel::ExprPanel::new(&table);
        self.view = View::Browse;
        if let Some(key) = self.rules_key() {
            self.tally.rules = self.remembered.rules.get(&key).cloned().unwrap_or_default();
            self.tally.selected = (!self.tally.rules.is_empty()).then_some(0);
        }
        self.worker.send(Command::Describe(table));
    }

    fn browse(&mut self, action: FormAction) {
        match action {
            FormAction::Run => {
                let Some(info) = &self.described.info else {
                    return;
                };
                match self.form.request(info) {
                    Ok(request) => {
                        self.form.error = None;
                        self.next_job += 1;
                        let keys = info.grid_key_names(request.index.as_deref());
                        self.results
                            .start(self.next_job, request.clone(), keys, info.item_count);
                        self.worker.send(Command::Browse {
                            job: self.next_job,
                            request: Box::new(request),
                            start_key: None,
                            all: None,
                        });
                    }
                    Err(error) => self.form.error = Some(error),
                }
            }
            FormAction::LoadMore | FormAction::LoadAll => {
                let (Some(request), Some(start_key)) =
                    (self.results.request.clone(), self.results.last_key.clone())
                else {
                    return;
                };
                let all = (action == FormAction::LoadAll).then(CancelToken::default);
                self.results.loading = true;
                self.results.cancelled = false;
                self.results.error = None;
                self.results.cancel.clone_from(&all);
                self.worker.send(Command::Browse {
                    job: self.results.job,
                    request: Box::new(request),
                    start_key: Some(start_key),
                    all,
                });
            }
            FormAction::Cancel => {
                if let Some(cancel) = &self.results.cancel {
                    cancel.cancel();
                }
            }
        }
    }

    /// Draw the whole app into `ui` (also what the UI tests drive).
    pub fn ui(&mut self, ui: &mut Ui) {
        self.handle_events();

        egui::Panel::top("connection_bar").show(ui, |ui| {
            ui.add_space(4.0);
            if let Some(spec) = connection_bar_ui(ui, &mut self.bar) {
                self.connect(spec);
            }
            ui.add_space(2.0);
        });

        let mut status_action = None;
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            ui.add_space(2.0);
            status_action = status_bar_ui(ui, &self.results);
            match &self.export_note {
                Some(Ok(note)) => {
                    ui.label(note);
                }
                Some(Err(error)) => error_ui(ui, error),
                None if self.export_job.is_some() => {
                    ui.weak("Exporting…");
                }
                None => {}
            }
            if let Some(note) = &self.seeded_note {
                ui.weak(note);
            }
        });
        match status_action {
            Some(StatusAction::Cancel) => self.browse(FormAction::Cancel),
            Some(StatusAction::Export(format)) => self.export(format),
            None => {}
        }

        egui::Panel::left("tables")
            .resizable(true)
            .default_size(190.0)
            .show(ui, |ui| {
                match tables_ui(ui, &mut self.tables, self.selected_table.as_deref()) {
                    Some(TablesAction::Select(table)) => self.open_table(table),
                    Some(TablesAction::Refresh) => {
                        self.tables.loading = true;
                        self.worker.send(Command::ListTables);
                    }
                    None => {}
                }
            });

        if self.selected_table.is_some() {
            egui::Panel::right("describe")
                .resizable(true)
                .default_size(260.0)
                .show(ui, |ui| {
                    let chosen = egui::ScrollArea::vertical()
                        .show(ui, |ui| describe_ui(ui, &self.described))
                        .inner;
                    if let Some(index) = chosen {
                        self.form.index = Some(index);
                        self.form.scan = false;
                        self.form.partition.clear();
                        self.form.sort_op = None;
                    }
                });
        }

        let key_names = self.results.key_names.clone();
        let table_keys = self
            .described
            .info
            .as_ref()
            .map(|i| i.key_names())
            .unwrap_or_default();
        let selected = self.results.selected;
        if let (Some(row), Some(item)) = (selected, self.results.selected_item().cloned()) {
            egui::Panel::bottom("item_view")
                .resizable(true)
                .default_size(360.0)
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.strong("Item");
                        if ui.small_button("Close").clicked() {
                            self.results.selected = None;
                        }
                    });
                    let mut edit = None;
                    ui.columns(2, |columns| {
                        item_view_ui(&mut columns[0], &item, &key_names, &mut self.item_format);
                        egui::ScrollArea::vertical().id_salt("counter_editor").show(
                            &mut columns[1],
                            |ui| {
                                edit = counter_editor_ui(ui, &mut self.editor, &item, &table_keys);
                            },
                        );
                    });
                    if let Some(request) = edit {
                        self.send_edit(row, request);
                    }
                    if std::mem::take(&mut self.editor.open_in_builder)
                        && let Some(report) = self.editor.report.clone()
                    {
                        self.open_plan_in_builder(&report.plan, "the ADD edit");
                    }
                });
        }

        egui::CentralPanel::default().show(ui, |ui| {
            if self.selected_table.is_some() && self.described.info.is_some() {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.view, View::Browse, "Browse");
                    let tally = ui.selectable_value(&mut self.view, View::Tally, "Tally check");
                    if tally.clicked() && self.tally.partition.is_empty() {
                        self.tally.partition.clone_from(&self.form.partition);
                    }
                    if ui
                        .selectable_value(&mut self.view, View::Likes, "Like lab")
                        .clicked()
                    {
                        self.prefill_likes();
                    }
                    ui.selectable_value(&mut self.view, View::Expr, "Expressions");
                });
                ui.separator();
            }
            match self.view {
                View::Browse => self.browse_ui(ui),
                View::Tally => self.tally_ui(ui),
                View::Likes => self.likes_ui(ui),
                View::Expr => self.expr_ui(ui),
            }
        });
    }

    fn browse_ui(&mut self, ui: &mut Ui) {
        let Some(table) = self.selected_table.clone() else {
            ui.centered_and_justified(|ui| {
                ui.weak("Pick a table on the left.");
            });
            return;
        };
        let Some(info) = self.described.info.clone() else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Describing {table}…"));
            });
            return;
        };
        let state = ResultsState {
            loading: self.results.loading,
            has_more: self.results.has_more(),
        };
        if let Some(action) = query_form_ui(ui, &mut self.form, &info, state) {
            self.browse(action);
        }
        if let Some(error) = &self.results.error {
            error_ui(ui, error);
        }
        ui.separator();
        if let Some(action) = results_grid_ui(ui, &mut self.results) {
            self.grid_action(action);
        }
    }
}

impl eframe::App for DynoscopeApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        DynoscopeApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.remembered);
    }
}
