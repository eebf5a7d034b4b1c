//! Two tally snapshots of one table compared, parent by parent: which parents started drifting,
//! drifted further or stopped, whether the two were read at one place, and whether the newer
//! side matches any parent of the older one.

use std::collections::BTreeMap;

use bigdecimal::BigDecimal;
use serde::Serialize;

use crate::cancel::CancelToken;
use crate::diff::snapshot::{SnapParent, TallySnapshot};
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::number::to_dynamodb;
use crate::report::{Line, Report, Tone, plural};

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
    /// Parents in both: none, and the two are of different data (another place, a table
    /// emptied and filled again), which is not a comparison over time.
    pub in_both: usize,
    /// The parents that moved, by parent.
    pub moved: Vec<Moved>,
}

/// Compare `old` with `new`, parent by parent; refused when they are not of one table and rule.
/// `stop` ends it (nothing is sent, but four million parents take a moment).
pub fn compare_snapshots(
    old: &TallySnapshot,
    new: &TallySnapshot,
    stop: &CancelToken,
) -> Result<SnapshotDiff> {
    if old.table != new.table || old.rule != new.rule {
        return Err(Error::Invalid(format!(
            "the snapshots are of different tables or rules ({} `{}`, {} `{}`): only one \
             table's counters under one rule are compared over time",
            old.table, old.rule.tally, new.table, new.rule.tally
        )));
    }
    let mut by_parent: BTreeMap<&str, Moved> = BTreeMap::new();
    for (at, (parent, is_new)) in (old.parents.iter().map(|p| (p, false)))
        .chain(new.parents.iter().map(|p| (p, true)))
        .enumerate()
    {
        if at % 4096 == 0 && stop.is_cancelled() {
            return Err(Error::Cancelled {
                op: "comparing the snapshots",
            });
        }
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
    let in_both = (by_parent.values())
        .filter(|m| m.old.is_some() && m.new.is_some())
        .count();
    let moved = by_parent.into_values().filter(|m| m.old != m.new).collect();
    Ok(SnapshotDiff {
        table: old.table.clone(),
        tally: old.rule.tally.clone(),
        moments: [
            (old.when(), old.place.clone()),
            (new.when(), new.place.clone()),
        ],
        parents,
        in_both,
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

    /// Whether both were read at one place.
    pub fn same_place(&self) -> bool {
        self.moments[0].1 == self.moments[1].1
    }

    /// The comparison as its document.
    fn document(&self) -> SnapshotDiffDocument {
        let side = |s: &Option<SnapParent>| {
            s.as_ref().map(|s| SnapSideDocument {
                tally: s.tally.clone(),
                children: s.children,
                drift: s.drift().map(|d| to_dynamodb(&d)),
            })
        };
        let moment = |(taken_at, place): &(String, String)| MomentDocument {
            taken_at: taken_at.clone(),
            place: place.clone(),
        };
        let [old, new] = &self.moments;
        SnapshotDiffDocument {
            table: self.table.clone(),
            tally: self.tally.clone(),
            old: moment(old),
            new: moment(new),
            parents: self.parents,
            in_both: self.in_both,
            same_place: self.same_place(),
            started_drifting: self.started(),
            moved: (self.moved.iter())
                .map(|m| MovedDocument {
                    parent: m.parent.clone(),
                    old: side(&m.old),
                    new: side(&m.new),
                    started_drifting: m.started_drifting(),
                    drifted_further: m.drifted_further(),
                })
                .collect(),
        }
    }
}

crate::document_as!(SnapshotDiff => SnapshotDiffDocument, document);

/// Two tally snapshots of one table compared, parent by parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct SnapshotDiffDocument {
    /// The table.
    pub(crate) table: String,
    /// The tally attribute.
    pub(crate) tally: String,
    /// The older snapshot: when and where it was taken.
    pub(crate) old: MomentDocument,
    /// The newer snapshot.
    pub(crate) new: MomentDocument,
    /// Parents in either snapshot.
    pub(crate) parents: usize,
    /// Parents in both (none: the two are of different data, and nothing was compared).
    pub(crate) in_both: usize,
    /// Whether both were read at one place.
    pub(crate) same_place: bool,
    /// Parents that drift in the newer snapshot and did not in the older.
    pub(crate) started_drifting: usize,
    /// The parents whose tally or children moved between the two.
    pub(crate) moved: Vec<MovedDocument>,
}

/// When and where a snapshot was taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct MomentDocument {
    /// When it was taken, as a date and time.
    pub(crate) taken_at: String,
    /// Where it was read: the connection's place.
    pub(crate) place: String,
}

/// A parent whose tally or children moved between the two snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct MovedDocument {
    /// The parent's partition key, as text.
    pub(crate) parent: String,
    /// As the older snapshot holds it; `null` when it was not a parent then.
    pub(crate) old: Option<SnapSideDocument>,
    /// As the newer snapshot holds it; `null` when it is not a parent now.
    pub(crate) new: Option<SnapSideDocument>,
    /// It drifts now and did not then.
    pub(crate) started_drifting: bool,
    /// It drifted then and drifts further now.
    pub(crate) drifted_further: bool,
}

/// A parent as one snapshot holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct SnapSideDocument {
    /// The stored tally, exactly as DynamoDB held it; `null` when missing.
    pub(crate) tally: Option<String>,
    /// The children counted.
    pub(crate) children: u64,
    /// `tally − children`, exactly; `null` when the tally is missing or not a number.
    pub(crate) drift: Option<String>,
}

impl Report for SnapshotDiff {
    /// A summary, then each parent that moved: started drifting first.
    fn lines(&self) -> Vec<Line> {
        let started = self.started();
        let tone = if self.ending() == Ending::Done {
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
        if !self.same_place() {
            lines.push(Line::new(
                Tone::Warn,
                format!(
                    "The two were read at different places ({old_place}, then {new_place}): \
                     what moved may be another table's data, not time"
                ),
            ));
        }
        if self.in_both == 0 {
            lines.push(Line::new(
                Tone::Bad,
                "No parent is in both: the newer side matches no parent of the older one, so \
                 nothing was compared over time",
            ));
        }
        let mut moved: Vec<&Moved> = self.moved.iter().collect();
        moved.sort_by_key(|m| (!m.started_drifting(), !m.drifted_further()));
        lines.extend(moved.into_iter().map(|m| {
            let tone = if m.worse() { Tone::Bad } else { Tone::Plain };
            Line::new(tone, m.words())
        }));
        lines
    }

    /// Done when no parent started drifting or drifted further between the two; refused when
    /// one did, or when no parent is in both (nothing was compared).
    fn ending(&self) -> Ending {
        if self.worse() == 0 && self.in_both > 0 {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}
