//! Reconciling in one pass: every item of a table (or of an export of it) seen once, parents
//! kept, children counted by the id they belong to. The same rules and the same checks as
//! counting each parent's children with a Query, and memory bounded by the number of parents
//! (and of ids that have children), never by the number of items.

use std::collections::{HashMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::drift::TOUCHED;
use crate::tally::{ChildSource, Count, ParentCheck, TallyRule, drift, last_touched};
use crate::value::{Item, cell_text, type_tag, whole_text};

/// How an item is recognised as a child, and the attribute its parent's id is in.
#[derive(Debug, Clone)]
enum Children {
    /// Same partition, sort key beginning with the prefix.
    SortKeyPrefix { sort: String, prefix: String },
    /// In an index: the item has the index's keys (its sort key beginning with the prefix).
    Index {
        partition: String,
        sort: Option<String>,
        prefix: String,
    },
}

/// The running state of a one-pass reconcile.
#[derive(Debug, Clone)]
pub struct OnePass {
    rule: TallyRule,
    partition: String,
    sort: String,
    children: Children,
    /// The parent attribute holding the id its children carry.
    id_name: String,
    /// The parents seen, by id (two parents may share an id).
    parents: HashMap<String, Vec<Item>>,
    /// Parents without the attribute holding their id: each one's check is an error.
    without_id: Vec<Item>,
    /// Children counted, by id.
    counts: HashMap<String, u64>,
    /// Items seen.
    items: u64,
}

/// An id as a map key: its type and its text, so `N 1` and `S "1"` stay apart.
fn id_key(value: &AttributeValue) -> String {
    format!("{}:{}", type_tag(value), whole_text(value))
}

impl OnePass {
    /// A pass checking `rule` over the items of table `info`.
    pub fn new(info: &TableInfo, rule: &TallyRule) -> Result<Self> {
        let sort = info.sort.as_ref().map(|s| s.name.clone());
        let (children, id_name) = match &rule.children {
            ChildSource::SortKeyPrefix(prefix) => {
                let sort = sort.clone().ok_or_else(|| {
                    Error::Invalid(format!(
                        "{} has no sort key, so children cannot share a partition",
                        info.name
                    ))
                })?;
                let prefix = prefix.clone();
                (
                    Children::SortKeyPrefix { sort, prefix },
                    info.partition.name.clone(),
                )
            }
            ChildSource::Index {
                index,
                id_attribute,
                sort_prefix,
            } => {
                let (partition, index_sort) = info
                    .keys_of(Some(index))
                    .ok_or_else(|| Error::Invalid(format!("{} has no index {index}", info.name)))?;
                let children = Children::Index {
                    partition: partition.name.clone(),
                    sort: index_sort.map(|s| s.name.clone()),
                    prefix: sort_prefix.clone(),
                };
                let id = id_attribute
                    .clone()
                    .unwrap_or_else(|| info.partition.name.clone());
                (children, id)
            }
        };
        Ok(Self {
            rule: rule.clone(),
            partition: info.partition.name.clone(),
            sort: sort.unwrap_or_default(),
            children,
            id_name,
            parents: HashMap::new(),
            without_id: Vec::new(),
            counts: HashMap::new(),
            items: 0,
        })
    }

    /// The attribute names the pass reads from each item; a reader may drop the others.
    pub fn wanted(&self) -> HashSet<String> {
        let mut names: HashSet<String> = [
            self.partition.clone(),
            self.sort.clone(),
            self.rule.tally.clone(),
            self.id_name.clone(),
        ]
        .into_iter()
        .chain(TOUCHED.iter().map(|n| (*n).to_owned()))
        .collect();
        if let Children::Index {
            partition, sort, ..
        } = &self.children
        {
            names.insert(partition.clone());
            names.extend(sort.clone());
        }
        names.remove("");
        names
    }

    /// Items seen so far.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// Parents seen so far.
    pub fn parents(&self) -> usize {
        self.parents.values().map(Vec::len).sum::<usize>() + self.without_id.len()
    }

    /// Keep only the parents whose partition key (as text) `keep` says: a reconcile of some
    /// parents reports nothing about the others.
    pub(crate) fn keep_parents(&mut self, keep: impl Fn(&str) -> bool) {
        let partition = self.partition.clone();
        let kept = |p: &Item| keep(&p.get(&partition).map(whole_text).unwrap_or_default());
        for parents in self.parents.values_mut() {
            parents.retain(|p| kept(p));
        }
        self.parents.retain(|_, parents| !parents.is_empty());
        self.without_id.retain(|p| kept(p));
    }

    /// See one item: keep it if it is a parent, count it if it is a child.
    pub fn add(&mut self, item: Item) {
        self.items += 1;
        if let Some(id) = self.child_id(&item) {
            *self.counts.entry(id).or_default() += 1;
        }
        if self
            .rule
            .parents
            .matches(&item, &self.partition, &self.sort)
        {
            match item.get(&self.id_name).map(id_key) {
                Some(id) => self.parents.entry(id).or_default().push(item),
                None => self.without_id.push(item),
            }
        }
    }

    /// The id of the parent `item` is a child of, if it is a child.
    fn child_id(&self, item: &Item) -> Option<String> {
        let begins = |name: &str, prefix: &str| match item.get(name) {
            Some(AttributeValue::S(s)) => s.starts_with(prefix),
            _ => false,
        };
        match &self.children {
            Children::SortKeyPrefix { sort, prefix } => {
                begins(sort, prefix).then(|| item.get(&self.partition).map(id_key))?
            }
            Children::Index {
                partition,
                sort,
                prefix,
            } => {
                // An item is in a (sparse) index only when it has all of the index's keys.
                let id = item.get(partition)?;
                match sort {
                    Some(sort) if !item.contains_key(sort) => None,
                    Some(sort) if !prefix.is_empty() && !begins(sort, prefix) => None,
                    _ => Some(id_key(id)),
                }
            }
        }
    }

    /// Every parent's check, in no particular order; `method` says where the items came from.
    /// A parent whose tally is not a number is an error of its own, the others still checked.
    pub fn finish(self, table: &TableInfo, method: &str) -> Vec<Result<ParentCheck>> {
        let Self {
            rule,
            parents,
            without_id,
            counts,
            partition,
            id_name,
            ..
        } = self;
        let key_text = partition.clone();
        let missing = without_id.into_iter().map(move |p| {
            let shown = p.get(&key_text).map(cell_text).unwrap_or_default();
            Err(Error::Invalid(format!(
                "{shown}: the parent has no `{id_name}` to count its children by"
            )))
        });
        parents
            .into_iter()
            .flat_map(|(id, parents)| parents.into_iter().map(move |p| (id.clone(), p)))
            .map(|(id, parent)| {
                let count = counts.get(&id).copied().unwrap_or_default();
                let shown = parent.get(&partition).map(cell_text).unwrap_or_default();
                let named = |e: Error| e.at(&shown);
                let stored = crate::tally::stored_tally(&parent, &rule.tally).map_err(named)?;
                let drift = drift(stored.as_deref(), count).map_err(named)?;
                Ok(ParentCheck {
                    partition: parent.get(&partition).map(whole_text).unwrap_or_default(),
                    key: table.key_of(&parent)?,
                    stored,
                    count: Count {
                        count,
                        pages: 0,
                        consumed_rcu: 0.0,
                        elapsed_ms: 0,
                        method: method.to_owned(),
                    },
                    drift,
                    last_touched: last_touched(&parent),
                })
            })
            .chain(missing)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::ScalarType;
    use crate::table::KeyAttr;
    use crate::tally::ParentMatch;
    use crate::tally::tests::{item, likes_rule};

    fn info() -> TableInfo {
        let key = |name: &str| KeyAttr::new(name, ScalarType::S);
        TableInfo::with_keys("T", key("PK"), Some(key("SK")))
    }

    #[test]
    fn children_count_by_partition_whatever_the_order() {
        let rule = likes_rule();
        let mut pass = OnePass::new(&info(), &rule).unwrap();
        // Children before their parent, a look-alike prefix, a parent of another kind, a
        // partition with children and no parent.
        pass.add(item("POST#1", "LIKE#USER#a", &[]));
        pass.add(item("POST#1", "LIKES#x", &[]));
        pass.add(item("POST#1", "META", &[("likeTally", "2")]));
        pass.add(item("POST#1", "LIKE#USER#b", &[]));
        pass.add(item("POST#2", "META", &[]));
        pass.add(item("USER#1", "META", &[("likeTally", "0")]));
        pass.add(item("POST#3", "LIKE#USER#a", &[]));
        assert_eq!(pass.items(), 7);
        assert_eq!(pass.parents(), 2);
        let mut checks: Vec<ParentCheck> = pass
            .finish(&info(), "test")
            .into_iter()
            .map(Result::unwrap)
            .collect();
        checks.sort_by(|a, b| a.partition.cmp(&b.partition));
        assert_eq!(checks[0].partition, "POST#1");
        assert_eq!(checks[0].count.count, 2);
        assert!(!checks[0].drifted());
        assert_eq!(checks[1].stored, None, "a missing tally is not 0");
        assert!(checks[1].drifted());
        assert_eq!(checks[0].key.len(), 2, "the key only");
    }

    #[test]
    fn parents_alike_in_their_first_200_characters_are_counted_apart() {
        let rule = likes_rule();
        let long = |end: &str| format!("POST#{}{end}", "x".repeat(300));
        let mut pass = OnePass::new(&info(), &rule).unwrap();
        pass.add(item(&long("a"), "META", &[("likeTally", "1")]));
        pass.add(item(&long("a"), "LIKE#USER#1", &[]));
        pass.add(item(&long("b"), "META", &[("likeTally", "1")]));
        pass.add(item(&long("b"), "LIKE#USER#1", &[]));
        let checks = pass.finish(&info(), "test");
        assert_eq!(checks.len(), 2);
        for check in checks {
            let check = check.unwrap();
            assert_eq!(check.count.count, 1, "{}", check.partition.len());
            assert!(!check.drifted());
            assert_eq!(check.partition.len(), 306, "the whole partition");
        }
    }

    #[test]
    fn a_tally_that_is_not_a_number_fails_that_parent_alone() {
        let rule = TallyRule {
            parents: ParentMatch {
                sort_key: "META".into(),
                partition_prefix: String::new(),
            },
            tally: "likeTally".into(),
            children: ChildSource::SortKeyPrefix("LIKE#".into()),
        };
        let mut pass = OnePass::new(&info(), &rule).unwrap();
        let mut bad = item("POST#1", "META", &[]);
        bad.insert("likeTally".into(), AttributeValue::S("3".into()));
        pass.add(bad);
        pass.add(item("POST#2", "META", &[("likeTally", "0")]));
        let results = pass.finish(&info(), "test");
        assert_eq!(results.iter().filter(|r| r.is_err()).count(), 1);
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    }

    #[test]
    fn index_children_by_an_id_attribute_shared_or_missing() {
        use crate::table::{IndexInfo, IndexKind};
        let mut table = info();
        table.indexes.push(IndexInfo {
            name: "ByOwner".into(),
            kind: IndexKind::Global,
            partition: KeyAttr::new("owner", ScalarType::S),
            sort: None,
            projection: "ALL".into(),
            status: None,
            item_count: None,
        });
        let rule = TallyRule {
            parents: ParentMatch {
                sort_key: "META".into(),
                partition_prefix: "USER#".into(),
            },
            tally: "postCount".into(),
            children: ChildSource::Index {
                index: "ByOwner".into(),
                id_attribute: Some("handle".into()),
                sort_prefix: String::new(),
            },
        };
        let mut pass = OnePass::new(&table, &rule).unwrap();
        let with_handle = |pk: &str, handle: &str| {
            let mut p = item(pk, "META", &[("postCount", "1")]);
            p.insert("handle".into(), AttributeValue::S(handle.into()));
            p
        };
        // Two parents share the handle `ana`; one parent has no handle at all.
        pass.add(with_handle("USER#1", "ana"));
        pass.add(with_handle("USER#2", "ana"));
        pass.add(item("USER#3", "META", &[("postCount", "0")]));
        let mut post = item("POST#1", "META", &[]);
        post.insert("owner".into(), AttributeValue::S("ana".into()));
        pass.add(post);
        assert_eq!(pass.parents(), 3);
        let mut only = pass.clone();
        only.keep_parents(|pk| pk == "USER#1");
        assert_eq!(
            only.finish(&table, "t").len(),
            1,
            "the others are not reported"
        );
        let results = pass.finish(&table, "t");
        let ok: Vec<&ParentCheck> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(ok.len(), 2, "both parents of the shared id");
        assert!(ok.iter().all(|c| c.count.count == 1));
        let errors: Vec<String> = results
            .iter()
            .filter_map(|r| r.as_ref().err().map(ToString::to_string))
            .collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("no `handle`"), "{errors:?}");
    }
}
