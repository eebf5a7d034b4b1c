//! A counter rule as typed, and how a reconcile reads.

use serde::{Deserialize, Serialize};

use crate::spec::InputError;
use crate::tally::{ChildSource, ParentMatch, ReconcilePlan, Rule, ShardRule, TallyRule};

/// A counter rule: a tally on parent items beside the children it counts, or (with `shards`) a
/// sharded counter summed on read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The sort key of parent items.
    #[serde(default = "meta")]
    pub parent_sk: String,
    /// Only partitions beginning with this are parents, e.g. `POST#` (empty: any).
    #[serde(default)]
    pub parent_prefix: String,
    /// The tally attribute (with `shards`: the number attribute on each shard).
    pub tally: String,
    /// Children's sort keys begin with this, e.g. `LIKE#` (with `index`: the index sort keys).
    #[serde(default)]
    pub child_prefix: String,
    /// The children are in this index, queried with the parent's id.
    #[serde(default)]
    pub index: Option<String>,
    /// With `index`: the parent attribute holding the id (default: its partition key).
    #[serde(default)]
    pub child_key: Option<String>,
    /// A sharded counter: the shards' sort keys begin with this prefix (`STATS#TOTAL#`).
    #[serde(default)]
    pub shards: Option<String>,
}

fn meta() -> String {
    "META".to_owned()
}

impl Default for RuleSpec {
    fn default() -> Self {
        Self {
            parent_sk: meta(),
            parent_prefix: String::new(),
            tally: String::new(),
            child_prefix: String::new(),
            index: None,
            child_key: None,
            shards: None,
        }
    }
}

impl RuleSpec {
    /// The spec of a tally rule already checked (one saved in the app): its inverse.
    pub fn of(rule: &TallyRule) -> Self {
        let (child_prefix, index, child_key) = match &rule.children {
            ChildSource::SortKeyPrefix(prefix) => (prefix.clone(), None, None),
            ChildSource::Index {
                index,
                id_attribute,
                sort_prefix,
            } => (
                sort_prefix.clone(),
                Some(index.clone()),
                id_attribute.clone(),
            ),
        };
        Self {
            parent_sk: rule.parents.sort_key.clone(),
            parent_prefix: rule.parents.partition_prefix.clone(),
            tally: rule.tally.clone(),
            child_prefix,
            index,
            child_key,
            shards: None,
        }
    }

    /// The rule, checked: every part it needs is given.
    pub fn plan(&self) -> Result<Rule, InputError> {
        let need = |field: &'static str, value: &str, what: &str| {
            let value = value.trim();
            if value.is_empty() {
                Err(InputError::new(field, format!("a rule needs {what}")))
            } else {
                Ok(value.to_owned())
            }
        };
        if let Some(prefix) = &self.shards {
            if self.index.is_some() || self.child_key.is_some() {
                return Err(InputError::new(
                    "shards",
                    "a sharded counter has no children: leave the index and the child key out",
                ));
            }
            return Ok(Rule::Shards(ShardRule {
                prefix: need("shards", prefix, "the shards' sort-key prefix")?,
                attribute: need("tally", &self.tally, "the number attribute on each shard")?,
            }));
        }
        let children = match &self.index {
            Some(index) => ChildSource::Index {
                index: need("index", index, "the index holding the children")?,
                id_attribute: self
                    .child_key
                    .as_deref()
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                    .map(str::to_owned),
                sort_prefix: self.child_prefix.trim().to_owned(),
            },
            None if self.child_key.is_some() => {
                return Err(InputError::new(
                    "child_key",
                    "the children's id attribute is for children in an index: give the index too",
                ));
            }
            None => ChildSource::SortKeyPrefix(need(
                "child_prefix",
                &self.child_prefix,
                "the children's sort-key prefix (e.g. LIKE#), or the index holding them",
            )?),
        };
        Ok(Rule::Tally(TallyRule {
            parents: ParentMatch {
                sort_key: need("parent_sk", &self.parent_sk, "the parents' sort key")?,
                partition_prefix: self.parent_prefix.trim().to_owned(),
            },
            tally: need("tally", &self.tally, "the tally attribute")?,
            children,
        }))
    }

    /// The tally rule, or why this spec is not one (it sums shards).
    pub fn tally_rule(&self) -> Result<TallyRule, InputError> {
        match self.plan()? {
            Rule::Tally(rule) => Ok(rule),
            Rule::Shards(_) => Err(InputError::new(
                "shards",
                "shards are summed, not reconciled: leave the shard prefix out to check a tally",
            )),
        }
    }

    /// The shard rule, or why this spec is not one.
    pub fn shard_rule(&self) -> Result<ShardRule, InputError> {
        match self.plan()? {
            Rule::Shards(rule) => Ok(rule),
            Rule::Tally(_) => Err(InputError::new(
                "shards",
                "give the shards' sort-key prefix to sum a sharded counter",
            )),
        }
    }
}

/// A counter check on one table: one parent (`pk`), or every parent (a reconcile), or one
/// sharded counter's partition (`pk` with a shard rule).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TallySpec {
    /// The table.
    pub table: String,
    /// The parent's (or the sharded counter's) partition key value; none: every parent.
    #[serde(default)]
    pub pk: Option<String>,
    /// The rule: which items are parents, their tally, and where their children are.
    pub rule: RuleSpec,
    /// Every parent: how to read.
    #[serde(default)]
    pub plan: PlanChoice,
    /// Every parent: segments or parents read at once (at most 64 run at a time).
    #[serde(default = "eight")]
    pub concurrency: usize,
}

fn eight() -> usize {
    8
}

impl TallySpec {
    /// The partition key value typed, parsed as `info`'s partition key; `None` for every
    /// parent.
    pub fn partition(
        &self,
        info: &crate::table::TableInfo,
    ) -> Result<Option<aws_sdk_dynamodb::types::AttributeValue>, InputError> {
        let Some(pk) = &self.pk else {
            return Ok(None);
        };
        super::partition_value(&info.partition, pk).map(Some)
    }

    /// One partition's value, which this check needs.
    pub fn one_partition(
        &self,
        info: &crate::table::TableInfo,
    ) -> Result<aws_sdk_dynamodb::types::AttributeValue, InputError> {
        self.partition(info)?.ok_or_else(|| {
            InputError::new(
                "pk",
                format!(
                    "give the partition key `{}` of the item collection to check",
                    info.partition.name
                ),
            )
        })
    }

    /// Segments or parents at once, from 1.
    pub fn at_once(&self) -> Result<usize, InputError> {
        crate::limits::AtOnce::new(self.concurrency, "concurrency")
            .map(|a| a.at_once)
            .map_err(|e| InputError::from_error("concurrency", e))
    }
}

/// How a reconcile of every parent reads.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum PlanChoice {
    /// The cheaper of the two by the estimate.
    #[default]
    Auto,
    /// A parallel scan reading each item once.
    OnePass,
    /// A COUNT query per parent.
    PerParent,
}

impl PlanChoice {
    /// The choice typed as `text`.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        match text.trim() {
            "auto" => Ok(Self::Auto),
            "one-pass" => Ok(Self::OnePass),
            "per-parent" => Ok(Self::PerParent),
            other => Err(InputError::new(
                "plan",
                format!("`{other}` is not a plan: use auto, one-pass or per-parent"),
            )),
        }
    }

    /// The plan, reading `at_once` segments or parents at a time; `auto` takes the estimate's.
    pub fn plan(self, at_once: usize, estimated: ReconcilePlan) -> ReconcilePlan {
        match self {
            Self::Auto => estimated,
            Self::OnePass => ReconcilePlan::OnePass { segments: at_once },
            Self::PerParent => ReconcilePlan::PerParent {
                concurrency: at_once,
            },
        }
    }
}
