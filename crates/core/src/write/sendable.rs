//! What decides whether a write goes out: the checks before the first attempt (the connection
//! planned on, not read-only, confirmed when asked), and which failures may be sent again.

use crate::connection::Connection;
use crate::error::Error;
use crate::retry;
use crate::write::attempt::{Failure, only_conflicts};
use crate::write::{Idempotency, WriteOutcome, WritePlan, is_throttled, may_have_been_applied};

/// The write refused unsent, when it is: another connection than planned, a read-only one, or
/// a confirmation the plan needs and lacks.
pub(super) fn refused_unsent(
    connection: &Connection,
    plan: &WritePlan,
    confirmed: bool,
) -> Option<WriteOutcome> {
    if !plan.destination.is(connection) {
        return Some(WriteOutcome::not_sent(Error::ConnectionChanged {
            planned: plan.destination.place(),
            now: connection.target.clone(),
        }));
    }
    if connection.is_read_only() {
        return Some(WriteOutcome::not_sent(Error::ReadOnly {
            place: plan.destination.place(),
        }));
    }
    if let Err(error) = plan.confirmation().check(confirmed) {
        return Some(WriteOutcome::not_sent(error));
    }
    None
}

/// Whether a failed attempt may be sent again, and what a re-send is told apart as.
pub(super) fn resend_kind(failure: &Failure, plan: &WritePlan) -> Option<retry::Failure> {
    match failure {
        Failure::Refused(refusal) if only_conflicts(refusal) => Some(retry::Failure::Conflict),
        Failure::Error(error) if is_throttled(error) => Some(retry::Failure::Throttled),
        // Sent again only when sending it twice changes nothing.
        Failure::Error(error)
            if may_have_been_applied(error) && plan.idempotency == Idempotency::Repeatable =>
        {
            Some(retry::Failure::Lost)
        }
        _ => None,
    }
}
