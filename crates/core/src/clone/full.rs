//! The clone's check: counts per partition and a sample (`verify`), or, asked for
//! (`--check full`), every item of the destination compared with the source's by the one
//! comparison of two tables (`core::diff`): each side read once more, in bounded memory.

use crate::cancel::CancelToken;
use crate::clone::{Part, Verified};
use crate::connection::TableOn;
use crate::diff::{DiffScope, TableDiff, diff};
use crate::error::Result;
use crate::report::Report;
use crate::value::whole_text;

/// The check made at the end of a clone.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// Counts per partition and a sample compared item by item.
    Sampled(Verified),
    /// Every item compared by key.
    Full(Box<TableDiff>),
}

impl Check {
    /// The two sides hold the same items, as far as the check can tell.
    pub fn agrees(&self) -> bool {
        match self {
            Self::Sampled(verified) => verified.agrees(),
            Self::Full(diff) => diff.agrees(),
        }
    }

    /// The check in lines.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Self::Sampled(verified) => verified.lines(),
            Self::Full(diff) => {
                let mut lines = vec!["check: every item compared by key".to_owned()];
                lines.extend(diff.lines().into_iter().map(|l| l.text));
                lines
            }
        }
    }
}

/// Compare every item of `part` at the `source` with the `target`'s.
pub(super) async fn full(
    source: TableOn<'_>,
    target: TableOn<'_>,
    part: &Part,
    stop: &CancelToken,
) -> Result<Check> {
    let scope = match part {
        Part::Table(_) => DiffScope::Table,
        Part::Partition { value, .. } => DiffScope::Partition(whole_text(value)),
    };
    let found = diff(
        (source.connection, source.info),
        (target.connection, target.info),
        &scope,
        stop,
    )
    .await?;
    Ok(Check::Full(Box::new(found)))
}
