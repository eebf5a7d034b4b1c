//! Sharded counters: every shard read, the total summed on read exactly, and the hot shard.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::{BigDecimal, RoundingMode};

use crate::condition::{SortCondition, SortOp};
use crate::connection::Reader;
use crate::cost::hot::KeyRate;
use crate::cost::{Kind, Pricing};
use crate::error::{Error, Result};
use crate::number::{self, to_dynamodb};
use crate::read::{self, BrowseRequest};
use crate::report::{Line, plural};
use crate::table::TableInfo;
use crate::tally::ShardRule;
use crate::value::whole_text;

/// A sharded counter summed on read.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardTotal {
    /// Each shard's sort key and value (`None` when the attribute is missing).
    pub shards: Vec<(String, Option<BigDecimal>)>,
    /// The sum.
    pub total: BigDecimal,
    /// The index of the hottest shard.
    pub hot: Option<usize>,
    /// Query pages read.
    pub pages: u32,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
}

impl ShardTotal {
    /// `Total 18312`.
    pub fn headline(&self) -> String {
        format!("Total {}", to_dynamodb(&self.total))
    }

    /// How the total was made and what it cost, by `pricing`.
    pub fn summary(&self, pricing: &Pricing) -> String {
        format!(
            "total {} over {} shards, summed on read · {} · {}",
            to_dynamodb(&self.total),
            self.shards.len(),
            plural(self.pages as usize, "page"),
            pricing.read(self.consumed_rcu)
        )
    }

    /// Each shard's load if the counter takes `writes_per_second` writes of `units` write
    /// units each, spread as its counts are: `STATS#TOTAL#3: 31.2% of the writes, 312 WCU/s,
    /// 31% of one partition's 1,000 WCU/s`, a shard with no count taking none. The rates are
    /// a shard item's own; shards under one partition key share that key's partition too (see
    /// the advice).
    pub fn loads(&self, writes_per_second: u64, units: u64) -> Vec<(String, BigDecimal, Line)> {
        let zero = BigDecimal::default();
        let total_units = BigDecimal::from(writes_per_second) * BigDecimal::from(units);
        self.shards
            .iter()
            .map(|(sk, value)| {
                let share = match value {
                    Some(v) if self.total != zero => v / &self.total,
                    _ => zero.clone(),
                };
                let rate = (&total_units * &share).with_scale_round(0, RoundingMode::HalfUp);
                // Already sharded: the advice is more shards (or an even spread), not sharding.
                let advice = format!(
                    "Spread the writes evenly, or use more than its {} shards.",
                    self.shards.len()
                );
                let line = KeyRate {
                    key: sk.clone(),
                    kind: Kind::Write,
                    units: rate.clone(),
                    millis: 1000,
                }
                .line_advising(&advice);
                let text = format!(
                    "{} of the writes · {}",
                    percent(value.as_ref().unwrap_or(&zero), &self.total)
                        .map_or("0%".to_owned(), |p| format!("{p}%")),
                    line.text
                );
                (sk.clone(), rate, Line::new(line.tone, text))
            })
            .collect()
    }

    /// The hottest shard's sort key and its share of the total (0 to 1); `None` when the
    /// total is 0 or no shard is hot.
    pub fn hot_share(&self) -> Option<(String, BigDecimal)> {
        let (sk, value) = self.hot.and_then(|i| self.shards.get(i))?;
        let value = value.as_ref()?;
        (self.total != BigDecimal::default()).then(|| (sk.clone(), value / &self.total))
    }

    /// The hottest shard and its share of the total, when there is one.
    pub fn hot_text(&self) -> Option<String> {
        let (sk, value) = self.hot.and_then(|i| self.shards.get(i))?;
        let value = value.as_ref()?;
        let share = percent(value, &self.total).unwrap_or_else(|| "0".to_owned());
        Some(format!(
            "Hot shard: {sk} holds {} ({share}% of the total)",
            to_dynamodb(value)
        ))
    }
}

/// `part` as a percentage of `total` with one decimal, exactly; `None` when the total is 0.
fn percent(part: &BigDecimal, total: &BigDecimal) -> Option<String> {
    if *total == BigDecimal::default() {
        return None;
    }
    let ratio = (part * BigDecimal::from(100)) / total;
    Some(
        ratio
            .with_scale_round(1, bigdecimal::RoundingMode::HalfUp)
            .to_string(),
    )
}

/// Read every shard of `rule` in partition `partition` and sum them, exactly.
pub async fn sum_shards(
    reader: &Reader,
    info: &TableInfo,
    partition: AttributeValue,
    rule: &ShardRule,
) -> Result<ShardTotal> {
    let sort = info.sort.as_ref().ok_or_else(|| {
        Error::Invalid(format!(
            "{} has no sort key, so it has no shards",
            info.name
        ))
    })?;
    let cond = SortCondition {
        op: SortOp::BeginsWith,
        value: AttributeValue::S(rule.prefix.clone()),
        upper: None,
    };
    let request = BrowseRequest::query(info, None, partition, Some(cond), true)?;
    let (mut items, mut pages, mut rcu) = (Vec::new(), 0u32, 0.0);
    read::read_all(reader, &request, |page| {
        pages += 1;
        rcu += page.consumed_rcu;
        items.extend(page.items);
    })
    .await?;
    let mut shards = Vec::with_capacity(items.len());
    for item in items {
        let sk = item.get(&sort.name).map(whole_text).unwrap_or_default();
        let amount = match item.get(&rule.attribute) {
            Some(AttributeValue::N(n)) => {
                Some(number::parse(n).map_err(|e| Error::Invalid(format!("{sk}: {e}")))?)
            }
            _ => None,
        };
        shards.push((sk, amount));
    }
    // Shard numbers sort numerically: #2 before #10.
    shards.sort_by_key(|(sk, _)| {
        let suffix = sk.rsplit('#').next().unwrap_or_default();
        (suffix.parse::<u64>().unwrap_or(u64::MAX), sk.clone())
    });
    let total = shards.iter().filter_map(|(_, v)| v.clone()).sum();
    let hot = shards
        .iter()
        .enumerate()
        .filter_map(|(i, (_, v))| v.as_ref().map(|v| (i, v)))
        .max_by(|a, b| a.1.cmp(b.1))
        .map(|(i, _)| i)
        // One shard is not hot: it is the whole counter.
        .filter(|_| shards.len() > 1);
    Ok(ShardTotal {
        shards,
        total,
        hot,
        pages,
        consumed_rcu: rcu,
    })
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(text: &str) -> BigDecimal {
        BigDecimal::from_str(text).unwrap()
    }

    /// 1,500 writes a second spread as counts of 600, 300, 100 and a missing shard: the hot
    /// shard takes 900 WCU/s (90% of its partition's ceiling), a missing shard none.
    #[test]
    fn a_rate_spreads_over_the_shards_as_their_counts() {
        let total = ShardTotal {
            shards: vec![
                ("STATS#TOTAL#0".into(), Some(d("600"))),
                ("STATS#TOTAL#1".into(), Some(d("300"))),
                ("STATS#TOTAL#2".into(), Some(d("100"))),
                ("STATS#TOTAL#3".into(), None),
            ],
            total: d("1000"),
            hot: Some(0),
            pages: 1,
            consumed_rcu: 0.5,
        };
        let loads = total.loads(1_500, 1);
        assert_eq!(loads[0].1, d("900"));
        assert_eq!(
            loads[0].2.text,
            "60.0% of the writes · STATS#TOTAL#0: 900 WCU in 1 s = 900 WCU/s, 90% of one \
             partition's 1,000 WCU/s"
        );
        assert_eq!(loads[3].1, d("0"));
        let hot = total.loads(2_000, 1);
        assert!(
            hot[0]
                .2
                .text
                .contains("At this rate STATS#TOTAL#0 would be throttled"),
            "{}",
            hot[0].2.text
        );
    }
}
