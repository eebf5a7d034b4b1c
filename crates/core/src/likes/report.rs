//! A like's report in words and JSON: its outcome first (a replay and a tally that was missing
//! said as such), the tally and the children before and after, then the details.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Kind;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::likes::send::LikeReport;
use crate::likes::{LikeOp, LikeOutcome, LikeRequest, Snapshot};
use crate::report::{Line, Report, Tone};
use crate::write::CancelReason;

/// A like or an unlike: how it ended, what it cost, and the tally and the children before
/// and after.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct LikeDocument {
    /// `like` or `unlike`.
    pub(crate) op: LikeOpWord,
    /// The user who liked or unliked.
    pub(crate) user: String,
    /// How the transaction ended.
    pub(crate) outcome: LikeOutcomeWord,
    /// The server's cancellation code for each item of a cancelled transaction, in order
    /// (`None`, `ConditionalCheckFailed`, …); empty otherwise.
    pub(crate) reasons: Vec<String>,
    /// The write capacity units the transaction consumed (0 unless it committed).
    pub(crate) consumed_wcu: f64,
    /// What the writes cost in US dollars.
    pub(crate) usd: Usd,
    /// Transactions sent (more than one after refusals that wrote nothing).
    pub(crate) attempts: u32,
    /// Whether the server answered a replay of an earlier committed transaction's token,
    /// changing nothing.
    pub(crate) replayed: bool,
    /// The stored tally before, as a DynamoDB number; `null` when missing or not read.
    pub(crate) tally_before: Option<String>,
    /// The stored tally after, as a DynamoDB number; `null` when missing or not read.
    pub(crate) tally_after: Option<String>,
    /// The children counted before, as a number in text; `null` when not read.
    pub(crate) children_before: Option<String>,
    /// The children counted after, as a number in text; `null` when not read.
    pub(crate) children_after: Option<String>,
    /// What to know besides the figures, in words, as the app shows it.
    pub(crate) lines: Vec<String>,
}

/// Like or unlike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LikeOpWord {
    /// The child put and the tally raised by 1.
    Like,
    /// The child deleted and the tally lowered by 1.
    Unlike,
}

/// How a like's transaction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LikeOutcomeWord {
    /// Both writes happened (or a replay of its token, which changed nothing).
    Committed,
    /// The transaction was cancelled: nothing was written.
    Cancelled,
    /// Refused before anything could apply.
    Failed,
    /// It may or may not have been applied.
    Unknown,
}

impl LikeReport {
    /// What to know besides the figures: the outcome, what a cancellation means, conflicts
    /// retried, and snapshots that could not be taken.
    pub fn details(&self) -> Vec<Line> {
        let plan = self.request.write_plan();
        let mut lines = vec![match &self.sent.outcome {
            // The child's own condition: said as what it means for this user and post.
            LikeOutcome::Cancelled { reasons } if LikeRequest::child_refused(reasons) => {
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

impl LikeReport {
    /// The report's document.
    pub(crate) fn document(&self) -> LikeDocument {
        let (outcome, reasons, wcu) = match &self.sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => {
                (LikeOutcomeWord::Committed, vec![], *consumed_wcu)
            }
            LikeOutcome::Cancelled { reasons } => (
                LikeOutcomeWord::Cancelled,
                (reasons.iter().map(CancelReason::code))
                    .map(str::to_owned)
                    .collect(),
                0.0,
            ),
            LikeOutcome::Failed(_) => (LikeOutcomeWord::Failed, vec![], 0.0),
            LikeOutcome::Unknown(_) => (LikeOutcomeWord::Unknown, vec![], 0.0),
        };
        let tally = |s: &Result<Snapshot>| s.as_ref().ok().and_then(|s| s.tally.clone());
        let children = |s: &Result<Snapshot>| s.as_ref().ok().map(|s| s.children.to_string());
        LikeDocument {
            op: match self.request.op {
                LikeOp::Like => LikeOpWord::Like,
                LikeOp::Unlike => LikeOpWord::Unlike,
            },
            user: self.request.user.clone(),
            outcome,
            reasons,
            consumed_wcu: wcu,
            usd: Usd::from(self.pricing.charge_reported(Kind::Write, wcu)),
            attempts: self.sent.attempts,
            replayed: self.replayed(),
            tally_before: tally(&self.before),
            tally_after: tally(&self.after),
            children_before: children(&self.before),
            children_after: children(&self.after),
            lines: self.details().into_iter().map(|l| l.text).collect(),
        }
    }
}

crate::document_as!(LikeReport => LikeDocument, document);

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

    fn ending(&self) -> Ending {
        self.sent.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        self.sent.outcome.failure()
    }
}
