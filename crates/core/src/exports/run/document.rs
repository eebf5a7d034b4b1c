//! An export run as its typed document: what was asked, how the start (and point-in-time
//! recovery first) ended, and the export as last described.

use serde::Serialize;

use crate::exports::info::ExportInfo;
use crate::exports::run::ExportRun;
use crate::write::WriteOutcome;

impl ExportRun {
    /// The run as its document.
    fn document(&self) -> ExportRunDocument {
        ExportRunDocument {
            what: self.what.clone(),
            price: self.price.clone(),
            token: self.token.clone(),
            pitr: self.pitr.as_ref().map(OutcomeName::of),
            start: OutcomeName::of(&self.start),
            attempts: self.start.attempts(),
            export: self.export.as_ref().map(ExportDocument::of),
            location: self.location.clone(),
            stopped_following: self.stopped_following,
            notes: self.notes.clone(),
        }
    }
}

crate::document_as!(ExportRun => ExportRunDocument, document);

/// An export run: point-in-time recovery turned on first when planned so, the export's start,
/// and the export as last described.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct ExportRunDocument {
    /// What was asked, in words.
    pub(crate) what: String,
    /// Its price, in words, as said before it started.
    pub(crate) price: String,
    /// The `ClientToken` every attempt of the start carried.
    pub(crate) token: String,
    /// How turning on point-in-time recovery first ended; `null` when it was not needed.
    pub(crate) pitr: Option<OutcomeName>,
    /// How the export's start ended.
    pub(crate) start: OutcomeName,
    /// Requests the start sent.
    pub(crate) attempts: u32,
    /// The export as last described; `null` when it was not described.
    pub(crate) export: Option<ExportDocument>,
    /// Where its files are, once it completed; `null` before.
    pub(crate) location: Option<String>,
    /// Whether following was given up by a cancel (the export goes on).
    pub(crate) stopped_following: bool,
    /// What else was found, in words.
    pub(crate) notes: Vec<String>,
}

/// How a write sent through the gateway ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OutcomeName {
    /// It was applied.
    Applied,
    /// It was refused, or not sent.
    Refused,
    /// Whether it was applied is unknown.
    Unknown,
}

impl OutcomeName {
    fn of(outcome: &WriteOutcome) -> Self {
        match outcome {
            WriteOutcome::Applied { .. } => Self::Applied,
            WriteOutcome::Refused { .. } => Self::Refused,
            WriteOutcome::Unknown { .. } => Self::Unknown,
        }
    }
}

/// An export as the server describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct ExportDocument {
    /// Its ARN.
    pub(crate) arn: String,
    /// `IN_PROGRESS`, `COMPLETED` or `FAILED`.
    pub(crate) status: String,
    /// `FULL_EXPORT` or `INCREMENTAL_EXPORT`; `null` when not said.
    #[serde(rename = "type")]
    pub(crate) kind: Option<String>,
    /// The bucket; `null` when not described.
    pub(crate) bucket: Option<String>,
    /// The prefix in the bucket; `null` when not described.
    pub(crate) prefix: Option<String>,
    /// The key of its `manifest-summary.json`; `null` until written.
    pub(crate) manifest: Option<String>,
    /// Items exported; `null` when not said.
    pub(crate) items: Option<i64>,
    /// The size it is billed for, in bytes; `null` when not said.
    pub(crate) billed_bytes: Option<i64>,
    /// When it began, RFC 3339; `null` when not said.
    pub(crate) started: Option<String>,
    /// When it ended, RFC 3339; `null` when not said.
    pub(crate) ended: Option<String>,
    /// Why it failed; `null` when it did not.
    pub(crate) failure: Option<String>,
}

impl ExportDocument {
    /// The document of `info`.
    pub(crate) fn of(info: &ExportInfo) -> Self {
        Self {
            arn: info.arn.clone(),
            status: info.status.clone(),
            kind: info.kind.clone(),
            bucket: info.bucket.clone(),
            prefix: info.prefix.clone(),
            manifest: info.manifest.clone(),
            items: info.items,
            billed_bytes: info.billed_bytes,
            started: info.started.clone(),
            ended: info.ended.clone(),
            failure: info.failure.clone(),
        }
    }
}
