//! Each parent whose tally a delete's repair set: its key (so a front end reads it back), its
//! tally before and after, how many of its children the delete took, and the drift it already had
//! before the delete, which the repair erased too.

use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::Serialize;

use crate::counter::Outcome;
use crate::number::{self, to_dynamodb};
use crate::report::plural;
use crate::tally::RepairAll;
use crate::value::Item;

/// The parents listed in words; the rest are counted (the JSON lists every one).
const LISTED: usize = 20;

/// One parent a repair was sent for.
#[derive(Debug, Clone, PartialEq)]
pub struct ParentRepaired {
    /// The tally attribute.
    pub tally: String,
    /// The parent's partition key, as text.
    pub partition: String,
    /// The parent's key.
    pub key: Item,
    /// The tally as read after the delete, before the repair (`None`: missing).
    pub before: Option<String>,
    /// The tally the repair set (`None`: not applied).
    pub after: Option<String>,
    /// Its children the delete took.
    pub deleted: u64,
}

impl ParentRepaired {
    /// Every parent `all` sent a repair for under `tally`, with what the delete took from each
    /// (`deleted_of`).
    pub(crate) fn of(tally: &str, all: &RepairAll, deleted_of: impl Fn(&str) -> u64) -> Vec<Self> {
        all.reports
            .iter()
            .filter_map(|(partition, report)| {
                let key = report.key.clone()?;
                let after = match &report.outcome {
                    Outcome::Applied { new_value, .. } => new_value.clone(),
                    _ => None,
                };
                Some(Self {
                    tally: tally.to_owned(),
                    partition: partition.clone(),
                    key,
                    before: report.before.clone(),
                    after,
                    deleted: deleted_of(partition),
                })
            })
            .collect()
    }

    /// The drift it had before the delete: what the repair took off beyond the children the
    /// delete took (`None` when not applied or the tally was missing).
    pub fn drift_before(&self) -> Option<BigDecimal> {
        let before = number::parse(self.before.as_deref()?).ok()?;
        let after = number::parse(self.after.as_deref()?).ok()?;
        Some(before - after - BigDecimal::from(self.deleted))
    }

    /// `POST#d71e: likeTally 3061 → 3056: the 3 children deleted, and a drift of +2 it had
    /// before`.
    pub fn line(&self) -> String {
        let before = self.before.as_deref().unwrap_or("missing");
        let Some(after) = &self.after else {
            return format!(
                "{}: `{}` {before}: not repaired",
                crate::terminal::escape_controls(&self.partition),
                self.tally
            );
        };
        let earlier = match self.drift_before() {
            Some(d) if d != BigDecimal::default() => {
                let sign = if d > BigDecimal::default() { "+" } else { "" };
                format!(
                    ", and a drift of {sign}{} it had before the delete",
                    to_dynamodb(&d)
                )
            }
            _ => String::new(),
        };
        format!(
            "{}: `{}` {before} → {after}: the {} deleted{earlier}",
            crate::terminal::escape_controls(&self.partition),
            self.tally,
            plural(usize::try_from(self.deleted).unwrap_or(usize::MAX), "child"),
        )
    }

    /// Its document.
    pub(crate) fn document(&self) -> ParentRepairedDocument {
        ParentRepairedDocument {
            parent: self.partition.clone(),
            tally: self.tally.clone(),
            before: self.before.clone(),
            after: self.after.clone(),
            deleted_children: self.deleted,
            drift_before_delete: self.drift_before().map(|d| to_dynamodb(&d)),
        }
    }
}

/// One parent whose tally a delete's repair set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct ParentRepairedDocument {
    /// The parent's partition key, as text.
    pub(crate) parent: String,
    /// The tally attribute.
    pub(crate) tally: String,
    /// The tally as read after the delete, before the repair, as a DynamoDB number; `null`
    /// when missing.
    pub(crate) before: Option<String>,
    /// The tally the repair set, as a DynamoDB number; `null` when the repair did not apply.
    pub(crate) after: Option<String>,
    /// Its children the delete took.
    pub(crate) deleted_children: u64,
    /// The drift it had before the delete (what the repair took off beyond the children
    /// deleted), as a DynamoDB number; `null` when not applied or the tally was missing.
    pub(crate) drift_before_delete: Option<String>,
}

/// The lines of `parents`: the first [`LISTED`], then how many more.
pub(crate) fn lines(parents: &[ParentRepaired]) -> Vec<String> {
    let mut lines: Vec<String> = parents
        .iter()
        .take(LISTED)
        .map(|p| format!("  {}", p.line()))
        .collect();
    if parents.len() > LISTED {
        lines.push(format!("  … and {} more parents", parents.len() - LISTED));
    }
    lines
}
