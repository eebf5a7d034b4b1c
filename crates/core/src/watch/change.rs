//! One stream record as a change to a counter: what it did to a parent's stored tally or to its
//! counted children, the item's own evidence, and its attribute diff.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::number::to_dynamodb;
use crate::stream::{EventKind, SequenceNumber, StreamRecord, time_text};
use crate::value::{Item, cell_text, whole_text};

/// What a record did, as far as the counter goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// The parent's tally changed (`None`: missing, which is not 0).
    Tally {
        /// Before.
        before: Option<String>,
        /// After.
        after: Option<String>,
    },
    /// The parent was written without its tally changing.
    ParentTouched,
    /// The parent was deleted; its children stay.
    ParentRemoved,
    /// A child was written where none was: one more counted.
    ChildInserted {
        /// How often this child was inserted in this watch (from 1).
        times: u32,
    },
    /// A child was deleted: one fewer counted.
    ChildRemoved {
        /// How often this child was removed in this watch (from 1).
        times: u32,
    },
    /// A child changed without being added or removed: the count stays.
    ChildChanged,
    /// Polling (no stream): the parent read and its children counted again.
    Polled {
        /// The stored tally read.
        tally: Option<String>,
        /// The children counted.
        children: u64,
    },
}

/// One attribute before and after a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrDiff {
    /// The attribute.
    pub name: String,
    /// Its value before, as shown (`None`: absent).
    pub before: Option<String>,
    /// Its value after.
    pub after: Option<String>,
}

/// A record folded into a parent's counter.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The record's sequence number.
    pub sequence: SequenceNumber,
    /// When it was written (stream time, ms since the epoch).
    pub at_ms: i64,
    /// INSERT, MODIFY or REMOVE.
    pub kind: EventKind,
    /// The parent's partition key, as shown.
    pub parent: String,
    /// The item's sort key (or partition key when the table has none), as shown.
    pub item: String,
    /// What it did to the counter.
    pub effect: Effect,
    /// The stored tally after it, as the watch knows it (`None`: missing or not seen yet).
    pub tally_after: Option<String>,
    /// The children after it: counted at the start plus those since, or (from history) the
    /// tally at the first record plus the children since.
    pub children_after: Option<BigDecimal>,
    /// Tally minus children after it (`None`: the tally is missing).
    pub gap_after: Option<BigDecimal>,
    /// Attributes of the item that tell who or when (`updatedAt`, a request id).
    pub evidence: Vec<(String, String)>,
    /// The item before, as the record carries it (with OLD_IMAGE or NEW_AND_OLD_IMAGES).
    pub old: Option<Item>,
    /// The item after (with NEW_IMAGE or NEW_AND_OLD_IMAGES, unless removed).
    pub new: Option<Item>,
    /// The write units the write cost, from the larger of its two images (a transaction's
    /// writes cost twice this; a poll costs none).
    pub write_units: u64,
}

/// Attribute names that carry a write's own evidence: when, and by which request or writer.
const EVIDENCE: [&str; 7] = [
    "updated", "modified", "request", "writer", "token", "likedat", "touched",
];

/// The attributes of `item` that tell who or when wrote it, by name, as shown.
pub(crate) fn evidence_of(item: Option<&Item>) -> Vec<(String, String)> {
    let Some(item) = item else {
        return Vec::new();
    };
    let mut found: Vec<(String, String)> = item
        .iter()
        .filter(|(name, _)| {
            EVIDENCE
                .iter()
                .any(|word| contains_ignoring_case(name, word))
        })
        .map(|(name, value)| {
            let raw = cell_text(value);
            let shown = crate::value::date_of(name, &raw)
                .map_or(raw.clone(), |date| format!("{raw} ({date})"));
            (name.clone(), shown)
        })
        .collect();
    found.sort();
    found.truncate(4);
    found
}

/// Whether `name` holds `word` (lowercase ASCII), whatever the case of `name`; no allocation,
/// since it runs on every attribute of every record.
fn contains_ignoring_case(name: &str, word: &str) -> bool {
    name.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// The evidence `record` wrote itself: of its new image, the attributes it changed (all of
/// them for an item it put where none was). An attribute an earlier write left on the item is
/// not its evidence, so a record without its old image (or a removal) has none.
pub(crate) fn evidence_of_record(record: &crate::stream::StreamRecord) -> Vec<(String, String)> {
    let Some(new) = record.new.as_ref() else {
        return Vec::new();
    };
    match (&record.old, record.kind) {
        (Some(old), _) => {
            let own: Item = new
                .iter()
                .filter(|(name, value)| old.get(*name) != Some(*value))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect();
            evidence_of(Some(&own))
        }
        (None, EventKind::Insert) => evidence_of(Some(new)),
        (None, _) => Vec::new(),
    }
}

/// Every attribute that differs between `old` and `new`, by name; values cut at 200 characters.
pub(crate) fn diff_of(old: Option<&Item>, new: Option<&Item>) -> Vec<AttrDiff> {
    let shown = |v: Option<&AttributeValue>| {
        v.map(|v| {
            let text = cell_text(v);
            match text.char_indices().nth(200) {
                Some((at, _)) => format!("{}…", &text[..at]),
                None => text,
            }
        })
    };
    let empty = Item::new();
    let (before, after) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    // Each name once: those of the old image, then those only in the new one.
    let mut diff: Vec<AttrDiff> = before
        .iter()
        .filter(|(name, value)| after.get(*name) != Some(*value))
        .map(|(name, value)| AttrDiff {
            name: name.clone(),
            before: shown(Some(value)),
            after: shown(after.get(name)),
        })
        .chain(
            after
                .iter()
                .filter(|(name, _)| !before.contains_key(*name))
                .map(|(name, value)| AttrDiff {
                    name: name.clone(),
                    before: None,
                    after: shown(Some(value)),
                }),
        )
        .collect();
    diff.sort_by(|a, b| a.name.cmp(&b.name));
    diff
}

/// A drift as text: `+1`, `-2`, `0`, or `missing tally`.
pub fn gap_text(gap: Option<&BigDecimal>) -> String {
    match gap {
        None => "missing tally".to_owned(),
        Some(g) if *g > BigDecimal::default() => format!("+{}", to_dynamodb(g)),
        Some(g) => to_dynamodb(g),
    }
}

fn nth(times: u32) -> String {
    match times {
        1 => "1st".to_owned(),
        2 => "2nd".to_owned(),
        3 => "3rd".to_owned(),
        n => format!("{n}th"),
    }
}

impl Change {
    /// Every attribute that differs between the old and new images, by name.
    pub fn diff(&self) -> Vec<AttrDiff> {
        diff_of(self.old.as_ref(), self.new.as_ref())
    }

    /// The change in a few words: `LIKE#USER#7c20 inserted`, `likeTally 226 → 227`.
    pub fn what(&self, tally: &str) -> String {
        let value = |v: &Option<String>| v.clone().unwrap_or_else(|| "missing".to_owned());
        match &self.effect {
            Effect::Tally { before, after } => {
                format!("{tally} {} → {}", value(before), value(after))
            }
            Effect::ParentTouched => format!("{} written, {tally} unchanged", self.item),
            Effect::ParentRemoved => format!("the parent {} / {} removed", self.parent, self.item),
            Effect::ChildInserted { times: 1 } => format!("{} inserted", self.item),
            Effect::ChildInserted { times } => {
                format!(
                    "{} inserted ({} time in this watch)",
                    self.item,
                    nth(*times)
                )
            }
            Effect::ChildRemoved { times: 1 } => format!("{} removed", self.item),
            Effect::ChildRemoved { times: 2 } => format!("{} removed twice", self.item),
            Effect::ChildRemoved { times } => {
                format!("{} removed {times} times", self.item)
            }
            Effect::ChildChanged => format!("{} changed (not counted again)", self.item),
            Effect::Polled { tally: t, children } => {
                format!("polled: {tally} {}, {children} children", value(t))
            }
        }
    }

    /// What the counterpart of this change would have been, had the write been whole.
    fn missing_counterpart(&self, tally: &str) -> String {
        let up = |b: &Option<String>, a: &Option<String>| {
            let n = |v: &Option<String>| v.as_deref().and_then(|t| crate::number::parse(t).ok());
            matches!((n(b), n(a)), (Some(b), Some(a)) if a > b)
        };
        match &self.effect {
            Effect::Tally { after: None, .. } | Effect::ParentRemoved => {
                "its children still there".to_owned()
            }
            Effect::Tally { before, after } if up(before, after) => "no child inserted".to_owned(),
            Effect::Tally { .. } => "no child removed".to_owned(),
            _ => format!("no {tally} change"),
        }
    }

    /// The change named as the cause of a drift: `LIKE#USER#x inserted at 10:32:05.123 UTC
    /// (sequence …) with no likeTally change: drift +1 since`, the item's evidence after it.
    pub fn cause(&self, tally: &str) -> String {
        if let Effect::Polled { .. } = self.effect {
            return format!(
                "{} at {}: drift {} (polling cannot name the write that drifted)",
                self.what(tally),
                time_text(self.at_ms, false),
                gap_text(self.gap_after.as_ref())
            );
        }
        let evidence = if self.evidence.is_empty() {
            String::new()
        } else {
            let said: Vec<String> = self
                .evidence
                .iter()
                .map(|(name, value)| format!("{name} = {value}"))
                .collect();
            format!(" (the item says {})", said.join(", "))
        };
        format!(
            "{} at {} (sequence {}) with {}: drift {} since{evidence}",
            self.what(tally),
            time_text(self.at_ms, false),
            self.sequence,
            self.missing_counterpart(tally),
            gap_text(self.gap_after.as_ref())
        )
    }
}

/// The text of a record's key attribute `name`, when it is there.
pub(super) fn key_text(record: &StreamRecord, name: &str) -> Option<String> {
    record
        .keys
        .get(name)
        .or_else(|| record.item().get(name))
        .map(whole_text)
}

/// The number text of attribute `name` of `item` (`None`: absent or not a number).
pub(super) fn number_of(item: Option<&Item>, name: &str) -> Option<String> {
    match item?.get(name)? {
        AttributeValue::N(n) => Some(n.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_the_attributes_that_say_who_or_when() {
        let item = Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            (
                "updatedAt".to_owned(),
                AttributeValue::N("1750636800".into()),
            ),
            (
                "lastRequestId".to_owned(),
                AttributeValue::S("req-42".into()),
            ),
            ("likeTally".to_owned(), AttributeValue::N("3".into())),
        ]);
        assert_eq!(
            evidence_of(Some(&item)),
            [
                ("lastRequestId".to_owned(), "req-42".to_owned()),
                (
                    "updatedAt".to_owned(),
                    "1750636800 (2025-06-23 00:00:00 UTC)".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn a_diff_lists_only_what_changed() {
        let old = Item::from([
            ("a".to_owned(), AttributeValue::N("1".into())),
            ("b".to_owned(), AttributeValue::S("same".into())),
        ]);
        let new = Item::from([
            ("a".to_owned(), AttributeValue::N("2".into())),
            ("b".to_owned(), AttributeValue::S("same".into())),
            ("c".to_owned(), AttributeValue::Bool(true)),
        ]);
        let diff = diff_of(Some(&old), Some(&new));
        assert_eq!(diff.len(), 2);
        assert_eq!(diff[0].name, "a");
        assert_eq!(diff[0].before.as_deref(), Some("1"));
        assert_eq!(diff[1].before, None);
    }
}
