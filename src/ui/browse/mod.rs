//! Result tabs: each tab queries or scans one table with its own form, rows, sort, find,
//! scroll and selection — or runs PartiQL, or SQL over other tabs — and several are open at
//! once, across tables. The tab strip (Ctrl+T new, Ctrl+W close) and the item view of the
//! selected row are here; each kind of tab is in its own file ([`tabs`]).

mod columns;
mod find;
mod form;
mod grid;
mod item_view;
mod keys;
mod partiql_tab;
mod progress;
mod results;
mod rows_view;
mod sql_tab;
mod status;
mod strip;
mod tab;
mod tabs;

use egui::{Key, Modifiers, Ui};

use crate::core::counter::Change;
use crate::core::rows::Rows;
use crate::core::sql::SqlSource;
use crate::core::table::TableInfo;
use crate::core::value::Item;
use crate::ui::{EditStart, Intent, Loaded, QueryPreset, Scope};

pub use form::QueryForm;
pub use grid::results_grid_ui;
pub use item_view::ItemFormat;
pub use partiql_tab::PartiqlForm;
pub use results::Results;
pub use sql_tab::SqlForm;
pub use tabs::{TabKind, TabSpec};

use grid::GridAction;
use item_view::item_view_ui;
use rows_view::rows_ui;
use tabs::TabBody;

struct Tab {
    name: String,
    body: TabBody,
}

/// The result tabs and which one is shown.
#[derive(Default)]
pub struct BrowseFeature {
    tabs: Vec<Tab>,
    active: usize,
    item_format: ItemFormat,
    /// What `loaded` lends when no tab is open.
    no_rows: Rows,
}

impl BrowseFeature {
    /// Tabs as a previous run left them (no rows loaded); items shown as `format`.
    pub fn restored(specs: Vec<TabSpec>, item_format: ItemFormat) -> Self {
        let tabs = specs
            .into_iter()
            .map(|s| Tab {
                body: TabBody::new(s.kind),
                name: s.name,
            })
            .collect();
        Self {
            tabs,
            active: 0,
            item_format,
            no_rows: Rows::default(),
        }
    }

    /// What to remember of the tabs.
    pub fn specs(&self) -> Vec<TabSpec> {
        self.tabs
            .iter()
            .map(|t| TabSpec {
                name: t.name.clone(),
                kind: t.body.kind(),
            })
            .collect()
    }

    /// How the item view shows items.
    pub fn item_format(&self) -> ItemFormat {
        self.item_format
    }

    fn tab(&self) -> Option<&TabBody> {
        self.tabs.get(self.active).map(|t| &t.body)
    }

    /// The table of the tab shown, when it reads one.
    pub fn active_table(&self) -> Option<&str> {
        self.tab().and_then(TabBody::table)
    }

    /// Take in the pages and files that arrived, in every tab.
    pub fn poll(&mut self) {
        for tab in &mut self.tabs {
            tab.body.poll();
        }
    }

    /// Another connection: every tab keeps its form and forgets its rows.
    pub fn connection_changed(&mut self) {
        for tab in &mut self.tabs {
            tab.body.clear();
        }
    }

    /// `table` was opened: show its most recent tab, or open one for it.
    pub fn table_opened(&mut self, table: &str) {
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
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        if self.tabs.is_empty() {
            self.open_tab(&scope.table.name, new_table_kind(&scope.table.name));
        }
        let open = self.tabs_ui(ui, scope);
        if open.is_some() {
            return open;
        }
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
        ui.horizontal(|ui| {
            let label = ui.label("Tab name (its table in SQL)");
            ui.add(egui::TextEdit::singleline(&mut tab.name).desired_width(160.0))
                .labelled_by(label.id);
        });
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
        results.selected = Some(row);
        let item = results.rows.item(row)?;
        Some(Intent::EditNumber {
            item: Box::new(item),
            attribute,
            change,
        })
    }

    /// Run the shown SQL tab over every other tab's rows.
    fn run_sql(&mut self, scope: &Scope<'_>) {
        let active = self.active;
        let sources: Vec<SqlSource> = self
            .tabs
            .iter()
            .enumerate()
            .filter(|(i, t)| *i != active && !t.body.results().rows.is_empty())
            .map(|(_, t)| SqlSource {
                name: t.name.clone(),
                key_names: t.body.results().key_names.clone(),
                rows: t.body.results().rows.clone(),
            })
            .collect();
        if let Some(Tab {
            body: TabBody::Sql(s, _),
            ..
        }) = self.tabs.get_mut(active)
        {
            s.run(scope, sources);
        }
    }

    /// Draw the status bar of the tab shown.
    pub fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>) {
        match self.tabs.get_mut(self.active) {
            Some(tab) => tab.body.status_ui(ui, scope, &tab.name),
            None => {
                ui.weak("Pick a table, then Query a partition or Scan.");
            }
        }
    }

    /// Draw the header of the item view (Close, or Esc outside a text field).
    /// `editable`: the row is of the open table (it can be edited, copied or deleted).
    #[must_use]
    pub fn item_header_ui(&mut self, ui: &mut Ui, editable: bool) -> Option<Intent> {
        let escape = !ui.ctx().text_edit_focused()
            && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape));
        let mut intent = None;
        let item = self.selected_item();
        // A row read from an index may hold only the projected attributes: not a whole item.
        let from_index = self
            .tab()
            .and_then(|t| t.results().request.as_ref())
            .is_some_and(|r| r.index.is_some());
        ui.horizontal(|ui| {
            ui.strong("Item");
            if editable && from_index {
                ui.weak("read from an index (maybe partial): edit it from a query of the table");
            }
            if let Some(item) = item.filter(|_| editable && !from_index) {
                for (text, start) in [
                    ("Edit item", EditStart::Edit),
                    ("Duplicate", EditStart::Duplicate),
                    ("Delete item", EditStart::Delete),
                ] {
                    if ui.small_button(text).clicked() {
                        intent = Some(Intent::EditItem {
                            item: Box::new(item.clone()),
                            start,
                        });
                    }
                }
            }
            if (ui.small_button("Close").clicked() || escape)
                && let Some(tab) = self.tabs.get_mut(self.active)
            {
                tab.body.results_mut().selected = None;
            }
        });
        intent
    }

    /// Draw the selected item as JSON.
    pub fn item_ui(&mut self, ui: &mut Ui) {
        let Some(tab) = self.tabs.get(self.active) else {
            return;
        };
        let results = tab.body.results();
        if let Some(item) = results.selected_item() {
            item_view_ui(ui, &item, &results.key_names, &mut self.item_format);
        }
    }

    /// Set the shown table tab up as `preset` says (a tab on the open table is opened first
    /// when the shown one is not one).
    pub fn show(&mut self, scope: &Scope<'_>, preset: &QueryPreset) {
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

    /// Show the server's `value` of `attribute` in the rows at `key`, in every tab on `table`.
    pub fn show_server_value(&mut self, table: &str, key: &Item, attribute: &str, value: String) {
        for tab in self.tabs.iter_mut() {
            if let TabBody::Table(t) = &mut tab.body
                && t.table == table
                && let Some(row) = t.results.row_with_key(key)
            {
                let number = aws_sdk_dynamodb::types::AttributeValue::N(value.clone());
                t.results.rows.set_value(row, attribute, number);
            }
        }
    }

    /// Put `item`, as the server returned it, in place of its row in every tab on `table`.
    pub fn replace_row(&mut self, item: &Item, table: &TableInfo) {
        for tab in self.tabs.iter_mut() {
            if let TabBody::Table(t) = &mut tab.body
                && t.table == table.name
            {
                t.replace_row(item, table);
            }
        }
    }

    /// Whether the tab shown holds rows of `table` read as a Query or Scan (rows the counter
    /// editor and the tally checks may use with that table's keys).
    pub fn editable(&self, table: &str) -> bool {
        self.active_table() == Some(table)
    }

    /// The rows of the tab shown, when it is a table tab on `table`; none otherwise.
    pub fn loaded(&self, table: &str) -> Loaded<'_> {
        match self.tab().filter(|_| self.editable(table)) {
            Some(tab) => Loaded {
                run: tab.results().run,
                request: tab.results().request.as_ref(),
                rows: &tab.results().rows,
            },
            None => Loaded {
                run: 0,
                request: None,
                rows: &self.no_rows,
            },
        }
    }

    /// The row open in the item view.
    pub fn selected_item(&self) -> Option<Item> {
        self.tab()?.results().selected_item()
    }

    /// The partition key value typed in the shown tab's form.
    pub fn partition(&self) -> &str {
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
