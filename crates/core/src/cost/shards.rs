//! How many shards a counter needs for a write rate, and what reading it back costs, said as
//! plain arithmetic: every write lands on one partition, and one partition serves at most
//! [`PARTITION_WCU_PER_SECOND`] write units a second.

use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive as _};

use crate::cost::money::count;
use crate::cost::shards_document::{AdviceDocument, ReadCostDocument, ReadTotalDocument};
use crate::cost::units::{
    MAX_ITEM_BYTES, PARTITION_WCU_PER_SECOND, READ_UNIT_BYTES, ReadKind, WriteKind, read_units,
    write_units,
};
use crate::cost::usd::ExactNumber;
use crate::cost::usd::Usd;
use crate::cost::{Kind, Pricing};
use crate::error::{Error, Result};
use crate::report::capacity_exact;

/// The share of a partition's ceiling the suggested count leaves each shard at most, in
/// percent: room for a burst above the average.
pub(crate) const SUGGESTED_LOAD_PERCENT: u64 = 80;

/// The advice for one counter: its write rate, its item, and the shards that rate needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardAdvice {
    /// The counter's writes a second, all shards together.
    pub writes_per_second: u64,
    /// The bytes of one shard's item.
    pub item_bytes: u64,
    /// Plain or transactional writes.
    pub kind: WriteKind,
    /// Whether the table has local secondary indexes (`None`: no table given).
    pub has_lsi: Option<bool>,
    /// How the writes spread as the shards' counts show it: the hottest shard's sort key and
    /// its share of all writes (0 to 1). `None`: not observed (an even spread is assumed).
    pub hottest: Option<(String, BigDecimal)>,
}

impl ShardAdvice {
    /// The advice for `writes_per_second` writes of `item_bytes`-byte items; a rate of 0 or an
    /// item outside 1 B–400 KB is bad input.
    pub fn new(writes_per_second: u64, item_bytes: u64, kind: WriteKind) -> Result<Self> {
        if writes_per_second == 0 {
            return Err(Error::Invalid(
                "the write rate is at least 1 write a second".to_owned(),
            ));
        }
        if item_bytes == 0 || item_bytes > MAX_ITEM_BYTES {
            return Err(Error::Invalid(format!(
                "an item is 1 to {} bytes (400 KB); {item_bytes} is not",
                count(MAX_ITEM_BYTES)
            )));
        }
        Ok(Self {
            writes_per_second,
            item_bytes,
            kind,
            has_lsi: None,
            hottest: None,
        })
    }

    /// The same advice for writes that spread as observed: `sort_key` took `share` (0 to 1).
    #[must_use]
    pub fn spread_as(mut self, sort_key: &str, share: BigDecimal) -> Self {
        self.hottest = Some((sort_key.to_owned(), share));
        self
    }

    /// The hottest shard's write units a second at this rate, when the spread was observed and
    /// is less even than `shards` would make it: `(sort key, WCU/s, share)`.
    fn uneven(&self, shards: u64) -> Option<(&str, BigDecimal, &BigDecimal)> {
        let (sk, share) = self.hottest.as_ref()?;
        let hot = BigDecimal::from(self.wcu_per_second()) * share;
        (hot > self.wcu_per_shard(shards)).then_some((sk.as_str(), hot, share))
    }

    /// The write units one write costs.
    pub(crate) fn units_per_write(&self) -> u64 {
        write_units(self.item_bytes, self.kind)
            .to_u64()
            .unwrap_or(u64::MAX)
    }

    /// The write units a second all writes take.
    pub(crate) fn wcu_per_second(&self) -> u64 {
        self.writes_per_second
            .saturating_mul(self.units_per_write())
    }

    /// The fewest shards that keep every shard below a partition's ceiling (a partition run at
    /// its ceiling throttles at the first burst): `wcu/s ÷ 1,000`, rounded down, plus one.
    pub fn minimum_shards(&self) -> u64 {
        self.wcu_per_second() / PARTITION_WCU_PER_SECOND + 1
    }

    /// The shards that keep each at most [`SUGGESTED_LOAD_PERCENT`] of its ceiling, rounded
    /// up to a power of two (a shard picked from a hash's low bits; doubling later moves half).
    pub fn suggested_shards(&self) -> u64 {
        let room = PARTITION_WCU_PER_SECOND * SUGGESTED_LOAD_PERCENT / 100;
        self.wcu_per_second()
            .div_ceil(room)
            .max(self.minimum_shards())
            .checked_next_power_of_two()
            .unwrap_or(u64::MAX)
    }

    /// The shards a report is about: those asked for, else the suggested count.
    pub(crate) fn shards_or_suggested(&self, shards: Option<u64>) -> u64 {
        shards.unwrap_or_else(|| self.suggested_shards()).max(1)
    }

    /// Each shard's write units a second when the writes spread evenly over `shards`.
    pub fn wcu_per_shard(&self, shards: u64) -> BigDecimal {
        BigDecimal::from(self.wcu_per_second()) / BigDecimal::from(shards.max(1))
    }

    /// Reading the total back from `shards` items by one `GetItem` each: every item rounded up
    /// to 4 KB on its own.
    pub(crate) fn get_items_units(&self, shards: u64, kind: ReadKind) -> BigDecimal {
        read_units(self.item_bytes, kind) * BigDecimal::from(shards)
    }

    /// Reading the total back by one `Query` over the shards' shared partition key: the items'
    /// bytes summed, then rounded up to 4 KB once.
    pub(crate) fn query_units(&self, shards: u64, kind: ReadKind) -> BigDecimal {
        read_units(self.item_bytes.saturating_mul(shards), kind)
    }

    /// The advice in words, for `shards` shards (the suggested count when `None`, so the reads
    /// priced are those of the shards advised), priced by `pricing`.
    pub fn lines(&self, shards: Option<u64>, pricing: &Pricing) -> Vec<String> {
        let minimum = self.minimum_shards();
        let n = self.shards_or_suggested(shards);
        let total = self.wcu_per_second();
        let tx = match self.kind {
            WriteKind::Standard => "",
            WriteKind::Transactional => " (tx)",
        };
        let rate = format!(
            "{} writes/s × {} WCU{tx} = {} WCU/s",
            count(self.writes_per_second),
            self.units_per_write(),
            count(total)
        );
        let ceiling = count(PARTITION_WCU_PER_SECOND);
        let mut lines = vec![if minimum == 1 {
            format!("{rate} < one partition's {ceiling} WCU/s: one item keeps up, no shards needed")
        } else {
            format!("{rate} ≥ one partition's {ceiling} WCU/s: at least {minimum} shards")
        }];
        let even = if shards.is_some() || self.hottest.is_some() {
            " if the writes spread evenly"
        } else {
            ""
        };
        lines.push(format!(
            "suggested: {} shards{even} ({} WCU/s each, at most {SUGGESTED_LOAD_PERCENT}% of \
             the ceiling, a power of two)",
            self.suggested_shards(),
            capacity_exact(&rounded(&self.wcu_per_shard(self.suggested_shards())))
        ));
        if shards.is_some() {
            let each = self.wcu_per_shard(n);
            let verdict = if each < PARTITION_WCU_PER_SECOND {
                "below"
            } else {
                "at or above: it throttles"
            };
            lines.push(format!(
                "with {n} shards spread evenly: {} WCU/s each, {verdict} the {ceiling} WCU/s \
                 ceiling",
                capacity_exact(&rounded(&each))
            ));
        }
        if let Some(line) = self.uneven_line(n) {
            lines.push(line);
        }
        let writes = pricing.charge(Kind::Write, &BigDecimal::from(total));
        lines.push(format!(
            "writing: {} WCU a second {}; an hour {}",
            count(total),
            writes.money_text(),
            pricing.times(&writes, 3_600).money_text()
        ));
        if n == 1 {
            let one = read_units(self.item_bytes, ReadKind::Strong);
            lines.push(format!(
                "reading it: one GetItem, {} RCU strong ({} eventual), {}",
                capacity_exact(&one),
                capacity_exact(&read_units(self.item_bytes, ReadKind::Eventual)),
                pricing.charge(Kind::Read, &one).money_text()
            ));
        } else {
            lines.extend(self.read_lines(n, pricing));
            lines.extend(self.caveat(n));
        }
        lines.push(pricing.note());
        lines
    }

    /// The spread observed, when it is less even than `n` shards would make it: the hot shard's
    /// load, which no count of shards lowers while the writers pick shards this way.
    fn uneven_line(&self, n: u64) -> Option<String> {
        let (sk, hot, share) = self.uneven(n)?;
        let percent = (share * BigDecimal::from(100)).with_scale_round(1, RoundingMode::HalfUp);
        let of_ceiling = (&hot * BigDecimal::from(100)
            / BigDecimal::from(PARTITION_WCU_PER_SECOND))
        .with_scale_round(0, RoundingMode::HalfUp);
        Some(format!(
            "but the writes do not spread evenly: {sk} took {percent}% of them, so at this rate \
             it takes {} WCU/s ({of_ceiling}% of the ceiling) whatever the count — more shards \
             do not lower that; writers that pick a shard at random (or by a hash) do",
            capacity_exact(&rounded(&hot))
        ))
    }

    /// What reading the total of `n` shards costs, both ways.
    fn read_lines(&self, n: u64, pricing: &Pricing) -> [String; 2] {
        let gets = self.get_items_units(n, ReadKind::Strong);
        let gets_eventual = self.get_items_units(n, ReadKind::Eventual);
        let query = self.query_units(n, ReadKind::Strong);
        let query_eventual = self.query_units(n, ReadKind::Eventual);
        [
            format!(
                "reading the total, {n} GetItems: {n} × {} RCU = {} RCU strong ({} eventual), {}",
                capacity_exact(&read_units(self.item_bytes, ReadKind::Strong)),
                capacity_exact(&gets),
                capacity_exact(&gets_eventual),
                pricing.charge(Kind::Read, &gets).money_text()
            ),
            format!(
                "or one Query of {n} sort keys under one partition key: {n} × {} B ÷ {} B, rounded up, = {} \
                 RCU strong ({} eventual), {}",
                count(self.item_bytes),
                count(READ_UNIT_BYTES),
                capacity_exact(&query),
                capacity_exact(&query_eventual),
                pricing.charge(Kind::Read, &query).money_text()
            ),
        ]
    }

    /// Where the shards' writes land, honestly.
    fn caveat(&self, n: u64) -> Vec<String> {
        let last = n.saturating_sub(1);
        let mut lines = vec![format!(
            "shards under one partition key (VID#c0de with sort keys STATS#TOTAL#0..{last}) share \
             that key's partition, and its {} WCU/s, until DynamoDB splits it for heat, which it \
             does only on a table without local secondary indexes, and not at once; a sharded \
             partition key (VID#c0de#0..{last}) spreads the writes from the start, read back by \
             {n} GetItems instead of one Query",
            count(PARTITION_WCU_PER_SECOND)
        )];
        match self.has_lsi {
            Some(true) => lines.push(
                "this table has local secondary indexes: DynamoDB never splits a partition key's \
                 items for heat here, so shard the partition key"
                    .to_owned(),
            ),
            Some(false) => lines.push(
                "this table has no local secondary index: a hot partition key may be split for \
                 heat, in time"
                    .to_owned(),
            ),
            None => {}
        }
        lines
    }

    /// The advice as its document, every number exact.
    pub fn document(&self, shards: Option<u64>, pricing: &Pricing) -> AdviceDocument {
        let n = self.shards_or_suggested(shards);
        let total = BigDecimal::from(self.wcu_per_second());
        let read = |units: BigDecimal| ReadCostDocument::of(units, pricing);
        AdviceDocument {
            writes_per_second: self.writes_per_second,
            item_bytes: self.item_bytes,
            transactional: self.kind == WriteKind::Transactional,
            wcu_per_write: self.units_per_write(),
            wcu_per_second: self.wcu_per_second(),
            partition_wcu_per_second: PARTITION_WCU_PER_SECOND,
            minimum_shards: self.minimum_shards(),
            suggested_shards: self.suggested_shards(),
            shards: n,
            wcu_per_shard: ExactNumber(self.wcu_per_shard(n)),
            write_usd_per_second: Usd::from(pricing.charge(Kind::Write, &total)),
            read_total: ReadTotalDocument {
                get_items_strong: read(self.get_items_units(n, ReadKind::Strong)),
                get_items_eventual: read(self.get_items_units(n, ReadKind::Eventual)),
                query_strong: read(self.query_units(n, ReadKind::Strong)),
                query_eventual: read(self.query_units(n, ReadKind::Eventual)),
            },
            has_local_secondary_index: self.has_lsi,
            priced_as: pricing.note(),
        }
    }

    /// The advice as JSON: its [`document`](Self::document) through serde.
    pub fn to_json(&self, shards: Option<u64>, pricing: &Pricing) -> serde_json::Value {
        crate::document::Document::to_json(&self.document(shards, pricing))
    }
}

/// Each shard's share of the total, in percent with one decimal (`None` for a missing value,
/// or when the total is 0).
pub fn shares(values: &[Option<BigDecimal>]) -> Vec<Option<BigDecimal>> {
    let total: BigDecimal = values.iter().flatten().sum();
    values
        .iter()
        .map(|v| {
            let v = v.as_ref()?;
            (total != BigDecimal::default()).then(|| {
                (v * BigDecimal::from(100) / &total).with_scale_round(1, RoundingMode::HalfUp)
            })
        })
        .collect()
}

/// One decimal, for rates said in words.
fn rounded(value: &BigDecimal) -> BigDecimal {
    value.with_scale_round(1, RoundingMode::HalfUp)
}

#[cfg(test)]
#[path = "shards_tests.rs"]
mod tests;
