//! Reference counters: rules that say where a parent's tally and its children are, suggestions
//! of rules from a loaded item collection, and the arithmetic of drift. Pure; the queries that
//! count live in [`crate::core::tally_ops`].

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::value::{self, Item};

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

/// Words a tally's name and its children's prefix share: `likeTally` ↔ `LIKE#`,
/// `memberCount` ↔ `MEMBER#`, `replyCount` ↔ `REPLY#`.
fn name_matches(tally: &str, prefix: &str) -> bool {
    let word = prefix.trim_end_matches('#').to_lowercase();
    let tally = tally.to_lowercase();
    !word.is_empty()
        && (tally.starts_with(&word)
            || tally.starts_with(word.trim_end_matches('s'))
            || word.starts_with(tally.trim_end_matches("count").trim_end_matches("tally")))
        && !tally
            .trim_end_matches("count")
            .trim_end_matches("tally")
            .is_empty()
}

/// Rules suggested by what a loaded collection shows. Best first.
pub fn suggest(items: &[Item], pk: &str, sk: &str) -> Vec<Rule> {
    let text = |item: &Item, name: &str| match item.get(name) {
        Some(AttributeValue::S(s)) => Some(s.clone()),
        _ => None,
    };
    let mut named = Vec::new();
    let mut unnamed = Vec::new();
    // Per partition: the child prefixes (sort-key segment before the first `#`).
    let mut prefixes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut shard_groups: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    // Items per sort-key base (before the last `#`), and how many end in a small shard number.
    let mut bases: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for item in items {
        let (Some(p), Some(s)) = (text(item, pk), text(item, sk)) else {
            continue;
        };
        if let Some((head, _)) = s.split_once('#') {
            prefixes
                .entry(p.clone())
                .or_default()
                .insert(format!("{head}#"));
        }
        // Shards: sort keys ending in `#<small number>`, with number attributes.
        let Some((base, last)) = s.rsplit_once('#') else {
            continue;
        };
        let is_shard_number =
            !last.is_empty() && last.len() <= 3 && last.chars().all(|c| c.is_ascii_digit());
        let counts = bases.entry(format!("{base}#")).or_default();
        counts.0 += 1;
        counts.1 += usize::from(is_shard_number);
        if is_shard_number {
            for (name, v) in item {
                if matches!(v, AttributeValue::N(_)) {
                    shard_groups
                        .entry((format!("{base}#"), name.clone()))
                        .or_default()
                        .insert(last.to_owned());
                }
            }
        }
    }
    for item in items {
        let (Some(p), Some(s)) = (text(item, pk), text(item, sk)) else {
            continue;
        };
        if s.contains('#') {
            continue; // children are not parents
        }
        let partition_prefix = p
            .split_once('#')
            .map(|(head, _)| format!("{head}#"))
            .unwrap_or_default();
        let Some(child_prefixes) = prefixes.get(&p) else {
            continue;
        };
        let mut numbers: Vec<&String> = item
            .iter()
            .filter(|(_, v)| matches!(v, AttributeValue::N(_)))
            .map(|(k, _)| k)
            .collect();
        numbers.sort();
        for prefix in child_prefixes {
            let parents = ParentMatch {
                sort_key: s.clone(),
                partition_prefix: partition_prefix.clone(),
            };
            let matching: Vec<&&String> =
                numbers.iter().filter(|n| name_matches(n, prefix)).collect();
            let rule = |tally: &str| {
                Rule::Tally(TallyRule {
                    parents: parents.clone(),
                    tally: tally.to_owned(),
                    children: ChildSource::SortKeyPrefix(prefix.clone()),
                })
            };
            if let Some(tally) = matching.first() {
                named.push(rule(tally));
            } else if let Some(tally) = numbers.first() {
                unnamed.push(rule(tally));
            }
        }
    }
    for ((prefix, attribute), shards) in shard_groups {
        // Every item under the prefix is a numbered shard: `LIKE#USER#0421` among
        // `LIKE#USER#7c20` is a user id, not a shard.
        let all_numbered = bases
            .get(&prefix)
            .is_some_and(|(total, numbered)| total == numbered);
        if shards.len() >= 2 && all_numbered {
            named.push(Rule::Shards(ShardRule { prefix, attribute }));
        }
    }
    let mut seen = BTreeSet::new();
    named
        .into_iter()
        .chain(unnamed)
        .filter(|r| seen.insert(format!("{r:?}")))
        .collect()
}

/// Stored tally minus counted children; `None` when the tally is missing.
pub fn drift(stored: Option<&str>, counted: u64) -> Result<Option<BigDecimal>> {
    stored
        .map(|s| {
            number::parse(s)
                .map(|v| v - BigDecimal::from(counted))
                .map_err(|e| Error::Invalid(format!("the stored tally: {e}")))
        })
        .transpose()
}

/// The stored tally of `parent` as text; refuses a tally that is not a number.
pub fn stored_tally(parent: &Item, tally: &str) -> Result<Option<String>> {
    match parent.get(tally) {
        None => Ok(None),
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        Some(other) => Err(Error::Invalid(format!(
            "the tally `{tally}` is {}, not a number",
            value::type_tag(other)
        ))),
    }
}

/// An epoch-seconds number as `YYYY-MM-DD HH:MM:SS UTC`, when it looks like one.
pub fn epoch_text(text: &str) -> Option<String> {
    let secs: i64 = text.parse().ok()?;
    if !(946_684_800..=4_102_444_800).contains(&secs) {
        return None; // not between 2000 and 2100: probably not a timestamp
    }
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    ))
}

/// Attributes of a parent that may tell when a like or unlike last touched it.
pub fn last_touched(parent: &Item) -> Option<(String, String)> {
    const NAMES: [&str; 6] = [
        "updatedAt",
        "tallyUpdatedAt",
        "lastLikedAt",
        "lastUpdated",
        "modifiedAt",
        "lastModified",
    ];
    NAMES.iter().find_map(|name| {
        parent.get(*name).map(|v| {
            let raw = value::cell_text(v);
            let shown = epoch_text(&raw).map_or(raw.clone(), |t| format!("{t} ({raw})"));
            ((*name).to_owned(), shown)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn item(pk: &str, sk: &str, numbers: &[(&str, &str)]) -> Item {
        let mut item = HashMap::from([
            ("PK".to_owned(), AttributeValue::S(pk.into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
        ]);
        for (k, v) in numbers {
            item.insert((*k).to_owned(), AttributeValue::N((*v).into()));
        }
        item
    }

    #[test]
    fn suggests_tally_and_prefix_by_name() {
        let items = vec![
            item(
                "POST#a91f",
                "META",
                &[("createdAt", "1"), ("likeTally", "3")],
            ),
            item("POST#a91f", "LIKE#USER#7c20", &[("likedAt", "1")]),
            item("POST#a91f", "LIKE#USER#19be", &[]),
        ];
        let rules = suggest(&items, "PK", "SK");
        assert_eq!(
            rules[0],
            Rule::Tally(TallyRule {
                parents: ParentMatch {
                    sort_key: "META".into(),
                    partition_prefix: "POST#".into()
                },
                tally: "likeTally".into(),
                children: ChildSource::SortKeyPrefix("LIKE#".into()),
            })
        );
        assert_eq!(rules[0].describe(), "POST#…/META.likeTally = count(LIKE#…)");
    }

    #[test]
    fn matches_member_and_reply_counts_and_shards() {
        assert!(name_matches("memberCount", "MEMBER#"));
        assert!(name_matches("replyCount", "REPLY#"));
        assert!(name_matches("likeTally", "LIKE#"));
        assert!(!name_matches("likeTally", "MEMBER#"));
        let items: Vec<Item> = (0..8)
            .map(|i| {
                item(
                    "VID#c0de",
                    &format!("STATS#TOTAL#{i}"),
                    &[("play_count", "10")],
                )
            })
            .collect();
        assert!(
            suggest(&items, "PK", "SK").contains(&Rule::Shards(ShardRule {
                prefix: "STATS#TOTAL#".into(),
                attribute: "play_count".into()
            }))
        );
    }

    #[test]
    fn drift_and_missing() {
        assert_eq!(drift(Some("4"), 3).unwrap(), Some(BigDecimal::from(1)));
        assert_eq!(drift(None, 3).unwrap(), None);
        assert!(drift(Some("x"), 3).is_err());
    }

    #[test]
    fn epochs_become_dates() {
        assert_eq!(
            epoch_text("1750636800").as_deref(),
            Some("2025-06-23 00:00:00 UTC")
        );
        assert_eq!(epoch_text("42"), None);
    }

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
