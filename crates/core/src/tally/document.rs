//! A checked parent, a reconcile's totals and a repair as typed documents: the objects the
//! reconcile report, the one-parent check and the repair all hold, and the rows the CLI's
//! `--output jsonl` prints, each made by serde from these types alone.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::number::to_dynamodb;
use crate::tally::{Checked, ParentCheck, Reconciled, RepairReport};
use crate::value::{Layout, json};

/// One parent's stored tally beside its counted children.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ParentDocument {
    /// The parent's partition key, as text.
    pub pk: String,
    /// The stored tally, exactly as DynamoDB holds it; `null` when the parent has none.
    pub stored: Option<String>,
    /// The children counted, as a DynamoDB number.
    pub counted: String,
    /// `stored − counted`, exactly; `null` when the tally is missing.
    pub drift: Option<String>,
    /// Pages the count read.
    pub pages: u32,
    /// Read capacity units the count consumed.
    pub rcu: f64,
    /// What the count cost.
    pub usd: Usd,
}

impl ParentDocument {
    /// The document of `check`, its reads priced by `pricing`.
    pub fn of(check: &ParentCheck, pricing: &Pricing) -> Self {
        Self {
            pk: check.partition.clone(),
            stored: check.stored.clone(),
            counted: check.count.count.to_string(),
            drift: check.drift.as_ref().map(to_dynamodb),
            pages: check.count.pages,
            rcu: check.count.consumed_rcu,
            usd: Usd::from(pricing.read(check.count.consumed_rcu)),
        }
    }
}

/// The totals over every parent of a reconcile.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TotalsDocument {
    /// Parents checked.
    pub parents: usize,
    /// Parents whose tally disagrees with their children (a missing tally included).
    pub drifted: usize,
    /// Parents that could not be checked.
    pub not_checked: usize,
    /// The stored tallies summed, exactly.
    pub stored: String,
    /// The children counted, summed.
    pub counted: String,
    /// Read capacity units every request of the run consumed.
    pub consumed_rcu: f64,
    /// What the run's reads cost.
    pub usd: Usd,
}

impl TotalsDocument {
    /// The totals of `all`, priced by `pricing`.
    pub fn of(all: &Reconciled, pricing: &Pricing) -> Self {
        let totals = &all.checked.totals;
        Self {
            parents: all.checked.checks.len(),
            drifted: totals.drifted,
            not_checked: all.failures.len(),
            stored: to_dynamodb(&totals.stored),
            counted: totals.counted.to_string(),
            consumed_rcu: totals.rcu,
            usd: Usd::from(pricing.read(totals.rcu)),
        }
    }
}

/// One drifted parent's repair, as it ended.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RepairDocument {
    /// The parent's partition key, as text.
    pub pk: String,
    /// How the guarded `SET` ended: `done`, `refused`, `error` or `unknown`.
    pub ending: crate::ending::Ending,
    /// The repair in words, with the check made after it.
    pub line: String,
    /// The parent checked again after the repair; `null` when it could not be.
    pub after: Option<ParentDocument>,
}

impl RepairDocument {
    /// The document of the repair of `pk`, its check afterwards priced by `pricing`.
    pub fn of(pk: &str, report: &RepairReport, pricing: &Pricing) -> Self {
        Self {
            pk: pk.to_owned(),
            ending: report.outcome.ending(),
            line: report.line().text,
            after: (report.recheck.as_ref().ok())
                .map(|(check, _)| ParentDocument::of(check, pricing)),
        }
    }
}

impl ParentCheck {
    /// The check as a JSON object ([`ParentDocument`]); numbers of the data as strings so they
    /// stay exact, and what the count read cost in dollars by `pricing`.
    pub fn to_json(&self, pricing: &Pricing) -> serde_json::Value {
        crate::document::Document::to_json(&ParentDocument::of(self, pricing))
    }
}

impl Checked {
    /// The checks as a JSON array (see [`ParentCheck::to_json`]).
    pub fn json(&self, pricing: &Pricing) -> String {
        let rows = self.checks.iter().map(|c| c.to_json(pricing)).collect();
        json::text(
            &serde_json::Value::Array(rows),
            Layout::Lines { spaced: true },
        )
    }
}
