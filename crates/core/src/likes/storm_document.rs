//! A storm's one report: what it sent and what came of it, its cost and load, the tally and
//! the children before and after, and the verdict — said by the CLI's `storm` as words or as
//! its document, and ending as the exit table says (an outcome unknown over a refusal).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Kind;
use crate::cost::usd::{ExactNumber, Usd};
use crate::ending::Ending;
use crate::likes::StormReport;
use crate::number::to_dynamodb;
use crate::report::{Line, Report, Tone};

/// A storm of simulated users liking (and some unliking) one parent, and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StormDocument {
    /// Simulated users.
    pub users: usize,
    /// Operations finished (likes and unlikes sent, whatever their end).
    pub operations: usize,
    /// Transactions committed.
    pub committed: usize,
    /// Transactions the server cancelled, counted by their cancellation reasons (e.g.
    /// `[ConditionalCheckFailed, None]`: the like was there already).
    pub cancelled: BTreeMap<String, usize>,
    /// Transactions sent again after a refusal that wrote nothing (a conflict, throttling).
    pub resent: u32,
    /// Operations refused by an error.
    pub failed: usize,
    /// Operations whose outcome is unknown: they may have been applied.
    pub unknown: usize,
    /// Write capacity units consumed.
    pub consumed_wcu: f64,
    /// Operations a second.
    pub ops_per_sec: f64,
    /// What the writes cost.
    pub usd: Usd,
    /// Write capacity units a second on the parent's partition, on average over the storm;
    /// `null` when it took no time.
    pub wcu_per_second: Option<ExactNumber>,
    /// The stored tally before, exactly; `null` when missing.
    pub tally_before: Option<String>,
    /// The stored tally after, exactly; `null` when missing or not read.
    pub tally_after: Option<String>,
    /// The children counted before.
    pub children_before: String,
    /// The children counted after; `null` when they could not be read.
    pub children_after: Option<String>,
    /// Why the tally and the children could not be read after the storm; `null` when they were.
    pub after_error: Option<String>,
    /// How much the storm moved the tally; `null` when a tally is not a number or not read.
    pub storm_tally_change: Option<String>,
    /// How much the storm moved the children; `null` when not read.
    pub storm_children_change: Option<String>,
    /// Whether the storm moved the tally exactly as much as the children.
    pub storm_consistent: bool,
    /// Whether the tally equals the counted children afterwards.
    pub equal: bool,
}

impl StormReport {
    /// The storm's document.
    pub fn document(&self) -> StormDocument {
        let (stats, before, after) = (&self.stats, &self.before, self.after.as_ref());
        let changes = self.changes();
        StormDocument {
            users: self.users,
            operations: stats.done,
            committed: stats.committed,
            cancelled: stats.cancelled.clone(),
            resent: stats.resent,
            failed: stats.failed,
            unknown: stats.unknown,
            consumed_wcu: stats.consumed_wcu,
            ops_per_sec: stats.ops_per_sec(),
            usd: Usd::from(
                self.pricing
                    .charge_reported(Kind::Write, stats.consumed_wcu),
            ),
            wcu_per_second: stats.load(&self.parent).per_second().map(ExactNumber),
            tally_before: before.tally.clone(),
            tally_after: after.ok().and_then(|a| a.tally.clone()),
            children_before: before.children.to_string(),
            children_after: after.ok().map(|a| a.children.to_string()),
            after_error: after.err().map(ToString::to_string),
            storm_tally_change: changes.as_ref().map(|(t, _)| to_dynamodb(t)),
            storm_children_change: changes.as_ref().map(|(_, c)| to_dynamodb(c)),
            storm_consistent: self.storm_consistent(),
            equal: self.equal(),
        }
    }
}

crate::document_as!(StormReport => StormDocument, document);

impl StormReport {
    /// Said beside the report whatever its form (the CLI's stderr): the operations an
    /// interrupt left unsent, and the first refusal.
    pub fn notes(&self) -> Vec<String> {
        let stats = &self.stats;
        let mut notes = Vec::new();
        if stats.done < stats.planned {
            notes.push(format!(
                "interrupted: {} of {} operations were not sent",
                stats.planned - stats.done,
                stats.planned
            ));
        }
        if let Some(error) = &stats.first_failure {
            notes.push(format!("the first refusal: {error}"));
        }
        notes
    }
}

impl Report for StormReport {
    /// What it sent, the kinds of cancellation, the verdict, the cost and load (what was not
    /// sent, and the first refusal, are its [`notes`](StormReport::notes)).
    fn lines(&self) -> Vec<Line> {
        let stats = &self.stats;
        let mut lines = vec![Line::new(
            Tone::Figure,
            format!(
                "{} users in {} ms: {}",
                self.users,
                stats.elapsed_ms,
                stats.progress(&self.pricing)
            ),
        )];
        lines.extend(stats.details());
        lines.extend(self.verdict());
        lines.extend(self.cost());
        lines
    }

    /// Unknown when a write's outcome, or the storm's result, is not known; a storm all of
    /// whose writes were refused ends as its refusal (bad input: an error); refused in part,
    /// inconsistent or interrupted: refused.
    fn ending(&self) -> Ending {
        let stats = &self.stats;
        let nothing_applied = stats.committed == 0 && stats.cancelled.is_empty();
        if stats.unknown > 0 || self.after.is_err() {
            Ending::Unknown
        } else if let Some(error) = stats.first_failure.as_ref().filter(|_| nothing_applied) {
            Ending::of_error(error)
        } else if !self.storm_consistent() || stats.failed > 0 || stats.done < stats.planned {
            Ending::Refused
        } else {
            Ending::Done
        }
    }
}
