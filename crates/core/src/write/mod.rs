//! The write gateway: every write dynoscope sends — counter edits, repairs, likes, storms, the
//! counter lab, the builder's Run — is a [`WritePlan`] sent by [`send`]. The plan fixes the
//! destination when it is made; the gateway alone decides whether to ask first, whether to send
//! again, and how it ended: [`WriteOutcome::Applied`], [`Refused`](WriteOutcome::Refused) with
//! the server's reason, or [`Unknown`](WriteOutcome::Unknown) with what is stored now.

mod attempt;
mod confirm;
mod export;
mod many;
mod outcome;
mod plan;
mod send;
mod sendable;
mod setting;
mod setting_change;
mod single;

pub use confirm::Confirmation;
pub use export::{ExportKind, ExportRequest};
pub use outcome::{CancelReason, WriteOutcome};
pub use outcome::{Refusal, Unwritten};
pub use plan::BatchKind;
pub use plan::{Batch, Idempotency};
pub use plan::{Destination, WritePlan, WriteRequest, fresh_token};
pub use send::send;
pub(crate) use send::send_until;
pub use setting::TableSetting;
pub use single::SingleWrite;
pub use single::WriteOp;

use crate::error::Error;
pub(crate) use crate::throttle::{Deadline, is_throttled, one_attempt_within};

/// Whether a write that failed this way may still have been applied: a timeout, a connection
/// lost after the request left (not a refused connection), a 5xx the server answered with, or
/// an answer that could not be read (an HTML error page, a garbled or cut body).
pub(crate) fn may_have_been_applied(error: &Error) -> bool {
    match error {
        Error::Unreachable { never_sent, .. } => !never_sent,
        // A server fault is any 5xx, whatever its code: the server failed while working on it.
        Error::Timeout { .. } | Error::TaskDied { .. } | Error::ServerFault { .. } => true,
        // A 4xx page without a code came from something in front of the server that refused.
        Error::Garbled { status, .. } => !(400..500).contains(status),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_failures_may_have_written() {
        let service = |code: &str| Error::Service {
            op: "UpdateItem",
            code: code.into(),
            message: String::new(),
            throttled: Vec::new(),
        };
        assert!(is_throttled(&service("ThrottlingException")));
        assert!(!may_have_been_applied(&service("ThrottlingException")));
        assert!(!may_have_been_applied(&service(
            "ConditionalCheckFailedException"
        )));
        let fault = |code: &str| Error::ServerFault {
            op: "UpdateItem",
            status: 500,
            code: code.into(),
            message: String::new(),
        };
        assert!(may_have_been_applied(&fault("InternalServerError")));
        assert!(
            may_have_been_applied(&fault("InternalFailure")),
            "any 5xx code"
        );
        assert!(!may_have_been_applied(&service("ValidationException")));
        let unreachable = |never_sent| Error::Unreachable {
            op: "UpdateItem",
            detail: String::new(),
            never_sent,
        };
        assert!(!may_have_been_applied(&unreachable(true)));
        assert!(may_have_been_applied(&unreachable(false)));
        let garbled = |status| Error::Garbled {
            op: "UpdateItem",
            status,
            detail: String::new(),
        };
        assert!(may_have_been_applied(&garbled(500)));
        assert!(may_have_been_applied(&garbled(200)));
        assert!(!may_have_been_applied(&garbled(403)));
    }
}
