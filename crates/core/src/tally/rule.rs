//! Counter rules: which items are parents, their tally, and where their children are; or a
//! sharded counter summed on read.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::table::TableInfo;
use crate::value::Item;

/// Which items are parents.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ParentMatch {
    /// Sort key of a parent, e.g. `META` (exact).
    pub sort_key: String,
    /// Partition keys of parents begin with this, e.g. `POST#` (empty: any).
    pub partition_prefix: String,
}

impl ParentMatch {
    /// Whether `item` (with key attributes `pk`/`sk`) is a parent.
    pub fn matches(&self, item: &Item, pk: &str, sk: &str) -> bool {
        let text = |name: &str| match item.get(name) {
            Some(AttributeValue::S(s)) => Some(s.as_str()),
            _ => None,
        };
        text(sk) == Some(self.sort_key.as_str())
            && text(pk).is_some_and(|p| p.starts_with(&self.partition_prefix))
    }
}

/// Where the children of a parent are.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ChildSource {
    /// In the parent's partition, with a sort key that begins with this prefix (`LIKE#`).
    SortKeyPrefix(String),
    /// In an index, queried with the parent's id.
    Index {
        /// The index.
        index: String,
        /// The parent attribute holding the id to query with (`None`: its partition key).
        id_attribute: Option<String>,
        /// Only index sort keys that begin with this count (empty: all).
        sort_prefix: String,
    },
}

/// A reference counter: parents, their tally, their children.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TallyRule {
    /// Which items are parents.
    pub parents: ParentMatch,
    /// The number attribute holding the tally (`likeTally`).
    pub tally: String,
    /// Where the children are.
    pub children: ChildSource,
}

/// A sharded counter: items whose sort key begins with `prefix`, summed on read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ShardRule {
    /// Sort-key prefix of the shards (`STATS#TOTAL#`).
    pub prefix: String,
    /// The number attribute on each shard (`play_count`).
    pub attribute: String,
}

/// A counter rule, saved per connection and table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rule {
    /// Stored tally versus counted children.
    Tally(TallyRule),
    /// A sharded counter summed on read.
    Shards(ShardRule),
}

impl Rule {
    /// A one-line description, e.g. `META.likeTally = count(LIKE#…)`.
    pub fn describe(&self) -> String {
        match self {
            Self::Tally(rule) => {
                let parent = if rule.parents.partition_prefix.is_empty() {
                    rule.parents.sort_key.clone()
                } else {
                    format!(
                        "{}…/{}",
                        rule.parents.partition_prefix, rule.parents.sort_key
                    )
                };
                let children = match &rule.children {
                    ChildSource::SortKeyPrefix(prefix) => format!("{prefix}…"),
                    ChildSource::Index {
                        index,
                        id_attribute,
                        sort_prefix,
                    } => format!(
                        "{index}[{}]{}",
                        id_attribute.as_deref().unwrap_or("partition key"),
                        if sort_prefix.is_empty() {
                            String::new()
                        } else {
                            format!(" {sort_prefix}…")
                        }
                    ),
                };
                format!("{parent}.{} = count({children})", rule.tally)
            }
            Self::Shards(rule) => format!("sum({}….{})", rule.prefix, rule.attribute),
        }
    }
}

/// A table described and one of its tally rules: what a reconcile checks.
#[derive(Debug, Clone, Copy)]
pub struct RuledTable<'a> {
    /// The table, described (its keys).
    pub info: &'a TableInfo,
    /// The rule its parents, tallies and children follow.
    pub rule: &'a TallyRule,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::tests::item;

    #[test]
    fn parents_match_sort_key_and_partition_prefix() {
        let rule = ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        };
        assert!(rule.matches(&item("POST#1", "META", &[]), "PK", "SK"));
        assert!(!rule.matches(&item("WORKSPACE#1", "META", &[]), "PK", "SK"));
        assert!(!rule.matches(&item("POST#1", "LIKE#x", &[]), "PK", "SK"));
    }
}
