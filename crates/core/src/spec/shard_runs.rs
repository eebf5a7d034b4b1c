//! A sharded counter summed from its spec, the same run and the same words for the CLI and the
//! MCP server: each shard with its value (the hottest marked), the exact total, what it read,
//! and a sum that found nothing to add said as refused, never as a total of 0.

use serde::Serialize;

use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::Result;
use crate::number::to_dynamodb;
use crate::report::{Line, Listing, Report, Tone};
use crate::spec::TallySpec;
use crate::table::TableInfo;
use crate::tally::{self, ShardRule, ShardTotal};

/// A sharded counter summed on read, with what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardSum {
    /// The partition summed.
    pub pk: String,
    /// The shards' prefix and the number attribute.
    pub rule: ShardRule,
    /// The shards and their total.
    pub total: ShardTotal,
    /// What the table's reads cost.
    pub pricing: Pricing,
}

impl TallySpec {
    /// Sum the shards of the partition `pk` on `info`'s table.
    pub async fn sum_shards(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<ShardSum> {
        let rule = self.rule.shard_rule()?;
        let partition = self.one_partition(info)?;
        let reader = connection.reader();
        let summed = tally::sum_shards(&reader, info, partition, &rule);
        let total = unless_stopped(stop, "Query", summed).await?;
        Ok(ShardSum {
            pk: self.pk.clone().unwrap_or_default(),
            rule,
            total,
            pricing: connection.pricing(info),
        })
    }
}

impl ShardSum {
    /// Whether any shard held the number: otherwise nothing was summed.
    fn summed(&self) -> bool {
        self.total.shards.iter().any(|(_, value)| value.is_some())
    }

    /// Why nothing was summed (a typo in the prefix or the attribute), when so.
    fn nothing_summed(&self) -> Option<String> {
        if self.summed() {
            return None;
        }
        let (pk, rule) = (&self.pk, &self.rule);
        Some(if self.total.shards.is_empty() {
            format!(
                "no item of {pk} has a sort key beginning with `{}`",
                rule.prefix
            )
        } else {
            format!(
                "none of the {} shards holds `{}` as a number",
                self.total.shards.len(),
                rule.attribute
            )
        })
    }
}

impl ShardSum {
    /// The sum as its document.
    fn document(&self) -> ShardSumDocument {
        let total = &self.total;
        ShardSumDocument {
            shards: (total.shards.iter().enumerate())
                .map(|(i, (sk, value))| ShardDocument {
                    shard: sk.clone(),
                    value: value.as_ref().map(to_dynamodb),
                    hot: total.hot == Some(i),
                })
                .collect(),
            total: to_dynamodb(&total.total),
            consumed_rcu: total.consumed_rcu,
            usd: Usd::from(self.pricing.read(total.consumed_rcu)),
            summary: total.summary(&self.pricing),
            nothing_summed: self.nothing_summed(),
        }
    }
}

crate::document_as!(ShardSum => ShardSumDocument, document);

/// A sharded counter summed on read.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ShardSumDocument {
    /// Each shard, in sort key order.
    pub(crate) shards: Vec<ShardDocument>,
    /// The shards' values summed, exactly, as a DynamoDB number.
    pub(crate) total: String,
    /// Read capacity units the Query consumed.
    pub(crate) consumed_rcu: f64,
    /// What the Query cost in US dollars.
    pub(crate) usd: Usd,
    /// The total and what it read, in words.
    pub(crate) summary: String,
    /// Why nothing was summed (no shard, or none holding the number); `null` when summed.
    pub(crate) nothing_summed: Option<String>,
}

/// One shard of the counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct ShardDocument {
    /// The shard's sort key.
    pub(crate) shard: String,
    /// Its value, exactly, as a DynamoDB number; `null` when it does not hold the number.
    pub(crate) value: Option<String>,
    /// Whether it is the hottest shard.
    pub(crate) hot: bool,
}

impl Report for ShardSum {
    /// A line per shard (`STATS#TOTAL#3\t9876  <- hot`), then the total and what it read.
    fn lines(&self) -> Vec<Line> {
        let total = &self.total;
        let mut lines: Vec<Line> = total
            .shards
            .iter()
            .enumerate()
            .map(|(i, (sk, value))| {
                let shown = value.as_ref().map_or("(missing)".to_owned(), to_dynamodb);
                if total.hot == Some(i) {
                    Line::new(Tone::Warn, format!("{sk}\t{shown}  <- hot"))
                } else {
                    Line::new(Tone::Plain, format!("{sk}\t{shown}"))
                }
            })
            .collect();
        lines.push(Line::new(Tone::Figure, total.summary(&self.pricing)));
        lines.extend(self.nothing_summed().map(|why| Line::new(Tone::Warn, why)));
        lines
    }

    /// Done when some shard held the number; refused when none did.
    fn ending(&self) -> Ending {
        if self.summed() {
            Ending::Done
        } else {
            Ending::Refused
        }
    }

    /// The counter's total, exactly as summed.
    fn result(&self) -> Vec<String> {
        vec![to_dynamodb(&self.total.total)]
    }

    /// A row per shard; the total beside them.
    fn listing(&self) -> Option<Listing> {
        let summary = vec![Line::new(Tone::Figure, self.total.summary(&self.pricing))];
        Some(Listing::of(
            &crate::document::Document::to_json(self),
            "shards",
            &["shard", "value", "hot"],
            summary,
        ))
    }
}
