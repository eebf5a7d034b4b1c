//! What throttling is, and the SDK's retries switched off: the write gateway and the reader each
//! decide their own re-sends, so neither may have the SDK retry underneath it.

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;

use crate::error::Error;

/// Server error codes that mean "rejected, not applied": safe to send again after a pause.
const THROTTLED: [&str; 4] = [
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
    // Streams' GetRecords beyond about five calls a second per shard; a control-plane request
    // beyond its concurrent limit. Refused either way, nothing done.
    "LimitExceededException",
];

/// A config override that turns the SDK's automatic retries off for one request: the caller
/// decides re-sends itself (a write that is not idempotent must never be sent twice after it
/// may have reached the server; a throttled read backs off on the reader's own schedule).
pub(crate) fn without_retries() -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder().retry_config(RetryConfig::disabled())
}

/// [`without_retries`], and the attempt given at most `budget` (what is left of its operation's
/// deadline), connecting within 3 s of it.
pub(crate) fn one_attempt_within(budget: Duration) -> aws_sdk_dynamodb::config::Builder {
    without_retries().timeout_config(
        TimeoutConfig::builder()
            .connect_timeout(budget.min(Duration::from_secs(3)))
            .operation_attempt_timeout(budget)
            .operation_timeout(budget)
            .build(),
    )
}

/// When one operation's time is up: its start plus the connection's timeout, covering every
/// attempt and every wait between them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline {
    at: tokio::time::Instant,
    timeout: Duration,
}

impl Deadline {
    /// An operation starting now, given `timeout` in all.
    pub(crate) fn after(timeout: Duration) -> Self {
        Self {
            at: tokio::time::Instant::now() + timeout,
            timeout,
        }
    }

    /// Move it `by` later: time that does not count against the operation.
    pub(crate) fn extend(&mut self, by: Duration) {
        self.at += by;
    }

    /// What is left of it.
    pub(crate) fn left(&self) -> Duration {
        self.at
            .saturating_duration_since(tokio::time::Instant::now())
    }

    /// Whether waiting `wait` and then sending again still leaves the attempt a fair share of
    /// the time (a quarter of the timeout): an attempt sure to time out is not worth sending,
    /// since its timeout would leave a refusal's outcome unknown.
    pub(crate) fn fits(&self, wait: Duration) -> bool {
        crate::retry::fits(self.left(), wait, self.timeout)
    }
}

/// Whether the server refused with a throttling code: nothing was applied or read.
pub(crate) fn is_throttled(error: &Error) -> bool {
    // A 4xx refusal only: a 5xx may have been applied, whatever its code says.
    matches!(error, Error::Service { code, .. } if THROTTLED.contains(&code.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_deadline_covers_every_attempt_and_wait() {
        let mut deadline = Deadline::after(Duration::from_secs(2));
        assert!(deadline.fits(Duration::from_millis(100)));
        tokio::time::advance(Duration::from_millis(1400)).await;
        assert_eq!(deadline.left(), Duration::from_millis(600));
        // A wait of 200 ms leaves 400 ms, less than a quarter of the timeout plus the wait.
        assert!(deadline.fits(Duration::from_millis(100)));
        assert!(!deadline.fits(Duration::from_millis(200)));
        tokio::time::advance(Duration::from_secs(5)).await;
        assert_eq!(deadline.left(), Duration::ZERO, "never negative");
        deadline.extend(Duration::from_secs(6));
        assert!(
            deadline.fits(Duration::ZERO),
            "waits that do not count move it"
        );
    }

    #[test]
    fn throttling_is_told_by_the_code_of_a_4xx() {
        let service = |code: &str| Error::Service {
            op: "Scan",
            code: code.into(),
            message: "anything".into(),
            throttled: Vec::new(),
        };
        for code in THROTTLED {
            assert!(is_throttled(&service(code)), "{code}");
        }
        assert!(!is_throttled(&service("ValidationException")));
        let fault = Error::ServerFault {
            op: "Scan",
            status: 500,
            code: "ThrottlingException".into(),
            message: String::new(),
        };
        assert!(!is_throttled(&fault), "a 5xx is not a refusal");
    }
}
