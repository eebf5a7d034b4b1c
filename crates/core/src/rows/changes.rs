//! What changed between two reads of the same rows: the rows of the second read that are new,
//! those whose item differs (sets compared as sets), and the keys of the first read's rows the
//! second no longer holds. Rows are told apart by their key attributes.

use std::collections::HashMap;

use crate::rows::{RowSet, Rows};
use crate::value::same_item;
use crate::value::{Item, type_tag, whole_text};

/// Rows compared at most: beyond, a refresh says it did not compare them (the comparison
/// runs on the UI thread, once a refresh: bounded so that it stays a frame's work).
pub const MAX_COMPARED: usize = 20_000;

/// How a read differs from the one before.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowChanges {
    /// Rows of the new read whose key the old one did not hold.
    pub added: RowSet,
    /// Rows of the new read whose item differs from the old one's.
    pub changed: RowSet,
    /// The keys of the old read's rows that the new one does not hold.
    pub removed: Vec<Item>,
}

impl RowChanges {
    /// The rows of `after` against those of `before`, keyed by `keys`; `None` when either
    /// holds more than [`MAX_COMPARED`] rows.
    pub fn between(before: &Rows, after: &Rows, keys: &[String]) -> Option<Self> {
        if before.len() > MAX_COMPARED || after.len() > MAX_COMPARED {
            return None;
        }
        let key_of = |item: &Item| -> String {
            keys.iter()
                .map(|k| match item.get(k) {
                    Some(v) => format!("{}:{}", type_tag(v), whole_text(v)),
                    None => String::new(),
                })
                .collect::<Vec<_>>()
                .join("\u{1f}")
        };
        let mut old: HashMap<String, Item> =
            before.items().map(|item| (key_of(&item), item)).collect();
        let mut changes = Self::default();
        for (row, item) in after.items().enumerate() {
            match old.remove(&key_of(&item)) {
                None => changes.added.insert(row as u32),
                Some(was) if !same_item(&was, &item) => changes.changed.insert(row as u32),
                Some(_) => {}
            }
        }
        let mut removed: Vec<Item> = old
            .into_values()
            .map(|item| {
                keys.iter()
                    .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                    .collect()
            })
            .collect();
        removed.sort_by_key(|key: &Item| key_of(key));
        changes.removed = removed;
        Some(changes)
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// In words: `1 added, 2 changed, 1 removed` (`nothing changed`).
    pub fn summary(&self) -> String {
        if self.is_empty() {
            return "nothing changed".to_owned();
        }
        format!(
            "{} added, {} changed, {} removed",
            self.added.len(),
            self.changed.len(),
            self.removed.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn like(sk: &str, n: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
            ("n".to_owned(), AttributeValue::N(n.into())),
            (
                "tags".to_owned(),
                AttributeValue::Ss(vec!["a".into(), "b".into()]),
            ),
        ])
    }

    #[test]
    fn added_changed_and_removed_rows_are_told_apart_by_key() {
        let keys = ["PK".to_owned(), "SK".to_owned()];
        let before = Rows::from_items(&[like("A", "1"), like("B", "2"), like("C", "3")]);
        let mut reordered = like("A", "1");
        reordered.insert(
            "tags".into(),
            AttributeValue::Ss(vec!["b".into(), "a".into()]),
        );
        let after = Rows::from_items(&[reordered, like("C", "4"), like("D", "5")]);
        let changes = RowChanges::between(&before, &after, &keys).unwrap();
        assert!(changes.added.contains(2) && changes.added.len() == 1);
        assert!(
            changes.changed.contains(1) && changes.changed.len() == 1,
            "a set in another order is the same"
        );
        assert_eq!(changes.removed.len(), 1);
        assert_eq!(whole_text(&changes.removed[0]["SK"]), "B");
        assert_eq!(changes.summary(), "1 added, 1 changed, 1 removed");
        let same = RowChanges::between(&before, &before, &keys).unwrap();
        assert_eq!(same.summary(), "nothing changed");
    }

    #[test]
    fn keys_alike_in_their_first_200_characters_are_two_rows() {
        let keys = ["PK".to_owned(), "SK".to_owned()];
        let long = |end: &str| format!("{}{end}", "LIKE#".repeat(60));
        let before = Rows::from_items(&[like(&long("a"), "1"), like(&long("b"), "1")]);
        let after = Rows::from_items(&[like(&long("a"), "1")]);
        let changes = RowChanges::between(&before, &after, &keys).unwrap();
        assert_eq!(changes.summary(), "0 added, 0 changed, 1 removed");
        assert_eq!(whole_text(&changes.removed[0]["SK"]), long("b"));
    }
}
