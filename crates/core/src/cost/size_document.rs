//! An item's size as a document: its bytes against 400 KB, the units a write and a read of it
//! cost, its largest attributes, and their money.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::usd::{ExactNumber, Usd};

/// An item's size as DynamoDB counts it and the units a write and a read of it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SizeDocument {
    /// The item's bytes as DynamoDB counts them.
    pub bytes: u64,
    /// The most an item may be: 400 KB (409,600 bytes).
    pub max_bytes: u64,
    /// The bytes still free under 400 KB (0 when over).
    pub bytes_left: u64,
    /// Whether DynamoDB stores it (at most 400 KB).
    pub fits: bool,
    /// The share of 400 KB used, in percent, exactly.
    pub percent_used: ExactNumber,
    /// The write units a write of it costs.
    pub wcu: WriteUnitsDocument,
    /// The read units a `GetItem` of it costs.
    pub rcu: ReadUnitsDocument,
    /// Each top-level attribute's bytes, largest first.
    pub attributes: Vec<AttributeBytesDocument>,
}

/// The write units of one write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WriteUnitsDocument {
    /// In a `PutItem`, `UpdateItem` or `DeleteItem`.
    pub standard: ExactNumber,
    /// In a transaction.
    pub transactional: ExactNumber,
}

/// The read units of one read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ReadUnitsDocument {
    /// Eventually consistent.
    pub eventual: ExactNumber,
    /// Strongly consistent.
    pub strong: ExactNumber,
    /// In a transaction.
    pub transactional: ExactNumber,
}

/// One top-level attribute's share of an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AttributeBytesDocument {
    /// The attribute's name.
    pub name: String,
    /// Its name's bytes plus its value's.
    pub bytes: u64,
}

/// What one put and one read of an item cost, in US dollars, and how it was priced.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SizeUsdDocument {
    /// The prices used, in words.
    pub priced_as: String,
    /// One put.
    pub put: Usd,
    /// One put in a transaction.
    pub put_transactional: Usd,
    /// One eventually consistent read.
    pub read_eventual: Usd,
    /// One strongly consistent read.
    pub read_strong: Usd,
    /// One read in a transaction.
    pub read_transactional: Usd,
}
