//! Finding text in loaded rows: a case-insensitive (ASCII) match against every attribute's
//! value as stored — strings, numbers as the server's text, and the strings inside sets, lists
//! and maps — without decoding rows.

use crate::core::rows::Rows;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::rows::encode::{Fields, decode_body, tag};

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

    /// Whether `hay` holds the text.
    fn within(&self, hay: &[u8]) -> bool {
        let n = self.needle.len();
        if hay.len() < n {
            return false;
        }
        let first = self.needle[0];
        hay.windows(n).any(|w| {
            w[0].to_ascii_lowercase() == first
                && w.iter()
                    .zip(&self.needle)
                    .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
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
    pub fn row_matches(&self, rows: &Rows, row: usize) -> bool {
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
