//! Rules suggested by what a loaded item collection shows: child prefixes, number attributes on
//! parents, their names, and numbered shards.

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::tally::{ChildSource, ParentMatch, Rule, ShardRule, TallyRule};
use crate::value::Item;

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

/// The text of `item`'s attribute `name`, when it is a string.
fn text_of(item: &Item, name: &str) -> Option<String> {
    match item.get(name) {
        Some(AttributeValue::S(s)) => Some(s.clone()),
        _ => None,
    }
}

/// What a first look over a loaded collection finds: child prefixes, children and shards.
#[derive(Default)]
struct Seen {
    /// Per partition: the child prefixes (sort-key segment before the first `#`).
    prefixes: BTreeMap<String, BTreeSet<String>>,
    /// Children loaded per (partition, prefix): the evidence for a tally whose name says nothing.
    children: BTreeMap<(String, String), u64>,
    /// Per (sort-key base, number attribute): the shard numbers seen.
    shard_groups: BTreeMap<(String, String), BTreeSet<String>>,
    /// Items per sort-key base (before the last `#`), and how many end in a small shard number.
    bases: BTreeMap<String, (usize, usize)>,
}

/// Rules suggested by what a loaded collection shows. Best first.
pub fn suggest(items: &[Item], pk: &str, sk: &str) -> Vec<Rule> {
    let mut named = Vec::new();
    let mut unnamed = Vec::new();
    let seen = seen_in(items, pk, sk);
    for item in items {
        parent_rules(item, pk, sk, &seen, &mut named, &mut unnamed);
    }
    for ((prefix, attribute), shards) in seen.shard_groups {
        // Every item under the prefix is a numbered shard: `LIKE#USER#0421` among
        // `LIKE#USER#7c20` is a user id, not a shard.
        let all_numbered = seen
            .bases
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

/// The child prefixes, the children loaded under each and the numbered shards of `items`.
fn seen_in(items: &[Item], pk: &str, sk: &str) -> Seen {
    let mut seen = Seen::default();
    for item in items {
        let (Some(p), Some(s)) = (text_of(item, pk), text_of(item, sk)) else {
            continue;
        };
        if let Some((head, _)) = s.split_once('#') {
            seen.prefixes
                .entry(p.clone())
                .or_default()
                .insert(format!("{head}#"));
            *seen
                .children
                .entry((p.clone(), format!("{head}#")))
                .or_default() += 1;
        }
        // Shards: sort keys ending in `#<small number>`, with number attributes.
        let Some((base, last)) = s.rsplit_once('#') else {
            continue;
        };
        let is_shard_number =
            !last.is_empty() && last.len() <= 3 && last.chars().all(|c| c.is_ascii_digit());
        let counts = seen.bases.entry(format!("{base}#")).or_default();
        counts.0 += 1;
        counts.1 += usize::from(is_shard_number);
        if is_shard_number {
            for (name, v) in item {
                if matches!(v, AttributeValue::N(_)) {
                    seen.shard_groups
                        .entry((format!("{base}#"), name.clone()))
                        .or_default()
                        .insert(last.to_owned());
                }
            }
        }
    }
    seen
}

/// The tally rules a parent `item` (keyed `pk`/`sk`, a sort key without `#`) suggests for each
/// child prefix of its partition: into `named` when a number's name says so, else into
/// `unnamed` when a number equals the children loaded.
fn parent_rules(
    item: &Item,
    pk: &str,
    sk: &str,
    seen: &Seen,
    named: &mut Vec<Rule>,
    unnamed: &mut Vec<Rule>,
) {
    let (Some(p), Some(s)) = (text_of(item, pk), text_of(item, sk)) else {
        return;
    };
    if s.contains('#') {
        return; // children are not parents
    }
    let partition_prefix = p
        .split_once('#')
        .map(|(head, _)| format!("{head}#"))
        .unwrap_or_default();
    let Some(child_prefixes) = seen.prefixes.get(&p) else {
        return;
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
        let matching: Vec<&&String> = numbers.iter().filter(|n| name_matches(n, prefix)).collect();
        let rule = |tally: &str| {
            Rule::Tally(TallyRule {
                parents: parents.clone(),
                tally: tally.to_owned(),
                children: ChildSource::SortKeyPrefix(prefix.clone()),
            })
        };
        // A name that says so, or else a number that equals the children loaded: a
        // suggestion needs evidence (`bytes_served` beside `STATS#…` rows has none).
        let loaded = seen.children.get(&(p.clone(), prefix.clone())).copied();
        let equal = numbers.iter().find(|n| {
            matches!(item.get(n.as_str()), Some(AttributeValue::N(v))
                if loaded.is_some_and(|c| v.trim() == c.to_string()))
        });
        // Children that are all numbered shards (`STATS#TOTAL#0` … `#7`) are a sharded
        // counter's: a parent's number equal to how many there are is its shard count, a
        // setting, not a tally of them (the shard rule is suggested on its own).
        let shards = seen.bases.iter().any(|(base, (total, numbered))| {
            base.starts_with(prefix.as_str()) && total == numbered && *numbered >= 2
        });
        if let Some(tally) = matching.first() {
            named.push(rule(tally));
        } else if let Some(tally) = equal
            && !shards
        {
            unnamed.push(rule(tally));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::tests::{item, likes_rule};

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
        assert_eq!(rules[0], Rule::Tally(likes_rule()));
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
    fn a_shard_count_is_not_suggested_as_a_tally_of_its_shards() {
        let mut items = vec![item("VID#9f3a", "META", &[("shards", "3")])];
        for n in 0..3 {
            let sk = format!("STATS#TOTAL#{n}");
            items.push(item("VID#9f3a", &sk, &[("play_count", "7")]));
        }
        let rules = suggest(&items, "PK", "SK");
        assert!(
            rules
                .iter()
                .all(|r| !matches!(r, Rule::Tally(t) if t.tally == "shards")),
            "{rules:?}"
        );
        assert!(
            rules.iter().any(|r| matches!(r, Rule::Shards(_))),
            "{rules:?}"
        );
    }

    #[test]
    fn a_number_whose_name_says_nothing_is_suggested_only_when_it_equals_the_children() {
        // The nonsense: `bytes_served` on META beside STATS#… rows.
        let items = vec![
            item(
                "VID#9f3a",
                "META",
                &[("bytes_served", "981234"), ("seen", "2")],
            ),
            item("VID#9f3a", "STATS#TOTAL", &[("play_count", "41")]),
            item("VID#9f3a", "STATS#DAY#1", &[("play_count", "3")]),
        ];
        let described: Vec<String> = suggest(&items, "PK", "SK")
            .iter()
            .map(Rule::describe)
            .collect();
        assert!(
            !described.iter().any(|d| d.contains("bytes_served")),
            "{described:?}"
        );
        assert!(
            described.contains(&"VID#…/META.seen = count(STATS#…)".to_owned()),
            "2 equals the 2 STATS# children loaded: {described:?}"
        );
    }
}
