//! Browsing the open table: the Query/Scan form, the pages loaded through the one reader, the
//! grid, the status bar with Export, and the item view of the selected row.

mod form;
mod grid;
mod item_view;
mod results;
mod status;

use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;
use egui::Ui;

use crate::core::counter::Change;
use crate::core::error::Error;
use crate::core::export::{self, ExportFormat};
use crate::core::read::{self, BrowseMode, BrowseRequest, Page, Stopped, Until};
use crate::core::table::TableInfo;
use crate::core::value::{self, Item};
use crate::task::{Job, Pending};
use crate::ui::save::Saved;
use crate::ui::widgets::error_ui;
use crate::ui::{Intent, Loaded, QueryPreset, Scope};

pub use grid::results_grid_ui;
pub use results::Results;

use form::{FormAction, QueryForm, ResultsState, query_form_ui};
use grid::GridAction;
pub use item_view::ItemFormat;
use item_view::item_view_ui;
use status::{Loading, StatusAction, status_bar_ui};

/// Pages being loaded, and whether all of them were asked for.
struct Load {
    job: Job<Page, Stopped>,
    all: bool,
}

/// The browse feature's state.
#[derive(Default)]
pub struct BrowseFeature {
    form: QueryForm,
    results: Results,
    load: Option<Load>,
    export: Option<Pending<Option<Saved>>>,
    export_note: Option<Result<String, Error>>,
    item_format: ItemFormat,
}

impl BrowseFeature {
    /// Nothing loaded; the item view shows items as `format`.
    pub fn with_item_format(item_format: ItemFormat) -> Self {
        Self {
            item_format,
            ..Self::default()
        }
    }

    /// How the item view shows items.
    pub fn item_format(&self) -> ItemFormat {
        self.item_format
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

    /// Start over with the first page of what the form describes.
    fn run(&mut self, scope: &Scope<'_>) {
        match self.form.request(scope.table) {
            Ok(request) => {
                self.form.error = None;
                let keys = scope.table.grid_key_names(request.index.as_deref());
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
        let items = Arc::clone(&self.results.items);
        let keys = self.results.key_names.clone();
        self.export_note = None;
        self.export = Some(scope.saver.save(scope.spawner, name, move |path| {
            export::write_items_file(path, &items, &keys, format)
        }));
    }

    fn loading(&self) -> Loading {
        match &self.load {
            None => Loading::Idle,
            Some(Load { all: true, .. }) => Loading::All,
            Some(Load { all: false, .. }) => Loading::Page,
        }
    }

    fn cancel(&self) {
        if let Some(load) = &self.load {
            // A read: the request in flight is stopped too, not waited for.
            load.job.abort();
        }
    }

    /// Draw the form and the grid.
    #[must_use]
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        let state = ResultsState {
            loading: self.load.is_some(),
            has_more: self.results.has_more(),
        };
        match query_form_ui(ui, &mut self.form, scope.table, state) {
            Some(FormAction::Run) => self.run(scope),
            Some(FormAction::LoadMore) => self.load_more(scope, false),
            Some(FormAction::LoadAll) => self.load_more(scope, true),
            Some(FormAction::Cancel) => self.cancel(),
            None => {}
        }
        if let Some(error) = &self.results.error {
            error_ui(ui, error);
        }
        ui.separator();
        let action = results_grid_ui(ui, &mut self.results, self.load.is_some())?;
        let (row, attribute, change) = match action {
            GridAction::Add {
                row,
                attribute,
                delta,
            } => (row, attribute, Some(Change::By(delta.to_owned()))),
            GridAction::Edit { row, attribute } => (row, attribute, None),
        };
        self.results.selected = Some(row);
        let item = self.results.items.get(row)?.clone();
        Some(Intent::EditNumber {
            item: Box::new(item),
            attribute,
            change,
        })
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

    /// Draw the header of the item view; `false` once the user closed it.
    pub fn item_header_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.strong("Item");
            if ui.small_button("Close").clicked() {
                self.results.selected = None;
            }
        });
    }

    /// Draw the selected item as JSON.
    pub fn item_ui(&mut self, ui: &mut Ui) {
        if let Some(item) = self.results.selected_item() {
            item_view_ui(ui, item, &self.results.key_names, &mut self.item_format);
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

    /// Show the server's `value` of `attribute` in the row at `key`, never a local guess.
    pub fn show_server_value(&mut self, key: &Item, attribute: &str, value: String) {
        if let Some(row) = self.results.row_with_key(key) {
            row.insert(attribute.to_owned(), AttributeValue::N(value));
        }
    }

    /// Put `item`, as the server returned it, in place of its row in `table`.
    pub fn replace_row(&mut self, item: Item, table: &TableInfo) {
        // An item without its whole key has no row to replace.
        if let Ok(key) = table.key_of(&item)
            && let Some(row) = self.results.row_with_key(&key)
        {
            *row = item;
        }
    }

    /// The rows loaded.
    pub fn loaded(&self) -> Loaded<'_> {
        Loaded {
            run: self.results.run,
            request: self.results.request.as_ref(),
            items: &self.results.items,
        }
    }

    /// The row open in the item view.
    pub fn selected_item(&self) -> Option<&Item> {
        self.results.selected_item()
    }

    /// The partition key value typed in the form.
    pub fn partition(&self) -> &str {
        &self.form.partition
    }
}
