//! The kinds of result tab — a table's Query/Scan, PartiQL, SQL over other tabs — and what
//! every kind answers alike: its rows, whether it is busy, its status bar; and what brings a
//! tab back after a restart.

use egui::Ui;

use crate::browse::form::QueryForm;
use crate::browse::partiql_tab::{PartiqlForm, PartiqlTab};
use crate::browse::results::Results;
use crate::browse::rows_view::Export;
use crate::browse::sql_tab::{SqlForm, SqlTab};
use crate::browse::status::{Loading, StatusAction, status_bar_ui};
use crate::browse::tab::TableTab;
use crate::intent::Intent;
use crate::scope::Scope;

/// What a tab is, as remembered.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum TabKind {
    /// A Query or Scan of `table` with this form.
    Table {
        /// The table.
        table: String,
        /// The form.
        form: Box<QueryForm>,
    },
    /// A PartiQL statement.
    Partiql(PartiqlForm),
    /// SQL over the other tabs' rows.
    Sql(SqlForm),
}

impl TabKind {
    /// It in a line, as the history and the palette list it: `Query Social PK = POST#a91f`,
    /// `Scan Videos`, `PartiQL SELECT …`, `SQL SELECT …`.
    pub fn summary(&self) -> String {
        let one_line = |text: &str| {
            let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match line.char_indices().nth(80) {
                Some((at, _)) => format!("{}…", &line[..at]),
                None => line,
            }
        };
        match self {
            Self::Table { table, form } if form.scan => {
                let index = form
                    .index
                    .as_deref()
                    .map(|i| format!(" {i}"))
                    .unwrap_or_default();
                format!("Scan {table}{index}")
            }
            Self::Table { table, form } => {
                let index = form
                    .index
                    .as_deref()
                    .map(|i| format!(" {i}"))
                    .unwrap_or_default();
                let sort = match form.sort_op {
                    Some(op) => format!(" · sort {} {}", op.symbol(), form.sort_value),
                    None => String::new(),
                };
                format!("Query {table}{index} = {}{sort}", form.partition)
            }
            Self::Partiql(form) => format!("PartiQL {}", one_line(&form.statement)),
            Self::Sql(form) => format!("SQL {}", one_line(&form.sql)),
        }
    }
}

/// What brings a tab back after a restart: its name and kind (not its rows).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TabSpec {
    /// The tab's name (also its table name in SQL).
    pub name: String,
    /// What it is.
    pub kind: TabKind,
}

/// A tab's own state.
pub(super) enum TabBody {
    /// A table's Query or Scan.
    Table(Box<TableTab>),
    /// PartiQL, with its export.
    Partiql(Box<PartiqlTab>, Export),
    /// SQL, with its export.
    Sql(Box<SqlTab>, Export),
}

impl TabBody {
    /// A tab as `kind` says, nothing loaded.
    pub(super) fn new(kind: TabKind) -> Self {
        match kind {
            TabKind::Table { table, form } => Self::Table(Box::new(TableTab::new(&table, *form))),
            TabKind::Partiql(form) => {
                Self::Partiql(Box::new(PartiqlTab::new(form)), Export::default())
            }
            TabKind::Sql(form) => Self::Sql(Box::new(SqlTab::new(form)), Export::default()),
        }
    }

    /// What to remember of it.
    pub(super) fn kind(&self) -> TabKind {
        match self {
            Self::Table(t) => TabKind::Table {
                table: t.table.clone(),
                form: Box::new(t.form.clone()),
            },
            Self::Partiql(p, _) => TabKind::Partiql(p.form.clone()),
            Self::Sql(s, _) => TabKind::Sql(s.form.clone()),
        }
    }

    /// The table a table tab reads.
    pub(super) fn table(&self) -> Option<&str> {
        match self {
            Self::Table(t) => Some(&t.table),
            Self::Partiql(..) | Self::Sql(..) => None,
        }
    }

    /// Its rows.
    pub(super) fn results(&self) -> &Results {
        match self {
            Self::Table(t) => &t.results,
            Self::Partiql(p, _) => &p.results,
            Self::Sql(s, _) => &s.results,
        }
    }

    /// Its rows, to change.
    pub(super) fn results_mut(&mut self) -> &mut Results {
        match self {
            Self::Table(t) => &mut t.results,
            Self::Partiql(p, _) => &mut p.results,
            Self::Sql(s, _) => &mut s.results,
        }
    }

    /// Whether the read under way is an auto-refresh (of what already ran).
    pub(super) fn refreshing(&self) -> bool {
        matches!(self, Self::Table(t) if t.refreshing())
    }

    /// Whether a write it sent has not answered yet.
    pub(super) fn writing(&self) -> bool {
        matches!(self, Self::Partiql(p, _) if p.writing())
    }

    /// Whether work it started is under way.
    pub(super) fn busy(&self) -> bool {
        match self {
            Self::Table(t) => t.busy(),
            Self::Partiql(p, _) => p.busy(),
            Self::Sql(s, _) => s.busy(),
        }
    }

    /// Take in what its work brought back.
    #[must_use]
    pub(super) fn poll(&mut self) -> Option<Intent> {
        match self {
            Self::Table(t) => {
                t.poll();
                None
            }
            Self::Partiql(p, export) => {
                export.poll();
                p.poll()
            }
            Self::Sql(s, export) => {
                s.poll();
                export.poll();
                None
            }
        }
    }

    /// Stop its reads.
    pub(super) fn cancel(&self) {
        match self {
            Self::Table(t) => t.cancel(),
            Self::Partiql(p, _) => p.cancel(),
            // SQL runs on this machine in seconds; its worker finishes and is dropped.
            Self::Sql(..) => {}
        }
    }

    /// Forget rows read on another connection.
    pub(super) fn clear(&mut self) {
        match self {
            Self::Table(t) => t.clear(),
            Self::Partiql(p, _) => p.clear(),
            // SQL results are computed here, from rows already shown; they stay.
            Self::Sql(..) => {}
        }
    }

    /// Its status bar: what loaded, Cancel, Export.
    pub(super) fn status_ui(&mut self, ui: &mut Ui, scope: Option<&Scope<'_>>, name: &str) {
        match self {
            Self::Table(t) => t.status_ui(ui, scope),
            Self::Partiql(p, export) => {
                let loading = if p.busy() {
                    Loading::Page
                } else {
                    Loading::Idle
                };
                let pricing = scope.map(|s| s.connection.pricing_undescribed());
                let action =
                    status_bar_ui(ui, &p.results, loading, pricing.as_ref(), &mut export.path);
                export.ui(ui);
                match (action, scope) {
                    (Some(StatusAction::Cancel), _) => p.cancel(),
                    (Some(StatusAction::Export(format)), Some(scope)) => {
                        export.start(scope, &p.results, file_name(name), format);
                    }
                    _ => {}
                }
            }
            Self::Sql(s, export) => {
                let action = status_bar_ui(ui, &s.results, Loading::Idle, None, &mut export.path);
                export.ui(ui);
                if let (Some(StatusAction::Export(format)), Some(scope)) = (action, scope) {
                    export.start(scope, &s.results, file_name(name), format);
                }
            }
        }
    }
}

/// A file name for a tab's rows.
fn file_name(name: &str) -> String {
    format!("{name}.jsonl")
}
