//! Two tables' counters compared under one tally rule: every parent's stored tally and counted
//! children on each side, and how each side drifted — `POST#d71e: A tally 226 / 225 children
//! (+1), B 226 / 226 (0)` — so a copy that lost an ADD, or one side drifted where the other is
//! not, is named by parent.

use std::collections::BTreeMap;

use bigdecimal::BigDecimal;
use serde::Serialize;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::document::ErrorDocument;
use crate::error::{Error, Result};
use crate::report::{Line, Listing, Report, Tone};
use crate::table::TableInfo;
use crate::tally::{ParentCheck, ReconcilePlan, Reconciled, TallyRule, reconcile_checked};

/// One parent as each side holds it (`None`: not a parent there).
#[derive(Debug, Clone, PartialEq)]
pub struct TallyPair {
    /// The parent's partition key, as text.
    pub parent: String,
    /// Side A's check.
    pub a: Option<ParentCheck>,
    /// Side B's check.
    pub b: Option<ParentCheck>,
}

impl TallyPair {
    /// Whether the two sides hold the same tally over the same number of children.
    fn agree(&self) -> bool {
        match (&self.a, &self.b) {
            (Some(a), Some(b)) => a.stored == b.stored && a.count.count == b.count.count,
            _ => false,
        }
    }

    /// Whether either side's tally disagrees with its children.
    fn drifted(&self) -> bool {
        [&self.a, &self.b]
            .into_iter()
            .flatten()
            .any(ParentCheck::drifted)
    }

    /// What the two sides say about each other: which one drifted, and how (`A has an extra
    /// ADD`: its tally is one more than B's over the same children).
    pub fn verdict(&self) -> Option<String> {
        let (a, b) = (self.a.as_ref()?, self.b.as_ref()?);
        let explain = |side: &str, drifted: &ParentCheck, other: &ParentCheck| {
            let zero = BigDecimal::default();
            let up = drifted.drift.as_ref().map(|d| *d > zero);
            let same_children = drifted.count.count == other.count.count;
            let same_tally = drifted.stored == other.stored;
            match (up, same_children, same_tally) {
                (Some(true), true, _) => format!("{side} has an extra ADD"),
                (Some(false), true, _) => format!("{side} is missing an ADD"),
                (Some(true), false, true) => {
                    format!("{side} lost a child its tally still counts")
                }
                (Some(false), false, true) => {
                    format!("{side} has a child written without its ADD")
                }
                _ => format!("{side} drifted"),
            }
        };
        match (a.drifted(), b.drifted()) {
            (true, false) => Some(explain("A", a, b)),
            (false, true) => Some(explain("B", b, a)),
            (true, true) => Some("both drifted".to_owned()),
            (false, false) if !self.agree() => {
                Some("each agrees with its children: the data moved on one side".to_owned())
            }
            (false, false) => None,
        }
    }

    /// One side in words: `226 / 225 children (+1)`, or `not a parent`.
    pub fn side_text(check: Option<&ParentCheck>) -> String {
        check.map_or("not a parent".to_owned(), |c| {
            format!(
                "{} / {} children ({})",
                c.stored_text(),
                c.count.count,
                c.drift_text()
            )
        })
    }
}

/// Two tables' counters compared, parent by parent.
#[derive(Debug)]
pub struct TallyDiff {
    /// The tally attribute.
    pub tally: String,
    /// The parents that differ between the sides or drifted on either, by parent.
    pub pairs: Vec<TallyPair>,
    /// Parents compared in all.
    pub parents: usize,
    /// Parents that could not be checked, on A and on B.
    pub failures: (Vec<Error>, Vec<Error>),
}

/// Check every parent of `rule` on both sides (each a reconcile by `plan`) and pair them.
pub async fn compare_tallies(
    a: (&Connection, &TableInfo),
    b: (&Connection, &TableInfo),
    rule: &TallyRule,
    plan: ReconcilePlan,
    stop: &CancelToken,
) -> Result<TallyDiff> {
    let side = |all: Reconciled| {
        if all.cancelled {
            return Err(Error::Cancelled { op: "reconcile" });
        }
        Ok(all)
    };
    let all_a = side(reconcile_checked(&a.0.reader(), a.1, rule, plan, stop).await?)?;
    let all_b = side(reconcile_checked(&b.0.reader(), b.1, rule, plan, stop).await?)?;
    let mut by_parent: BTreeMap<String, TallyPair> = BTreeMap::new();
    for (check, on_a) in all_a
        .checked
        .checks
        .into_iter()
        .map(|c| (c, true))
        .chain(all_b.checked.checks.into_iter().map(|c| (c, false)))
    {
        let pair = by_parent
            .entry(check.partition.clone())
            .or_insert_with(|| TallyPair {
                parent: check.partition.clone(),
                a: None,
                b: None,
            });
        if on_a {
            pair.a = Some(check);
        } else {
            pair.b = Some(check);
        }
    }
    let parents = by_parent.len();
    let pairs = by_parent
        .into_values()
        .filter(|p| !p.agree() || p.drifted())
        .collect();
    Ok(TallyDiff {
        tally: rule.tally.clone(),
        pairs,
        parents,
        failures: (all_a.failures, all_b.failures),
    })
}

impl TallyDiff {
    fn differing(&self) -> usize {
        self.pairs.iter().filter(|p| !p.agree()).count()
    }

    /// The comparison as its document.
    fn document(&self) -> TallyDiffDocument {
        let side = |c: &Option<ParentCheck>| {
            c.as_ref().map(|c| TallySideDocument {
                stored: c.stored.clone(),
                counted: c.count.count.to_string(),
                drift: c.drift.as_ref().map(crate::number::to_dynamodb),
            })
        };
        let errors = |all: &[Error]| all.iter().map(ErrorDocument::from).collect();
        TallyDiffDocument {
            tally: self.tally.clone(),
            parents: self.parents,
            differ: self.differing(),
            pairs: (self.pairs.iter())
                .map(|p| TallyPairDocument {
                    parent: p.parent.clone(),
                    a: side(&p.a),
                    b: side(&p.b),
                    same: p.agree(),
                    verdict: p.verdict(),
                })
                .collect(),
            not_checked: NotCheckedDocument {
                a: errors(&self.failures.0),
                b: errors(&self.failures.1),
            },
        }
    }
}

crate::document_as!(TallyDiff => TallyDiffDocument, document);

/// Two tables' counters compared under one tally rule, parent by parent.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct TallyDiffDocument {
    /// The tally attribute.
    pub(crate) tally: String,
    /// Parents compared, on either side.
    pub(crate) parents: usize,
    /// Parents whose tally or children differ between the sides.
    pub(crate) differ: usize,
    /// The parents that differ between the sides or drifted on either.
    pub(crate) pairs: Vec<TallyPairDocument>,
    /// The parents that could not be checked, on each side.
    pub(crate) not_checked: NotCheckedDocument,
}

/// One parent as each side holds it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct TallyPairDocument {
    /// The parent's partition key, as text.
    pub(crate) parent: String,
    /// The parent on side A; `null` when it is not a parent there.
    pub(crate) a: Option<TallySideDocument>,
    /// The parent on side B; `null` when it is not a parent there.
    pub(crate) b: Option<TallySideDocument>,
    /// Whether both sides hold the same tally over the same number of children.
    pub(crate) same: bool,
    /// Which side drifted and how, in words; `null` when the sides agree and neither drifted.
    pub(crate) verdict: Option<String>,
}

/// A parent's tally and children on one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct TallySideDocument {
    /// The stored tally, exactly as DynamoDB holds it; `null` when missing.
    pub(crate) stored: Option<String>,
    /// The children counted, as a DynamoDB number.
    pub(crate) counted: String,
    /// `stored − counted`, exactly; `null` when the tally is missing.
    pub(crate) drift: Option<String>,
}

/// The errors of the parents that could not be checked, on each side.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct NotCheckedDocument {
    /// On side A.
    pub(crate) a: Vec<ErrorDocument>,
    /// On side B.
    pub(crate) b: Vec<ErrorDocument>,
}

impl Report for TallyDiff {
    /// A summary, then a line per parent that differs or drifted.
    fn lines(&self) -> Vec<Line> {
        let tone = match self.ending() {
            Ending::Done => Tone::Good,
            _ => Tone::Warn,
        };
        let mut lines = vec![Line::new(
            tone,
            format!(
                "{} parents of `{}`: {} differ between the sides, {} drifted on either; {} not \
                 checked on A, {} on B",
                self.parents,
                self.tally,
                self.differing(),
                self.pairs.iter().filter(|p| p.drifted()).count(),
                self.failures.0.len(),
                self.failures.1.len()
            ),
        )];
        lines.extend(self.pairs.iter().map(|p| {
            Line::new(
                Tone::Plain,
                format!(
                    "{}: A tally {}, B {}{}",
                    p.parent,
                    TallyPair::side_text(p.a.as_ref()),
                    TallyPair::side_text(p.b.as_ref()),
                    p.verdict().map(|v| format!(" — {v}")).unwrap_or_default()
                ),
            )
        }));
        let failures = self.failures.0.iter().map(|e| ("A", e));
        let failures = failures.chain(self.failures.1.iter().map(|e| ("B", e)));
        lines.extend(
            failures.map(|(side, e)| Line::new(Tone::Bad, format!("not checked on {side}: {e}"))),
        );
        lines
    }

    /// Done when every parent holds the same tally over the same children on both sides with
    /// no drift, and every parent was checked; refused otherwise.
    fn ending(&self) -> Ending {
        if self.pairs.is_empty() && self.failures.0.is_empty() && self.failures.1.is_empty() {
            Ending::Done
        } else {
            Ending::Refused
        }
    }

    /// A row per parent: whether both sides agree and the verdict.
    fn listing(&self) -> Option<Listing> {
        let keys = ["parent", "same", "verdict"];
        let document = crate::document::Document::to_json(self);
        Some(Listing::of(&document, "pairs", &keys, Vec::new()))
    }
}
