//! One table's result tab: its form, its rows as loaded through the one reader, the load under
//! way (one page, or all of them with Cancel), and its export.

use egui::Ui;

use crate::browse::auto_refresh::AutoRefresh;
use crate::browse::form::{QueryForm, folded_form_ui, query_form_ui};
use crate::browse::get_item::GetItem;
use crate::browse::grid::GridAction;
use crate::browse::pages::{FormAction, ResultsState, short_window};
use crate::browse::results::Results;
use crate::browse::rows_view::{Export, rows_ui};
use crate::browse::status::{Loading, StatusAction, status_bar_ui};
use crate::{intent::QueryPreset, scope::Scope, widgets::error_ui};
use dynoscope_core::read::{
    self, BrowseMode, BrowseRequest, Halt, Page, SegmentEvent, SegmentStarts, Stopped, Until,
};
use dynoscope_core::task::Job;
use dynoscope_core::transfer::{self, Format};
use dynoscope_core::value::{self, Item};

/// How a load ended: why, and for a parallel scan what is left of each segment.
type Ended = (dynoscope_core::Result<Stopped>, Option<SegmentStarts>);

/// Pages being loaded (a single read reports as segment 0), and whether all were asked for.
struct Load {
    job: Job<SegmentEvent, Ended>,
    all: bool,
}

/// A result tab on one table.
pub(super) struct TableTab {
    /// The table its rows come from.
    pub table: String,
    /// The form.
    pub form: QueryForm,
    /// The rows.
    pub results: Results,
    load: Option<Load>,
    export: Export,
    /// Get item…: one item by its key.
    pub(super) get: GetItem,
    /// Auto-refresh: the same read again every N seconds, what changed shown.
    auto: AutoRefresh,
    /// Refresh now was clicked.
    refresh_asked: bool,
    /// The form folded (`Some(true)`) or shown (`Some(false)`) by the user; `None` folds it
    /// once rows are read in a short window.
    folded: Option<bool>,
}

impl TableTab {
    /// A tab on `table` with `form` and nothing loaded.
    pub(super) fn new(table: &str, form: QueryForm) -> Self {
        Self {
            table: table.to_owned(),
            form,
            results: Results::default(),
            load: None,
            export: Export::default(),
            get: GetItem::default(),
            auto: AutoRefresh::default(),
            refresh_asked: false,
            folded: None,
        }
    }

    /// The item read becomes the tab's one row, opened; the form is the query that reads it.
    fn show_got(&mut self, scope: &Scope<'_>, item: Item, rcu: f64) {
        let info = scope.table;
        self.form.read_item(info, &item);
        match self.form.request(info) {
            Ok(request) => {
                self.cancel();
                let keys = info.grid_key_names(None);
                self.results.start(request, keys, info.item_count);
                self.results.add_page(Page {
                    items: vec![item],
                    consumed_rcu: rcu,
                    ..Page::default()
                });
                self.results.ended(Ok(Stopped::LastPage), None);
                self.results.move_cursor(0, 0, false);
            }
            Err(error) => self.form.error = Some(error),
        }
    }

    /// Take in the pages and files that arrived.
    pub(super) fn poll(&mut self) {
        if let Some(load) = &mut self.load {
            let polled = load.job.poll();
            for event in polled.progress {
                self.results.add_event(event);
            }
            if let Some(done) = polled.done {
                self.load = None;
                let (done, left) = match done {
                    Ok((done, left)) => (done, left),
                    Err(error) => (Err(error), None),
                };
                self.results.ended(done, left);
                self.auto
                    .ended(&mut self.results, std::time::Instant::now());
            }
        }
        self.export.poll();
    }

    /// Auto-refresh's controls, drawn into the caller's row (beside the tab's name).
    pub(super) fn auto_controls_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        let form_changed = self.results.load.request.is_some()
            && self.form.request(scope.table).ok() != self.results.load.request;
        let paused =
            form_changed.then_some("the form changed since these rows were read; Run first");
        let pricing = scope.connection.pricing(scope.table);
        self.refresh_asked |= self.auto.controls_ui(ui, &self.results, paused, &pricing);
    }

    /// Whether the read under way is an auto-refresh.
    pub(super) fn refreshing(&self) -> bool {
        self.auto.refreshing()
    }

    /// Whether pages are being fetched.
    pub(super) fn busy(&self) -> bool {
        self.load.is_some()
    }

    /// Forget the rows (another connection): the form stays.
    pub(super) fn clear(&mut self) {
        self.cancel();
        self.load = None;
        self.auto.reset();
        // The rows go; how their columns are laid out stays (it is the table's).
        let layout = self.results.layout().clone();
        self.results = Results::default();
        self.results.set_layout(&layout);
    }

    /// Start over with the first page of what the form describes.
    pub(super) fn run(&mut self, scope: &Scope<'_>) {
        self.auto.reset();
        self.run_to(scope, false);
    }

    /// The same read again (the form has not changed since): as many pages as before, to
    /// the end when the last read got there; compared with the rows before when it ends.
    fn refresh(&mut self, scope: &Scope<'_>) {
        let all = !self.results.load.has_more();
        self.auto.started(&self.results);
        self.run_to(scope, all);
        if self.load.is_some() {
            self.auto.restarted(&mut self.results);
        } else {
            // The read could not start: no refresh under way.
            self.auto
                .ended(&mut self.results, std::time::Instant::now());
        }
    }

    /// Start over with what the form describes: its first page, or every page (`all`).
    fn run_to(&mut self, scope: &Scope<'_>, all: bool) {
        let asked = self
            .form
            .request(scope.table)
            .and_then(|r| Ok((r, self.form.segments()?)))
            .and_then(|(r, segments)| {
                let asked = segments.unwrap_or(1);
                dynoscope_core::limits::check_segments(asked, scope.table, false)?;
                Ok((r, segments))
            });
        match asked {
            Ok((request, segments)) => {
                self.form.error = None;
                let keys = scope.table.grid_key_names(request.index.as_deref());
                self.cancel();
                self.results
                    .start(request.clone(), keys, scope.table.item_count);
                self.load = Some(match segments {
                    // A parallel scan reads every segment to its end.
                    Some(total) => match SegmentStarts::all(total) {
                        Ok(starts) => {
                            self.results.segments_started(total);
                            Self::load_segments(scope, request, starts)
                        }
                        Err(error) => {
                            self.form.error = Some(error);
                            return;
                        }
                    },
                    None => Self::load(scope, request, None, all),
                });
            }
            Err(error) => self.form.error = Some(error),
        }
    }

    /// Fetch the next page, or every remaining page; a stopped parallel scan goes on with
    /// each unfinished segment.
    fn load_more(&mut self, scope: &Scope<'_>, all: bool) {
        let Some(request) = self.results.load.request.clone() else {
            return;
        };
        let load = if let Some(left) = self.results.load.left.take() {
            Self::load_segments(scope, request, left)
        } else if let Some(start) = self.results.load.last_key.clone() {
            Self::load(scope, request, Some(start), all)
        } else {
            return;
        };
        self.results.load.resumed();
        self.load = Some(load);
    }

    fn load(scope: &Scope<'_>, request: BrowseRequest, start: Option<Item>, all: bool) -> Load {
        let client = scope.connection.reader();
        let until = if all { Until::LastPage } else { Until::OnePage };
        let job = scope
            .spawner
            .spawn_job(request.op(), move |events, cancel| async move {
                let backoff = client.backoff();
                let stopped =
                    read::read_events(&client, &request, start, until, &backoff, &cancel, |e| {
                        events.send(SegmentEvent::Read {
                            segment: 0,
                            event: e,
                        });
                    })
                    .await;
                Ok((stopped, None))
            });
        Load { job, all }
    }

    fn load_segments(scope: &Scope<'_>, request: BrowseRequest, starts: SegmentStarts) -> Load {
        let client = scope.connection.reader();
        let job = scope
            .spawner
            .spawn_job("Scan", move |events, cancel| async move {
                let backoff = client.backoff();
                let stopped = read::scan_segments(
                    &client,
                    &request,
                    starts,
                    Until::LastPage,
                    &backoff,
                    &cancel,
                    |e| events.send(e),
                )
                .await;
                Ok((stopped.result, Some(stopped.left)))
            });
        Load { job, all: true }
    }

    fn export(&mut self, scope: &Scope<'_>, format: Format) {
        let Some(request) = &self.results.load.request else {
            return;
        };
        let partition = match &request.mode {
            // A file name: the shown text, cut, keeps the name within what a file system takes.
            BrowseMode::Query { partition, .. } => Some(value::cell_text(partition)),
            BrowseMode::Scan { .. } => None,
        };
        // DynamoDB's own export is gzipped; a name ending in .gz is written gzipped.
        let gzip = format == Format::S3Export;
        let name =
            transfer::suggested_file_name(&request.table, partition.as_deref(), format, gzip);
        self.export.start(scope, &self.results, name, format);
    }

    fn loading(&self) -> Loading {
        match &self.load {
            None => Loading::Idle,
            Some(Load { all: true, .. }) => Loading::All,
            Some(Load { all: false, .. }) => Loading::Page,
        }
    }

    /// Stop loading; keep what loaded.
    pub(super) fn cancel(&self) {
        if let Some(load) = &self.load {
            match Halt::for_segments(self.results.progress.segments.len()) {
                Halt::Cancel => load.job.cancel(),
                Halt::Abort => load.job.abort(),
            }
        }
    }

    /// Draw the form, the find bar and the grid; a number edit asked for in the grid.
    #[must_use]
    pub(super) fn view_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        rerun: bool,
    ) -> Option<GridAction> {
        let state = ResultsState {
            loading: self.load.is_some(),
            has_more: self.results.load.has_more(),
            stopped: self.results.load.cancelled || self.results.load.error.is_some(),
            segmented: self.results.load.left.is_some(),
            not_run: self.results.load.request.is_none(),
            form_changed: self.results.load.request.is_some()
                && self.form.request(scope.table).ok() != self.results.load.request,
            all_costs: (self.form.scan && self.form.index.is_none()).then(|| {
                dynoscope_core::cost::whole_read(
                    scope.table.size_bytes,
                    scope.table.item_count,
                    &scope.connection.pricing(scope.table),
                )
            }),
        };
        let here = scope.table.name == self.table;
        if here
            && self.load.is_none()
            && !state.form_changed
            && self.results.load.request.is_some()
            && self.auto.due(std::time::Instant::now())
        {
            self.refresh(scope);
        }
        if scope.table.name == self.table {
            let short = short_window(ui);
            // Folded by itself only once rows were read: a first read refused keeps its fields.
            let read = self.results.load.pages > 0 && self.results.load.error.is_none();
            let folded = self.form.error.is_none() && self.folded.unwrap_or(short && read);
            let asked = if folded {
                folded_form_ui(ui, &self.form, scope.table, &state)
            } else {
                query_form_ui(ui, &mut self.form, scope.table, &state)
            };
            match asked {
                Some(FormAction::Run) => {
                    // Opened to be changed: run, it folds again where the window is short.
                    if self.folded == Some(false) {
                        self.folded = None;
                    }
                    self.run(scope);
                }
                Some(FormAction::Fold) => self.folded = Some(true),
                Some(FormAction::Unfold) => self.folded = Some(false),
                Some(FormAction::LoadMore) => self.load_more(scope, false),
                Some(FormAction::LoadAll) => self.load_more(scope, true),
                Some(FormAction::Cancel) => self.cancel(),
                Some(FormAction::GetItem) => self.get.open = !self.get.open,
                None if rerun => self.run(scope),
                None => {}
            }
            if let Some((item, rcu)) = self.get.get_item_ui(ui, scope) {
                self.show_got(scope, item, rcu);
            }
            self.auto.changes_ui(ui, &mut self.results);
            if std::mem::take(&mut self.refresh_asked) && self.load.is_none() {
                self.refresh(scope);
            }
        } else {
            ui.weak(format!("Opening table {}…", self.table));
        }
        if let Some(error) = &self.results.load.error {
            error_ui(ui, error);
        }
        if let Some(error) = &self.results.failed_run {
            error_ui(ui, error);
        }
        ui.separator();
        let editable = scope.table.name == self.table;
        rows_ui(ui, &mut self.results, self.load.is_some(), editable)
    }

    /// Draw the status bar: what loaded, what it cost, Cancel, Export and its outcome.
    pub(super) fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>) {
        // Priced by the open table's billing when the tab reads it (another table's is not
        // described: its units are shown alone).
        let pricing = scope
            .filter(|s| s.table.name == self.table)
            .map(|s| s.connection.pricing(s.table));
        let (loading, export_to) = (self.loading(), &mut self.export.path);
        let action = status_bar_ui(ui, &self.results, loading, pricing.as_ref(), export_to);
        self.export.ui(ui);
        match (action, scope) {
            (Some(StatusAction::Cancel), _) => self.cancel(),
            (Some(StatusAction::Export(format)), Some(scope)) => self.export(scope, format),
            _ => {}
        }
    }

    /// Set the form up as `preset` says. A preset naming a partition is a query of its own
    /// (a fresh form, run at once); one naming only an index switches the form to it.
    pub(super) fn show(&mut self, scope: &Scope<'_>, preset: &QueryPreset) {
        if preset.partition.is_empty() {
            self.form.query_index(preset.index.clone());
        } else {
            self.form = QueryForm::from_preset(preset);
            self.run(scope);
        }
    }
}
