//! A table management run's one JSON document, typed: each write and how it ended, the table
//! as it is at the end, a backup, and the notes; a run of several changes adds the error that
//! stopped it.

use schemars::JsonSchema;
use serde::Serialize;

use crate::admin::{AdminReport, BackupInfo};
use crate::schema::{Described, create_input_json};
use crate::write::WriteOutcome;

/// Table management writes: how each ended, and the table as it is at the end.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct AdminDocument {
    /// Each write sent, in the order sent.
    pub(crate) writes: Vec<WriteDocument>,
    /// The table as described at the end; `null` once deleted, or when it could not be read.
    pub(crate) after: Option<AfterDocument>,
    /// The backup a backup write made or deleted, as described again; `null` when none (or
    /// once gone).
    pub(crate) backup: Option<BackupDocument>,
    /// What else was read again, in words: a restored table's items, a backup gone.
    pub(crate) notes: Vec<String>,
}

/// One table management write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct WriteDocument {
    /// What it did, in words.
    pub(crate) what: String,
    /// How it ended.
    pub(crate) outcome: WriteOutcomeWord,
}

/// How a write ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WriteOutcomeWord {
    /// The server applied it.
    Applied,
    /// It was refused: nothing changed.
    Refused,
    /// It may or may not have been applied, and was not sent again.
    Unknown,
}

impl WriteOutcomeWord {
    fn of(outcome: &WriteOutcome) -> Self {
        match outcome {
            WriteOutcome::Applied { .. } => Self::Applied,
            WriteOutcome::Refused { .. } => Self::Refused,
            WriteOutcome::Unknown { .. } => Self::Unknown,
        }
    }
}

/// A table as described at the end of a run.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct AfterDocument {
    /// The table as a `CreateTable` request body (what `--cli-input-json` takes).
    pub(crate) table: serde_json::Value,
    /// `ACTIVE`, `CREATING`, `UPDATING`, `DELETING`…
    pub(crate) status: String,
    /// Its state in words, with each global index not yet settled:
    /// `UPDATING; index ByUser CREATING (backfilling)`.
    pub(crate) state: String,
    /// The TTL attribute; `null` when TTL is off.
    pub(crate) ttl: Option<String>,
    /// Whether point-in-time recovery is on.
    pub(crate) pitr: bool,
    /// Items, as last reported; `null` when not said.
    pub(crate) item_count: Option<i64>,
    /// Parts of the table the server did not describe, each with why.
    pub(crate) not_read: Vec<String>,
}

impl AfterDocument {
    fn of(table: &Described) -> Self {
        Self {
            table: create_input_json(&table.spec),
            status: table.status.clone(),
            state: table.state(),
            ttl: table.spec.ttl.clone(),
            pitr: table.spec.pitr,
            item_count: table.item_count,
            not_read: table.unread.clone(),
        }
    }
}

/// An on-demand backup as the server describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct BackupDocument {
    /// Its name (not unique).
    pub(crate) name: String,
    /// Its ARN (unique: what a restore or a delete names).
    pub(crate) arn: String,
    /// The table it was made of.
    pub(crate) table: String,
    /// `CREATING`, `AVAILABLE`, `DELETED`.
    pub(crate) status: String,
    /// When it was made, as RFC 3339 text; `null` when not said.
    pub(crate) created: Option<String>,
    /// Its size in bytes; `null` when not said.
    pub(crate) size_bytes: Option<i64>,
    /// `USER` (on demand), `SYSTEM`, `AWS_BACKUP`.
    #[serde(rename = "type")]
    pub(crate) kind: String,
}

impl BackupDocument {
    fn of(backup: &BackupInfo) -> Self {
        Self {
            name: backup.name.clone(),
            arn: backup.arn.clone(),
            table: backup.table.clone(),
            status: backup.status.clone(),
            created: backup.created.clone(),
            size_bytes: backup.size_bytes,
            kind: backup.kind.clone(),
        }
    }
}

impl AdminDocument {
    /// The document of `reports`, one after another: every write, the table and the backup as
    /// the last one left them, and every note.
    pub(crate) fn of(reports: &[AdminReport]) -> Self {
        Self {
            writes: (reports.iter())
                .flat_map(|r| &r.writes)
                .map(|(what, outcome)| WriteDocument {
                    what: what.clone(),
                    outcome: WriteOutcomeWord::of(outcome),
                })
                .collect(),
            after: (reports.last())
                .and_then(|r| r.after.as_ref())
                .map(AfterDocument::of),
            backup: (reports.last())
                .and_then(|r| r.backup.as_ref())
                .map(BackupDocument::of),
            notes: reports.iter().flat_map(|r| r.notes.clone()).collect(),
        }
    }
}

/// Several changes to one table sent one after another: their writes, the table at the end,
/// and the error that stopped the run once something had applied.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ChangeRunDocument {
    /// The writes, the table at the end, a backup and the notes.
    #[serde(flatten)]
    pub(crate) run: AdminDocument,
    /// Why the run stopped after something had applied, in words; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
}

crate::document_as!(AdminReport => AdminDocument, document);

impl AdminReport {
    /// The report's document.
    pub(crate) fn document(&self) -> AdminDocument {
        AdminDocument::of(std::slice::from_ref(self))
    }
}
