//! What a front end reads with: a connection's client behind a type only core can open.

use std::time::Duration;

use aws_sdk_dynamodb::Client;

/// The reading side of a connection: what the reader's calls (describe, list, get, query,
/// scan, the tally checks) take from a front end. It carries the connection's client, which
/// only core can use, and sends nothing but reads, and how long a page may wait out throttling.
#[derive(Clone)]
pub struct Reader {
    client: Client,
    /// How long one page may wait out throttling; `None`: the reader's standard budget.
    throttled_for: Option<Duration>,
}

impl Reader {
    /// The reader of a client core holds (the source of a clone, a connection's own), with the
    /// standard throttling budget.
    pub(crate) fn of(client: &Client) -> Self {
        Self {
            client: client.clone(),
            throttled_for: None,
        }
    }

    /// The same reader, giving a page up after `throttled_for` of throttling (`None`: the
    /// standard budget).
    pub(crate) fn throttled_for(mut self, throttled_for: Option<Duration>) -> Self {
        self.throttled_for = throttled_for;
        self
    }

    /// How long one page may wait out throttling, when not the standard budget.
    pub(crate) fn max_throttle_wait(&self) -> Option<Duration> {
        self.throttled_for
    }

    /// The SDK client, for core's reads.
    pub(crate) fn sdk(&self) -> &Client {
        &self.client
    }
}
