//! Browsing in result tabs: each tab queries or scans one table with its own form, rows,
//! sort, find, scroll and selection; several are open at once, across tables. The tab strip
//! (Ctrl+T new, Ctrl+W close) and the item view of the selected row are here; a tab's own work
//! is in [`tab`].

mod columns;
mod find;
mod form;
mod grid;
mod item_view;
mod keys;
mod results;
mod status;
mod tab;

use egui::{Key, Modifiers, Ui};

use crate::core::counter::Change;
use crate::core::rows::Rows;
use crate::core::table::TableInfo;
use crate::core::value::Item;
use crate::ui::{Intent, Loaded, QueryPreset, Scope};

pub use form::QueryForm;
pub use item_view::ItemFormat;
pub use results::Results;

use grid::GridAction;
use item_view::item_view_ui;
use tab::TableTab;

/// What brings a tab back after a restart: its name, table and form (not its rows).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TabSpec {
    /// The tab's name (also its table name in SQL).
    pub name: String,
    /// The table it reads.
    pub table: String,
    /// Its form.
    pub form: QueryForm,
}

struct Tab {
    name: String,
    body: TableTab,
}

/// The browse feature's state: the tabs and which one is shown.
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
                body: TableTab::new(&s.table, s.form),
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
                table: t.body.table.clone(),
                form: t.body.form.clone(),
            })
            .collect()
    }

    /// How the item view shows items.
    pub fn item_format(&self) -> ItemFormat {
        self.item_format
    }

    fn tab(&self) -> Option<&TableTab> {
        self.tabs.get(self.active).map(|t| &t.body)
    }

    fn tab_mut(&mut self) -> Option<&mut TableTab> {
        self.tabs.get_mut(self.active).map(|t| &mut t.body)
    }

    /// The table of the tab shown.
    pub fn active_table(&self) -> Option<&str> {
        self.tab().map(|t| t.table.as_str())
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
        match self.tabs.iter().rposition(|t| t.body.table == table) {
            Some(at) => self.active = at,
            None => self.open_tab(table, QueryForm::default()),
        }
    }

    fn open_tab(&mut self, table: &str, form: QueryForm) {
        let name = self.unique_name(table);
        self.tabs.push(Tab {
            name,
            body: TableTab::new(table, form),
        });
        self.active = self.tabs.len() - 1;
    }

    /// A name for a new tab on `table`: the table's name as an SQL identifier, numbered when
    /// taken.
    fn unique_name(&self, table: &str) -> String {
        let base: String = table
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let base = if base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            base
        } else {
            format!("t_{base}")
        };
        let taken = |n: &str| self.tabs.iter().any(|t| t.name == n);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|i| format!("{base}_{i}"))
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    fn close_tab(&mut self, at: usize) {
        if at < self.tabs.len() {
            self.tabs[at].body.cancel();
            self.tabs.remove(at);
            if self.active >= at && self.active > 0 {
                self.active -= 1;
            }
        }
    }

    /// The tab strip; an intent to open another tab's table.
    #[must_use]
    fn tabs_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        let (new, close) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::COMMAND, Key::T),
                i.consume_key(Modifiers::COMMAND, Key::W),
            )
        });
        if new {
            self.open_tab(&scope.table.name, QueryForm::default());
        }
        if close {
            self.close_tab(self.active);
        }
        let mut chosen = None;
        let mut closed = None;
        ui.horizontal_wrapped(|ui| {
            for (i, tab) in self.tabs.iter().enumerate() {
                let busy = if tab.body.busy() { " …" } else { "" };
                let label = format!("{} · {}{busy}", tab.name, tab.body.table);
                if ui
                    .selectable_label(i == self.active, label)
                    .on_hover_text(format!("{} rows loaded", tab.body.results.rows.len()))
                    .clicked()
                {
                    chosen = Some(i);
                }
                if ui
                    .small_button("×")
                    .on_hover_text(format!("Close tab {} (Ctrl+W)", tab.name))
                    .clicked()
                {
                    closed = Some(i);
                }
            }
            if ui
                .button("+")
                .on_hover_text(format!("New tab on {} (Ctrl+T)", scope.table.name))
                .clicked()
            {
                self.open_tab(&scope.table.name, QueryForm::default());
            }
        });
        if let Some(at) = closed {
            self.close_tab(at);
        }
        let at = chosen?;
        self.active = at;
        let table = self.tabs.get(at)?.body.table.clone();
        (table != scope.table.name).then_some(Intent::OpenTable(table))
    }

    /// Draw the tabs, the shown tab's form and grid.
    #[must_use]
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        if self.tabs.is_empty() {
            self.open_tab(&scope.table.name, QueryForm::default());
        }
        let open = self.tabs_ui(ui, scope);
        if open.is_some() {
            return open;
        }
        let rerun = ui.input_mut(|i| {
            i.consume_key(Modifiers::NONE, Key::F5)
                | i.consume_key(Modifiers::COMMAND, Key::R)
                | i.consume_key(Modifiers::COMMAND, Key::Enter)
        });
        let active = self.active;
        let tab = self.tabs.get_mut(active)?;
        ui.horizontal(|ui| {
            let label = ui.label("Tab name (its table in SQL)");
            ui.add(egui::TextEdit::singleline(&mut tab.name).desired_width(160.0))
                .labelled_by(label.id);
        });
        let action = tab.body.view_ui(ui, scope, rerun)?;
        let (row, attribute, change) = match action {
            GridAction::Add {
                row,
                attribute,
                delta,
            } => (row, attribute, Some(Change::By(delta.to_owned()))),
            GridAction::Edit { row, attribute } => (row, attribute, None),
        };
        let results = &mut tab.body.results;
        results.selected = Some(row);
        let item = results.rows.item(row)?;
        Some(Intent::EditNumber {
            item: Box::new(item),
            attribute,
            change,
        })
    }

    /// Draw the status bar of the tab shown.
    pub fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>) {
        match self.tab_mut() {
            Some(tab) => tab.status_ui(ui, scope),
            None => {
                ui.weak("Pick a table, then Query a partition or Scan.");
            }
        }
    }

    /// Draw the header of the item view (Close, or Esc).
    pub fn item_header_ui(&mut self, ui: &mut Ui) {
        let escape = !ui.ctx().egui_wants_keyboard_input()
            && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape));
        ui.horizontal(|ui| {
            ui.strong("Item");
            if (ui.small_button("Close").clicked() || escape)
                && let Some(tab) = self.tab_mut()
            {
                tab.results.selected = None;
            }
        });
    }

    /// Draw the selected item as JSON.
    pub fn item_ui(&mut self, ui: &mut Ui) {
        let Some(tab) = self.tabs.get(self.active) else {
            return;
        };
        if let Some(item) = tab.body.results.selected_item() {
            item_view_ui(
                ui,
                &item,
                &tab.body.results.key_names,
                &mut self.item_format,
            );
        }
    }

    /// Set the shown tab's form up as `preset` says (a new tab when the shown one is busy).
    pub fn show(&mut self, scope: &Scope<'_>, preset: &QueryPreset) {
        if self.tab().is_none_or(|t| t.table != scope.table.name) {
            self.open_tab(&scope.table.name, QueryForm::default());
        }
        if let Some(tab) = self.tab_mut() {
            tab.show(scope, preset);
        }
    }

    /// Show the server's `value` of `attribute` in the rows at `key`, in every tab on `table`.
    pub fn show_server_value(&mut self, table: &str, key: &Item, attribute: &str, value: String) {
        for tab in self.tabs.iter_mut().filter(|t| t.body.table == table) {
            let results = &mut tab.body.results;
            if let Some(row) = results.row_with_key(key) {
                let number = aws_sdk_dynamodb::types::AttributeValue::N(value.clone());
                results.rows.set_value(row, attribute, number);
            }
        }
    }

    /// Put `item`, as the server returned it, in place of its row in every tab on `table`.
    pub fn replace_row(&mut self, item: &Item, table: &TableInfo) {
        for tab in self.tabs.iter_mut().filter(|t| t.body.table == table.name) {
            tab.body.replace_row(item, table);
        }
    }

    /// The rows of the tab shown.
    pub fn loaded(&self) -> Loaded<'_> {
        match self.tab() {
            Some(tab) => Loaded {
                run: tab.results.run,
                request: tab.results.request.as_ref(),
                rows: &tab.results.rows,
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
        self.tab()?.results.selected_item()
    }

    /// The partition key value typed in the shown tab's form.
    pub fn partition(&self) -> &str {
        self.tab().map_or("", |t| t.form.partition.as_str())
    }
}
