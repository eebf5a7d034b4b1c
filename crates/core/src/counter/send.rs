//! Sending a counter edit through the write gateway, and what it means for the attribute.

use crate::connection::Connection;
use crate::counter::{Outcome, UpdatePlan};
use crate::error::Error;
use crate::value::{Item, cell_text};
use crate::write::{self, Refusal, WriteOutcome};

/// Send a counter edit (`UpdateItem`, `ReturnValues: UPDATED_NEW`) through the write gateway,
/// on `connection` if it is the one the edit was planned on. `confirmed`: the user agreed to
/// the plan's confirmation question (needed for any endpoint not on this machine).
///
/// `ADD` and `SET … + :d` are never sent twice; only a throttling refusal is sent again. When
/// the outcome is unknown, the value is read again and reported instead.
pub async fn update_counter(
    connection: &Connection,
    plan: &UpdatePlan,
    confirmed: bool,
) -> Outcome {
    match plan.write_plan() {
        Ok(write) => Outcome::of(
            write::send(connection, &write, confirmed).await,
            &plan.attribute,
        ),
        Err(e) => Outcome::Failed(e),
    }
}

impl Outcome {
    /// The gateway's outcome, as it concerns `attribute`.
    pub fn of(outcome: WriteOutcome, attribute: &str) -> Self {
        let value = |item: &Item| item.get(attribute).map(cell_text);
        match outcome {
            WriteOutcome::Applied {
                returned,
                consumed_wcu,
                attempts,
                throttled,
                ..
            } => Self::Applied {
                new_value: returned.as_ref().and_then(value),
                consumed_wcu,
                attempts,
                throttled,
            },
            WriteOutcome::Refused { refusal, .. } => match refusal {
                Refusal::Condition { stored: None } => Self::Missing,
                Refusal::Condition { stored: Some(item) } => Self::ConditionFailed {
                    current: value(&item),
                },
                Refusal::Error(error) => Self::Failed(error),
                Refusal::Cancelled { reasons } => Self::Failed(Error::Invalid(format!(
                    "the transaction was cancelled: {}",
                    crate::write::CancelReason::cancelled_words(&reasons, &[])
                ))),
            },
            WriteOutcome::Unknown {
                error,
                stored_now,
                attempts,
            } => Self::Unknown {
                attempts,
                stored_now: stored_now
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| Err(error.clone()))
                    .map(|item| item.as_ref().and_then(value)),
                error,
            },
        }
    }
}
