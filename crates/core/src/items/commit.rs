//! The staging area and its commit: staged changes, one per item, written through the write
//! gateway as one `TransactWriteItems` (all or nothing, at most 100 items) or item by item.
//! Each item's outcome is said on its own; an item whose condition failed is shown with what
//! the server holds now, and stays staged with every change not written.

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::expr::codegen::Transaction;
use crate::items::stage::{Change, ChangeKind};
use crate::read;
use crate::report::{Line, Tone};
use crate::table::TableInfo;
use crate::value::Item;
use crate::write::{
    self, CancelReason, Confirmation, Destination, Idempotency, Refusal, WriteOutcome, WritePlan,
};

/// The most items one `TransactWriteItems` takes.
pub const MAX_TRANSACTION: usize = 100;

/// How the staged changes are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitMode {
    /// One transaction: every item or none.
    Transaction,
    /// One request per item: each written or refused on its own.
    EachItem,
}

/// A commit as planned: the changes and the gateway's plans, fixed together.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitPlan {
    /// How.
    pub mode: CommitMode,
    /// The changes, in order.
    pub changes: Vec<Change>,
    /// One transaction plan, or one plan per change.
    pub plans: Vec<WritePlan>,
}

/// Plan the commit of `changes` to table `info` on `connection`.
pub fn plan_commit(
    connection: &Connection,
    info: &TableInfo,
    changes: &[Change],
    mode: CommitMode,
) -> Result<CommitPlan> {
    if changes.is_empty() {
        return Err(Error::Invalid("nothing is staged".into()));
    }
    let destination = Destination::of(connection);
    let key_names = info.key_names();
    let requests = changes
        .iter()
        .map(|c| c.request(info))
        .collect::<Result<Vec<_>>>()?;
    let plans = match mode {
        CommitMode::Transaction => {
            if changes.len() > MAX_TRANSACTION {
                return Err(Error::Invalid(format!(
                    "{} items are more than one transaction takes ({MAX_TRANSACTION}): commit item by item",
                    changes.len()
                )));
            }
            let transaction = Transaction {
                writes: requests,
                token: Some(write::fresh_token("dynoscope")),
                consumed_capacity: true,
            };
            vec![WritePlan::transaction(destination, transaction, key_names)]
        }
        CommitMode::EachItem => requests
            .into_iter()
            .map(|r| {
                WritePlan::single(destination.clone(), r, Idempotency::Once, key_names.clone())
            })
            .collect::<Result<Vec<_>>>()?,
    };
    Ok(CommitPlan {
        mode,
        changes: changes.to_vec(),
        plans,
    })
}

impl CommitPlan {
    /// What sending it needs first: one question for the whole commit.
    pub fn confirmation(&self) -> Confirmation {
        let Some(first) = self.plans.first() else {
            return Confirmation::NotNeeded;
        };
        let what = match self.mode {
            CommitMode::Transaction => first.what(),
            CommitMode::EachItem => {
                let table = first.targets().first().map(|(t, _)| (*t).to_owned());
                format!(
                    "table {}, {} items one by one",
                    table.unwrap_or_default(),
                    self.changes.len()
                )
            }
        };
        first.destination.confirmation(&what)
    }
}

/// How one staged item's write ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemOutcome {
    /// Written; the item as the server returned it, or as written.
    Written {
        /// The item now (`None`: deleted).
        item: Option<Item>,
    },
    /// Its condition failed: the item changed since it was read (or exists, for a new one).
    /// Nothing was written for it; `server` is what the server holds now.
    Conflict {
        /// The item as stored now (`None`: no such item).
        server: Option<Item>,
    },
    /// Refused, or cancelled with the transaction; nothing was written for it.
    NotWritten {
        /// Why.
        reason: String,
    },
    /// The answer was lost: it may or may not be written; what is stored now was read again.
    Unknown {
        /// The item as stored now, if it could be read.
        stored_now: Option<Item>,
        /// What happened to the request.
        why: String,
    },
    /// Never sent: an earlier item's outcome is unknown, so the commit stopped.
    NotSent,
}

/// One item's result.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemResult {
    /// The item's key.
    pub key: Item,
    /// What the change was.
    pub kind: ChangeKind,
    /// How it ended.
    pub outcome: ItemOutcome,
}

/// What a commit did, item by item.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitReport {
    /// How it was sent.
    pub mode: CommitMode,
    /// Each item's result, in the plan's order.
    pub items: Vec<ItemResult>,
    /// Write capacity consumed.
    pub wcu: f64,
}

/// Send `plan` on `connection` through the gateway (`confirmed`: the user said yes to its
/// question). Item by item, the commit stops after an unknown outcome.
pub async fn commit(
    connection: &Connection,
    info: &TableInfo,
    plan: &CommitPlan,
    confirmed: bool,
) -> CommitReport {
    let mut items = Vec::new();
    let mut wcu = 0.0;
    match plan.mode {
        CommitMode::Transaction => {
            let Some(first) = plan.plans.first() else {
                return CommitReport {
                    mode: plan.mode,
                    items,
                    wcu,
                };
            };
            let outcome = write::send(connection, first, confirmed).await;
            if let WriteOutcome::Applied { consumed_wcu, .. } = &outcome {
                wcu += consumed_wcu;
            }
            for (i, change) in plan.changes.iter().enumerate() {
                let result = transaction_item(connection, info, change, i, &outcome).await;
                items.push(ItemResult {
                    key: change.key.clone(),
                    kind: change.kind(),
                    outcome: result,
                });
            }
        }
        CommitMode::EachItem => {
            let mut stopped = false;
            for (change, each) in plan.changes.iter().zip(&plan.plans) {
                if stopped {
                    items.push(ItemResult {
                        key: change.key.clone(),
                        kind: change.kind(),
                        outcome: ItemOutcome::NotSent,
                    });
                    continue;
                }
                let outcome = write::send(connection, each, confirmed).await;
                if let WriteOutcome::Applied { consumed_wcu, .. } = &outcome {
                    wcu += consumed_wcu;
                }
                let result = single_item(change, outcome);
                stopped = matches!(result, ItemOutcome::Unknown { .. });
                items.push(ItemResult {
                    key: change.key.clone(),
                    kind: change.kind(),
                    outcome: result,
                });
            }
        }
    }
    CommitReport {
        mode: plan.mode,
        items,
        wcu,
    }
}

/// Item `i` of a transaction that ended as `outcome`.
async fn transaction_item(
    connection: &Connection,
    info: &TableInfo,
    change: &Change,
    i: usize,
    outcome: &WriteOutcome,
) -> ItemOutcome {
    match outcome {
        WriteOutcome::Applied { .. } => ItemOutcome::Written {
            item: change.after.clone(),
        },
        WriteOutcome::Refused {
            refusal: Refusal::Cancelled { reasons },
            ..
        } => {
            match reasons.get(i) {
                Some(CancelReason::ConditionalCheckFailed) => {
                    // What the server holds now, read after the refusal.
                    match read::get_item(&connection.reader(), &info.name, change.key.clone()).await
                    {
                        Ok(server) => ItemOutcome::Conflict { server },
                        Err(e) => ItemOutcome::NotWritten {
                            reason: format!(
                                "its condition failed; reading it again failed too: {e}"
                            ),
                        },
                    }
                }
                Some(CancelReason::Fine) | None => ItemOutcome::NotWritten {
                    reason: "the transaction was cancelled by another item; nothing was written"
                        .into(),
                },
                Some(code) => ItemOutcome::NotWritten {
                    reason: format!(
                        "the transaction was cancelled: {}; nothing was written",
                        code.words().unwrap_or_default()
                    ),
                },
            }
        }
        WriteOutcome::Refused { refusal, .. } => ItemOutcome::NotWritten {
            reason: refusal_text(refusal),
        },
        WriteOutcome::Unknown {
            error, stored_now, ..
        } => ItemOutcome::Unknown {
            stored_now: stored_now.get(i).and_then(|s| s.clone().ok()).flatten(),
            why: error.to_string(),
        },
    }
}

fn single_item(change: &Change, outcome: WriteOutcome) -> ItemOutcome {
    match outcome {
        WriteOutcome::Applied { returned, .. } => ItemOutcome::Written {
            item: returned.or_else(|| change.after.clone()),
        },
        WriteOutcome::Refused {
            refusal: Refusal::Condition { stored },
            ..
        } => ItemOutcome::Conflict { server: stored },
        WriteOutcome::Refused { refusal, .. } => ItemOutcome::NotWritten {
            reason: refusal_text(&refusal),
        },
        WriteOutcome::Unknown {
            error, stored_now, ..
        } => ItemOutcome::Unknown {
            stored_now: stored_now.into_iter().next().and_then(Result::ok).flatten(),
            why: error.to_string(),
        },
    }
}

fn refusal_text(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Error(e) => e.to_string(),
        Refusal::Condition { .. } => "its condition failed; nothing was written".into(),
        Refusal::Cancelled { reasons } => {
            format!(
                "the transaction was cancelled: {}",
                crate::write::CancelReason::cancelled_words(reasons, &[])
            )
        }
    }
}

impl CommitReport {
    /// Items written.
    pub fn written(&self) -> usize {
        self.items
            .iter()
            .filter(|r| matches!(r.outcome, ItemOutcome::Written { .. }))
            .count()
    }

    /// The commit in words: a title, then one line per item not written.
    pub fn lines(&self, key_names: &[String], pricing: &crate::cost::Pricing) -> Vec<Line> {
        let how = match self.mode {
            CommitMode::Transaction => "in one transaction",
            CommitMode::EachItem => "item by item",
        };
        let total = self.items.len();
        let written = self.written();
        let tone = if written == total {
            Tone::Good
        } else {
            Tone::Warn
        };
        let mut lines = vec![Line::new(
            tone,
            format!(
                "Committed {written} of {} {how} · {}",
                crate::report::plural(total, "item"),
                pricing.write(self.wcu)
            ),
        )];
        for r in &self.items {
            let key = crate::value::key_shown(&r.key, key_names);
            let line = match &r.outcome {
                ItemOutcome::Written { .. } => continue,
                ItemOutcome::Conflict { server: Some(_) } if r.kind == ChangeKind::Create => {
                    Line::new(
                        Tone::Bad,
                        format!(
                            "{key}: an item with this key already exists; nothing written. Give the new item another key."
                        ),
                    )
                }
                ItemOutcome::Conflict { server: Some(_) } => Line::new(
                    Tone::Bad,
                    format!(
                        "{key}: changed since it was read; nothing written. The server's item is shown; the change stays staged."
                    ),
                ),
                ItemOutcome::Conflict { server: None } => Line::new(
                    Tone::Bad,
                    format!(
                        "{key}: the condition failed and there is no such item now; nothing written."
                    ),
                ),
                ItemOutcome::NotWritten { reason } => {
                    Line::new(Tone::Bad, format!("{key}: not written: {reason}"))
                }
                ItemOutcome::Unknown { why, .. } => Line::new(
                    Tone::Warn,
                    format!(
                        "{key}: outcome unknown ({why}); not sent again. What is stored now is shown."
                    ),
                ),
                ItemOutcome::NotSent => Line::new(
                    Tone::Quiet,
                    format!(
                        "{key}: not sent (the commit stopped after an unknown outcome); still staged."
                    ),
                ),
            };
            lines.push(line);
        }
        lines
    }
}
