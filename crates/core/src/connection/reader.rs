//! What a front end reads with: a connection's client behind a type only core can open.

use aws_sdk_dynamodb::Client;

/// The reading side of a connection: what the reader's calls (describe, list, get, query,
/// scan, the tally checks) take from a front end. It carries the connection's client, which
/// only core can use, and sends nothing but reads.
#[derive(Clone)]
pub struct Reader(Client);

impl Reader {
    /// The reader of a client core holds (the source of a clone, a connection's own).
    pub(crate) fn of(client: &Client) -> Self {
        Self(client.clone())
    }

    /// The SDK client, for core's reads.
    pub(crate) fn sdk(&self) -> &Client {
        &self.0
    }
}
