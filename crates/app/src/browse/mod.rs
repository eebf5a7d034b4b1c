//! Result tabs: each tab queries or scans one table with its own form, rows, sort, find,
//! scroll and selection — or runs PartiQL, or SQL over other tabs — and several are open at
//! once, across tables. The tab strip (Ctrl+T new, Ctrl+W close) and the item view of the
//! selected row are here; each kind of tab is in its own file ([`tabs`]).

mod auto_refresh;
mod cell_menu;
mod columns;
mod filters;
mod find;
mod form;
mod freshness;
mod get_item;
mod grid;
mod history;
mod item_view;
mod keys;
mod pages;
mod partiql_tab;
mod progress;
mod reread;
mod results;
mod rows_view;
mod save_query;
mod sql_tab;
mod status;
mod strip;
mod tab;
mod tabs;
mod unseen;
mod vanished;

use std::collections::BTreeMap;

use egui::{Key, Modifiers, Ui};

use crate::feature::{Context, Feature, Subject};
use crate::intent::{Intent, QueryPreset};
use crate::scope::{Loaded, Scope};
use dynoscope_core::counter::Change;
use dynoscope_core::rows::{ColumnLayout, Rows};
use dynoscope_core::saved::History;
use dynoscope_core::value::Item;

pub use form::QueryForm;
pub use grid::results_grid_ui;
pub use item_view::ItemFormat;
pub use partiql_tab::PartiqlForm;
pub use results::{FIND_TIME_PER_FRAME, Results};
pub use sql_tab::SqlForm;
pub use tabs::{TabKind, TabSpec};

use grid::GridAction;
use reread::Rereads;
use rows_view::rows_ui;
use save_query::SaveQuery;
use tabs::TabBody;

struct Tab {
    name: String,
    body: TabBody,
    /// The column layout its rows were given last (a table tab's): a layout that differs from
    /// it was changed by the user, and becomes the table's.
    layout_given: ColumnLayout,
    /// The run of its rows last noted in the history.
    run_seen: u64,
    /// Opened to be run (from the palette) once its table is open.
    run_pending: bool,
    /// The run whose rows were last looked at for counted attributes (once a run).
    counted_run: Option<u64>,
}

/// The result tabs and which one is shown.
#[derive(Default)]
pub(crate) struct BrowseFeature {
    tabs: Vec<Tab>,
    active: usize,
    item_format: ItemFormat,
    /// What `loaded` lends when no tab is open.
    no_rows: Rows,
    /// Rows being read again (Reload, or after a write of ours).
    rereads: Rereads,
    /// Each table's column layout (order, hidden, dates), remembered.
    layouts: BTreeMap<String, ColumnLayout>,
    /// What the tabs ran, remembered.
    history: History,
    /// Save query…: the shown tab's query saved by name.
    saving: SaveQuery,
    /// Tabs closed because their table is no longer listed, said until dismissed.
    closed_gone: Vec<String>,
}

impl BrowseFeature {
    /// Tabs as a previous run left them (no rows loaded), the tables' column `layouts`; items
    /// shown as `format`.
    pub(crate) fn restored(
        specs: Vec<TabSpec>,
        layouts: BTreeMap<String, ColumnLayout>,
        history: History,
        item_format: ItemFormat,
    ) -> Self {
        let tabs = specs
            .into_iter()
            .map(|s| Tab {
                body: TabBody::new(s.kind),
                name: s.name,
                layout_given: ColumnLayout::default(),
                run_seen: 0,
                run_pending: false,
                counted_run: None,
            })
            .collect();
        Self {
            tabs,
            active: 0,
            item_format,
            no_rows: Rows::default(),
            rereads: Rereads::default(),
            layouts,
            history,
            saving: SaveQuery::default(),
            closed_gone: Vec::new(),
        }
    }

    /// Each table's column layout, to remember (those left as they come are not kept).
    pub(crate) fn layouts(&self) -> BTreeMap<String, ColumnLayout> {
        self.layouts
            .iter()
            .filter(|(_, l)| **l != ColumnLayout::default())
            .map(|(t, l)| (t.clone(), l.clone()))
            .collect()
    }

    /// Keep the shown table tab and its table's layout together: a change made in the tab
    /// (since the layout was last given to it) becomes the table's; otherwise the tab takes
    /// the table's (changed in another tab, or remembered).
    fn sync_layout(&mut self) {
        let Some(tab) = self.tabs.get_mut(self.active) else {
            return;
        };
        let Some(table) = tab.body.table().map(str::to_owned) else {
            return;
        };
        let results = tab.body.results_mut();
        if *results.layout() != tab.layout_given {
            self.layouts.insert(table, results.layout().clone());
        } else if let Some(layout) = self.layouts.get(&table) {
            results.set_layout(layout);
        } else if !results.rows.is_empty() && tab.counted_run != Some(results.run) {
            tab.counted_run = Some(results.run);
            // Never laid out: what a counter rule counts comes first (kept from then on).
            let counted = columns::counted_attributes(results);
            results.counted_first(&counted);
            if !counted.is_empty() {
                self.layouts.insert(table, results.layout().clone());
            }
        }
        tab.layout_given = results.layout().clone();
    }

    /// What to remember of the tabs.
    pub(crate) fn specs(&self) -> Vec<TabSpec> {
        self.tabs
            .iter()
            .map(|t| TabSpec {
                name: t.name.clone(),
                kind: t.body.kind(),
            })
            .collect()
    }

    fn tab(&self) -> Option<&TabBody> {
        self.tabs.get(self.active).map(|t| &t.body)
    }

    /// The table of the tab shown, when it reads one.
    pub(crate) fn active_table(&self) -> Option<&str> {
        self.tab().and_then(TabBody::table)
    }

    /// Take in the pages and files that arrived, in every tab.
    #[must_use]
    fn take_in(&mut self) -> Vec<Intent> {
        let written = self.tabs.iter_mut().filter_map(|t| t.body.poll()).collect();
        self.apply_rereads();
        self.note_runs();
        self.saving.poll();
        written
    }

    /// Another connection: every tab keeps its form and forgets its rows.
    fn connection_changed(&mut self) {
        self.rereads.clear();
        for tab in &mut self.tabs {
            tab.body.clear();
        }
    }

    /// `table` was opened: show its most recent tab, or open one for it.
    fn table_opened(&mut self, table: &str) {
        if self.active_table() == Some(table) {
            return;
        }
        match self
            .tabs
            .iter()
            .rposition(|t| t.body.table() == Some(table))
        {
            Some(at) => self.active = at,
            None => self.open_tab(table, new_table_kind(table)),
        }
    }

    /// Draw the tabs, the shown tab's form and its rows.
    #[must_use]
    fn browse_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        if self.tabs.is_empty() {
            self.open_tab(&scope.table.name, new_table_kind(&scope.table.name));
        }
        self.sync_layout();
        self.note_runs();
        self.closed_gone_ui(ui);
        let open = self.tabs_ui(ui, scope);
        if open.is_some() {
            return open;
        }
        self.run_pending(scope);
        // F5 / Ctrl+R refresh (run again what was read); Ctrl+Enter runs what is written.
        let (refresh, run) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::F5) | i.consume_key(Modifiers::COMMAND, Key::R),
                i.consume_key(Modifiers::COMMAND, Key::Enter),
            )
        });
        let rerun = refresh || run;
        let active = self.active;
        let tables: Vec<(String, usize)> = self
            .tabs
            .iter()
            .enumerate()
            .filter(|(i, t)| *i != active && !t.body.results().rows.is_empty())
            .map(|(_, t)| (t.name.clone(), t.body.results().rows.len()))
            .collect();
        let mut run_sql = false;
        let tab = self.tabs.get_mut(active)?;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Tab name (its table in SQL)");
            ui.add(egui::TextEdit::singleline(&mut tab.name).desired_width(160.0))
                .labelled_by(label.id);
            self.saving.button_ui(ui);
            if let TabBody::Table(t) = &mut tab.body
                && scope.table.name == t.table
            {
                ui.separator();
                t.auto_controls_ui(ui, scope);
            }
        });
        self.saving.form_ui(ui, scope, || tab.body.kind());
        let action = match &mut tab.body {
            TabBody::Table(t) => t.view_ui(ui, scope, rerun),
            TabBody::Partiql(p, _) => {
                // A refresh never sends a PartiQL write again; only Run or Ctrl+Enter do.
                p.form_ui(ui, scope, run, refresh);
                ui.separator();
                let busy = p.busy();
                // Rows of a statement may come from any table: no edits from here.
                rows_ui(ui, &mut p.results, busy, false)
            }
            TabBody::Sql(s, _) => {
                run_sql = s.form_ui(ui, &tables, rerun);
                ui.separator();
                rows_ui(ui, &mut s.results, false, false)
            }
        };
        if run_sql {
            self.run_sql(scope);
            return None;
        }
        let action = action?;
        let tab = self.tabs.get_mut(active)?;
        let (row, attribute, change) = match action {
            GridAction::Add {
                row,
                attribute,
                delta,
            } => (row, attribute, Some(Change::By(delta.to_owned()))),
            GridAction::Edit { row, attribute } => (row, attribute, None),
        };
        let results = tab.body.results_mut();
        results.open_row(row);
        let item = results.rows.item(row)?;
        Some(Intent::EditNumber {
            item: Box::new(item),
            attribute,
            change,
        })
    }

    /// Draw the status bar of the tab shown.
    pub(crate) fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>) {
        match self.tabs.get_mut(self.active) {
            Some(tab) => tab.body.status_ui(ui, scope, &tab.name),
            None => {
                ui.weak("Pick a table, then Query a partition or Scan.");
            }
        }
    }

    /// Set the shown table tab up as `preset` says (a tab on the open table is opened first
    /// when the shown one is not one).
    pub(crate) fn show(&mut self, scope: &Scope<'_>, preset: &QueryPreset) {
        if self.active_table() != Some(scope.table.name.as_str()) {
            self.open_tab(&scope.table.name, new_table_kind(&scope.table.name));
        }
        if let Some(Tab {
            body: TabBody::Table(tab),
            ..
        }) = self.tabs.get_mut(self.active)
        {
            tab.show(scope, preset);
        }
    }

    /// Whether the tab shown holds rows of `table` read as a Query or Scan (rows the counter
    /// editor and the tally checks may use with that table's keys).
    pub(crate) fn editable(&self, table: &str) -> bool {
        self.active_table() == Some(table)
    }

    /// The rows of the tab shown, when it is a table tab on `table`; none otherwise.
    pub(crate) fn loaded(&self, table: &str) -> Loaded<'_> {
        match self.tab().filter(|_| self.editable(table)) {
            Some(tab) => Loaded {
                run: tab.results().run,
                request: tab.results().load.request.as_ref(),
                rows: &tab.results().rows,
                chosen: Some(tab.results().chosen()),
            },
            None => Loaded {
                run: 0,
                request: None,
                rows: &self.no_rows,
                chosen: None,
            },
        }
    }

    /// The row open in the item view.
    pub(crate) fn selected_item(&self) -> Option<Item> {
        self.tab()?.results().selected_item()
    }

    /// The partition key value typed in the shown tab's form.
    pub(crate) fn partition(&self) -> &str {
        match self.tab() {
            Some(TabBody::Table(t)) => t.form.partition.as_str(),
            _ => "",
        }
    }
}

fn new_table_kind(table: &str) -> TabKind {
    TabKind::Table {
        table: table.to_owned(),
        form: Box::default(),
    }
}

impl Feature for BrowseFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        intents.extend(self.take_in());
    }

    /// Another connection: every tab forgets its rows' place; another table: its latest tab
    /// is shown (every tab keeps its rows).
    fn subject_changed(&mut self, subject: Subject<'_>) {
        match subject.table {
            Some(table) => self.table_opened(table),
            None => self.connection_changed(),
        }
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, intents: &mut Vec<Intent>) {
        intents.extend(self.browse_ui(ui, context.scope));
    }
}
