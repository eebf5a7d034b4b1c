//! What a read reports while it runs: each page as it arrives, and each wait before a page
//! request is sent again, in words both the app's progress and the CLI show.

use std::time::Duration;

use crate::error::{Error, ThrottleReason, throttle_words};
use crate::read::Page;
use crate::report;

/// One thing that happened during a read.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadEvent {
    /// A page arrived.
    Page(Page),
    /// The server throttled the page request (`ProvisionedThroughputExceededException`,
    /// `ThrottlingException`, `RequestLimitExceeded`); it is sent again as `attempt` after
    /// `wait`.
    Throttled {
        /// The attempt that follows the wait (2 for the first re-send).
        attempt: u32,
        /// How long the reader waits first.
        wait: Duration,
        /// Which limit was hit, when the server said (`ThrottlingReasons`).
        reasons: Vec<ThrottleReason>,
    },
    /// The page request failed on the way (a 5xx, a connection lost, an unreadable answer);
    /// it is sent again as `attempt` after `wait`. Reads change nothing, so this is safe.
    Resending {
        /// The attempt that follows the wait (2 for the first re-send).
        attempt: u32,
        /// How long the reader waits first.
        wait: Duration,
        /// What went wrong.
        error: Error,
    },
}

impl ReadEvent {
    /// The wait this event announces, if any.
    pub fn wait(&self) -> Option<Duration> {
        match self {
            Self::Page(_) => None,
            Self::Throttled { wait, .. } | Self::Resending { wait, .. } => Some(*wait),
        }
    }

    /// A progress line for a wait (`throttled by the provisioned read capacity on table Social,
    /// waiting 800 ms before attempt 3`); none for a page.
    pub fn note(&self) -> Option<String> {
        match self {
            Self::Page(_) => None,
            Self::Throttled {
                attempt,
                wait,
                reasons,
            } => Some(report::throttled_note(
                *attempt,
                *wait,
                throttle_words(reasons).as_deref(),
            )),
            Self::Resending {
                attempt,
                wait,
                error,
            } => Some(report::resending_note(*attempt, *wait, &error.headline())),
        }
    }
}
