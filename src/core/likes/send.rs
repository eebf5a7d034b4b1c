//! Sending a like or unlike, observing the tally and the children before and after, and what
//! happened in words.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::core::error::{Error, Result};
use crate::core::likes::{LikeRequest, LikeTarget};
use crate::core::read;
use crate::core::report::{Line, Tone, capacity};
use crate::core::table::TableInfo;
use crate::core::tally;

/// How a like or unlike ended.
#[derive(Debug, Clone, PartialEq)]
pub enum LikeOutcome {
    /// Both writes happened.
    Committed {
        /// Write capacity consumed (about 4 for a like: 2 per transactional write).
        consumed_wcu: f64,
    },
    /// Nothing happened: each item's cancellation reason, in order (`ConditionalCheckFailed`,
    /// `None`, `TransactionConflict`, …).
    Cancelled {
        /// One reason per transaction item.
        reasons: Vec<String>,
    },
    /// The request failed otherwise (e.g. `IdempotentParameterMismatchException`).
    Failed(Error),
    /// Whether it was applied is not known: its task stopped before it answered.
    Unknown(Error),
}

impl LikeOutcome {
    /// The outcome in one line: `Committed · 4 WCU`, `Cancelled: [ConditionalCheckFailed,
    /// None]`, or the error.
    pub fn line(&self) -> Line {
        match self {
            Self::Committed { consumed_wcu } => Line::new(
                Tone::Good,
                format!("Committed · {} WCU", capacity(*consumed_wcu)),
            ),
            Self::Cancelled { reasons } => {
                Line::new(Tone::Warn, format!("Cancelled: [{}]", reasons.join(", ")))
            }
            Self::Failed(error) => Line::new(Tone::Bad, error.to_string()),
            Self::Unknown(error) => Line::new(
                Tone::Warn,
                format!("Outcome unknown ({error}); not re-sent: look at the tally and children."),
            ),
        }
    }
}

/// The outcome with how many times it was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    /// How it ended.
    pub outcome: LikeOutcome,
    /// Transactions sent (more than one after `TransactionConflict` cancellations).
    pub attempts: u32,
    /// `TransactionConflict` cancellations retried.
    pub conflicts: u32,
}

/// Conflict cancellations retried before reporting one.
const MAX_CONFLICT_RETRIES: u32 = 5;

/// Send `request`. A cancellation for `TransactionConflict` (another transaction held an item)
/// wrote nothing, so it is retried with a short backoff; other cancellations are reported.
pub async fn send(client: &Client, request: &LikeRequest) -> Sent {
    let items = match request.items() {
        Ok(items) => items,
        Err(e) => {
            return Sent {
                outcome: LikeOutcome::Failed(e),
                attempts: 0,
                conflicts: 0,
            };
        }
    };
    let mut attempts = 0;
    let mut conflicts = 0;
    loop {
        attempts += 1;
        let result = client
            .transact_write_items()
            .set_transact_items(Some(items.clone()))
            .set_client_request_token(request.token.clone())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        let outcome = match result {
            Ok(out) => LikeOutcome::Committed {
                consumed_wcu: out
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .sum(),
            },
            Err(SdkError::ServiceError(service))
                if matches!(
                    service.err(),
                    TransactWriteItemsError::TransactionCanceledException(_)
                ) =>
            {
                LikeOutcome::Cancelled {
                    reasons: cancellation_reasons(service.err()),
                }
            }
            Err(e) => LikeOutcome::Failed(Error::from_sdk("TransactWriteItems", e)),
        };
        let conflicted = matches!(&outcome, LikeOutcome::Cancelled { reasons } if reasons.iter().any(|r| r == "TransactionConflict"));
        if conflicted && conflicts < MAX_CONFLICT_RETRIES {
            conflicts += 1;
            tokio::time::sleep(Duration::from_millis(20 << conflicts)).await;
            continue;
        }
        return Sent {
            outcome,
            attempts,
            conflicts,
        };
    }
}

/// Each item's cancellation reason, in order (`None` where the item was fine).
fn cancellation_reasons(error: &TransactWriteItemsError) -> Vec<String> {
    match error {
        TransactWriteItemsError::TransactionCanceledException(cancelled) => cancelled
            .cancellation_reasons()
            .iter()
            .map(|r| r.code().unwrap_or("None").to_owned())
            .collect(),
        _ => Vec::new(),
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
    pub fn tally_text(&self) -> &str {
        self.tally.as_deref().unwrap_or("missing")
    }

    /// Whether the tally equals the counted children.
    pub fn consistent(&self) -> bool {
        self.tally.as_deref() == Some(self.children.to_string().as_str())
    }
}

/// Read the tally and count the children (consistent read, `Select: COUNT`).
pub async fn snapshot(client: &Client, info: &TableInfo, target: &LikeTarget) -> Result<Snapshot> {
    let rule = target.rule();
    let parent_key = target.parent_key();
    let stored = read::read_number(client, &target.table, &parent_key, &target.tally).await?;
    let count = tally::count_children(client, info, &parent_key, &rule).await?;
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
}

impl LikeReport {
    /// A like whose task stopped before it answered: whether it was sent is not known.
    pub fn lost(request: LikeRequest, error: Error) -> Self {
        Self {
            request,
            before: Err(error.clone()),
            sent: Sent {
                outcome: LikeOutcome::Unknown(error.clone()),
                attempts: 0,
                conflicts: 0,
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

    /// What to know besides the figures: the outcome, what a cancellation means, conflicts
    /// retried, and snapshots that could not be taken.
    pub fn lines(&self) -> Vec<Line> {
        let mut lines = vec![self.sent.outcome.line()];
        if matches!(self.sent.outcome, LikeOutcome::Cancelled { .. }) {
            lines.push(Line::new(
                Tone::Plain,
                "The whole transaction was cancelled: nothing was written and the tally did not move.",
            ));
        }
        if self.sent.conflicts > 0 {
            lines.push(Line::new(
                Tone::Plain,
                format!(
                    "{} TransactionConflict cancellation(s) retried ({} attempts).",
                    self.sent.conflicts, self.sent.attempts
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

/// Observe, send, observe.
pub async fn like_and_observe(
    client: &Client,
    info: &TableInfo,
    request: LikeRequest,
) -> LikeReport {
    let before = snapshot(client, info, &request.target).await;
    let sent = send(client, &request).await;
    let after = snapshot(client, info, &request.target).await;
    LikeReport {
        request,
        before,
        sent,
        after,
    }
}
