//! A page request sent again as the one retry policy ([`crate::retry`]) decides, with the
//! reader's rules ([`Backoff`]): a throttled request backs off (capped exponential, within a
//! time budget) and is sent again; a request that failed on the way is sent again a few times.
//! The SDK's own retries are off for page requests, so this is the only schedule. Every wait is
//! announced as a [`ReadEvent`] and ends early on a cancel.

use std::time::Duration;

use aws_sdk_dynamodb::Client;

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::read::browse::{fetch_limited, request_timeout};
use crate::read::events::ReadEvent;
use crate::read::{BrowseRequest, Page};
use crate::retry::{Failure, Next, Policy, Retries, Rule};
use crate::throttle::{Deadline, is_throttled};
use crate::value::Item;

/// How long a read waits and how often it re-sends one page request.
///
/// Throttled: waits `first`, doubling each time up to `longest`, for as long as the waits for
/// that page add up to at most `throttled_for`; then the throttling error ends the read. The
/// budget is per page: a long read that is throttled now and then, but gets pages in between,
/// goes on. Failed on the way (a 5xx, a connection lost, an unreadable answer): `resends` more
/// attempts on the same schedule. Timeouts are not re-sent: the connection's timeout is the
/// most a request may take, all attempts included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait.
    pub first: Duration,
    /// The longest single wait.
    pub longest: Duration,
    /// The most time spent waiting on throttling for one page before giving up.
    pub throttled_for: Duration,
    /// Re-sends of a page request that failed on the way.
    pub resends: u32,
}

impl Default for Backoff {
    /// 50 ms doubling to 5 s, giving up after 2 minutes of throttling on one page (29 waits,
    /// 30 attempts); 2 re-sends after a failure on the way (3 attempts, as the SDK's standard mode).
    fn default() -> Self {
        Self {
            first: Duration::from_millis(50),
            longest: Duration::from_secs(5),
            throttled_for: Duration::from_mins(2),
            resends: 2,
        }
    }
}

impl crate::connection::Reader {
    /// How its page reads wait: the standard backoff, giving a page up after the connection's
    /// throttling budget (`--max-throttle-wait`, every reading subcommand's).
    pub fn backoff(&self) -> Backoff {
        let standard = Backoff::default();
        Backoff {
            throttled_for: self.max_throttle_wait().unwrap_or(standard.throttled_for),
            ..standard
        }
    }
}

impl Backoff {
    /// The wait after the `failures`-th failure (1 for the first): `first · 2^(failures-1)`, at
    /// most `longest`.
    pub fn wait(&self, failures: u32) -> Duration {
        self.policy().throttled.wait(failures)
    }

    /// As the one retry policy: throttling off the clock within `throttled_for`, a failure on
    /// the way `resends` times on it; nothing else is sent again.
    pub(crate) fn policy(&self) -> Policy {
        let rule = |times, budget, on_the_clock| Rule {
            first: self.first,
            longest: self.longest,
            times,
            budget,
            on_the_clock,
        };
        Policy {
            throttled: rule(u32::MAX, Some(self.throttled_for), false),
            lost: rule(self.resends, None, true),
            conflict: Rule::NEVER,
            unprocessed: Rule::NEVER,
        }
    }
}

/// Whether a read that failed this way may succeed when sent again: the server failed (5xx),
/// the connection was lost or refused, or the answer could not be read. Reads change nothing.
pub(crate) fn failed_on_the_way(error: &Error) -> bool {
    match error {
        Error::ServerFault { .. } | Error::Unreachable { .. } => true,
        Error::Garbled { status, .. } => !(400..500).contains(status),
        _ => false,
    }
}

/// Fetch one page of `request` from `start` with `limit`, sending it again as [`Backoff`]
/// allows and announcing each wait to `on_wait`. `None` when `cancel` was used (also during a
/// wait).
pub(crate) async fn fetch_retrying(
    client: &Client,
    request: &BrowseRequest,
    start: Option<&Item>,
    limit: Option<i32>,
    backoff: &Backoff,
    cancel: &CancelToken,
    mut on_wait: impl FnMut(ReadEvent),
) -> Result<Option<Page>> {
    // The page's sends and re-sends share the connection's timeout; waiting out throttling has
    // its own budget (`throttled_for`), since a throttled read changes nothing and is worth
    // waiting for.
    let timeout = request_timeout(client);
    let mut deadline = Deadline::after(timeout);
    let mut retries = Retries::new(backoff.policy(), timeout);
    loop {
        let sent = tokio::select! {
            sent = fetch_limited(client, request, start.cloned(), limit, deadline.left()) => sent,
            () = cancel.cancelled() => return Ok(None),
        };
        let error = match sent {
            Ok(page) => return Ok(Some(page)),
            Err(error) => error,
        };
        let failure = if is_throttled(&error) {
            Failure::Throttled
        } else if failed_on_the_way(&error) {
            Failure::Lost
        } else {
            return Err(error);
        };
        let Next::Resend(wait) = retries.next(failure, deadline.left()) else {
            return Err(error);
        };
        let attempt = retries.attempts();
        on_wait(match failure {
            Failure::Throttled => ReadEvent::Throttled {
                attempt,
                wait,
                reasons: error.throttle_reasons().to_vec(),
            },
            _ => ReadEvent::Resending {
                attempt,
                wait,
                error,
            },
        });
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = cancel.cancelled() => return Ok(None),
        }
        // Time spent waiting off the clock (throttling) has its own budget, not the request's.
        if !retries.on_the_clock(failure) {
            deadline.extend(wait);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_longest() {
        let backoff = Backoff::default();
        let waits: Vec<u128> = (1..=9).map(|n| backoff.wait(n).as_millis()).collect();
        assert_eq!(waits, [50, 100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        assert_eq!(
            backoff.wait(u32::MAX),
            Duration::from_secs(5),
            "no overflow"
        );
        let attempts = (1..=u32::MAX)
            .scan(Duration::ZERO, |total, n| {
                *total += backoff.wait(n);
                (*total <= backoff.throttled_for).then_some(n)
            })
            .count();
        assert_eq!(
            attempts, 29,
            "2 minutes of throttling is 29 waits, 30 attempts"
        );
    }

    #[test]
    fn only_failures_on_the_way_are_resent() {
        let fault = Error::ServerFault {
            op: "Scan",
            status: 500,
            code: "InternalServerError".into(),
            message: String::new(),
        };
        assert!(failed_on_the_way(&fault));
        let refused = Error::Service {
            op: "Scan",
            code: "ValidationException".into(),
            message: String::new(),
            throttled: Vec::new(),
        };
        assert!(!failed_on_the_way(&refused));
        let timeout = Error::Timeout {
            op: "Scan",
            detail: String::new(),
        };
        assert!(!failed_on_the_way(&timeout));
    }
}
