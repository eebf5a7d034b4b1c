//! The tab strip: open (Ctrl+T, **+**, **+ PartiQL**, **+ SQL**), choose and close (Ctrl+W,
//! ×) result tabs, each named uniquely so that it can be an SQL table.

use egui::{Key, Modifiers, Ui};

use crate::browse::partiql_tab::PartiqlForm;
use crate::browse::sql_tab::SqlForm;
use crate::browse::tabs::{TabBody, TabKind};
use crate::browse::{BrowseFeature, Tab, new_table_kind};
use crate::intent::Intent;
use crate::scope::Scope;
use dynoscope_core::sql::SqlSource;

impl BrowseFeature {
    pub(super) fn open_tab(&mut self, base: &str, kind: TabKind) {
        let name = self.unique_name(base);
        self.tabs.push(Tab {
            name,
            body: TabBody::new(kind),
            layout_given: dynoscope_core::rows::ColumnLayout::default(),
            run_seen: 0,
            run_pending: false,
            counted_run: None,
        });
        self.active = self.tabs.len() - 1;
    }

    /// A name for a new tab: `base` as an SQL identifier, numbered when taken.
    fn unique_name(&self, base: &str) -> String {
        let base: String = base
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
        // Each tab holds at most one of these names, so one of the first `tabs + 1` is free.
        (2..=self.tabs.len() + 2)
            .map(|i| format!("{base}_{i}"))
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    /// Close tab `at`, unless a write it sent has not answered yet (its outcome must be seen).
    pub(super) fn close_tab(&mut self, at: usize) {
        if self.tabs.get(at).is_some_and(|t| t.body.writing()) {
            return;
        }
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
    pub(super) fn tabs_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        // Not while typing: Ctrl+W in the statement editor must not close its tab.
        let typing = ui.ctx().text_edit_focused();
        let (new, close) = ui.input_mut(|i| {
            (
                !typing && i.consume_key(Modifiers::COMMAND, Key::T),
                !typing && i.consume_key(Modifiers::COMMAND, Key::W),
            )
        });
        if new {
            self.open_tab(&scope.table.name, new_table_kind(&scope.table.name));
        }
        let before = self.active_table().map(str::to_owned);
        if close {
            self.close_tab(self.active);
        }
        let mut chosen = None;
        let mut closed = None;
        ui.horizontal_wrapped(|ui| {
            for (i, tab) in self.tabs.iter().enumerate() {
                let busy = if tab.body.busy() { " …" } else { "" };
                let what = match &tab.body {
                    TabBody::Table(t) => t.table.clone(),
                    TabBody::Partiql(..) => "PartiQL".to_owned(),
                    TabBody::Sql(..) => "SQL".to_owned(),
                };
                // A tab named after its table says it once.
                let label = if tab.name == what {
                    format!("{what}{busy}")
                } else {
                    format!("{} · {what}{busy}", tab.name)
                };
                let rows = tab.body.results().rows.len();
                if ui
                    .selectable_label(i == self.active, &label)
                    .on_hover_text(format!("{rows} rows loaded"))
                    .accessible_name(format!("Tab {label}"))
                    .clicked()
                {
                    chosen = Some(i);
                }
                if ui
                    .small_button("×")
                    .on_hover_text(format!("Close tab {} (Ctrl+W)", tab.name))
                    .accessible_name(format!("Close tab {}", tab.name))
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
                self.open_tab(&scope.table.name, new_table_kind(&scope.table.name));
            }
            if ui
                .button("+ PartiQL")
                .on_hover_text("A tab for PartiQL statements")
                .clicked()
            {
                self.open_tab("partiql", TabKind::Partiql(PartiqlForm::default()));
            }
            if ui
                .button("+ SQL")
                .on_hover_text("SQL over the rows loaded in the other tabs (each tab is a table)")
                .clicked()
            {
                self.open_tab("sql", TabKind::Sql(SqlForm::default()));
            }
        });
        if let Some(at) = closed {
            self.close_tab(at);
        }
        if let Some(at) = chosen {
            self.active = at;
        }
        // The tab now shown reads another table (chosen, or shown because one was closed):
        // open that table, so that its form and edits use its keys.
        let table = self.active_table()?.to_owned();
        let changed = chosen.is_some() || before.as_deref() != Some(table.as_str());
        (changed && table != scope.table.name).then_some(Intent::OpenTable(table))
    }
}

impl BrowseFeature {
    /// Run the shown SQL tab over every other tab's rows.
    pub(super) fn run_sql(&mut self, scope: &Scope<'_>) {
        let active = self.active;
        let sources: Vec<SqlSource> = self
            .tabs
            .iter()
            .enumerate()
            .filter(|(i, t)| *i != active && !t.body.results().rows.is_empty())
            .map(|(_, t)| SqlSource {
                name: t.name.clone(),
                key_names: t.body.results().key_names().to_vec(),
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
}
