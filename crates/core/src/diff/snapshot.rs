//! Counters over time: a tally snapshot (every parent's stored tally and counted children under
//! one rule, with the table, the place and the time) written to a file, and two snapshots — or
//! a snapshot and now — compared: which parents started drifting, by how much, and how their
//! tally and children moved.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use bigdecimal::BigDecimal;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::files::{self, IfExists};
use crate::number::to_dynamodb;
use crate::report::{Line, Report, Tone, plural};
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
    fn drift(&self) -> Option<BigDecimal> {
        let tally: BigDecimal = self.tally.as_deref()?.parse().ok()?;
        Some(tally - BigDecimal::from(self.children))
    }

    fn drift_text(&self) -> String {
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
        Ok(snapshot)
    }

    /// Write it to `path` whole or not at all; an existing file is kept unless `if_exists`
    /// replaces it.
    pub fn write(&self, path: &Path, if_exists: IfExists) -> Result<()> {
        let text = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::Invalid(format!("the snapshot could not be written: {e}")))?;
        files::write_file(path, if_exists, |out| out.write_all(&text))
    }
}

/// A parent whose tally or children moved between two snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The parent.
    pub parent: String,
    /// As the older snapshot holds it (`None`: not a parent then).
    pub old: Option<SnapParent>,
    /// As the newer one holds it.
    pub new: Option<SnapParent>,
}

impl Moved {
    fn drift(side: Option<&SnapParent>) -> Option<BigDecimal> {
        side.and_then(SnapParent::drift)
    }

    /// Whether a side of it drifts (a missing or unreadable tally drifts).
    fn drifts(side: Option<&SnapParent>) -> bool {
        side.is_some_and(|s| s.drift().is_none_or(|d| d != 0))
    }

    /// It drifts now and did not then (or was not a parent then).
    pub fn started_drifting(&self) -> bool {
        Self::drifts(self.new.as_ref()) && !Self::drifts(self.old.as_ref())
    }

    /// It drifted then and drifts further now (its drift grew in size).
    pub fn drifted_further(&self) -> bool {
        let (Some(old), Some(new)) = (
            Self::drift(self.old.as_ref()),
            Self::drift(self.new.as_ref()),
        ) else {
            return false;
        };
        old != 0 && new.abs() > old.abs()
    }

    /// It got worse between the two: started drifting, or drifted further.
    pub fn worse(&self) -> bool {
        self.started_drifting() || self.drifted_further()
    }

    fn words(&self) -> String {
        let side = |s: Option<&SnapParent>| {
            s.map_or("not a parent".to_owned(), |s| {
                format!(
                    "tally {} / {} children ({})",
                    s.tally.as_deref().unwrap_or("missing"),
                    s.children,
                    s.drift_text()
                )
            })
        };
        let what = if self.started_drifting() {
            "started drifting"
        } else if self.drifted_further() {
            "drifted further"
        } else if self.new.as_ref().and_then(SnapParent::drift) == Some(BigDecimal::from(0))
            && self.old.as_ref().and_then(SnapParent::drift) != Some(BigDecimal::from(0))
        {
            "stopped drifting"
        } else {
            "moved"
        };
        format!(
            "{}: {what}: {} → {}",
            self.parent,
            side(self.old.as_ref()),
            side(self.new.as_ref())
        )
    }
}

/// Two snapshots of one table's counters compared.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotDiff {
    /// The table, the tally attribute, and the two moments.
    pub table: String,
    /// The tally attribute.
    pub tally: String,
    /// When the older and the newer were taken, as dates, and where.
    pub moments: [(String, String); 2],
    /// Parents in either.
    pub parents: usize,
    /// The parents that moved, by parent.
    pub moved: Vec<Moved>,
}

/// Compare `old` with `new`, parent by parent; refused when they are not of one table and rule.
pub fn compare_snapshots(old: &TallySnapshot, new: &TallySnapshot) -> Result<SnapshotDiff> {
    if old.table != new.table || old.rule != new.rule {
        return Err(Error::Invalid(format!(
            "the snapshots are of different tables or rules ({} `{}`, {} `{}`): only one \
             table's counters under one rule are compared over time",
            old.table, old.rule.tally, new.table, new.rule.tally
        )));
    }
    let mut by_parent: BTreeMap<&str, Moved> = BTreeMap::new();
    for (parent, is_new) in
        (old.parents.iter().map(|p| (p, false))).chain(new.parents.iter().map(|p| (p, true)))
    {
        let entry = by_parent.entry(&parent.parent).or_insert_with(|| Moved {
            parent: parent.parent.clone(),
            old: None,
            new: None,
        });
        if is_new {
            entry.new = Some(parent.clone());
        } else {
            entry.old = Some(parent.clone());
        }
    }
    let parents = by_parent.len();
    let moved = by_parent.into_values().filter(|m| m.old != m.new).collect();
    Ok(SnapshotDiff {
        table: old.table.clone(),
        tally: old.rule.tally.clone(),
        moments: [
            (old.when(), old.place.clone()),
            (new.when(), new.place.clone()),
        ],
        parents,
        moved,
    })
}

impl SnapshotDiff {
    fn started(&self) -> usize {
        self.moved.iter().filter(|m| m.started_drifting()).count()
    }

    fn worse(&self) -> usize {
        self.moved.iter().filter(|m| m.worse()).count()
    }
}

impl Report for SnapshotDiff {
    /// A summary, then each parent that moved: started drifting first.
    fn lines(&self) -> Vec<Line> {
        let started = self.started();
        let tone = if self.worse() == 0 {
            Tone::Good
        } else {
            Tone::Warn
        };
        let [(old, old_place), (new, new_place)] = &self.moments;
        let mut lines = vec![Line::new(
            tone,
            format!(
                "{}: `{}` of {} between {old} ({old_place}) and {new} ({new_place}): {} \
                 moved, {started} started drifting",
                self.table,
                self.tally,
                plural(self.parents, "parent"),
                self.moved.len()
            ),
        )];
        let mut moved: Vec<&Moved> = self.moved.iter().collect();
        moved.sort_by_key(|m| (!m.started_drifting(), !m.drifted_further()));
        lines.extend(moved.into_iter().map(|m| {
            let tone = if m.worse() { Tone::Bad } else { Tone::Plain };
            Line::new(tone, m.words())
        }));
        lines
    }

    fn to_json(&self) -> Value {
        let side = |s: &Option<SnapParent>| {
            s.as_ref().map(|s| {
                json!({"tally": s.tally, "children": s.children,
                    "drift": s.drift().map(|d| to_dynamodb(&d))})
            })
        };
        let moved: Vec<Value> = (self.moved.iter())
            .map(|m| {
                json!({"parent": m.parent, "old": side(&m.old), "new": side(&m.new),
                    "started_drifting": m.started_drifting(),
                    "drifted_further": m.drifted_further()})
            })
            .collect();
        let [(old, old_place), (new, new_place)] = &self.moments;
        json!({
            "table": self.table,
            "tally": self.tally,
            "old": {"taken_at": old, "place": old_place},
            "new": {"taken_at": new, "place": new_place},
            "parents": self.parents,
            "started_drifting": self.started(),
            "moved": moved,
        })
    }

    /// Done when no parent started drifting or drifted further between the two; refused when
    /// one did.
    fn ending(&self) -> Ending {
        if self.worse() == 0 {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}
