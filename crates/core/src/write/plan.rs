//! A write as planned: where it goes (fixed when it was planned), what it sends, and whether it
//! may be sent again.

use crate::connection::{Connection, ConnectionId, ConnectionSpec, is_loopback};
use crate::error::{Error, Result};
use crate::expr::codegen::{ClientSetup, Operation, Request, Transaction};
use crate::statement::Statement;
use crate::value::{Item, key_shown};
use crate::write::{CancelReason, Confirmation, ExportRequest, SingleWrite, TableSetting};

/// Where a write goes: the connection it was planned on. A write is only ever sent on the
/// connection it names, never on whichever connection happens to be active when it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    /// The connection's identity (profile, region, endpoint or sandbox).
    pub connection: ConnectionId,
    /// Where requests go: the endpoint URL, or `dynamodb.<region>` for AWS.
    pub endpoint: String,
    /// How generated code reaches it: endpoint URL (not for AWS itself), region, profile.
    pub setup: ClientSetup,
    /// The embedded sandbox or an endpoint on this machine: writes need no confirmation.
    pub local: bool,
    /// The connection was opened read-only: every write is refused.
    pub read_only: bool,
    /// The name the user gave the connection (`prod`), said first wherever the place is.
    pub name: Option<String>,
    /// A write needs the connection's name typed.
    pub protected: bool,
}

impl Destination {
    /// The destination of writes planned on `connection`.
    pub fn of(connection: &Connection) -> Self {
        let local = match &connection.spec {
            ConnectionSpec::Sandbox { .. } => true,
            ConnectionSpec::Aws { .. } => false,
            ConnectionSpec::Endpoint { url, .. } => is_loopback(url),
        };
        Self {
            connection: connection.spec.identity(),
            endpoint: connection.target.clone(),
            setup: connection.client_setup(),
            local,
            read_only: connection.is_read_only(),
            name: connection.name(),
            protected: connection.is_protected(),
        }
    }

    /// Where, in words: `http://127.0.0.1:8000`, `dynamodb.eu-west-1 (profile prod)`, and the
    /// connection's name first when it has one: `prod · dynamodb.eu-west-1 (profile prod)`.
    pub fn place(&self) -> String {
        let place = match &self.setup.profile {
            Some(profile) => format!("{} (profile {profile})", self.endpoint),
            None => self.endpoint.clone(),
        };
        // A name that only repeats the place (`localhost:8000`) is not said twice.
        match &self.name {
            Some(name) if !place.contains(name.as_str()) => format!("{name} · {place}"),
            _ => place,
        }
    }

    /// How generated code reaches this destination (`Connection::client_setup` of the
    /// connection it was planned on).
    pub fn client_setup(&self) -> ClientSetup {
        self.setup.clone()
    }

    /// Whether `connection` is the one this destination names. A reconnected sandbox has the
    /// same identity but a new endpoint (and new data), so both are compared.
    pub fn is(&self, connection: &Connection) -> bool {
        self.connection == connection.spec.identity() && self.endpoint == connection.target
    }

    /// Why no write can be sent on `connection` now (it is read-only), in words shown beside a
    /// disabled write control; `None` when writes are on.
    pub fn writes_off(connection: &Connection) -> Option<String> {
        connection.is_read_only().then(|| {
            format!(
                "Read-only: writes to {} are off (switch Read-only off in the connection bar to write).",
                Self::of(connection).place()
            )
        })
    }

    /// What a write to `what` here needs before it is sent.
    pub fn confirmation(&self, what: &str) -> Confirmation {
        if self.read_only {
            Confirmation::Refused(Error::ReadOnly {
                place: self.place(),
            })
        } else if let Some(name) = self.name.as_ref().filter(|_| self.protected) {
            Confirmation::Typed {
                question: format!(
                    "This writes to {what} at {}. {name} is protected: type its name to write.",
                    self.place()
                ),
                name: name.clone(),
            }
        } else if self.local {
            Confirmation::NotNeeded
        } else {
            Confirmation::Ask(format!("This writes to {what} at {}.", self.place()))
        }
    }
}

/// Whether a request may be sent again after it may already have been applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idempotency {
    /// Sending it twice has the effect of sending it once: a `SET` to given values, a `Put` of
    /// a whole item, a `Delete`, a transaction with a `ClientRequestToken`.
    Repeatable,
    /// Every arrival counts: `ADD`, `SET x = x + :d`, a read-then-write, a transaction without
    /// a token. Never sent again once it may have arrived; only a throttling refusal, which the
    /// server did not apply, is sent again.
    Once,
}

/// The requests of a write.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteRequest {
    /// One `UpdateItem`, `PutItem` or `DeleteItem`.
    Single(Box<SingleWrite>),
    /// One `TransactWriteItems`.
    Transaction(Transaction),
    /// One PartiQL `INSERT`, `UPDATE` or `DELETE` (`ExecuteStatement`).
    Statement(Statement),
    /// Up to 25 whole items put in one `BatchWriteItem` (an import).
    Batch(Batch),
    /// A change to a table's own settings (`UpdateTable`), not to its items.
    Table(TableSetting),
}

/// What a batch does to each of its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchKind {
    /// Put whole items.
    Put,
    /// Delete items by their keys.
    Delete,
}

/// Items written into one table by one `BatchWriteItem`, without conditions: each put replaces
/// any item with its key and each delete removes one, so sending the batch twice writes what
/// sending it once does.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// The table.
    pub table: String,
    /// Put or delete.
    pub kind: BatchKind,
    /// The whole items (a put) or their keys (a delete), at most [`Batch::MAX`], no two with
    /// the same key.
    pub items: Vec<Item>,
}

impl Batch {
    /// The most items DynamoDB takes in one `BatchWriteItem`.
    pub const MAX: usize = 25;

    /// Put `items` into `table`.
    pub fn put(table: &str, items: Vec<Item>) -> Self {
        Self {
            table: table.to_owned(),
            kind: BatchKind::Put,
            items,
        }
    }

    /// Delete the items of `keys` from `table`.
    pub fn delete(table: &str, keys: Vec<Item>) -> Self {
        Self {
            table: table.to_owned(),
            kind: BatchKind::Delete,
            items: keys,
        }
    }
}

/// A write as planned: destination, request and idempotency, fixed together.
#[derive(Debug, Clone, PartialEq)]
pub struct WritePlan {
    /// Where it goes.
    pub destination: Destination,
    /// What it sends.
    pub request: WriteRequest,
    /// Whether it may be re-sent.
    pub idempotency: Idempotency,
    /// The table's key attribute names, to show which item is written.
    pub key_names: Vec<String>,
}

impl WritePlan {
    /// One `UpdateItem`, `PutItem` or `DeleteItem`. A Query or Scan is not a write.
    pub fn single(
        destination: Destination,
        request: Request,
        idempotency: Idempotency,
        key_names: Vec<String>,
    ) -> Result<Self> {
        Ok(Self {
            destination,
            request: WriteRequest::Single(Box::new(SingleWrite::new(request)?)),
            idempotency,
            key_names,
        })
    }

    /// One transaction: repeatable with a `ClientRequestToken`, sent once without.
    pub fn transaction(
        destination: Destination,
        transaction: Transaction,
        key_names: Vec<String>,
    ) -> Self {
        let idempotency = if transaction.token.is_some() {
            Idempotency::Repeatable
        } else {
            Idempotency::Once
        };
        Self {
            destination,
            request: WriteRequest::Transaction(transaction),
            idempotency,
            key_names,
        }
    }

    /// One PartiQL `INSERT`, `UPDATE` or `DELETE`, never sent again once it may have arrived.
    /// A `SELECT`, an `EXISTS`, or a statement that cannot be read is refused.
    pub fn statement(destination: Destination, statement: Statement) -> Result<Self> {
        let kind = statement.check()?.kind;
        if !kind.writes() {
            return Err(Error::Invalid(format!(
                "{} is not a write: INSERT, UPDATE and DELETE are",
                kind.keyword()
            )));
        }
        Ok(Self {
            destination,
            request: WriteRequest::Statement(statement),
            idempotency: Idempotency::Once,
            key_names: Vec::new(),
        })
    }

    /// Put or delete `batch` (1 to 25 items): items the server leaves unprocessed, and a
    /// throttled batch, are sent again by the gateway (nothing of them was written). After a
    /// lost answer it is not sent again: between the two sends another writer may have written
    /// one of its items, and a second put (or delete) would undo that newer write; its items
    /// are read again instead.
    pub fn batch(destination: Destination, batch: Batch, key_names: Vec<String>) -> Result<Self> {
        if batch.items.is_empty() || batch.items.len() > Batch::MAX {
            return Err(Error::Invalid(format!(
                "a batch holds 1 to {} items, not {}",
                Batch::MAX,
                batch.items.len()
            )));
        }
        Ok(Self {
            destination,
            request: WriteRequest::Batch(batch),
            idempotency: Idempotency::Once,
            key_names,
        })
    }

    /// A change to a table's settings, sent once: enabling a stream twice is refused the second
    /// time, so a lost answer is left unknown and the table is described again instead.
    pub(crate) fn table_setting(destination: Destination, setting: TableSetting) -> Self {
        Self {
            destination,
            request: WriteRequest::Table(setting),
            idempotency: Idempotency::Once,
            key_names: Vec::new(),
        }
    }

    /// A table's export to S3: repeatable, since its `ClientToken` makes a re-send after a lost
    /// answer name the export the first attempt started.
    pub(crate) fn export(destination: Destination, export: ExportRequest) -> Self {
        Self {
            destination,
            request: WriteRequest::Table(TableSetting::Export(Box::new(export))),
            idempotency: Idempotency::Repeatable,
            key_names: Vec::new(),
        }
    }

    /// The items written, as `(table, key)`: none for a statement, whose items only the server
    /// finds, nor for a table's settings.
    pub fn targets(&self) -> Vec<(&str, &Item)> {
        fn of(r: &Request) -> Option<(&str, &Item)> {
            match &r.operation {
                Operation::Update(key) | Operation::Delete(key) | Operation::Put(key) => {
                    Some((r.table.as_str(), key))
                }
                Operation::Query(_) | Operation::Scan(_) => None,
            }
        }
        match &self.request {
            WriteRequest::Single(w) => vec![(w.table(), w.op().item())],
            WriteRequest::Transaction(t) => t.writes.iter().filter_map(of).collect(),
            WriteRequest::Statement(_) | WriteRequest::Table(_) => Vec::new(),
            WriteRequest::Batch(b) => b.items.iter().map(|i| (b.table.as_str(), i)).collect(),
        }
    }

    /// The keys of the items written, as `(table, key)`: a `Put`'s or a batch's whole items
    /// reduced to the table's key attributes (what a `GetItem` of them takes).
    pub fn target_keys(&self) -> Vec<(String, Item)> {
        self.targets()
            .into_iter()
            .map(|(table, item)| {
                let key = if self.key_names.is_empty() {
                    item.clone()
                } else {
                    item.iter()
                        .filter(|(name, _)| self.key_names.contains(name))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                };
                (table.to_owned(), key)
            })
            .collect()
    }

    /// What is written, in words: `table Social, item PK = POST#a91f · SK = META`.
    pub fn what(&self) -> String {
        if let WriteRequest::Statement(statement) = &self.request {
            let table = statement.classify().map(|c| c.table).unwrap_or_default();
            return format!("table {table} with the statement {}", statement.shown(200));
        }
        if let WriteRequest::Batch(b) = &self.request {
            let done = match b.kind {
                BatchKind::Put => "put",
                BatchKind::Delete => "deleted",
            };
            return format!("table {}, {} items {done}", b.table, b.items.len());
        }
        if let WriteRequest::Table(setting) = &self.request {
            return setting.what();
        }
        let targets = self.targets();
        let mut tables: Vec<&str> = targets.iter().map(|(t, _)| *t).collect();
        tables.dedup();
        let items: Vec<String> = targets
            .iter()
            .map(|(_, k)| key_shown(k, &self.key_names))
            .collect();
        format!(
            "table {}, {} {}",
            tables.join(", "),
            if items.len() == 1 { "item" } else { "items" },
            items.join(" and ")
        )
    }

    /// What sending it needs first.
    pub fn confirmation(&self) -> Confirmation {
        self.destination.confirmation(&self.what())
    }

    /// This plan's transaction cancelled for `reasons`, in words, each write named by its key
    /// ([`CancelReason::cancelled_words`]).
    pub(crate) fn cancelled_words(&self, reasons: &[CancelReason]) -> String {
        let keys: Vec<String> = self
            .targets()
            .iter()
            .map(|(_, key)| key_shown(key, &self.key_names))
            .collect();
        CancelReason::cancelled_words(reasons, &keys)
    }
}

/// A client token no other request of this process uses, for an idempotent re-send:
/// `{kind}-`, the time in microseconds and a counter, in hex (at most 36 characters for a
/// `kind` of up to 9, as DynamoDB takes).
pub fn fresh_token(kind: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{kind}-{micros:x}-{n:x}")
}
