//! Deleting many items: the grid's selected rows, a tab's rows, the items of a query or a
//! partition, or every item of a table (truncate, the table kept). First a dry run counts them,
//! shows the first keys, what reading them cost and what deleting them does to the counters;
//! then the delete pass reads them again and deletes them in `BatchWriteItem`s of 25 through the
//! gateway, stopping at the count that was confirmed.

mod done;
mod repaired;
mod report;
mod run;

pub use done::PurgeRun;
pub use done::{CountedPurge, TallyChoice, delete_counted};
pub use repaired::ParentRepaired;
pub use report::PurgeReport;
pub use run::purge;
pub(crate) use run::repair_tallies;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::read::ReadPlan;
use crate::read::{Until, read_pages};
use crate::report::plural;
use crate::table::TableInfo;
use crate::tally::{ImportTallies, TallyRule};
use crate::value::Item;
use crate::value::key_shown;

/// Keys shown by a dry run.
pub const FIRST_KEYS: usize = 10;

/// Which items are deleted.
#[derive(Debug, Clone, PartialEq)]
pub enum PurgeSource {
    /// What a Query or Scan reads (every item of the table, a partition, a query's items).
    Read(Box<ReadPlan>),
    /// These items, by their keys (the grid's selection or a tab's rows); each is read again
    /// first, so only what is still there is counted.
    Keys(Vec<Item>),
}

/// What a dry run found.
#[derive(Debug, Clone, PartialEq)]
pub struct PurgeCount {
    /// The items that would be deleted.
    pub items: u64,
    /// The first keys, at most [`FIRST_KEYS`].
    pub first: Vec<Item>,
    /// Read capacity the count consumed.
    pub rcu: f64,
    /// What deleting them does to the counters of `rules`.
    pub tallies: ImportTallies,
    /// Stopped by a cancel before the last page.
    pub cancelled: bool,
}

impl PurgeCount {
    /// The dry run in lines: the count, the first keys, the counters.
    pub fn lines(&self, table: &str, names: &[String]) -> Vec<String> {
        let mut lines = vec![format!(
            "{} in {table} would be deleted{}",
            plural(usize::try_from(self.items).unwrap_or(usize::MAX), "item"),
            if self.cancelled {
                " (counted until stopped: more may follow)"
            } else {
                ""
            }
        )];
        lines.extend(
            self.first
                .iter()
                .map(|k| format!("  {}", key_shown(k, names))),
        );
        if self.items > self.first.len() as u64 {
            lines.push(format!(
                "  … and {} more",
                self.items - self.first.len() as u64
            ));
        }
        lines.extend(self.tallies.deleted_lines());
        lines
    }

    /// Whether the counters of some parents would be left too high.
    pub fn drifts(&self) -> bool {
        !self.tallies.drifting().is_empty()
    }
}

/// `typed` is the count, as a person types it back (`1234` or `1,234`), or it is refused.
pub fn check_typed(count: u64, typed: &str) -> Result<()> {
    let digits: String = typed
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != '_')
        .collect();
    if digits.parse::<u64>().ok() == Some(count) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "type the number of items to delete, {count}, to go on (`{}` was typed)",
            typed.trim()
        )))
    }
}

/// Count what `source` would delete from `info`'s table: read it (a Query or Scan, or each
/// key read again), keeping only the first keys and the counters of `rules`, in bounded memory.
/// `progress` hears the count after each page.
pub async fn count(
    connection: &Connection,
    info: &TableInfo,
    source: &PurgeSource,
    rules: &[TallyRule],
    stop: &CancelToken,
    mut progress: impl FnMut(u64),
) -> Result<PurgeCount> {
    let mut counted = PurgeCount {
        items: 0,
        first: Vec::new(),
        rcu: 0.0,
        tallies: ImportTallies::new(info, rules),
        cancelled: false,
    };
    let add = |item: &Item, counted: &mut PurgeCount| -> Result<()> {
        let key = info.key_of(item)?;
        counted.tallies.add(item);
        counted.items += 1;
        if counted.first.len() < FIRST_KEYS {
            counted.first.push(key);
        }
        Ok(())
    };
    match source {
        PurgeSource::Read(plan) => {
            let mut failed = None;
            let stopped = read_pages(
                &connection.reader(),
                &plan.request,
                plan.start.clone(),
                Until::LastPage,
                stop,
                |page| {
                    counted.rcu += page.consumed_rcu;
                    for item in &page.items {
                        if let Err(e) = add(item, &mut counted) {
                            failed.get_or_insert(e);
                        }
                    }
                    progress(counted.items);
                },
            )
            .await?;
            if let Some(error) = failed {
                return Err(error);
            }
            counted.cancelled = stopped == crate::read::Stopped::Cancelled;
        }
        PurgeSource::Keys(keys) => {
            for key in keys {
                if stop.is_cancelled() {
                    counted.cancelled = true;
                    break;
                }
                let key = info.key_of(key)?;
                let (item, rcu) =
                    crate::read::get_item_costed(&connection.reader(), &info.name, key).await?;
                counted.rcu += rcu;
                if let Some(item) = item {
                    add(&item, &mut counted)?;
                    progress(counted.items);
                }
            }
        }
    }
    Ok(counted)
}
