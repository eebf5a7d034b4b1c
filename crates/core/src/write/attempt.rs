//! What one attempt of a write gave, shared by the gateway's single writes and its writes of
//! many items.

use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;

use crate::error::Error;
use crate::expr::codegen::Request;
use crate::value::Item;
use crate::write::{CancelReason, Refusal};

/// Why one attempt did not apply.
pub(super) enum Failure {
    /// The server answered no: nothing was written by this attempt.
    Refused(Refusal),
    /// Anything else, sorted by [`is_throttled`](crate::write::is_throttled) and
    /// [`may_have_been_applied`](crate::write::may_have_been_applied).
    Error(Error),
}

/// What one attempt that the server answered gave.
pub(super) struct Sent {
    /// What the server returned (`ReturnValues`).
    pub(super) returned: Option<Item>,
    /// Write capacity consumed.
    pub(super) wcu: f64,
    /// A batch's items the server did not write this time.
    pub(super) unprocessed: Vec<Item>,
}

/// `ALL_OLD` on a failed condition, when the request has a condition and asks for it.
pub(super) fn old_on_failure(request: &Request) -> Option<ReturnValuesOnConditionCheckFailure> {
    (request.condition.is_some() && request.returns.old_item_on_condition_failure)
        .then_some(ReturnValuesOnConditionCheckFailure::AllOld)
}

/// Whether a cancellation was only for conflicts with other transactions: nothing was
/// written, and nothing about the data refused it, so it may be sent again.
pub(super) fn only_conflicts(refusal: &Refusal) -> bool {
    match refusal {
        Refusal::Cancelled { reasons } => {
            reasons.contains(&CancelReason::TransactionConflict)
                && reasons
                    .iter()
                    .all(|r| matches!(r, CancelReason::TransactionConflict | CancelReason::Fine))
        }
        _ => false,
    }
}
