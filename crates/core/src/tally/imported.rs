//! What an import does to the counters, said before it writes: items of a file that are counted
//! children (a `LIKE#…` under a parent with a `likeTally` rule) add to their parent's children,
//! and unless the file sets the tally too, the tally stays where it is and drifts. Counted per
//! parent while the file is checked, in bounded memory.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::report::plural;
use crate::table::TableInfo;
use crate::tally::{ChildSource, TallyRule};
use crate::value::{Item, cell_text, whole_text};

/// Parents kept by name; beyond them children are counted, not placed.
const MAX_PARENTS: usize = 10_000;

/// Parents named in the words; the others are counted.
pub(super) const PARENTS_NAMED: usize = 5;

/// One parent the file puts children under.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Parent {
    /// Its children in the file.
    pub(super) children: u64,
    /// The tally the file sets, when the file holds the parent itself.
    pub(super) tally: Option<String>,
}

/// The counted children of a file and their parents, per rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportTallies {
    /// The table's key names (partition, sort).
    keys: Option<(String, String)>,
    /// The rules whose children are found by a sort-key prefix.
    pub(super) rules: Vec<TallyRule>,
    /// Per rule (by place in `rules`) and partition.
    pub(super) parents: BTreeMap<(usize, String), Parent>,
    /// Children per rule, those of parents not kept included.
    pub(super) children: Vec<u64>,
    /// More parents than [`MAX_PARENTS`] were met.
    pub(super) more: bool,
}

impl ImportTallies {
    /// Nothing counted yet, for an import into `info` under `rules` (those counting children
    /// by an index are left out: an item alone does not say whose child it is).
    pub fn new(info: &TableInfo, rules: &[TallyRule]) -> Self {
        let rules: Vec<TallyRule> = rules
            .iter()
            .filter(|r| matches!(r.children, ChildSource::SortKeyPrefix(_)))
            .cloned()
            .collect();
        Self {
            keys: info
                .sort
                .as_ref()
                .map(|sort| (info.partition.name.clone(), sort.name.clone())),
            children: vec![0; rules.len()],
            rules,
            ..Self::default()
        }
    }

    /// Count `item`: a child of a rule's parent, or the parent itself with its tally.
    pub fn add(&mut self, item: &Item) {
        let Some((pk, sk)) = &self.keys else {
            return;
        };
        let (Some(partition), Some(sort)) = (item.get(pk), item.get(sk)) else {
            return;
        };
        let (partition, sort) = (whole_text(partition), whole_text(sort));
        for (r, rule) in self.rules.iter().enumerate() {
            let ChildSource::SortKeyPrefix(prefix) = &rule.children else {
                continue;
            };
            if !partition.starts_with(&rule.parents.partition_prefix) {
                continue;
            }
            let is_parent = sort == rule.parents.sort_key;
            if !is_parent && !sort.starts_with(prefix.as_str()) {
                continue;
            }
            if !is_parent {
                self.children[r] += 1;
            }
            let full = self.parents.len() >= MAX_PARENTS;
            let parent = match self.parents.get_mut(&(r, partition.clone())) {
                Some(parent) => parent,
                None if full => {
                    self.more = true;
                    continue;
                }
                None => self.parents.entry((r, partition.clone())).or_default(),
            };
            if is_parent {
                parent.tally = Some(match item.get(&rule.tally) {
                    Some(AttributeValue::N(n)) => n.clone(),
                    Some(other) => cell_text(other),
                    None => "nothing".to_owned(),
                });
            } else {
                parent.children += 1;
            }
        }
    }

    /// Whether the file holds no counted children.
    pub fn is_empty(&self) -> bool {
        self.children.iter().all(|n| *n == 0)
    }

    /// The words, per rule with children in the file: `300 `LIKE#` children for 3 parents,
    /// their tallies `likeTally` unchanged: they drift by up to +300`, the first parents with
    /// theirs, and the parents whose tally the file sets.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (r, rule) in self.rules.iter().enumerate() {
            if self.children[r] == 0 {
                continue;
            }
            let ChildSource::SortKeyPrefix(prefix) = &rule.children else {
                continue;
            };
            let parents: Vec<(&String, &Parent)> = self
                .parents
                .iter()
                .filter(|((rule, _), p)| *rule == r && p.children > 0)
                .map(|((_, pk), p)| (pk, p))
                .collect();
            let (set, unchanged): (Vec<_>, Vec<_>) =
                parents.into_iter().partition(|(_, p)| p.tally.is_some());
            let unchanged_children: u64 = unchanged.iter().map(|(_, p)| p.children).sum();
            let left_out = self.children[r]
                - unchanged_children
                - set.iter().map(|(_, p)| p.children).sum::<u64>();
            let count = unchanged_children + left_out;
            if count > 0 {
                let parents = if left_out > 0 {
                    format!("more than {} parents", unchanged.len())
                } else {
                    plural(unchanged.len(), "parent")
                };
                lines.push(format!(
                    "{} `{prefix}` {} for {parents}, their tallies `{}` unchanged: they drift by up to +{count} (a child already stored is replaced, not added)",
                    count,
                    if count == 1 { "child" } else { "children" },
                    rule.tally,
                ));
                for (pk, parent) in unchanged.iter().take(PARENTS_NAMED) {
                    lines.push(format!(
                        "  {pk} / {}: +{}",
                        rule.parents.sort_key, parent.children
                    ));
                }
                if unchanged.len() > PARENTS_NAMED {
                    lines.push(format!(
                        "  … and {} more",
                        plural(unchanged.len() - PARENTS_NAMED, "parent")
                    ));
                }
            }
            for (pk, parent) in set.iter().take(PARENTS_NAMED) {
                lines.push(format!(
                    "{pk} / {}: the file sets `{}` to {} and puts {} under it (the tally is what the file says, not a count)",
                    rule.parents.sort_key,
                    rule.tally,
                    parent.tally.as_deref().unwrap_or_default(),
                    plural(parent.children as usize, &format!("`{prefix}` child")),
                ));
            }
            if set.len() > PARENTS_NAMED {
                lines.push(format!(
                    "… and {} whose tally the file sets",
                    plural(set.len() - PARENTS_NAMED, "parent")
                ));
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::tests::{likes_rule, social_info};

    fn item(pk: &str, sk: &str, tally: Option<&str>) -> Item {
        let mut item = Item::from([
            ("PK".to_owned(), AttributeValue::S(pk.into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
        ]);
        if let Some(n) = tally {
            item.insert("likeTally".into(), AttributeValue::N(n.into()));
        }
        item
    }

    fn tallies() -> ImportTallies {
        ImportTallies::new(&social_info(), &[likes_rule()])
    }

    #[test]
    fn children_without_their_parent_drift_and_a_parent_in_the_file_is_set() {
        let mut t = tallies();
        for (pk, n) in [("POST#a91f", 200), ("POST#b", 99), ("POST#c", 1)] {
            for i in 0..n {
                t.add(&item(pk, &format!("LIKE#USER#{i}"), None));
            }
        }
        t.add(&item("POST#d", "META", Some("7")));
        t.add(&item("POST#d", "LIKE#USER#1", None));
        t.add(&item("USER#x", "LIKE#USER#1", None));
        t.add(&item("POST#e", "COMMENT#1", None));
        assert_eq!(
            t.lines(),
            [
                "300 `LIKE#` children for 3 parents, their tallies `likeTally` unchanged: they drift by up to +300 (a child already stored is replaced, not added)",
                "  POST#a91f / META: +200",
                "  POST#b / META: +99",
                "  POST#c / META: +1",
                "POST#d / META: the file sets `likeTally` to 7 and puts 1 `LIKE#` child under it (the tally is what the file says, not a count)",
            ]
        );
        let mut none = tallies();
        none.add(&item("POST#d", "META", Some("7")));
        assert!(none.is_empty() && none.lines().is_empty());
    }
}
