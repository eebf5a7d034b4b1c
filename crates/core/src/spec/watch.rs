//! A watch of counters as typed: the table, one parent or every parent of a rule, where in the
//! stream to start, the settle window, or polling for a table without a stream.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::spec::{InputError, RuleSpec, partition_value};
use crate::stream::StartAt;
use crate::table::TableInfo;
use crate::watch::{WatchPlan, WatchScope};

/// Where in the stream a watch starts.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum WatchFrom {
    /// The writes from now on (one exact check of a single parent first).
    #[default]
    Latest,
    /// The oldest record the stream holds (the last 24 hours): history, compared as changes.
    TrimHorizon,
}

impl WatchFrom {
    /// The choice typed as `text`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        match text.trim() {
            "latest" | "now" => Ok(Self::Latest),
            "trim-horizon" | "start" => Ok(Self::TrimHorizon),
            other => Err(InputError::new(
                "from",
                format!("`{other}` is not where a watch starts: use latest or trim-horizon"),
            )),
        }
    }
}

/// A watch of one parent's (or every parent's) tally beside its children.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WatchSpec {
    /// The table.
    pub table: String,
    /// One parent's partition key value; none: every parent of the rule.
    #[serde(default)]
    pub pk: Option<String>,
    /// The counter rule.
    pub rule: RuleSpec,
    /// Where in the stream to start.
    #[serde(default)]
    pub from: WatchFrom,
    /// Seconds of stream time a gap may stay open before it is a divergence (the records of
    /// one transaction can arrive apart): 0 to 3600.
    #[serde(default = "five")]
    pub settle_seconds: f64,
    /// Without a stream: read the parent and count its children every this many seconds (at
    /// least 1).
    #[serde(default)]
    pub poll_seconds: Option<f64>,
}

fn five() -> f64 {
    5.0
}

/// The settle window unless one is given.
pub const DEFAULT_SETTLE_SECONDS: f64 = 5.0;

impl WatchSpec {
    /// The watch, checked against `info`'s table.
    pub fn plan(&self, info: &TableInfo) -> Result<WatchPlan, InputError> {
        let rule = self.rule.tally_rule()?;
        if !(0.0..=3600.0).contains(&self.settle_seconds) {
            return Err(InputError::new(
                "settle_seconds",
                "a settle window is 0 to 3600 seconds",
            ));
        }
        let scope = match &self.pk {
            Some(pk) => WatchScope::One {
                partition: partition_value(&info.partition, pk)?,
                pk: pk.clone(),
            },
            None => WatchScope::Every,
        };
        let poll = match self.poll_seconds {
            None => None,
            Some(secs) if !(1.0..=3600.0).contains(&secs) => {
                return Err(InputError::new(
                    "poll_seconds",
                    "polling is every 1 to 3600 seconds",
                ));
            }
            Some(_) if scope == WatchScope::Every => {
                return Err(InputError::new(
                    "pk",
                    "polling reads one parent: give its partition key (every parent is a \
                     reconcile)",
                ));
            }
            Some(_) if self.from == WatchFrom::TrimHorizon => {
                return Err(InputError::new(
                    "from",
                    "polling sees only from now: history is in a stream",
                ));
            }
            Some(secs) => Some(Duration::from_secs_f64(secs)),
        };
        Ok(WatchPlan {
            rule,
            scope,
            start: match self.from {
                WatchFrom::Latest => StartAt::Latest,
                WatchFrom::TrimHorizon => StartAt::TrimHorizon,
            },
            settle_ms: (self.settle_seconds * 1000.0).round() as i64,
            poll,
        })
    }
}
