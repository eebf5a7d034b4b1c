//! What the cost tools print, as reports: an item's size and what it costs to write and read,
//! the shard advice for a counter's write rate, and a table's prices card — each with the prices
//! it was made with, so the lines and the JSON say the same money. Their documents are typed
//! here; exact decimals are JSON numbers ([`ExactNumber`]), dollars [`Usd`].

use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::card::card;
use crate::cost::shards::ShardAdvice;
use crate::cost::shards_document::AdviceDocument;
use crate::cost::size::SizeReport;
use crate::cost::size_document::{SizeDocument, SizeUsdDocument};
use crate::cost::usd::{ExactNumber, Usd};
use crate::cost::{Kind, Pricing};
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

impl PricedSize {
    /// The size and its money as their document.
    fn document(&self) -> PricedSizeDocument {
        PricedSizeDocument {
            size: self.size.document(),
            usd: self.size.usd(&self.pricing),
        }
    }
}

crate::document_as!(PricedSize => PricedSizeDocument, document);

/// An item's size as DynamoDB counts it, its units against the 400 KB limit, and their money.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PricedSizeDocument {
    /// The size and the units.
    #[serde(flatten)]
    pub size: SizeDocument,
    /// What one put and one read of the item cost.
    pub usd: SizeUsdDocument,
}

impl Report for PricedSize {
    fn lines(&self) -> Vec<Line> {
        let mut lines = plain(Tone::Plain, self.size.lines(LARGEST_SHOWN));
        lines.push(Line::new(Tone::Figure, self.size.money_line(&self.pricing)));
        lines.push(Line::new(Tone::Quiet, self.pricing.note()));
        lines
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

impl PricedAdvice {
    fn document(&self) -> AdviceDocument {
        self.advice.document(self.shards, &self.pricing)
    }
}

crate::document_as!(PricedAdvice => AdviceDocument, document);

impl Report for PricedAdvice {
    fn lines(&self) -> Vec<Line> {
        plain(Tone::Plain, self.advice.lines(self.shards, &self.pricing))
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

impl PriceCard {
    /// The card as its document: the region, why it, the billing, the source, and each figure
    /// in dollars.
    fn document(&self) -> CardDocument {
        let pricing = &self.pricing;
        let one = BigDecimal::from(1);
        let scan_units = (self.size_bytes.and_then(|b| u64::try_from(b).ok())).map(|b| {
            BigDecimal::from(b.div_ceil(crate::cost::units::READ_UNIT_BYTES)) / BigDecimal::from(2)
        });
        let prices = pricing.prices.as_ref();
        CardDocument {
            region: pricing.region.clone(),
            assumed: pricing.assumed.clone(),
            billing: pricing.billing.text(),
            currency: prices.map(|p| p.currency.clone()),
            source: prices.map(|p| p.source.clone()),
            as_of: prices.map(|p| p.as_of.clone()),
            write_unit_usd: Usd::from(pricing.charge(Kind::Write, &one)),
            read_unit_usd: Usd::from(pricing.charge(Kind::Read, &one)),
            like_usd: Usd::from(pricing.charge(Kind::Write, &BigDecimal::from(4))),
            whole_read_rcu: scan_units.clone().map(ExactNumber),
            whole_read_usd: scan_units.map(|u| Usd::from(pricing.charge(Kind::Read, &u))),
            items: self.items,
            size_bytes: self.size_bytes,
        }
    }
}

crate::document_as!(PriceCard => CardDocument, document);

/// A table's prices: where they come from, and what a unit, a like and a read of the whole
/// table cost in US dollars (`null` when unknown or in another currency).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CardDocument {
    /// The region priced as.
    pub region: String,
    /// Why that region, when it is not the connection's own; `null` when it is.
    pub assumed: Option<String>,
    /// The billing mode and table class, in words.
    pub billing: String,
    /// The prices' currency (`USD`); `null` when the region's prices are not known.
    pub currency: Option<String>,
    /// Where the prices come from; `null` when not known.
    pub source: Option<String>,
    /// When the prices were read (`YYYY-MM-DD`); `null` when not known.
    pub as_of: Option<String>,
    /// One write unit.
    pub write_unit_usd: Usd,
    /// One read unit.
    pub read_unit_usd: Usd,
    /// One like: a transaction of two writes.
    pub like_usd: Usd,
    /// Read units an eventually consistent scan of the whole table takes, exactly; `null`
    /// when its size is not known.
    pub whole_read_rcu: Option<ExactNumber>,
    /// What that scan costs; `null` when its size is not known.
    pub whole_read_usd: Option<Usd>,
    /// The table's items, as last reported; `null` when not described.
    pub items: Option<i64>,
    /// The table's bytes, as last reported; `null` when not described.
    pub size_bytes: Option<i64>,
}

impl Report for PriceCard {
    fn lines(&self) -> Vec<Line> {
        card(&self.pricing, self.size_bytes, self.items)
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}
