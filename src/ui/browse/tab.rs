//! One table's result tab: its form, its rows as loaded through the one reader, the load under
//! way (one page, or all of them with Cancel), and its export.

use egui::Ui;

use crate::core::error::Error;
use crate::core::export::{self, ExportFormat};
use crate::core::read::{self, BrowseMode, BrowseRequest, Page, Stopped, Until};
use crate::core::table::TableInfo;
use crate::core::value::{self, Item};
use crate::task::{Job, Pending};
use crate::ui::browse::columns::columns_menu_ui;
use crate::ui::browse::find::find_bar_ui;
use crate::ui::browse::form::{FormAction, QueryForm, ResultsState, query_form_ui};
use crate::ui::browse::grid::{GridAction, results_grid_ui};
use crate::ui::browse::keys::grid_keys_ui;
use crate::ui::browse::results::Results;
use crate::ui::browse::status::{Loading, StatusAction, status_bar_ui};
use crate::ui::save::Saved;
use crate::ui::widgets::error_ui;
use crate::ui::{QueryPreset, Scope};

/// Pages being loaded, and whether all of them were asked for.
struct Load {
    job: Job<Page, Stopped>,
    all: bool,
}

/// A result tab on one table.
pub struct TableTab {
    /// The table its rows come from.
    pub table: String,
    /// The form.
    pub form: QueryForm,
    /// The rows.
    pub results: Results,
    load: Option<Load>,
    export: Option<Pending<Option<Saved>>>,
    export_note: Option<Result<String, Error>>,
}

impl TableTab {
    /// A tab on `table` with `form` and nothing loaded.
    pub fn new(table: &str, form: QueryForm) -> Self {
        Self {
            table: table.to_owned(),
            form,
            results: Results::default(),
            load: None,
            export: None,
            export_note: None,
        }
    }

    /// Take in the pages and files that arrived.
    pub fn poll(&mut self) {
        if let Some(load) = &mut self.load {
            let polled = load.job.poll();
            for page in polled.progress {
                self.results.add_page(page);
            }
            if let Some(done) = polled.done {
                self.load = None;
                self.results.cancelled =
                    matches!(done, Ok(Stopped::Cancelled) | Err(Error::Cancelled { .. }));
                self.results.error = done.err().filter(|e| !matches!(e, Error::Cancelled { .. }));
            }
        }
        if let Some(saved) = Pending::take_ready(&mut self.export) {
            self.export_note = Some(Saved::note(saved, "items"));
        }
    }

    /// Whether pages are being fetched.
    pub fn busy(&self) -> bool {
        self.load.is_some()
    }

    /// Forget the rows (another connection): the form stays.
    pub fn clear(&mut self) {
        self.cancel();
        self.load = None;
        self.results = Results::default();
    }

    /// Start over with the first page of what the form describes.
    pub fn run(&mut self, scope: &Scope<'_>) {
        match self.form.request(scope.table) {
            Ok(request) => {
                self.form.error = None;
                let keys = scope.table.grid_key_names(request.index.as_deref());
                self.cancel();
                self.results
                    .start(request.clone(), keys, scope.table.item_count);
                self.load = Some(Self::load(scope, request, None, false));
            }
            Err(error) => self.form.error = Some(error),
        }
    }

    /// Fetch the next page, or every remaining page.
    fn load_more(&mut self, scope: &Scope<'_>, all: bool) {
        let (Some(request), Some(start)) =
            (self.results.request.clone(), self.results.last_key.clone())
        else {
            return;
        };
        self.results.cancelled = false;
        self.results.error = None;
        self.load = Some(Self::load(scope, request, Some(start), all));
    }

    fn load(scope: &Scope<'_>, request: BrowseRequest, start: Option<Item>, all: bool) -> Load {
        let client = scope.connection.client.clone();
        let until = if all { Until::LastPage } else { Until::OnePage };
        let job = scope
            .spawner
            .spawn_job(request.op(), move |pages, cancel| async move {
                read::read_pages(&client, &request, start, until, &cancel, |page| {
                    pages.send(page)
                })
                .await
            });
        Load { job, all }
    }

    fn export(&mut self, scope: &Scope<'_>, format: ExportFormat) {
        let Some(request) = &self.results.request else {
            return;
        };
        let partition = match &request.mode {
            BrowseMode::Query { partition, .. } => Some(value::cell_text(partition)),
            BrowseMode::Scan { .. } => None,
        };
        let name = export::suggested_file_name(&request.table, partition.as_deref());
        // A clone shares the row store's full chunks; the export runs on a worker.
        let rows = self.results.rows.clone();
        let keys = self.results.key_names.clone();
        self.export_note = None;
        self.export = Some(scope.saver.save(scope.spawner, name, move |path| {
            export::write_rows_file(path, &rows, &keys, format)
        }));
    }

    fn loading(&self) -> Loading {
        match &self.load {
            None => Loading::Idle,
            Some(Load { all: true, .. }) => Loading::All,
            Some(Load { all: false, .. }) => Loading::Page,
        }
    }

    /// Stop loading; keep what loaded.
    pub fn cancel(&self) {
        if let Some(load) = &self.load {
            // A read: the request in flight is stopped too, not waited for.
            load.job.abort();
        }
    }

    /// Draw the form, the find bar and the grid; a number edit asked for in the grid.
    #[must_use]
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rerun: bool) -> Option<GridAction> {
        let state = ResultsState {
            loading: self.load.is_some(),
            has_more: self.results.has_more(),
        };
        if scope.table.name == self.table {
            match query_form_ui(ui, &mut self.form, scope.table, state) {
                Some(FormAction::Run) => self.run(scope),
                Some(FormAction::LoadMore) => self.load_more(scope, false),
                Some(FormAction::LoadAll) => self.load_more(scope, true),
                Some(FormAction::Cancel) => self.cancel(),
                None if rerun => self.run(scope),
                None => {}
            }
        } else {
            ui.weak(format!("Opening table {}…", self.table));
        }
        if let Some(error) = &self.results.error {
            error_ui(ui, error);
        }
        ui.separator();
        if !self.results.rows.is_empty() {
            ui.horizontal(|ui| {
                columns_menu_ui(ui, &mut self.results);
                if ui
                    .button("Find…")
                    .on_hover_text("Find text in the loaded rows (Ctrl+F)")
                    .clicked()
                {
                    self.results.find.open = true;
                    self.results.find.focus = true;
                }
                ui.weak("Click a header to sort · arrows, Page Up/Down move · Ctrl+C copies");
            });
        }
        find_bar_ui(ui, &mut self.results);
        grid_keys_ui(ui, &mut self.results);
        results_grid_ui(ui, &mut self.results, self.load.is_some())
    }

    /// Draw the status bar: what loaded, what it cost, Cancel, Export and its outcome.
    pub fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>) {
        let action = status_bar_ui(ui, &self.results, self.loading());
        match &self.export_note {
            Some(Ok(note)) => {
                ui.label(note);
            }
            Some(Err(error)) => error_ui(ui, error),
            None if self.export.is_some() => {
                ui.weak("Exporting…");
            }
            None => {}
        }
        match (action, scope) {
            (Some(StatusAction::Cancel), _) => self.cancel(),
            (Some(StatusAction::Export(format)), Some(scope)) => self.export(scope, format),
            _ => {}
        }
    }

    /// Set the form up as `preset` says. A preset naming a partition is a query of its own
    /// (a fresh form, run at once); one naming only an index switches the form to it.
    pub fn show(&mut self, scope: &Scope<'_>, preset: &QueryPreset) {
        if preset.partition.is_empty() {
            self.form.query_index(preset.index.clone());
        } else {
            self.form = QueryForm::from_preset(preset);
            self.run(scope);
        }
    }

    /// Put `item`, as the server returned it, in place of its row.
    pub fn replace_row(&mut self, item: &Item, table: &TableInfo) {
        if let Ok(key) = table.key_of(item)
            && let Some(row) = self.results.row_with_key(&key)
        {
            self.results.replace_row(row, item);
        }
    }
}
