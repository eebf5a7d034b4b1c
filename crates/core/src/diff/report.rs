//! How a comparison ended, in words and as one JSON object: each side read and what it cost, the
//! items only on one side, the items that differ with their attributes, and a count of the rest.

use serde::Serialize;

use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::diff::{AttrChange, DiffScope};
use crate::ending::Ending;
use crate::report::{Line, Report, Tone, capacity, plural};
use crate::value::json::item_to_json;
use crate::value::{Item, Style, key_shown};

/// The differences listed one by one; past it, counted.
pub const MAX_LISTED: usize = 1000;

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// The table.
    pub table: String,
    /// Where it is.
    pub place: String,
    /// Its key attributes.
    pub key_names: Vec<String>,
    /// What its reads cost.
    pub pricing: Pricing,
    /// Items read.
    pub read: u64,
    /// Read capacity consumed.
    pub rcu: f64,
}

/// Keys of one kind of difference: the first [`MAX_LISTED`], and how many in all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listed {
    /// The first keys.
    pub keys: Vec<Item>,
    /// How many in all.
    pub count: u64,
}

/// Two tables compared by key.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDiff {
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// What was compared, in words.
    pub scope: String,
    /// Items only on side A.
    pub only_a: Listed,
    /// Items only on side B.
    pub only_b: Listed,
    /// The first items that differ, with their attributes that differ.
    pub changed: Vec<(Item, Vec<AttrChange>)>,
    /// How many items differ in all.
    pub changed_count: u64,
    /// Items the same on both sides.
    pub same: u64,
    /// Keys asked for that neither side holds.
    pub absent: u64,
}

impl TableDiff {
    pub(super) fn new(a: Side, b: Side, scope: &DiffScope) -> Self {
        Self {
            scope: match scope {
                DiffScope::Table => "every item".to_owned(),
                DiffScope::Partition(pk) => format!("partition {pk}"),
                DiffScope::Keys(keys) => plural(keys.len(), "key"),
            },
            a,
            b,
            only_a: Listed::default(),
            only_b: Listed::default(),
            changed: Vec::new(),
            changed_count: 0,
            same: 0,
            absent: 0,
        }
    }

    /// Whether the two sides hold the same items.
    pub fn agrees(&self) -> bool {
        self.only_a.count == 0 && self.only_b.count == 0 && self.changed_count == 0
    }

    fn count(n: u64) -> usize {
        usize::try_from(n).unwrap_or(usize::MAX)
    }

    fn side_line(side: &Side, name: &str) -> String {
        format!(
            "{name}: {} at {} · {} read · {} RCU ({})",
            side.table,
            side.place,
            plural(Self::count(side.read), "item"),
            capacity(side.rcu),
            side.pricing.read(side.rcu).money_text()
        )
    }

    fn more(listed: usize, count: u64) -> Option<String> {
        (count > listed as u64).then(|| format!("  … and {} more", count - listed as u64))
    }
}

impl TableDiff {
    /// The comparison as its document.
    fn document(&self) -> TableDiffDocument {
        let key = |k: &Item| item_to_json(k, &self.a.key_names, Style::Typed);
        let keys = |listed: &Listed| KeysDocument {
            count: listed.count,
            keys: listed.keys.iter().map(key).collect(),
        };
        let items = (self.changed.iter())
            .map(|(k, attrs)| ChangedDocument {
                key: key(k),
                attributes: (attrs.iter())
                    .map(|c| AttributeDocument {
                        attribute: c.name.clone(),
                        a: c.a.clone(),
                        b: c.b.clone(),
                    })
                    .collect(),
            })
            .collect();
        TableDiffDocument {
            scope: self.scope.clone(),
            a: SideDocument::of(&self.a),
            b: SideDocument::of(&self.b),
            same: self.same,
            absent: self.absent,
            only_in_a: keys(&self.only_a),
            only_in_b: keys(&self.only_b),
            different: DifferentDocument {
                count: self.changed_count,
                items,
            },
        }
    }
}

crate::document_as!(TableDiff => TableDiffDocument, document);

/// Two tables compared by key: each side, and the items only on one side or different.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct TableDiffDocument {
    /// What was compared, in words: `every item`, `partition …`, `3 keys`.
    pub(crate) scope: String,
    /// Side A: its table, where, and what reading it cost.
    pub(crate) a: SideDocument,
    /// Side B.
    pub(crate) b: SideDocument,
    /// Items the same on both sides.
    pub(crate) same: u64,
    /// Keys asked for that neither side holds.
    pub(crate) absent: u64,
    /// Items only on side A.
    pub(crate) only_in_a: KeysDocument,
    /// Items only on side B.
    pub(crate) only_in_b: KeysDocument,
    /// Items on both sides that differ.
    pub(crate) different: DifferentDocument,
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct SideDocument {
    /// The table.
    pub(crate) table: String,
    /// Where it is: the connection's place.
    pub(crate) place: String,
    /// Items read.
    pub(crate) read: u64,
    /// Read capacity units consumed.
    pub(crate) consumed_rcu: f64,
    /// What the reads cost in US dollars.
    pub(crate) usd: Usd,
}

impl SideDocument {
    fn of(side: &Side) -> Self {
        Self {
            table: side.table.clone(),
            place: side.place.clone(),
            read: side.read,
            consumed_rcu: side.rcu,
            usd: Usd::from(side.pricing.read(side.rcu)),
        }
    }
}

/// Items only on one side: how many, and the first keys.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct KeysDocument {
    /// How many in all.
    pub(crate) count: u64,
    /// The first keys (at most 1,000), each in DynamoDB JSON.
    pub(crate) keys: Vec<serde_json::Value>,
}

/// Items on both sides that differ: how many, and the first with their attributes.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct DifferentDocument {
    /// How many in all.
    pub(crate) count: u64,
    /// The first items (at most 1,000).
    pub(crate) items: Vec<ChangedDocument>,
}

/// One item that differs.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct ChangedDocument {
    /// Its key, in DynamoDB JSON.
    pub(crate) key: serde_json::Value,
    /// Each attribute that differs.
    pub(crate) attributes: Vec<AttributeDocument>,
}

/// One attribute that differs between the sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct AttributeDocument {
    /// The attribute's name.
    pub(crate) attribute: String,
    /// Its value on side A, as text; `null` when absent there.
    pub(crate) a: Option<String>,
    /// Its value on side B, as text; `null` when absent there.
    pub(crate) b: Option<String>,
}

impl Report for TableDiff {
    fn lines(&self) -> Vec<Line> {
        let names = &self.a.key_names;
        let tone = if self.ending() == Ending::Done {
            Tone::Good
        } else {
            Tone::Warn
        };
        let mut lines = vec![
            Line::new(
                tone,
                format!(
                    "{}: {} only in A, {} only in B, {} different, {} the same{}",
                    self.scope,
                    self.only_a.count,
                    self.only_b.count,
                    self.changed_count,
                    self.same,
                    if self.absent > 0 {
                        format!(", {} on neither side", self.absent)
                    } else {
                        String::new()
                    }
                ),
            ),
            Line::new(Tone::Quiet, Self::side_line(&self.a, "A")),
            Line::new(Tone::Quiet, Self::side_line(&self.b, "B")),
        ];
        let mut plain = |text: String| lines.push(Line::new(Tone::Plain, text));
        for (label, listed) in [("only in A", &self.only_a), ("only in B", &self.only_b)] {
            listed
                .keys
                .iter()
                .for_each(|k| plain(format!("{label}: {}", key_shown(k, names))));
            Self::more(listed.keys.len(), listed.count)
                .into_iter()
                .for_each(&mut plain);
        }
        for (key, attrs) in &self.changed {
            plain(format!("different: {}", key_shown(key, names)));
            for change in attrs {
                let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(absent)".into());
                plain(format!(
                    "  {}: {} → {}",
                    change.name,
                    shown(&change.a),
                    shown(&change.b)
                ));
            }
        }
        Self::more(self.changed.len(), self.changed_count)
            .into_iter()
            .for_each(&mut plain);
        lines
    }

    /// Done when the two sides hold the same items; refused (the data disagrees) otherwise, and
    /// when a key asked for is on neither side (it was compared with nothing: a mistyped key
    /// must not pass).
    fn ending(&self) -> Ending {
        if self.agrees() && self.absent == 0 {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}
