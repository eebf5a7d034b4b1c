//! Sending a like or unlike, observing the tally and the children before and after, and what
//! happened in words.

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::connection::Reader;
use crate::cost::{Kind, Pricing};
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::likes::{LikeRequest, LikeTarget};
use crate::read;
use crate::report::{Line, Tone};
use crate::table::TableInfo;
use crate::tally;
use crate::write::{self, CancelReason, Refusal, WriteOutcome};

/// How a like or unlike ended.
#[derive(Debug, Clone, PartialEq)]
pub enum LikeOutcome {
    /// Both writes happened.
    Committed {
        /// Write capacity consumed (about 4 for a like: 2 per transactional write).
        consumed_wcu: f64,
    },
    /// Nothing happened: each item's cancellation reason, in order.
    Cancelled {
        /// One reason per transaction item.
        reasons: Vec<CancelReason>,
    },
    /// The request failed otherwise (e.g. `IdempotentParameterMismatchException`).
    Failed(Error),
    /// Whether it was applied is not known: its task stopped before it answered.
    Unknown(Error),
}

impl LikeOutcome {
    /// Its class: done, refused (cancelled), bad input (cancelled only because the server found
    /// the request invalid), or unknown; a failure that applied nothing is handed back, to be
    /// said once as an error.
    pub fn ending(&self) -> Ending {
        match self {
            Self::Committed { .. } => Ending::Done,
            Self::Cancelled { reasons }
                if CancelReason::only(reasons, &CancelReason::ValidationError) =>
            {
                Ending::BadInput
            }
            Self::Cancelled { .. } => Ending::Refused,
            Self::Unknown(_) => Ending::Unknown,
            Self::Failed(error) => Ending::of_error(error),
        }
    }

    /// The failure that applied nothing, to be said once as an error.
    pub fn failure(&self) -> Option<&Error> {
        match self {
            Self::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// The outcome in one line: `Committed · 4 WCU ≈ $0.0000025 on demand`, `Cancelled: item 1
    /// (PK = … · SK = LIKE#USER#7c20): its condition failed; none of the 2 items was written`
    /// (each write named by `plan`, the transaction sent), or the error.
    pub fn line(&self, pricing: &Pricing, plan: &crate::write::WritePlan) -> Line {
        match self {
            Self::Committed { consumed_wcu } => Line::new(
                Tone::Good,
                format!(
                    "Committed · {}",
                    pricing.charge_reported(Kind::Write, *consumed_wcu).text()
                ),
            ),
            Self::Cancelled { reasons } => Line::new(
                Tone::Warn,
                format!("Cancelled: {}", plan.cancelled_words(reasons)),
            ),
            Self::Failed(error) => Line::new(Tone::Bad, error.write_words()),
            Self::Unknown(error) => Line::new(
                Tone::Warn,
                format!(
                    "Outcome unknown ({error}); not sent again: look at the tally and children."
                ),
            ),
        }
    }
}

/// The outcome with how many times it was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    /// How it ended.
    pub outcome: LikeOutcome,
    /// Transactions sent: more than one after refusals that wrote nothing
    /// (`TransactionConflict`, throttling), or re-sends of a tokened transaction whose answer
    /// was lost.
    pub attempts: u32,
}

impl LikeOutcome {
    /// The gateway's outcome, as a like sees it.
    pub fn of(outcome: WriteOutcome) -> Self {
        match outcome {
            WriteOutcome::Applied { consumed_wcu, .. } => Self::Committed { consumed_wcu },
            WriteOutcome::Refused { refusal, .. } => match refusal {
                Refusal::Cancelled { reasons } => Self::Cancelled { reasons },
                Refusal::Error(error) => Self::Failed(error),
                Refusal::Condition { .. } => Self::Cancelled {
                    reasons: vec![CancelReason::ConditionalCheckFailed],
                },
            },
            WriteOutcome::Unknown { error, .. } => Self::Unknown(error),
        }
    }
}

/// Send `request` through the write gateway on `connection` (the one it was built for);
/// `confirmed`: the user agreed to its confirmation question. A `TransactionConflict`
/// cancellation wrote nothing, so the gateway sends it again after a short pause; other
/// cancellations are reported.
/// Once `stop` is used nothing more is sent: a re-send still to come is not made.
pub async fn send(
    connection: &Connection,
    request: &LikeRequest,
    confirmed: bool,
    stop: &CancelToken,
) -> Sent {
    let outcome = write::send_until(connection, &request.write_plan(), confirmed, stop).await;
    Sent {
        attempts: outcome.attempts(),
        outcome: LikeOutcome::of(outcome),
    }
}

/// The parent's tally and its counted children at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The stored tally (`None`: missing).
    pub tally: Option<String>,
    /// The children counted.
    pub children: u64,
}

impl Snapshot {
    /// The stored tally as shown: its exact text, or `missing`.
    pub(crate) fn tally_text(&self) -> &str {
        self.tally.as_deref().unwrap_or("missing")
    }

    /// Whether the tally equals the counted children.
    pub fn consistent(&self) -> bool {
        self.tally.as_deref() == Some(self.children.to_string().as_str())
    }
}

/// Read the tally and count the children (consistent read, `Select: COUNT`).
pub async fn snapshot(reader: &Reader, info: &TableInfo, target: &LikeTarget) -> Result<Snapshot> {
    let rule = target.rule();
    let parent_key = target.parent_key();
    let stored = read::read_number(reader, &target.table, &parent_key, &target.tally).await?;
    let count = tally::count_children(reader, info, &parent_key, &rule).await?;
    Ok(Snapshot {
        tally: stored,
        children: count.count,
    })
}

/// `before → after` of one part of a snapshot, `?` where a snapshot could not be taken.
fn arrow(
    before: &Result<Snapshot>,
    after: &Result<Snapshot>,
    part: impl Fn(&Snapshot) -> String,
) -> String {
    let show = |s: &Result<Snapshot>| s.as_ref().map_or("?".to_owned(), &part);
    format!("{} → {}", show(before), show(after))
}

/// A like or unlike with the tally and the children before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct LikeReport {
    /// The request.
    pub request: LikeRequest,
    /// Before.
    pub before: Result<Snapshot>,
    /// The outcome.
    pub sent: Sent,
    /// After.
    pub after: Result<Snapshot>,
    /// What the table's writes cost, to say what the like cost.
    pub pricing: Pricing,
}

impl LikeReport {
    /// A like whose task stopped before it answered: whether it was sent is not known.
    pub fn lost(request: LikeRequest, pricing: Pricing, error: Error) -> Self {
        Self {
            pricing,
            request,
            before: Err(error.clone()),
            sent: Sent {
                outcome: LikeOutcome::Unknown(error.clone()),
                attempts: 0,
            },
            after: Err(error),
        }
    }

    /// `like POST#a91f as USER#7c20`.
    pub fn title(&self) -> String {
        format!(
            "{} {} as {}",
            self.request.op.name(),
            self.request.target.parent,
            self.request.user
        )
    }

    /// The tally before and after: `3 → 4`.
    pub fn tally_change(&self) -> String {
        arrow(&self.before, &self.after, |s| s.tally_text().to_owned())
    }

    /// The counted children before and after: `3 → 4`.
    pub fn children_change(&self) -> String {
        arrow(&self.before, &self.after, |s| s.children.to_string())
    }

    /// Whether a committed, tokened transaction changed nothing: the server recognised a replay
    /// of its token.
    pub fn replayed(&self) -> bool {
        matches!(self.sent.outcome, LikeOutcome::Committed { .. })
            && self.request.token.is_some()
            && matches!((&self.before, &self.after), (Ok(b), Ok(a)) if b == a)
    }
}

/// Observe, send (`confirmed`: the user agreed to the request's question), observe. `stop`
/// ends the read before the like, and then nothing is sent (`Err(Cancelled)`).
pub async fn like_and_observe(
    connection: &Connection,
    info: &TableInfo,
    request: LikeRequest,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<LikeReport> {
    let reader = connection.reader();
    let observe = || async {
        tokio::select! {
            seen = snapshot(&reader, info, &request.target) => seen,
            () = stop.cancelled() => Err(Error::Cancelled { op: "Query" }),
        }
    };
    let before = observe().await;
    if stop.is_cancelled() {
        return Err(Error::Cancelled {
            op: "TransactWriteItems",
        });
    }
    let sent = send(connection, &request, confirmed, stop).await;
    // Made after an interrupt too: the report says what the like did (a second interrupt
    // leaves at once).
    let after = snapshot(&reader, info, &request.target).await;
    Ok(LikeReport {
        request,
        before,
        sent,
        after,
        pricing: connection.pricing(info),
    })
}
