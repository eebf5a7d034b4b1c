//! The size of an item as DynamoDB counts it, for its 400 KB limit and for the units a read or
//! a write of it costs — the one count, used by the validator too.
//!
//! The rules are AWS's "DynamoDB item sizes and formats"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>):
//! an attribute is its name's UTF-8 bytes plus its value; a string its UTF-8 bytes; a binary its
//! raw bytes; a null or a boolean one byte; a list or a map three bytes, one more per element,
//! and the elements (a map's names counted as names); a set the sum of its elements. A number
//! is, in the page's words, "approximately" one byte per two significant digits plus one;
//! exactly, the significant digits (leading and trailing zeros trimmed) are paired from the
//! decimal point outwards, so the digits before and after it are each rounded up to a pair
//! (`1.5` is 3 bytes, not 2), and a negative number takes a byte more. That is the rule the
//! embedded engine measured byte for byte against the service's 400 KB limit; for whole numbers
//! it is the page's rule.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::{BigDecimal, RoundingMode};

use crate::cost::money::count;
use crate::cost::size_document::{
    AttributeBytesDocument, ReadUnitsDocument, SizeDocument, SizeUsdDocument, WriteUnitsDocument,
};
use crate::cost::units::{MAX_ITEM_BYTES, ReadKind, WriteKind, read_units, write_units};
use crate::cost::usd::ExactNumber;
use crate::cost::usd::Usd;
use crate::cost::{Charge, Kind, Pricing};
use crate::report::capacity_exact;
use crate::value::Item;

/// The size of `item` as DynamoDB counts it: each attribute's name in UTF-8 bytes plus its
/// value's size.
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

/// The size of one value (see the module's rules).
pub(crate) fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(v) => v.iter().map(String::len).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len()).sum(),
        AttributeValue::L(list) => 3 + list.len() + list.iter().map(value_size).sum::<usize>(),
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(name, v)| name.len() + 1 + value_size(v))
                .sum::<usize>()
        }
        _ => 0,
    }
}

/// A number's size: its significant digits split at the decimal point, each side one byte per
/// two digits (rounded up), one byte more, and one for a minus sign (zero has none). Text that
/// is not a number is counted as well as it can be, never refused here (the validator does).
pub(crate) fn number_size(text: &str) -> usize {
    let text = text.trim();
    let negative = text.starts_with('-');
    let body = text.trim_start_matches(['-', '+']);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (body, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // Where the point falls among the digits, then the digits trimmed of zeros on both sides.
    let mut point = i64::try_from(whole.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exponent);
    let leading = digits.len() - digits.trim_start_matches('0').len();
    point = point.saturating_sub(i64::try_from(leading).unwrap_or(0));
    let significant = digits.trim_matches('0');
    if significant.is_empty() {
        return 1;
    }
    let len = i64::try_from(significant.len()).unwrap_or(i64::MAX);
    let before = usize::try_from(point.clamp(0, len)).unwrap_or(0);
    let after = significant.len() - before;
    before.div_ceil(2) + after.div_ceil(2) + 1 + usize::from(negative)
}

/// One top-level attribute's share of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeBytes {
    /// The attribute's name.
    pub name: String,
    /// Its name's bytes plus its value's.
    pub bytes: u64,
}

/// An item's size and what it costs to write and read, against the 400 KB limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeReport {
    /// The item's bytes as DynamoDB counts them.
    pub bytes: u64,
    /// Each top-level attribute's bytes, largest first (ties by name).
    pub attributes: Vec<AttributeBytes>,
}

impl SizeReport {
    /// The report of `item`.
    pub fn of(item: &Item) -> Self {
        let mut attributes: Vec<AttributeBytes> = item
            .iter()
            .map(|(name, value)| AttributeBytes {
                name: name.clone(),
                bytes: as_u64(name.len() + value_size(value)),
            })
            .collect();
        attributes.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
        Self {
            bytes: attributes.iter().map(|a| a.bytes).sum(),
            attributes,
        }
    }

    /// The write units a put of this item costs (an update: the larger of the item before and
    /// after).
    pub fn write_units(&self, kind: WriteKind) -> BigDecimal {
        write_units(self.bytes, kind)
    }

    /// The read units a `GetItem` of this item costs.
    pub fn read_units(&self, kind: ReadKind) -> BigDecimal {
        read_units(self.bytes, kind)
    }

    /// Whether DynamoDB stores it (at most 400 KB).
    pub fn fits(&self) -> bool {
        self.bytes <= MAX_ITEM_BYTES
    }

    /// The bytes still free under 400 KB (0 when over).
    pub(crate) fn bytes_left(&self) -> u64 {
        MAX_ITEM_BYTES.saturating_sub(self.bytes)
    }

    /// The share of 400 KB used, in percent, exact (409,600 bytes divide into a finite
    /// decimal).
    pub(crate) fn percent_used(&self) -> BigDecimal {
        (BigDecimal::from(self.bytes) * BigDecimal::from(100) / BigDecimal::from(MAX_ITEM_BYTES))
            .normalized()
    }

    /// `0.3%` (one decimal, `< 0.1%` for a sliver).
    pub(crate) fn percent_text(&self) -> String {
        let percent = self.percent_used();
        let shown = percent.with_scale_round(1, RoundingMode::HalfUp);
        if self.bytes > 0 && shown == BigDecimal::default() {
            "< 0.1%".to_owned()
        } else {
            format!("{}%", capacity_exact(&shown))
        }
    }

    /// The one line the app and the CLI say: `1,234 B · put 2 WCU (tx 4) · read 1 RCU strong
    /// / 0.5 eventual · 0.3% of 400 KB`.
    pub fn line(&self) -> String {
        let limit = if self.fits() {
            format!("{} of 400 KB", self.percent_text())
        } else {
            format!(
                "{} of 400 KB: over by {} B, DynamoDB refuses it",
                self.percent_text(),
                count(self.bytes - MAX_ITEM_BYTES)
            )
        };
        format!(
            "{} B · put {} WCU (tx {}) · read {} RCU strong / {} eventual · {limit}",
            count(self.bytes),
            capacity_exact(&self.write_units(WriteKind::Standard)),
            capacity_exact(&self.write_units(WriteKind::Transactional)),
            capacity_exact(&self.read_units(ReadKind::Strong)),
            capacity_exact(&self.read_units(ReadKind::Eventual)),
        )
    }

    /// The report in words, a line each: the line, the units spelt out, the room left, and
    /// the `largest` attributes.
    pub fn lines(&self, largest: usize) -> Vec<String> {
        let mut lines = vec![
            self.line(),
            format!(
                "write: {} WCU (PutItem, UpdateItem, DeleteItem), {} WCU in a transaction",
                capacity_exact(&self.write_units(WriteKind::Standard)),
                capacity_exact(&self.write_units(WriteKind::Transactional)),
            ),
            format!(
                "read: {} RCU eventually consistent, {} strongly consistent, {} in a transaction",
                capacity_exact(&self.read_units(ReadKind::Eventual)),
                capacity_exact(&self.read_units(ReadKind::Strong)),
                capacity_exact(&self.read_units(ReadKind::Transactional)),
            ),
            if self.fits() {
                format!(
                    "{} B left under 400 KB ({} B)",
                    count(self.bytes_left()),
                    count(MAX_ITEM_BYTES)
                )
            } else {
                format!(
                    "{} B over 400 KB ({} B): DynamoDB refuses it",
                    count(self.bytes - MAX_ITEM_BYTES),
                    count(MAX_ITEM_BYTES)
                )
            },
        ];
        for attribute in self.attributes.iter().take(largest) {
            lines.push(format!(
                "  {} B  {}",
                count(attribute.bytes),
                attribute.name
            ));
        }
        if self.attributes.len() > largest {
            lines.push(format!(
                "  … {} more attributes",
                self.attributes.len() - largest
            ));
        }
        lines
    }

    /// The report as its document, every number exact: bytes, units, room, attributes.
    pub fn document(&self) -> SizeDocument {
        let exact = ExactNumber;
        SizeDocument {
            bytes: self.bytes,
            max_bytes: MAX_ITEM_BYTES,
            bytes_left: self.bytes_left(),
            fits: self.fits(),
            percent_used: exact(self.percent_used()),
            wcu: WriteUnitsDocument {
                standard: exact(self.write_units(WriteKind::Standard)),
                transactional: exact(self.write_units(WriteKind::Transactional)),
            },
            rcu: ReadUnitsDocument {
                eventual: exact(self.read_units(ReadKind::Eventual)),
                strong: exact(self.read_units(ReadKind::Strong)),
                transactional: exact(self.read_units(ReadKind::Transactional)),
            },
            attributes: (self.attributes.iter())
                .map(|a| AttributeBytesDocument {
                    name: a.name.clone(),
                    bytes: a.bytes,
                })
                .collect(),
        }
    }

    /// The report as JSON: its [`document`](Self::document) through serde.
    pub fn to_json(&self) -> serde_json::Value {
        crate::document::Document::to_json(&self.document())
    }
}

impl SizeReport {
    /// What one put and one read of this item cost on `pricing`'s table: `put ≈ $0.00000125
    /// on demand (tx ≈ $0.0000025) · read strong ≈ … / eventual ≈ …`.
    pub(crate) fn money_line(&self, pricing: &Pricing) -> String {
        let [put, put_tx, eventual, strong, _] = self.charges(pricing);
        format!(
            "put {} (tx {}) · read strong {} / eventual {}",
            put.money_text(),
            put_tx.money_text(),
            strong.money_text(),
            eventual.money_text()
        )
    }

    /// The money of one put and one read, in US dollars (exact, `null` when unknown), and how
    /// it was priced.
    pub fn usd(&self, pricing: &Pricing) -> SizeUsdDocument {
        let [put, put_tx, eventual, strong, read_tx] = self.charges(pricing).map(Usd::from);
        SizeUsdDocument {
            priced_as: pricing.note(),
            put,
            put_transactional: put_tx,
            read_eventual: eventual,
            read_strong: strong,
            read_transactional: read_tx,
        }
    }

    /// [`usd`](Self::usd) as JSON, through serde.
    pub fn usd_json(&self, pricing: &Pricing) -> serde_json::Value {
        crate::document::Document::to_json(&self.usd(pricing))
    }

    /// Put, transactional put, eventual, strong and transactional read.
    fn charges(&self, pricing: &Pricing) -> [Charge; 5] {
        [
            pricing.charge(Kind::Write, &self.write_units(WriteKind::Standard)),
            pricing.charge(Kind::Write, &self.write_units(WriteKind::Transactional)),
            pricing.charge(Kind::Read, &self.read_units(ReadKind::Eventual)),
            pricing.charge(Kind::Read, &self.read_units(ReadKind::Strong)),
            pricing.charge(Kind::Read, &self.read_units(ReadKind::Transactional)),
        ]
    }
}

/// The line of `item`, or `None` for an empty one (no item to size).
pub fn size_line(item: &Item) -> Option<String> {
    (!item.is_empty()).then(|| SizeReport::of(item).line())
}

pub(crate) fn as_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

#[cfg(test)]
#[path = "size_tests.rs"]
mod tests;
