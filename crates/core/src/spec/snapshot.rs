//! A tally snapshot asked for — one table's counters under one rule, taken now — and its
//! comparison with an older one, the same for every front end.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::diff::{SnapshotDiff, TallySnapshot, compare_snapshots};
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::files::IfExists;
use crate::report::{Line, Report, Tone, plural};
use crate::spec::{PlanChoice, RuleSpec, TallySpec};
use crate::table::TableInfo;
use crate::tally::reconcile_checked;
use crate::write::Destination;

/// A snapshot to take: every parent of `table` under `rule`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotSpec {
    /// The table.
    pub table: String,
    /// The tally rule the parents are counted under.
    pub rule: RuleSpec,
}

impl SnapshotSpec {
    /// Reconcile every parent on `info`'s table (as a reconcile plans it) and keep each one's
    /// stored tally and counted children. Refused when a parent could not be checked: a
    /// snapshot missing parents would say they were gone.
    pub async fn take(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<TallySnapshot> {
        let spec = TallySpec {
            table: self.table.clone(),
            pk: None,
            rule: self.rule.clone(),
            plan: PlanChoice::Auto,
            concurrency: 8,
        };
        let rule = spec.rule.tally_rule()?;
        let (_, plan) = spec.reconcile_plan(info)?;
        let all = reconcile_checked(&connection.reader(), info, &rule, plan, stop).await?;
        if all.cancelled {
            return Err(Error::Cancelled { op: "snapshot" });
        }
        if let Some(first) = all.failures.first() {
            return Err(Error::Invalid(format!(
                "{} could not be checked (the first: {first}); no snapshot was written",
                plural(all.failures.len(), "parent")
            )));
        }
        if all.checked.checks.is_empty() {
            return Err(Error::NotFound {
                what: format!(
                    "parent of {} under the rule (`{}`) at {}; no snapshot was taken",
                    self.table,
                    rule.tally,
                    Destination::of(connection).place()
                ),
            });
        }
        let place = Destination::of(connection).place();
        Ok(TallySnapshot::of(
            &self.table,
            &place,
            rule,
            &all.checked.checks,
        ))
    }

    /// Take it from `info`'s table on `connection` and write it to `path` (an existing file
    /// kept unless `if_exists` replaces it: checked before anything is read).
    pub async fn write_to(
        &self,
        connection: &Connection,
        info: &TableInfo,
        path: PathBuf,
        if_exists: IfExists,
        stop: &CancelToken,
    ) -> Result<SnapshotWritten> {
        crate::files::check_target(&path, if_exists)?;
        let snapshot = self.take(connection, info, stop).await?;
        snapshot.write(&path, if_exists)?;
        Ok(SnapshotWritten { snapshot, path })
    }

    /// Compare the snapshot at `old` with the one at `new`, or, without one, with this table's
    /// counters now (on `now`: a connection and the table of the old snapshot, described).
    pub async fn compare(
        old: &std::path::Path,
        new: Option<&std::path::Path>,
        now: Option<(&Connection, &TableInfo)>,
        stop: &CancelToken,
    ) -> Result<SnapshotDiff> {
        let old = TallySnapshot::read(old)?;
        let new = match (new, now) {
            (Some(path), _) => TallySnapshot::read(path)?,
            (None, Some((connection, info))) => {
                let spec = Self {
                    table: old.table.clone(),
                    rule: RuleSpec::of(&old.rule),
                };
                spec.take(connection, info, stop).await?
            }
            (None, None) => {
                return Err(Error::Invalid(
                    "give the newer snapshot, or a connection to take it now".into(),
                ));
            }
        };
        compare_snapshots(&old, &new, stop)
    }
}

/// A snapshot written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotWritten {
    /// What it holds.
    pub snapshot: TallySnapshot,
    /// Where.
    pub path: PathBuf,
}

impl SnapshotWritten {
    /// The snapshot written, as its document.
    fn document(&self) -> SnapshotWrittenDocument {
        let s = &self.snapshot;
        SnapshotWrittenDocument {
            table: s.table.clone(),
            tally: s.rule.tally.clone(),
            place: s.place.clone(),
            taken_at: s.taken_at,
            parents: s.parents.len(),
            path: self.path.display().to_string(),
        }
    }
}

crate::document_as!(SnapshotWritten => SnapshotWrittenDocument, document);

/// A tally snapshot written to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct SnapshotWrittenDocument {
    /// The table.
    pub(crate) table: String,
    /// The tally attribute.
    pub(crate) tally: String,
    /// Where it was read: the connection's place.
    pub(crate) place: String,
    /// When it was taken, in seconds since 1970.
    pub(crate) taken_at: u64,
    /// Parents in it.
    pub(crate) parents: usize,
    /// The file written.
    pub(crate) path: String,
}

impl Report for SnapshotWritten {
    fn lines(&self) -> Vec<Line> {
        let s = &self.snapshot;
        vec![Line::new(
            Tone::Good,
            format!(
                "Snapshot of {} of {} (`{}`) at {} written to {}",
                plural(s.parents.len(), "parent"),
                s.table,
                s.rule.tally,
                s.place,
                self.path.display()
            ),
        )]
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}
