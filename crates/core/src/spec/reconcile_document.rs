//! A reconcile's one document: what the CLI's `check --all --json` prints and the MCP server's
//! `reconcile` answers, the same values from either.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Pricing;
use crate::error::document::ErrorDocument;
use crate::tally::{ParentDocument, RepairAll, RepairDocument, TotalsDocument};

/// Every parent of a rule reconciled: each stored tally beside its counted children.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ReconcileDocument {
    /// How it read, in words: one pass (a parallel scan), per parent (a COUNT query each), or
    /// one pass over an export's files.
    pub plan: String,
    /// What each plan was estimated to cost, a line each (empty for an export).
    pub estimate: Vec<String>,
    /// Parents checked.
    pub parents: usize,
    /// The drifted parents, the worst first (a missing tally, then the largest drift), at
    /// most 100; `totals.drifted` counts them all.
    pub drifted: Vec<ParentDocument>,
    /// The parents that could not be checked, each with why (at most 100); the others were
    /// still checked.
    pub not_checked: Vec<ErrorDocument>,
    /// The totals over every parent.
    pub totals: TotalsDocument,
    /// The totals in one line.
    pub summary: String,
    /// The repair of every drifted parent, when it was asked for (the CLI's `--repair`); the
    /// other keys then say the parents as checked again after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<RepairAllDocument>,
}

/// Every drifted parent repaired, one guarded `SET` after another.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RepairAllDocument {
    /// Each repair in the order sent.
    pub repairs: Vec<RepairDocument>,
    /// Drifted parents left unsent (after an unknown outcome, or a stop).
    pub not_sent: usize,
    /// The repairs in one line.
    pub summary: String,
}

impl RepairAllDocument {
    /// The document of `all`, its checks priced by `pricing`.
    pub fn of(all: &RepairAll, pricing: &Pricing) -> Self {
        Self {
            repairs: (all.reports.iter())
                .map(|(pk, report)| RepairDocument::of(pk, report, pricing))
                .collect(),
            not_sent: all.stopped.as_ref().map_or(0, |(left, _)| *left),
            summary: all.summary(),
        }
    }
}
