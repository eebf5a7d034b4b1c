//! A like's report in words and JSON: its outcome first (a replay and a tally that was missing
//! said as such), the tally and the children before and after, then the details.

use crate::cost::Kind;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::likes::send::LikeReport;
use crate::likes::{LikeOutcome, Snapshot};
use crate::report::{Line, Report, Tone};
use crate::write::CancelReason;

impl LikeReport {
    /// What to know besides the figures: the outcome, what a cancellation means, conflicts
    /// retried, and snapshots that could not be taken.
    pub fn details(&self) -> Vec<Line> {
        let plan = self.request.write_plan();
        let mut lines = vec![match &self.sent.outcome {
            // The child's own condition: said as what it means for this user and post.
            LikeOutcome::Cancelled { reasons } if self.request.child_refused(reasons) => {
                Line::new(Tone::Warn, self.request.child_refused_words())
            }
            // A replay wrote nothing: no write is priced beside it.
            LikeOutcome::Committed { .. } if self.replayed() => Line::new(
                Tone::Good,
                "Committed as a replay of its token: nothing was written",
            ),
            outcome => outcome.line(&self.pricing, &plan),
        }];
        if let (LikeOutcome::Committed { .. }, Ok(before)) = (&self.sent.outcome, &self.before)
            && before.tally.is_none()
            && !self.replayed()
        {
            // The tool saw it missing: an ADD on a missing tally starts it from 0, which a
            // missing tally is not.
            lines.push(Line::new(
                Tone::Warn,
                format!(
                    "{} had no `{}`: this {} created it from nothing, though its {} children \
                     were counted before — check the tally against its children",
                    self.request.target.parent_shown(),
                    self.request.target.tally,
                    self.request.op.name(),
                    before.children
                ),
            ));
        }
        match &self.sent.outcome {
            LikeOutcome::Cancelled { reasons } if self.request.parent_missing(reasons) => {
                lines.push(Line::new(
                    Tone::Warn,
                    Error::Missing {
                        what: format!("The parent {}", self.request.target.parent_shown()),
                        kind: "parent",
                    }
                    .to_string(),
                ));
            }
            LikeOutcome::Cancelled { .. } => lines.push(Line::new(
                Tone::Plain,
                "The whole transaction was cancelled: nothing was written and the tally did not move.",
            )),
            LikeOutcome::Committed { .. } if self.replayed() => lines.push(Line::new(
                Tone::Plain,
                "The server recognised the ClientRequestToken of an earlier, committed transaction: it answered success and changed nothing (the tally and the children did not move).",
            )),
            _ => {}
        }
        if self.sent.attempts > 1 {
            lines.push(Line::new(
                Tone::Plain,
                format!(
                    "Sent {} times: the earlier attempts wrote nothing (TransactionConflict or throttling){}.",
                    self.sent.attempts,
                    if self.request.token.is_some() {
                        ", or were repeats under the same token, which count once"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let mut said: Vec<&Error> = match &self.sent.outcome {
            LikeOutcome::Failed(e) | LikeOutcome::Unknown(e) => vec![e],
            _ => Vec::new(),
        };
        for snapshot in [&self.before, &self.after] {
            if let Err(error) = snapshot
                && !said.contains(&error)
            {
                lines.push(Line::new(Tone::Bad, error.to_string()));
                said.push(error);
            }
        }
        lines
    }
}

impl Report for LikeReport {
    /// The outcome first (it is what happened, whatever the reads around it did), the tally
    /// and the children before and after, then the details.
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![
            Line::new(Tone::Title, self.title()),
            Line::new(
                Tone::Figure,
                format!(
                    "tally {} · children {}",
                    self.tally_change(),
                    self.children_change()
                ),
            ),
        ];
        lines.extend(self.details());
        lines
    }

    /// The report as one JSON object: the outcome, the reasons of a cancel, the tally and the
    /// children before and after, and the lines the app shows.
    fn to_json(&self) -> serde_json::Value {
        let (outcome, reasons, wcu) = match &self.sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => ("committed", vec![], *consumed_wcu),
            LikeOutcome::Cancelled { reasons } => (
                "cancelled",
                reasons.iter().map(CancelReason::code).collect(),
                0.0,
            ),
            LikeOutcome::Failed(_) => ("failed", vec![], 0.0),
            LikeOutcome::Unknown(_) => ("unknown", vec![], 0.0),
        };
        let tally = |s: &Result<Snapshot>| s.as_ref().ok().map(|s| s.tally.clone());
        let children = |s: &Result<Snapshot>| s.as_ref().ok().map(|s| s.children.to_string());
        serde_json::json!({
            "op": self.request.op.name(), "user": self.request.user, "outcome": outcome,
            "reasons": reasons, "consumed_wcu": wcu,
            "usd": self.pricing.charge_reported(Kind::Write, wcu).usd_json(),
            "attempts": self.sent.attempts,
            "replayed": self.replayed(),
            "tally_before": tally(&self.before), "tally_after": tally(&self.after),
            "children_before": children(&self.before), "children_after": children(&self.after),
            "lines": self.details().into_iter().map(|l| l.text).collect::<Vec<_>>(),
        })
    }

    fn ending(&self) -> Ending {
        self.sent.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        self.sent.outcome.failure()
    }
}
