//! What staged changes do to the counters: a staged put or delete of a counted child (a
//! `LIKE#…` under a parent with a `likeTally` rule) moves the count of its parent's children,
//! and unless the parent's tally is staged to move by as much, the tally would drift. Said per
//! parent, with the change that keeps it true.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::error::{Error, Result};
use crate::items::stage::Change;
use crate::number::{self, to_dynamodb};
use crate::table::TableInfo;
use crate::tally::{ChildSource, TallyRule};
use crate::value::key_shown;
use crate::value::{Item, whole_text};

/// One parent whose tally the staged changes move, or leave behind its children.
#[derive(Debug, Clone, PartialEq)]
pub struct TallyEffect {
    /// The parent's key.
    pub parent: Item,
    /// The rule it is a parent under.
    pub rule: TallyRule,
    /// Children staged to be created, less those staged to be deleted.
    pub children: i64,
    /// How much the staged changes move the tally itself (an edit of the parent).
    pub tally: BigDecimal,
}

impl TallyEffect {
    /// How far the tally would drift from its children once committed: the children's change
    /// less the tally's.
    pub fn drift(&self) -> BigDecimal {
        BigDecimal::from(self.children) - &self.tally
    }

    /// Whether the commit would leave the tally off by the children it adds or removes.
    pub fn drifts(&self) -> bool {
        self.drift() != BigDecimal::default()
    }

    /// The effect in one line: `POST#a91f / META: 1 LIKE# child deleted and the tally
    /// `likeTally` unchanged: it would drift by +1 (stored 1 more than its children)`.
    pub fn line(&self, key_names: &[String]) -> String {
        let prefix = match &self.rule.children {
            ChildSource::SortKeyPrefix(prefix) => prefix.as_str(),
            ChildSource::Index { .. } => "",
        };
        let n = self.children.unsigned_abs();
        let children = format!(
            "{n} {prefix} {} {}",
            if n == 1 { "child" } else { "children" },
            if self.children >= 0 {
                "added"
            } else {
                "deleted"
            }
        );
        let tally = if self.tally == BigDecimal::default() {
            format!("the tally `{}` unchanged", self.rule.tally)
        } else {
            format!(
                "the tally `{}` moved by {}",
                self.rule.tally,
                signed(&self.tally)
            )
        };
        let parent = key_shown(&self.parent, key_names);
        if self.drifts() {
            // What is stored less what is counted, after the commit.
            let off = -self.drift();
            format!(
                "{parent}: {children} and {tally}: it would drift by {} (stored {} {} its children)",
                signed(&off),
                to_dynamodb(&off.abs()),
                if off > BigDecimal::default() {
                    "more than"
                } else {
                    "fewer than"
                }
            )
        } else {
            format!("{parent}: {children} and {tally}: it stays true")
        }
    }

    /// The parent as read (`parent`), staged to hold its tally moved by the drift, so the
    /// commit keeps it true; sent conditional on the tally being what was read, as every
    /// staged change is.
    pub fn fix(&self, info: &TableInfo, parent: &Item) -> Result<Change> {
        let current = match parent.get(&self.rule.tally) {
            Some(AttributeValue::N(n)) => number::parse(n)
                .map_err(|e| Error::Invalid(format!("the tally `{}`: {e}", self.rule.tally)))?,
            None => BigDecimal::default(),
            Some(other) => {
                return Err(Error::Invalid(format!(
                    "the tally `{}` is {}, not a number",
                    self.rule.tally,
                    crate::value::type_tag(other)
                )));
            }
        };
        let mut after = parent.clone();
        after.insert(
            self.rule.tally.clone(),
            AttributeValue::N(to_dynamodb(&(current + self.drift()))),
        );
        Change::edit(info, parent.clone(), after)
    }
}

fn signed(n: &BigDecimal) -> String {
    if *n > BigDecimal::default() {
        format!("+{}", to_dynamodb(n))
    } else {
        to_dynamodb(n)
    }
}

/// The parents whose children `changes` create or delete under `rules` (children found by a
/// sort-key prefix in the parent's partition), each with how far its tally would move and
/// drift; parents whose tally is edited without children moving are left out.
pub fn tally_effects(
    changes: &[Change],
    info: &TableInfo,
    rules: &[TallyRule],
) -> Vec<TallyEffect> {
    let Some(sort) = &info.sort else {
        return Vec::new();
    };
    let (pk, sk) = (&info.partition.name, &sort.name);
    let mut effects: BTreeMap<(String, usize), TallyEffect> = BTreeMap::new();
    for (r, rule) in rules.iter().enumerate() {
        let ChildSource::SortKeyPrefix(prefix) = &rule.children else {
            continue;
        };
        for change in changes {
            let Some(partition) = change.key.get(pk) else {
                continue;
            };
            let partition_text = whole_text(partition);
            if !partition_text.starts_with(&rule.parents.partition_prefix) {
                continue;
            }
            let sort_text = change.key.get(sk).map(whole_text).unwrap_or_default();
            let parent_key = || {
                Item::from([
                    (pk.clone(), partition.clone()),
                    (sk.clone(), AttributeValue::S(rule.parents.sort_key.clone())),
                ])
            };
            let fresh = || TallyEffect {
                parent: parent_key(),
                rule: rule.clone(),
                children: 0,
                tally: BigDecimal::default(),
            };
            let place = (partition_text.clone(), r);
            if sort_text == rule.parents.sort_key {
                // The parent itself: how much its tally is staged to move.
                let tally =
                    |item: &Option<Item>| match item.as_ref().and_then(|i| i.get(&rule.tally)) {
                        Some(AttributeValue::N(n)) => number::parse(n).ok(),
                        _ => None,
                    };
                if let (Some(before), Some(after)) = (tally(&change.before), tally(&change.after)) {
                    effects.entry(place).or_insert_with(fresh).tally += after - before;
                }
            } else if sort_text.starts_with(prefix.as_str()) {
                match (&change.before, &change.after) {
                    (None, Some(_)) => effects.entry(place).or_insert_with(fresh).children += 1,
                    (Some(_), None) => effects.entry(place).or_insert_with(fresh).children -= 1,
                    _ => {}
                }
            }
        }
    }
    effects.into_values().filter(|e| e.children != 0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::tests::{likes_rule as rule, social_info as info};

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    fn key(pk: &str, sk: &str) -> Item {
        Item::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
    }

    #[test]
    fn a_staged_delete_of_a_child_says_which_tally_drifts_and_how_to_keep_it_true() {
        let info = info();
        let like = key("POST#a91f", "LIKE#USER#7c20");
        let delete = Change {
            key: like.clone(),
            before: Some(like.clone()),
            after: None,
        };
        let effects = tally_effects(std::slice::from_ref(&delete), &info, &[rule()]);
        assert_eq!(effects.len(), 1);
        let names = info.key_names();
        assert_eq!(
            effects[0].line(&names),
            "PK = POST#a91f · SK = META: 1 LIKE# child deleted and the tally `likeTally` unchanged: it would drift by +1 (stored 1 more than its children)"
        );
        // The fix: the parent as read, its tally one less, in the same commit.
        let mut parent = key("POST#a91f", "META");
        parent.insert("likeTally".into(), AttributeValue::N("3".into()));
        let fix = effects[0].fix(&info, &parent).unwrap();
        assert_eq!(
            fix.after.as_ref().unwrap()["likeTally"],
            AttributeValue::N("2".into())
        );
        let both = [delete, fix];
        let effects = tally_effects(&both, &info, &[rule()]);
        assert!(!effects[0].drifts(), "{}", effects[0].line(&names));
        assert!(effects[0].line(&names).ends_with("it stays true"));
        // Other items are not children: a META edit alone, another prefix, another partition.
        let other = Change {
            key: key("VID#9f3a", "LIKE#x"),
            before: None,
            after: Some(key("VID#9f3a", "LIKE#x")),
        };
        assert!(tally_effects(&[other], &info, &[rule()]).is_empty());
    }

    #[test]
    fn parents_alike_in_their_first_200_characters_are_two_effects() {
        let long = |end: &str| format!("POST#{}{end}", "x".repeat(300));
        let deleted = |pk: &str| {
            let like = key(pk, "LIKE#USER#1");
            Change {
                key: like.clone(),
                before: Some(like),
                after: None,
            }
        };
        let changes = [deleted(&long("a")), deleted(&long("b"))];
        let effects = tally_effects(&changes, &info(), &[rule()]);
        assert_eq!(effects.len(), 2, "one parent each");
        assert!(effects.iter().all(|e| e.children == -1));
    }
}
