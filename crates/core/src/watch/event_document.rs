//! A watch's events as JSON lines (the CLI's `watch --json`): each record read from the stream,
//! each divergence as it opens, moves and closes — typed, named by `type`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::number::to_dynamodb;
use crate::stream::time_text;
use crate::value::{Item, Style, json::item_to_json};
use crate::watch::{Change, Divergence, gap_text};

/// One record of the stream, folded under the counter rule.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct WatchRecordDocument {
    /// The item before, in DynamoDB JSON, when the stream carries it.
    pub old: Option<serde_json::Value>,
    /// The item after, in DynamoDB JSON, when the stream carries it (and it was not removed).
    pub new: Option<serde_json::Value>,
    /// Always `record`.
    #[serde(rename = "type")]
    pub line: WatchRecordKind,
    /// The record's sequence number.
    pub sequence: String,
    /// When it was written, date and time (UTC).
    pub at: String,
    /// When it was written, stream time in milliseconds since 1970.
    pub at_ms: i64,
    /// `INSERT`, `MODIFY` or `REMOVE`.
    pub kind: String,
    /// The parent's partition key.
    pub parent: String,
    /// The item's sort key (or partition key when the table has none).
    pub item: String,
    /// What it did to the counter, in words.
    pub what: String,
    /// The stored tally after it, as the watch knows it; `null` when missing or not seen yet.
    pub tally: Option<String>,
    /// The children after it; `null` when not known yet.
    pub children: Option<String>,
    /// Tally minus children after it, signed, or `missing tally`.
    pub drift: String,
    /// Attributes of the item that tell who or when wrote it.
    pub evidence: BTreeMap<String, String>,
}

/// What a record line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WatchRecordKind {
    /// A record of the stream.
    Record,
}

impl Change {
    /// The record as its JSON line.
    pub fn document(&self, tally: &str) -> WatchRecordDocument {
        // The images as DynamoDB JSON, numbers exact.
        let image = |item: &Option<Item>| item.as_ref().map(|i| item_to_json(i, &[], Style::Typed));
        WatchRecordDocument {
            old: image(&self.old),
            new: image(&self.new),
            line: WatchRecordKind::Record,
            sequence: self.sequence.0.clone(),
            at: time_text(self.at_ms, true),
            at_ms: self.at_ms,
            kind: self.kind.name().to_owned(),
            parent: self.parent.clone(),
            item: self.item.clone(),
            what: self.what(tally),
            tally: self.tally_after.clone(),
            children: self.children_after.as_ref().map(to_dynamodb),
            drift: gap_text(self.gap_after.as_ref()),
            evidence: self.evidence.iter().cloned().collect(),
        }
    }
}

impl Divergence {
    /// The divergence, closed, as its JSON line (`type` `closed`).
    pub fn closed_json(&self, tally: &str) -> serde_json::Value {
        let mut document = self.document(tally);
        document.kind = crate::watch::summary::DivergenceKind::Closed;
        crate::document::Document::to_json(&document)
    }
}
