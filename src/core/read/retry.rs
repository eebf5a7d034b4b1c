//! The reader's one retry policy for a page request: a throttled request backs off (capped
//! exponential, within a time budget) and is sent again; a request that failed on the way is
//! sent again a few times. The SDK's own retries are off for page requests, so this is the only
//! schedule. Every wait is announced as a [`ReadEvent`] and ends early on a cancel.

use std::time::Duration;

use aws_sdk_dynamodb::Client;

use crate::core::cancel::CancelToken;
use crate::core::error::{Error, Result};
use crate::core::read::browse::{fetch_limited, request_timeout};
use crate::core::read::events::ReadEvent;
use crate::core::read::{BrowseRequest, Page};
use crate::core::throttle::{Deadline, is_throttled};
use crate::core::value::Item;

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
            throttled_for: Duration::from_secs(120),
            resends: 2,
        }
    }
}

impl Backoff {
    /// The wait after the `failures`-th failure (1 for the first): `first · 2^(failures-1)`, at
    /// most `longest`.
    pub fn wait(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(30);
        self.first
            .saturating_mul(1u32 << doublings)
            .min(self.longest)
    }
}

/// Whether a read that failed this way may succeed when sent again: the server failed (5xx),
/// the connection was lost or refused, or the answer could not be read. Reads change nothing.
fn failed_on_the_way(error: &Error) -> bool {
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
    let (mut throttled, mut waited, mut resends) = (0u32, Duration::ZERO, 0u32);
    // The page's sends and re-sends share the connection's timeout; waiting out throttling has
    // its own budget (`throttled_for`), since a throttled read changes nothing and is worth
    // waiting for.
    let mut deadline = Deadline::after(request_timeout(client));
    loop {
        let sent = tokio::select! {
            sent = fetch_limited(client, request, start.cloned(), limit, deadline.left()) => sent,
            () = cancel.cancelled() => return Ok(None),
        };
        let error = match sent {
            Ok(page) => return Ok(Some(page)),
            Err(error) => error,
        };
        let event = if is_throttled(&error) {
            throttled += 1;
            let wait = backoff.wait(throttled);
            waited += wait;
            if waited > backoff.throttled_for {
                return Err(error);
            }
            ReadEvent::Throttled {
                attempt: throttled + resends + 1,
                wait,
            }
        } else if failed_on_the_way(&error)
            && resends < backoff.resends
            && deadline.fits(backoff.wait(resends + 1))
        {
            resends += 1;
            ReadEvent::Resending {
                attempt: throttled + resends + 1,
                wait: backoff.wait(resends),
                error,
            }
        } else {
            return Err(error);
        };
        let wait = event.wait().unwrap_or_default();
        let throttled_wait = matches!(event, ReadEvent::Throttled { .. });
        on_wait(event);
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = cancel.cancelled() => return Ok(None),
        }
        // Time spent waiting out throttling has its own budget, not the request's.
        if throttled_wait {
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
        let attempts = (1..)
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
        };
        assert!(!failed_on_the_way(&refused));
        let timeout = Error::Timeout {
            op: "Scan",
            detail: String::new(),
        };
        assert!(!failed_on_the_way(&timeout));
    }
}
