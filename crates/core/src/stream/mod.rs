//! DynamoDB Streams: a table's stream found, its shards walked in lineage order
//! ([`shards::ShardWalk`]), its records read once each by the one stream reader
//! ([`reader::follow`]), through the Streams client of the same connection as the table's.
//! Turning a stream on is a change to the table's settings, sent through the write gateway.

mod calls;
mod enable;
pub mod reader;
pub mod record;
pub mod shards;
pub mod walk;

pub use enable::{EnableReport, enable, enable_plan};
pub use reader::follow;
pub use record::{EventKind, SequenceNumber, StreamRecord, time_text};
pub use walk::Followed;
pub use walk::{StartAt, StreamEvent, Tuning, Until, now_ms};

use crate::error::{Error, Result};
use crate::table::TableInfo;

/// A table's stream, as a watch of counters reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamSource {
    /// The table.
    pub table: String,
    /// The stream's ARN.
    pub arn: String,
    /// What each record carries: `NEW_AND_OLD_IMAGES`, `NEW_IMAGE`, ….
    pub view: String,
}

impl StreamSource {
    /// The stream of `info`'s table, when it has one whose records carry the new images a tally
    /// is read from. The words of a table without one offer the two ways out.
    pub fn of(info: &TableInfo) -> Result<Self> {
        let (Some(view), Some(arn)) = (&info.stream, &info.stream_arn) else {
            return Err(Error::Invalid(no_stream(&info.name)));
        };
        if !matches!(view.as_str(), "NEW_AND_OLD_IMAGES" | "NEW_IMAGE") {
            return Err(Error::Invalid(format!(
                "the stream of table {} carries {view}: a tally's new value is not in its \
                 records (a stream with NEW_AND_OLD_IMAGES is; or poll the parent's tally and \
                 children instead)",
                info.name
            )));
        }
        Ok(Self {
            table: info.name.clone(),
            arn: arn.clone(),
            view: view.clone(),
        })
    }
}

/// Why a table without a stream cannot be watched, and the two ways out.
pub fn no_stream(table: &str) -> String {
    format!(
        "table {table} has no stream: turn one on (NEW_AND_OLD_IMAGES, a change to the table's \
         settings), or poll the parent's tally and children every few seconds (which cannot \
         name the write that drifted)"
    )
}
