//! Staged changes: per item, what it was when read and what it is to become, the difference
//! attribute by attribute, and the conditional request that writes it only if the item is
//! still as it was read (each changed attribute as read; no item at all for a new one).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::expr::codegen::{Operation, Request, ReturnOptions, ReturnValues};
use crate::table::TableInfo;
use crate::validate;
use crate::value::key_shown;
use crate::value::{self, Item, same};

/// What a change does to its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// A new item (a create, or a copy under a new key).
    Create,
    /// Attributes of an existing item changed, added or removed.
    Update,
    /// The item deleted.
    Delete,
}

impl ChangeKind {
    /// Whether a change of this kind that met a conflict on commit may be staged again over
    /// the server's item as it is now ("Keep my change over it"): an edit or a delete may; a
    /// new item that met an existing one gets another key or is discarded, never written
    /// over it.
    pub fn may_keep_over(self) -> bool {
        self != Self::Create
    }
}

/// One attribute's difference.
#[derive(Debug, Clone, PartialEq)]
pub enum Diff {
    /// Its value changed.
    Changed {
        /// The attribute.
        name: String,
        /// As read.
        old: AttributeValue,
        /// As it is to be.
        new: AttributeValue,
    },
    /// It is new.
    Added {
        /// The attribute.
        name: String,
        /// Its value.
        new: AttributeValue,
    },
    /// It is removed.
    Removed {
        /// The attribute.
        name: String,
        /// Its value as read.
        old: AttributeValue,
    },
}

impl Diff {
    /// The attribute.
    pub fn name(&self) -> &str {
        match self {
            Self::Changed { name, .. } | Self::Added { name, .. } | Self::Removed { name, .. } => {
                name
            }
        }
    }

    /// The difference in one line: `likeTally  N 3 → N 4`, `+ note  S hi`, `- old  S x`.
    pub fn line(&self) -> String {
        let shown = |v: &AttributeValue| format!("{} {}", value::type_tag(v), value::cell_text(v));
        match self {
            Self::Changed { name, old, new } => {
                format!("~ {name}: {} → {}", shown(old), shown(new))
            }
            Self::Added { name, new } => format!("+ {name}: {}", shown(new)),
            Self::Removed { name, old } => format!("- {name}: {}", shown(old)),
        }
    }
}

/// One item's staged change.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The item's key.
    pub key: Item,
    /// The item as read (`None`: it is new).
    pub before: Option<Item>,
    /// The item as it is to be (`None`: deleted).
    pub after: Option<Item>,
}

impl Change {
    /// An edit of `before` (as read) into `after`, which must keep its key.
    pub fn edit(info: &TableInfo, before: Item, after: Item) -> Result<Self> {
        validate::check_item(&after, info)?;
        let key = info.key_of(&before)?;
        if info.key_of(&after)? != key {
            return Err(Error::Invalid(
                "a key cannot change in place: duplicate the item under the new key, then delete this one"
                    .into(),
            ));
        }
        Ok(Self {
            key,
            before: Some(before),
            after: Some(after),
        })
    }

    /// A new item (written only if no item has its key).
    pub fn create(info: &TableInfo, item: Item) -> Result<Self> {
        validate::check_item(&item, info)?;
        Ok(Self {
            key: info.key_of(&item)?,
            before: None,
            after: Some(item),
        })
    }

    /// A copy of `original` made into a new item: the same checks as [`create`](Self::create),
    /// and a new key (a copy under its original's key would write over it).
    pub fn copy(info: &TableInfo, original: &Item, item: Item) -> Result<Self> {
        if info.key_of(original).ok() == info.key_of(&item).ok() {
            return Err(Error::Invalid(
                "the copy still has the key of the item it copies: give it a new key".into(),
            ));
        }
        Self::create(info, item)
    }

    /// Deleting `item` as read.
    pub fn delete(info: &TableInfo, item: Item) -> Result<Self> {
        Ok(Self {
            key: info.key_of(&item)?,
            before: Some(item),
            after: None,
        })
    }

    /// What it does.
    pub fn kind(&self) -> ChangeKind {
        match (&self.before, &self.after) {
            (None, _) => ChangeKind::Create,
            (Some(_), Some(_)) => ChangeKind::Update,
            (Some(_), None) => ChangeKind::Delete,
        }
    }

    /// The differences, attribute by attribute, by name (the key's attributes never differ).
    pub fn diff(&self) -> Vec<Diff> {
        let empty = Item::new();
        let before = self.before.as_ref().unwrap_or(&empty);
        let after = self.after.as_ref().unwrap_or(&empty);
        let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
        // The key's attributes first (a new item's), then by name.
        names.sort_unstable_by_key(|n| (!self.key.contains_key(*n), *n));
        names.dedup();
        names
            .into_iter()
            .filter_map(|name| match (before.get(name), after.get(name)) {
                (Some(old), Some(new)) if !same(old, new) => Some(Diff::Changed {
                    name: name.clone(),
                    old: old.clone(),
                    new: new.clone(),
                }),
                (None, Some(new)) => Some(Diff::Added {
                    name: name.clone(),
                    new: new.clone(),
                }),
                (Some(old), None) => Some(Diff::Removed {
                    name: name.clone(),
                    old: old.clone(),
                }),
                _ => None,
            })
            .collect()
    }

    /// What changed on the server since the item was read: the item as read beside `server`
    /// (what the server holds now), attribute by attribute.
    pub fn changed_meanwhile(&self, server: Option<&Item>) -> Vec<Diff> {
        Change {
            key: self.key.clone(),
            before: self.before.clone(),
            after: server.cloned(),
        }
        .diff()
    }

    /// Whether it changes nothing (an edit back to what was read).
    pub fn is_empty(&self) -> bool {
        self.kind() == ChangeKind::Update && self.diff().is_empty()
    }

    /// The change in a few words: `update PK = POST#a91f · SK = META (2 attributes)`.
    pub fn title(&self, key_names: &[String]) -> String {
        let key = key_shown(&self.key, key_names);
        match self.kind() {
            ChangeKind::Create => format!("new item {key}"),
            ChangeKind::Delete => format!("delete {key}"),
            ChangeKind::Update => {
                let n = self.diff().len();
                let s = if n == 1 { "" } else { "s" };
                format!("update {key} ({n} attribute{s})")
            }
        }
    }

    /// The conditional request writing it: a Put only if no item has the key; an Update that
    /// sets and removes only what changed, only if every changed attribute is still as read;
    /// a Delete only if the item is still as read.
    pub fn request(&self, info: &TableInfo) -> Result<Request> {
        let mut names = HashMap::new();
        let mut values = HashMap::new();
        let pk = "#k".to_owned();
        names.insert(pk.clone(), info.partition.name.clone());
        let mut condition = match self.kind() {
            ChangeKind::Create => vec![format!("attribute_not_exists({pk})")],
            _ => vec![format!("attribute_exists({pk})")],
        };
        let mut set = Vec::new();
        let mut remove = Vec::new();
        let key_names = info.key_names();
        for (i, diff) in self.diff().iter().enumerate() {
            if key_names.iter().any(|k| k == diff.name()) {
                continue;
            }
            let (n, old, new) = (format!("#a{i}"), format!(":o{i}"), format!(":n{i}"));
            names.insert(n.clone(), diff.name().to_owned());
            match diff {
                Diff::Changed {
                    old: was, new: now, ..
                } => {
                    condition.push(format!("{n} = {old}"));
                    values.insert(old, was.clone());
                    set.push(format!("{n} = {new}"));
                    values.insert(new, now.clone());
                }
                Diff::Added { new: now, .. } => {
                    condition.push(format!("attribute_not_exists({n})"));
                    set.push(format!("{n} = {new}"));
                    values.insert(new, now.clone());
                }
                Diff::Removed { old: was, .. } => {
                    condition.push(format!("{n} = {old}"));
                    values.insert(old, was.clone());
                    remove.push(n);
                }
            }
        }
        let (operation, update, returns) = match self.kind() {
            ChangeKind::Create => {
                // A Put: only the key's placeholder is used.
                names.retain(|k, _| k == &pk);
                values.clear();
                let item = self.after.clone().unwrap_or_default();
                (Operation::Put(item), None, None)
            }
            ChangeKind::Delete => (Operation::Delete(self.key.clone()), None, None),
            ChangeKind::Update => update_parts(&self.key, &set, &remove)?,
        };
        if self.kind() == ChangeKind::Create {
            condition.truncate(1);
        }
        Ok(Request {
            table: info.name.clone(),
            operation,
            update,
            condition: Some(condition.join(" AND ")),
            key_condition: None,
            filter: None,
            projection: None,
            names,
            values,
            returns: ReturnOptions {
                values: returns,
                consumed_capacity: true,
                old_item_on_condition_failure: true,
            },
        })
    }
}

/// An update's operation on `key`, its `SET` and `REMOVE` clauses, and the new item asked back;
/// an error when nothing changed.
fn update_parts(
    key: &Item,
    set: &[String],
    remove: &[String],
) -> Result<(Operation, Option<String>, Option<ReturnValues>)> {
    let mut clauses = Vec::new();
    if !set.is_empty() {
        clauses.push(format!("SET {}", set.join(", ")));
    }
    if !remove.is_empty() {
        clauses.push(format!("REMOVE {}", remove.join(", ")));
    }
    if clauses.is_empty() {
        return Err(Error::Invalid("nothing changed: nothing to write".into()));
    }
    let update = Some(clauses.join(" "));
    Ok((
        Operation::Update(key.clone()),
        update,
        Some(ReturnValues::AllNew),
    ))
}
