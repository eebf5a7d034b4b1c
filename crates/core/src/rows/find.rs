//! Finding text in loaded rows: a case-insensitive (ASCII) match against every attribute's
//! value as stored — strings, numbers as the server's text, and the strings inside sets, lists
//! and maps — without decoding rows.

use crate::rows::Rows;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::rows::encode::{Fields, decode_body, tag};

/// What to look for, prepared once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finder {
    needle: Vec<u8>,
}

impl Finder {
    /// Look for `text` (ignoring ASCII case); `None` for empty text.
    pub fn new(text: &str) -> Option<Self> {
        (!text.is_empty()).then(|| Self {
            needle: text.as_bytes().to_ascii_lowercase(),
        })
    }

    /// Whether `hay` holds the text: each place the first byte (either case) is found by
    /// `memchr`, then the rest compared.
    fn within(&self, hay: &[u8]) -> bool {
        let n = self.needle.len();
        if hay.len() < n {
            return false;
        }
        let (first, rest) = (self.needle[0], &self.needle[1..]);
        let upper = first.to_ascii_uppercase();
        // The last place the text can start.
        let starts = &hay[..=hay.len() - n];
        let same = |at: usize| hay[at + 1..at + n].eq_ignore_ascii_case(rest);
        if upper == first {
            memchr::memchr_iter(first, starts).any(same)
        } else {
            memchr::memchr2_iter(first, upper, starts).any(same)
        }
    }

    /// Whether every row holding this text also holds `other`'s (this text contains it), so
    /// that this text's matches are found among `other`'s.
    pub(crate) fn narrows(&self, other: &Finder) -> bool {
        memchr::memmem::find(&self.needle, &other.needle).is_some()
    }

    /// Whether an encoded value (tag + body) holds the text. Booleans and null match their
    /// words; binary matches its bytes.
    pub(crate) fn value_matches(&self, body: &[u8]) -> bool {
        match body.split_first() {
            Some((&tag::TRUE, _)) => self.within(b"true"),
            Some((&tag::FALSE, _)) => self.within(b"false"),
            Some((&tag::NULL, _)) => self.within(b"null"),
            Some((&(tag::S | tag::N | tag::B), rest)) => self.within(rest),
            // Sets, lists and maps: each element on its own, never the lengths between them.
            Some(_) => decode_body(body).is_some_and(|v| self.nested_matches(&v)),
            None => false,
        }
    }

    fn nested_matches(&self, value: &AttributeValue) -> bool {
        match value {
            AttributeValue::S(s) | AttributeValue::N(s) => self.within(s.as_bytes()),
            AttributeValue::B(b) => self.within(b.as_ref()),
            AttributeValue::Bool(true) => self.within(b"true"),
            AttributeValue::Bool(false) => self.within(b"false"),
            AttributeValue::Null(_) => self.within(b"null"),
            AttributeValue::Ss(v) | AttributeValue::Ns(v) => {
                v.iter().any(|s| self.within(s.as_bytes()))
            }
            AttributeValue::Bs(v) => v.iter().any(|b| self.within(b.as_ref())),
            AttributeValue::L(l) => l.iter().any(|v| self.nested_matches(v)),
            AttributeValue::M(m) => m
                .iter()
                .any(|(k, v)| self.within(k.as_bytes()) || self.nested_matches(v)),
            _ => false,
        }
    }

    /// Whether row `row` has the text in any attribute.
    pub(crate) fn row_matches(&self, rows: &Rows, row: usize) -> bool {
        Fields::new(rows.bytes(row)).any(|(_, body)| self.value_matches(body))
    }

    /// Whether attribute `name` of row `row` has the text (for highlighting a cell).
    pub fn cell_matches(&self, rows: &Rows, row: usize, name: &str) -> bool {
        rows.id_of(name)
            .and_then(|id| rows.body(row, id))
            .is_some_and(|body| self.value_matches(body))
    }
}

/// The rows of `view` (in its order) that hold `finder`'s text.
pub fn find_rows(rows: &Rows, view: &[u32], finder: &Finder) -> Vec<u32> {
    view.iter()
        .copied()
        .filter(|&row| finder.row_matches(rows, row as usize))
        .collect()
}

/// Find as you type, a bounded slice at a time: the rows of an order (or of an earlier find's
/// matches, when this text narrows that one) are looked at `budget` at a time, so a frame never
/// waits on a million rows, and the matches so far are in order.
#[derive(Debug, Clone)]
pub struct FindScan {
    finder: Finder,
    /// The rows to look at, when they are an earlier find's matches (otherwise the order).
    within: Option<Vec<u32>>,
    /// How many of the rows to look at have been looked at.
    next: usize,
    matches: Vec<u32>,
}

impl FindScan {
    /// Look for `finder` in an order from its start. When `earlier` looked in the same order
    /// (`order`) and `finder` narrows its text, only its matches are looked at, followed by the
    /// rows it had not come to yet.
    pub fn new(finder: Finder, earlier: Option<(FindScan, &[u32])>) -> Self {
        let within = earlier.and_then(|(scan, order)| {
            finder.narrows(&scan.finder).then(|| {
                let source: &[u32] = scan.within.as_deref().unwrap_or(order);
                let mut within = scan.matches;
                within.extend_from_slice(source.get(scan.next..).unwrap_or_default());
                within
            })
        });
        Self {
            finder,
            within,
            next: 0,
            matches: Vec::new(),
        }
    }

    /// The text looked for.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Look at up to `budget` more rows of `order`; whether every row has been looked at.
    pub fn step(&mut self, rows: &Rows, order: &[u32], budget: usize) -> bool {
        let source: &[u32] = self.within.as_deref().unwrap_or(order);
        let end = (self.next + budget).min(source.len());
        for &row in &source[self.next..end] {
            if self.finder.row_matches(rows, row as usize) {
                self.matches.push(row);
            }
        }
        self.next = end;
        self.done(order.len())
    }

    /// Whether every row of an order of `order_len` rows has been looked at.
    pub fn done(&self, order_len: usize) -> bool {
        match &self.within {
            Some(within) => self.next >= within.len(),
            None => self.next >= order_len,
        }
    }

    /// The matches so far, in the order's order.
    pub fn matches(&self) -> &[u32] {
        &self.matches
    }

    /// Rows appended at the end of the order (a page, unsorted): a find over the order comes
    /// to them by itself; a narrowed one looks at them too, as its earlier find never saw them.
    pub fn appended(&mut self, added: &[u32]) {
        if let Some(within) = &mut self.within {
            within.extend(added);
        }
    }
}

/// A set of rows (indexes into a row store), one bit a row: what is selected, kept by row so
/// that a sort or a filter keeps the same items selected.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSet {
    bits: Vec<u64>,
    count: usize,
}

impl RowSet {
    /// Whether `row` is in the set.
    pub fn contains(&self, row: u32) -> bool {
        let (word, bit) = (row as usize / 64, row % 64);
        self.bits.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }

    /// Put `row` in the set.
    pub fn insert(&mut self, row: u32) {
        let (word, bit) = (row as usize / 64, row % 64);
        if self.bits.len() <= word {
            self.bits.resize(word + 1, 0);
        }
        if self.bits[word] & (1 << bit) == 0 {
            self.bits[word] |= 1 << bit;
            self.count += 1;
        }
    }

    /// Take `row` out of the set.
    pub fn remove(&mut self, row: u32) {
        let (word, bit) = (row as usize / 64, row % 64);
        if let Some(w) = self.bits.get_mut(word)
            && *w & (1 << bit) != 0
        {
            *w &= !(1 << bit);
            self.count -= 1;
        }
    }

    /// Empty the set.
    pub fn clear(&mut self) {
        self.bits.clear();
        self.count = 0;
    }

    /// How many rows are in the set.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no row is in the set.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}
