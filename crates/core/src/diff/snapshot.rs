//! Counters over time: a tally snapshot (every parent's stored tally and counted children under
//! one rule, with the table, the place and the time) written to a file, and two snapshots — or
//! a snapshot and now — compared: which parents started drifting, by how much, and how their
//! tally and children moved.

use std::io::Write as _;
use std::path::Path;

use bigdecimal::BigDecimal;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::files::{self, IfExists};
use crate::number::{self, to_dynamodb};
use crate::tally::{ParentCheck, TallyRule};
use crate::value::epoch_text;

/// The format's version, written in every snapshot.
const FORMAT: u32 = 1;

/// The largest snapshot read (about four million parents).
const MAX_BYTES: u64 = 256 * 1024 * 1024;

/// One parent as the snapshot holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapParent {
    /// The parent's partition key, as text.
    pub parent: String,
    /// The stored tally (`None`: missing).
    pub tally: Option<String>,
    /// The children counted.
    pub children: u64,
}

impl SnapParent {
    /// `tally − children`, or `None` when the tally is missing or not a number.
    pub(super) fn drift(&self) -> Option<BigDecimal> {
        let tally: BigDecimal = self.tally.as_deref()?.parse().ok()?;
        Some(tally - BigDecimal::from(self.children))
    }

    pub(super) fn drift_text(&self) -> String {
        match self.drift() {
            None => "missing tally".to_owned(),
            Some(d) if d > 0 => format!("+{}", to_dynamodb(&d)),
            Some(d) => to_dynamodb(&d),
        }
    }
}

/// Every parent's tally and children under one rule, at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallySnapshot {
    /// The format's version.
    pub dynoscope_tally_snapshot: u32,
    /// The table.
    pub table: String,
    /// Where it was read (the connection's place).
    pub place: String,
    /// The rule the parents were counted under.
    pub rule: TallyRule,
    /// When it was taken, in seconds since 1970.
    pub taken_at: u64,
    /// Every parent, by partition key.
    pub parents: Vec<SnapParent>,
}

impl TallySnapshot {
    /// A snapshot of `checks` (one reconcile's parents) taken now.
    pub fn of(table: &str, place: &str, rule: TallyRule, checks: &[ParentCheck]) -> Self {
        let mut parents: Vec<SnapParent> = checks
            .iter()
            .map(|c| SnapParent {
                parent: c.partition.clone(),
                tally: c.stored.clone(),
                children: c.count.count,
            })
            .collect();
        parents.sort_by(|a, b| a.parent.cmp(&b.parent));
        let taken_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            dynoscope_tally_snapshot: FORMAT,
            table: table.to_owned(),
            place: place.to_owned(),
            rule,
            taken_at,
            parents,
        }
    }

    /// When it was taken, as a date.
    pub fn when(&self) -> String {
        epoch_text(&self.taken_at.to_string()).unwrap_or_else(|| format!("{}", self.taken_at))
    }

    /// Read a snapshot file (at most 256 MB), refused in words when it is not one.
    pub fn read(path: &Path) -> Result<Self> {
        let bytes = files::read_small(path, MAX_BYTES, "a tally snapshot")?;
        let snapshot: Self = serde_json::from_slice(&bytes).map_err(|e| {
            Error::Invalid(format!(
                "{} is not a tally snapshot of dynoscope ({e})",
                path.display()
            ))
        })?;
        if snapshot.dynoscope_tally_snapshot != FORMAT {
            return Err(Error::Invalid(format!(
                "{} is a tally snapshot of format {}; this dynoscope reads format {FORMAT}",
                path.display(),
                snapshot.dynoscope_tally_snapshot
            )));
        }
        snapshot
            .check()
            .map_err(|why| Error::Invalid(format!("{}: {why}", path.display())))?;
        Ok(snapshot)
    }

    /// Why it is not a snapshot dynoscope could have written: no parent, a parent listed
    /// twice, a tally that is not a DynamoDB number as DynamoDB writes one (checked by the one
    /// number validator, so a tally like `1e999999999` never reaches the arithmetic).
    fn check(&self) -> std::result::Result<(), String> {
        if self.parents.is_empty() {
            return Err(format!(
                "the snapshot of {} holds no parent: nothing to compare over time",
                self.table
            ));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.parents.len());
        for parent in &self.parents {
            if !seen.insert(parent.parent.as_str()) {
                return Err(format!(
                    "the parent `{}` is listed twice; a snapshot lists each parent once",
                    crate::terminal::escape_controls(&parent.parent)
                ));
            }
            let Some(tally) = &parent.tally else { continue };
            // As DynamoDB writes a number: no white space around it (which `parse` forgives).
            let checked = if tally.trim() == tally {
                number::parse(tally).map(drop)
            } else {
                Err(number::NumberError::NotANumber(tally.clone()))
            };
            if let Err(e) = checked {
                return Err(format!(
                    "the tally of `{}`: {e}",
                    crate::terminal::escape_controls(&parent.parent)
                ));
            }
        }
        Ok(())
    }

    /// Write it to `path` whole or not at all; an existing file is kept unless `if_exists`
    /// replaces it.
    pub fn write(&self, path: &Path, if_exists: IfExists) -> Result<()> {
        let text = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::Invalid(format!("the snapshot could not be written: {e}")))?;
        files::write_file(path, if_exists, |out| out.write_all(&text))
    }
}
