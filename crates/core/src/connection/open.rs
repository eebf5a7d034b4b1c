//! How to connect besides where (timeout, read-only), and opening a connection the way the app
//! does: only once it answered, keeping an in-memory sandbox on reconnecting.

use std::time::Duration;

use crate::connection::{Connection, ConnectionSpec, connect_with, endpoint_clients_with};
use crate::error::{Error, Result};

/// How to connect besides where: how long to wait for an answer, and whether writes are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectOptions {
    /// How long one request may take, all attempts included.
    pub timeout: Duration,
    /// Refuse every write on this connection.
    pub read_only: bool,
}

/// The request timeout unless one is chosen.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest request timeout that can be chosen (a DynamoDB request never needs more).
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_mins(10);

impl Default for ConnectOptions {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_TIMEOUT,
            read_only: false,
        }
    }
}

impl ConnectOptions {
    /// A timeout typed as seconds (`--timeout 5`, `0.5`): more than 0 and at most 600.
    pub fn parse_timeout(text: &str) -> Result<Duration> {
        let secs: f64 = text
            .trim()
            .parse()
            .map_err(|_| Error::Invalid(format!("`{text}` is not a number of seconds")))?;
        if !(secs > 0.0 && secs <= MAX_TIMEOUT.as_secs_f64()) {
            return Err(Error::Invalid(format!(
                "a timeout is more than 0 and at most {} seconds",
                MAX_TIMEOUT.as_secs()
            )));
        }
        Ok(Duration::from_secs_f64(secs))
    }
}

/// Connect as the app does: as `spec` says, with `options`, and ask the server once (a
/// one-table ListTables) so that a connection only replaces the active one when it answers
/// (timeouts, unreachable endpoints and missing credentials fail here).
/// Reconnecting to the in-memory sandbox that `current` holds keeps that sandbox and its data
/// (a fresh one would be reseeded, dropping every change).
pub async fn open(
    spec: ConnectionSpec,
    options: ConnectOptions,
    current: Option<Connection>,
) -> Result<Opened> {
    // The sandbox shown is kept when it is the one asked for again: an in-memory one keeps its
    // data, and a file one its hold on the file (a second engine on it would be refused).
    let reused = current.filter(|c| {
        matches!(spec, ConnectionSpec::Sandbox { .. }) && c.spec == spec && c.has_sandbox()
    });
    let kept_sandbox = reused.is_some();
    let connection = match reused {
        Some(current) => {
            let (client, streams, pricing, sdk) = endpoint_clients_with(
                &current.target,
                &current.region,
                options.timeout,
                &current.answers,
            )
            .await;
            Connection {
                client,
                streams,
                sdk,
                pricing,
                read_only: ReadOnly::new(options.read_only),
                prices: super::prices::Prices::load(),
                timeout: options.timeout,
                ..current
            }
        }
        None => connect_with(spec, options).await?,
    };
    let probe = connection
        .client
        .list_tables()
        .limit(1)
        .send()
        .await
        .map_err(|e| Error::from_sdk("ListTables", e));
    match probe {
        // Any answer of the server's own, a refusal included (a role without ListTables), shows
        // the endpoint answers; the refusal is met again, and said, where tables are listed.
        Ok(_) | Err(Error::Service { .. }) => {}
        Err(error) => return Err(error),
    }
    Ok(Opened {
        connection,
        kept_sandbox,
    })
}

/// A connection that answered.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The connection.
    pub connection: Connection,
    /// It is the in-memory sandbox that was already open, data and all.
    pub kept_sandbox: bool,
}

/// The read-only switch of a connection, shared by its clones.
#[derive(Clone, Default)]
pub(crate) struct ReadOnly(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl ReadOnly {
    pub(crate) fn new(on: bool) -> Self {
        Self(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(on)))
    }

    /// Whether it is on.
    pub(crate) fn get(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Switch it.
    pub(crate) fn set(&self, on: bool) {
        self.0.store(on, std::sync::atomic::Ordering::SeqCst);
    }
}

impl super::Connection {
    /// Give a page read up after `wait` of throttling (default 120 s), for this connection and
    /// every clone made of it afterwards.
    pub fn set_max_throttle_wait(&mut self, wait: Duration) {
        self.throttle_wait = Some(wait);
    }

    /// Whether writes are refused on this connection now.
    pub fn is_read_only(&self) -> bool {
        self.read_only.get()
    }

    /// Switch read-only on or off, for this connection and every clone of it.
    pub fn set_read_only(&self, on: bool) {
        self.read_only.set(on);
    }
}
