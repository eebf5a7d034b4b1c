//! What the result tabs ran, kept as the history (newest first, searchable from the Ctrl+K
//! palette), and tabs opened from the palette: a saved query or a history entry, run once its
//! table is open.

use crate::browse::tabs::{TabBody, TabKind};
use crate::browse::{BrowseFeature, Tab};
use crate::scope::Scope;
use dynoscope_core::saved::{History, Ran, now_secs};

impl BrowseFeature {
    /// The queries run, as remembered.
    pub(crate) fn history(&self) -> &History {
        &self.history
    }

    /// Note in the history every tab whose rows were read afresh since last looked at (not
    /// an auto-refresh: it runs what already ran).
    pub(super) fn note_runs(&mut self) {
        for tab in &mut self.tabs {
            let run = tab.body.results().run;
            if run == tab.run_seen {
                continue;
            }
            tab.run_seen = run;
            if tab.body.refreshing() {
                continue;
            }
            let kind = tab.body.kind();
            if let Ok(query) = serde_json::to_value(&kind) {
                self.history.add(Ran {
                    at: now_secs(),
                    summary: kind.summary(),
                    query,
                });
            }
        }
    }

    /// Open a tab of `kind` (a saved query, a history entry, a new statement), to be run
    /// (`run`) as soon as its table is the open one.
    pub(crate) fn open_query(&mut self, kind: TabKind, run: bool) {
        let base = match &kind {
            TabKind::Table { table, .. } => table.clone(),
            TabKind::Partiql(_) => "partiql".to_owned(),
            TabKind::Sql(_) => "sql".to_owned(),
        };
        self.open_tab(&base, kind);
        if let Some(tab) = self.tabs.get_mut(self.active) {
            tab.run_pending = run;
        }
    }

    /// Run the shown tab if it was opened to be run and can be now.
    pub(super) fn run_pending(&mut self, scope: &Scope<'_>) {
        let active = self.active;
        let Some(Tab {
            body, run_pending, ..
        }) = self.tabs.get_mut(active)
        else {
            return;
        };
        if !*run_pending {
            return;
        }
        match body {
            TabBody::Table(t) if t.table == scope.table.name => t.run(scope),
            TabBody::Table(_) => return,
            TabBody::Partiql(p, _) => p.run(scope),
            TabBody::Sql(..) => {
                *run_pending = false;
                self.run_sql(scope);
                return;
            }
        }
        *run_pending = false;
    }
}
