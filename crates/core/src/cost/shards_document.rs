//! A counter's shard advice as a document: the shards its write rate needs, and what reading
//! the total back costs.

use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::usd::{ExactNumber, Usd};
use crate::cost::{Kind, Pricing};

/// How many shards a counter needs for its write rate, and what reading it back costs.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct AdviceDocument {
    /// The counter's writes a second, all shards together.
    pub writes_per_second: u64,
    /// The bytes of one shard's item.
    pub item_bytes: u64,
    /// Whether the writes are transactional.
    pub transactional: bool,
    /// Write units one write costs.
    pub wcu_per_write: u64,
    /// Write units a second, all shards together.
    pub wcu_per_second: u64,
    /// The write units a second one partition serves at most.
    pub partition_wcu_per_second: u64,
    /// The fewest shards that keep each under a partition's ceiling.
    pub minimum_shards: u64,
    /// The shards suggested, leaving room for a burst.
    pub suggested_shards: u64,
    /// The shard count the figures are for (the one asked, or the one suggested).
    pub shards: u64,
    /// Write units a second each shard takes, exactly.
    pub wcu_per_shard: ExactNumber,
    /// What a second of the writes costs.
    pub write_usd_per_second: Usd,
    /// What reading the total of every shard costs, each way.
    pub read_total: ReadTotalDocument,
    /// Whether the table has local secondary indexes; `null` when no table was given.
    pub has_local_secondary_index: Option<bool>,
    /// The prices used, in words.
    pub priced_as: String,
}

/// What reading a sharded counter's total costs, each way.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ReadTotalDocument {
    /// A `GetItem` per shard, strongly consistent.
    pub get_items_strong: ReadCostDocument,
    /// A `GetItem` per shard, eventually consistent.
    pub get_items_eventual: ReadCostDocument,
    /// One `Query` of the shards' sort keys, strongly consistent.
    pub query_strong: ReadCostDocument,
    /// One `Query` of the shards' sort keys, eventually consistent.
    pub query_eventual: ReadCostDocument,
}

/// A read's units and money.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ReadCostDocument {
    /// Read capacity units, exactly.
    pub rcu: ExactNumber,
    /// What they cost.
    pub usd: Usd,
}

impl ReadCostDocument {
    /// `units` of reads on `pricing`'s table.
    pub(crate) fn of(units: BigDecimal, pricing: &Pricing) -> Self {
        let usd = Usd::from(pricing.charge(Kind::Read, &units));
        Self {
            rcu: ExactNumber(units),
            usd,
        }
    }
}
