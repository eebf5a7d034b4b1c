//! What the cost tools print, as reports: an item's size and what it costs to write and read,
//! the shard advice for a counter's write rate, and a table's prices card — each with the prices
//! it was made with, so the lines and the JSON say the same money.

use serde_json::Value;

use crate::cost::Pricing;
use crate::cost::card::{card, card_json};
use crate::cost::shards::ShardAdvice;
use crate::cost::size::SizeReport;
use crate::ending::Ending;
use crate::report::{Line, Report, Tone, plain};

/// The largest attributes an item's size report names.
pub(crate) const LARGEST_SHOWN: usize = 10;

/// An item's size, priced.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedSize {
    /// The size.
    pub size: SizeReport,
    /// The prices it is said in.
    pub pricing: Pricing,
}

impl Report for PricedSize {
    fn lines(&self) -> Vec<Line> {
        let mut lines = plain(Tone::Plain, self.size.lines(LARGEST_SHOWN));
        lines.push(Line::new(Tone::Figure, self.size.money_line(&self.pricing)));
        lines.push(Line::new(Tone::Quiet, self.pricing.note()));
        lines
    }

    fn to_json(&self) -> Value {
        let mut json = self.size.to_json();
        json["usd"] = self.size.usd_json(&self.pricing);
        json
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}

/// A counter's shard advice, for a shard count asked (or the one suggested), priced.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedAdvice {
    /// The advice.
    pub advice: ShardAdvice,
    /// The shard count asked about; `None`: the one suggested.
    pub shards: Option<u64>,
    /// The prices it is said in.
    pub pricing: Pricing,
}

impl Report for PricedAdvice {
    fn lines(&self) -> Vec<Line> {
        plain(Tone::Plain, self.advice.lines(self.shards, &self.pricing))
    }

    fn to_json(&self) -> Value {
        self.advice.to_json(self.shards, &self.pricing)
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    /// The number of shards advised (or the one given).
    fn result(&self) -> Vec<String> {
        vec![self.advice.shards_or_suggested(self.shards).to_string()]
    }
}

/// A table's prices card: what a write, a read and a like cost, and its storage.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceCard {
    /// The table's prices.
    pub pricing: Pricing,
    /// The table's size, when described.
    pub size_bytes: Option<i64>,
    /// Its item count, when described.
    pub items: Option<i64>,
}

impl Report for PriceCard {
    fn lines(&self) -> Vec<Line> {
        card(&self.pricing, self.size_bytes, self.items)
    }

    fn to_json(&self) -> Value {
        card_json(&self.pricing, self.size_bytes, self.items)
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}
