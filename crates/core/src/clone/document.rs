//! A clone's one JSON document, typed: where from and to, how it ended, the schema step, the
//! items copied, the check at the end (counts and a sample, or every item compared) and the
//! stream turned on after.

use schemars::JsonSchema;
use serde::Serialize;

use crate::clone::{Check, CloneReport, CopyReport, SchemaStep, StreamStep, Verified};
use crate::diff::TableDiff;
use crate::ending::Ending;
use crate::error::Result;
use crate::report::Report;

/// A clone: its schema step, its items, the check at the end and the stream turned on after.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CloneDocument {
    /// The source table.
    pub(crate) from: String,
    /// The destination table.
    pub(crate) to: String,
    /// Where the destination is, in words.
    pub(crate) place: String,
    /// How the clone ended: `done`, `refused`, `error` or `unknown`.
    pub(crate) ending: Ending,
    /// How the destination's schema came about.
    pub(crate) schema: SchemaDocument,
    /// The items copied; `null` when the schema step stopped the clone before them.
    pub(crate) items: Option<CopyDocument>,
    /// The check at the end; `null` when the items were not all copied, or no check was asked.
    pub(crate) check: Option<CheckDocument>,
    /// The source's stream on a created copy; `null` when there is none to turn on.
    pub(crate) stream: Option<StreamDocument>,
}

/// How the destination's schema came about: created, or a table that was there.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum SchemaDocument {
    /// Created from the source's spec.
    Created {
        /// Always `true`: the table was created.
        created: bool,
        /// The creation in words, a line each.
        lines: Vec<String>,
        /// Each adjustment to the source's spec, in words.
        adjusted: Vec<String>,
    },
    /// An existing table with the source's keys.
    Existing {
        /// Always `false`: the table was there.
        created: bool,
        /// What that means, in words.
        note: String,
    },
}

/// How a clone's items ended: `read = written + refused + unknown + not_sent`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CopyDocument {
    /// Items read from the source.
    pub(crate) read: usize,
    /// Items written.
    pub(crate) written: usize,
    /// Items the destination refused or left unprocessed.
    pub(crate) refused: usize,
    /// Items whose batch's answer was lost: they may or may not be written.
    pub(crate) unknown: usize,
    /// Items never sent.
    pub(crate) not_sent: usize,
    /// `BatchWriteItem` requests sent.
    pub(crate) requests: u32,
    /// The write capacity units consumed at the destination.
    pub(crate) wcu: f64,
    /// Pages read from the source.
    pub(crate) pages: usize,
    /// The read capacity units consumed at the source.
    pub(crate) rcu: f64,
    /// How long the copy took, in seconds.
    pub(crate) seconds: f64,
    /// Whether every item was read to the end and written.
    pub(crate) complete: bool,
    /// Why it stopped, and what was not written and why, a line each.
    pub(crate) details: Vec<String>,
}

/// The check at the end of a clone.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum CheckDocument {
    /// Counts per partition and a sample compared item by item.
    Sampled(VerifiedDocument),
    /// Every item compared by key.
    Full(Box<FullCheckDocument>),
    /// The check could not be made.
    Failed {
        /// Why, in words.
        error: String,
    },
}

/// What a check by counts and a sample found.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct VerifiedDocument {
    /// Whether the two sides hold the same items, as far as the check can tell.
    pub(crate) agrees: bool,
    /// Items read at the source.
    pub(crate) source_items: u64,
    /// Items read at the destination.
    pub(crate) destination_items: u64,
    /// Partitions (or buckets of them) counted.
    pub(crate) partitions: usize,
    /// Whether there were too many partitions to count by name: the rest were counted in
    /// buckets.
    pub(crate) bucketed: bool,
    /// Partitions whose counts differ, in all.
    pub(crate) partitions_differing: usize,
    /// The first partitions whose counts differ.
    pub(crate) differing: Vec<PartitionDocument>,
    /// Items compared one by one.
    pub(crate) sampled: usize,
    /// Sampled items that differ, in all.
    pub(crate) sample_differing: usize,
    /// The first sampled items that differ, in words.
    pub(crate) sample_differences: Vec<String>,
    /// The read capacity units consumed on both sides.
    pub(crate) rcu: f64,
}

/// One partition whose counts differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct PartitionDocument {
    /// The partition key in DynamoDB JSON, or the bucket of partitions past those counted by
    /// name.
    pub(crate) partition: String,
    /// Items at the source.
    pub(crate) source: u64,
    /// Items at the destination.
    pub(crate) destination: u64,
}

impl Verified {
    /// The check's document.
    pub(crate) fn document(&self) -> VerifiedDocument {
        VerifiedDocument {
            agrees: self.agrees(),
            source_items: self.items.0,
            destination_items: self.items.1,
            partitions: self.partitions,
            bucketed: self.bucketed,
            partitions_differing: self.differing.1,
            differing: (self.differing.0.iter())
                .map(|p| PartitionDocument {
                    partition: p.key.clone(),
                    source: p.source,
                    destination: p.target,
                })
                .collect(),
            sampled: self.sampled,
            sample_differing: self.sample_differences.1,
            sample_differences: self.sample_differences.0.clone(),
            rcu: self.rcu,
        }
    }
}

crate::document_as!(Verified => VerifiedDocument, document);

/// Every item of the destination compared by key with the source's: the comparison's document
/// (side A the source, side B the destination), with `full` after it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct FullCheckDocument {
    /// The comparison.
    #[serde(flatten)]
    pub(crate) diff: TableDiff,
    /// Always `true`: every item was compared.
    pub(crate) full: bool,
}

impl CheckDocument {
    fn of(verified: &Result<Check>) -> Self {
        match verified {
            Ok(Check::Sampled(v)) => Self::Sampled(v.document()),
            Ok(Check::Full(diff)) => Self::Full(Box::new(FullCheckDocument {
                diff: TableDiff::clone(diff),
                full: true,
            })),
            Err(e) => Self::Failed {
                error: e.to_string(),
            },
        }
    }
}

/// The source's stream on a created copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct StreamDocument {
    /// Whether it was turned on.
    pub(crate) turned_on: bool,
    /// What became of it, in words, a line each.
    pub(crate) lines: Vec<String>,
}

impl CopyDocument {
    fn of(c: &CopyReport) -> Self {
        let i = &c.items;
        Self {
            read: i.read,
            written: i.written,
            refused: i.refused_count(),
            unknown: i.unknown_count(),
            not_sent: i.not_sent,
            requests: i.requests,
            wcu: i.wcu,
            pages: c.pages,
            rcu: c.rcu,
            seconds: i.elapsed.as_secs_f64(),
            complete: c.complete(),
            details: c.details(),
        }
    }
}

impl CloneReport {
    /// The report's document.
    pub(crate) fn document(&self) -> CloneDocument {
        CloneDocument {
            from: self.from.clone(),
            to: self.to.clone(),
            place: self.place.clone(),
            ending: self.ending(),
            schema: match &self.schema {
                SchemaStep::Created { report, adjusted } => SchemaDocument::Created {
                    created: true,
                    lines: report.lines().into_iter().map(|l| l.text).collect(),
                    adjusted: adjusted.clone(),
                },
                SchemaStep::Existing { note } => SchemaDocument::Existing {
                    created: false,
                    note: note.clone(),
                },
            },
            items: self.copy.as_ref().map(CopyDocument::of),
            check: self.verified.as_ref().map(CheckDocument::of),
            stream: self.stream.as_ref().map(|s| StreamDocument {
                turned_on: matches!(s, StreamStep::Sent(r)
                    if r.failure().is_none() && r.ending() == Ending::Done),
                lines: s.lines(&self.to),
            }),
        }
    }
}

crate::document_as!(CloneReport => CloneDocument, document);
