//! The eframe shell: owns the panels' state and the worker, drains events at the start of each
//! frame, draws the panels, and turns what they return into worker commands.

use egui::Ui;

use crate::core::connection::{self, ConnectionSpec};
use crate::ui::connection_bar::{ConnectionBar, connection_bar_ui};
use crate::ui::describe_panel::{Described, describe_ui};
use crate::ui::item_view::{ItemFormat, item_view_ui};
use crate::ui::query_form::{FormAction, QueryForm, ResultsState, query_form_ui};
use crate::ui::results_grid::{Results, results_grid_ui};
use crate::ui::status_bar::status_bar_ui;
use crate::ui::tables_panel::{TablesAction, TablesPanel, tables_ui};
use crate::ui::widgets::error_ui;
use crate::worker::{CancelToken, Command, Event, Worker};

/// What is remembered between runs: the last connection and table. Never secrets.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Remembered {
    /// The last connection used.
    pub connection: Option<ConnectionSpec>,
    /// The last table opened.
    pub table: Option<String>,
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
    next_job: u64,
    remembered: Remembered,
    seeded_note: Option<String>,
}

impl DynoscopeApp {
    /// Start the app on `spec`; `remembered_table` is opened when the connection has it.
    pub fn new(worker: Worker, spec: ConnectionSpec, remembered_table: Option<String>) -> Self {
        let mut app = Self {
            worker,
            bar: ConnectionBar::new(&spec, connection::list_profiles()),
            tables: TablesPanel::default(),
            selected_table: None,
            described: Described::default(),
            form: QueryForm::default(),
            results: Results::default(),
            item_format: ItemFormat::default(),
            next_job: 0,
            remembered: Remembered {
                connection: Some(spec.clone()),
                table: remembered_table,
            },
            seeded_note: None,
        };
        app.connect(spec);
        app
    }

    /// What to remember when the app closes.
    pub fn remembered(&self) -> &Remembered {
        &self.remembered
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

        let mut cancel = false;
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            ui.add_space(2.0);
            cancel = status_bar_ui(ui, &self.results);
            if let Some(note) = &self.seeded_note {
                ui.weak(note);
            }
        });
        if cancel {
            self.browse(FormAction::Cancel);
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
        if let Some(item) = self.results.selected_item().cloned() {
            egui::Panel::bottom("item_view")
                .resizable(true)
                .default_size(260.0)
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.strong("Item");
                        if ui.small_button("Close").clicked() {
                            self.results.selected = None;
                        }
                    });
                    item_view_ui(ui, &item, &key_names, &mut self.item_format);
                });
        }

        egui::CentralPanel::default().show(ui, |ui| self.browse_ui(ui));
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
        results_grid_ui(ui, &mut self.results);
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
