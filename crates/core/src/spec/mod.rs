//! The inputs every front end fills in — the app's forms, the CLI's arguments, the MCP server's
//! tool arguments — and the one check of each against the table: a spec's `plan` turns what was
//! typed into what core runs, or says which field is wrong and why, in the same words wherever
//! it was typed.
//!
//! - [`ReadSpec`]: a Query or a Scan (index, sort-key condition, order, limit, page size,
//!   where to go on from).
//! - [`KeySpec`]: one item's key (get, put's key check, delete, add).
//! - [`RuleSpec`]: a counter rule (a tally over children, or shards) and [`PlanChoice`], how a
//!   reconcile reads.
//! - [`AddSpec`], [`LikeSpec`], [`StormSpec`]: a counter edit, a like or unlike, a storm.
//! - [`GetSpec`], [`PutSpec`], [`DeleteSpec`]: one whole item read, written or removed.
//! - [`StatementSpec`]: one PartiQL statement with its parameters, limit and page size.
//! - [`SqlSpec`]: tables or partitions to read, and the SQL to run over them.
//! - [`ExportSpec`], [`ImportSpec`]: items to and from files.
//! - [`WatchSpec`]: a watch of counters moving (a stream, or polling).
//! - [`count_from_one`], [`page_size`]: the whole numbers every form and flag takes.

mod diff;
mod got;
mod item;
mod item_runs;
mod key;
mod purge;
mod read;
mod read_runs;
mod reconcile_document;
mod reconcile_runs;
mod rule;
mod runs;
mod shard_runs;
mod snapshot;
mod sql;
mod sql_runs;
mod statement;
mod statement_runs;
mod table_change;
mod tally_runs;
#[cfg(test)]
mod tests;
mod transfer;
mod watch;
mod window;
mod write;
#[cfg(test)]
mod write_tests;

pub use crate::tally::ExportAt;
pub use diff::{CompareTalliesSpec, Compared, DiffSpec};
pub use got::Got;
pub use item::{DeleteSpec, GetSpec, PutSpec};
pub use item_runs::{DeleteDryRun, ItemWrite};
pub use key::KeySpec;
pub use purge::{PurgeScope, PurgeSpec};
pub use read::{FilterSpec, ReadSpec};
pub use read_runs::ItemsRead;
pub use reconcile_document::{ReconcileDocument, RepairAllDocument};
pub use reconcile_runs::{ReconcileFrom, ReconcileRun};
pub use rule::{PlanChoice, RuleSpec, TallySpec};
pub use shard_runs::ShardSum;
pub use snapshot::{SnapshotSpec, SnapshotWritten};
pub use sql::SqlLoad;
pub use sql::SqlSpec;
pub use sql_runs::SqlAnswer;
pub use statement::{StatementPlan, StatementSpec};
pub use statement_runs::StatementRead;
pub use table_change::TableChangeSpec;
pub use tally_runs::{TallyCheck, TallyCheckDocument, TallyRepair, TallyRepairDocument};
pub use transfer::{ExportPlan, ImportPlan};
pub use transfer::{ExportSpec, ImportSpec};
pub use watch::{DEFAULT_SETTLE_SECONDS, WatchFrom, WatchSpec};
pub use window::{WindowReport, WindowSpec};
pub use write::{AddSpec, LikeSpec, StormSpec};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Error;
use crate::table::KeyAttr;

/// One table, named.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The table.
    pub table: String,
}

/// Input that cannot be run: which field, and why, in words that name no front end's control.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct InputError {
    /// The spec's field (`pk`, `limit`, `start_key`, …), for a form to point at.
    pub field: &'static str,
    /// What is wrong, as every front end says it.
    pub reason: String,
}

impl InputError {
    /// `field` is wrong because of `reason`.
    pub fn new(field: &'static str, reason: impl Into<String>) -> Self {
        Self {
            field,
            reason: reason.into(),
        }
    }

    /// A core error met while checking `field` (a value that does not parse, say), in its words.
    pub(crate) fn from_error(field: &'static str, error: Error) -> Self {
        Self::new(field, error.reason())
    }
}

impl From<InputError> for Error {
    fn from(error: InputError) -> Self {
        Self::Invalid(error.reason)
    }
}

/// A whole number from 1 typed as text (a limit, a page size, a count of users): `0`, `-1` and
/// `ten` are bad input, said in words.
pub fn count_from_one(text: &str) -> Result<usize, String> {
    match count(text)? {
        0 => Err("0: give a whole number from 1".to_owned()),
        n => Ok(n),
    }
}

/// A whole number from 0 typed as text.
pub fn count(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    trimmed.parse::<usize>().map_err(|_| {
        if trimmed.len() > 1
            && trimmed.starts_with('-')
            && trimmed[1..].chars().all(|c| c.is_ascii_digit())
        {
            format!("`{text}` is negative: give a whole number")
        } else {
            format!("`{text}` is not a whole number")
        }
    })
}

/// A request's `Limit` (items evaluated per page) typed as text: [`count_from_one`], within
/// the 32-bit number DynamoDB takes.
pub fn page_size(text: &str) -> Result<i32, String> {
    page_size_of(count_from_one(text)?)
}

/// A page size given as a number, within what DynamoDB takes.
pub(crate) fn page_size_of(n: usize) -> Result<i32, String> {
    if n == 0 {
        return Err("0: give a whole number from 1".to_owned());
    }
    i32::try_from(n).map_err(|_| format!("`{n}` is more than DynamoDB takes ({})", i32::MAX))
}

/// The value of the partition key `key` typed as `text`: given, and of its type.
/// A partition key value typed as text, parsed as `key`'s type; an empty one is refused (no
/// item has an empty key).
pub fn partition_value(key: &KeyAttr, text: &str) -> Result<AttributeValue, InputError> {
    if text.is_empty() {
        return Err(InputError::new(
            "pk",
            format!("give a value for the partition key `{}`", key.name),
        ));
    }
    key.kind
        .parse(text)
        .map_err(|e| InputError::from_error("pk", e.at(&format!("partition key `{}`", key.name))))
}

/// A page size given as a number (DynamoDB's `Limit`), from 1 and within what it takes.
fn page_size_field(page_size: Option<usize>) -> Result<Option<i32>, InputError> {
    page_size
        .map(|n| {
            page_size_of(n).map_err(|why| InputError::new("page_size", format!("page size {why}")))
        })
        .transpose()
}

/// A limit given as a number: from 1.
fn limit_of(field: &'static str, limit: Option<usize>) -> Result<Option<usize>, InputError> {
    match limit {
        Some(0) => Err(InputError::new(
            field,
            format!("{} 0: give a whole number from 1", field.replace('_', " ")),
        )),
        other => Ok(other),
    }
}

/// `text`, trimmed, or `what` is needed.
fn needed(field: &'static str, text: &str, what: &str) -> Result<String, InputError> {
    let text = text.trim();
    if text.is_empty() {
        Err(InputError::new(field, format!("give {what}")))
    } else {
        Ok(text.to_owned())
    }
}
