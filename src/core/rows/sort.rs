//! Sorting rows by one attribute, the way DynamoDB orders values: numbers by value (exactly,
//! beyond what `f64` holds), strings and binary by their bytes; rows of different types are
//! grouped (numbers, strings, binary, booleans, null, then sets, lists and maps), and rows
//! without the attribute come last in either direction. Equal values keep their order.

use std::cmp::Ordering;
use std::str::FromStr;

use bigdecimal::BigDecimal;

use crate::core::rows::Rows;
use crate::core::rows::encode::tag;

/// A number, compared by value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Number {
    Small(i64),
    Big(BigDecimal),
}

impl Number {
    fn parse(text: &str) -> Option<Self> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit()) {
            return text.parse().ok().map(Self::Small);
        }
        BigDecimal::from_str(text).ok().map(Self::Big)
    }

    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Small(a), Self::Small(b)) => a.cmp(b),
            (Self::Big(a), Self::Big(b)) => a.cmp(b),
            (Self::Small(a), Self::Big(b)) => BigDecimal::from(*a).cmp(b),
            (Self::Big(a), Self::Small(b)) => a.cmp(&BigDecimal::from(*b)),
        }
    }
}

/// What a row is sorted by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortKey<'a> {
    /// A number (text that does not parse as one sorts with strings).
    Number(Box<NumberKey>),
    /// A string, by its UTF-8 bytes.
    Text(&'a [u8]),
    /// Binary, by its bytes.
    Binary(&'a [u8]),
    /// A boolean.
    Bool(bool),
    /// NULL.
    Null,
    /// A set, list or map, by its encoded bytes (grouped, in a stable order).
    Other(&'a [u8]),
    /// The attribute is missing.
    Missing,
}

/// A parsed number (boxed: most keys are small).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberKey(Number);

impl<'a> SortKey<'a> {
    fn of(body: Option<&'a [u8]>) -> Self {
        let Some((&t, rest)) = body.and_then(<[u8]>::split_first) else {
            return Self::Missing;
        };
        match t {
            tag::N => match std::str::from_utf8(rest).ok().and_then(Number::parse) {
                Some(n) => Self::Number(Box::new(NumberKey(n))),
                None => Self::Text(rest),
            },
            tag::S => Self::Text(rest),
            tag::B => Self::Binary(rest),
            tag::FALSE => Self::Bool(false),
            tag::TRUE => Self::Bool(true),
            tag::NULL => Self::Null,
            _ => Self::Other(body.unwrap_or_default()),
        }
    }

    fn group(&self) -> u8 {
        match self {
            Self::Number(_) => 0,
            Self::Text(_) => 1,
            Self::Binary(_) => 2,
            Self::Bool(_) => 3,
            Self::Null => 4,
            Self::Other(_) => 5,
            Self::Missing => 6,
        }
    }

    /// Ascending order of two keys.
    pub fn compare(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Number(a), Self::Number(b)) => a.0.cmp(&b.0),
            (Self::Text(a), Self::Text(b))
            | (Self::Binary(a), Self::Binary(b))
            | (Self::Other(a), Self::Other(b)) => a.cmp(b),
            (Self::Bool(a), Self::Bool(b)) => a.cmp(b),
            _ => self.group().cmp(&other.group()),
        }
    }
}

/// Sort `view` (row numbers of `rows`) by attribute `name`, ascending or descending; rows
/// without it last either way; ties keep their order.
pub fn sort_rows(rows: &Rows, view: &mut Vec<u32>, name: &str, descending: bool) {
    let id = rows.id_of(name);
    let mut keyed: Vec<(SortKey<'_>, u32)> = view
        .iter()
        .map(|&row| {
            (
                SortKey::of(id.and_then(|id| rows.body(row as usize, id))),
                row,
            )
        })
        .collect();
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (SortKey::Missing, SortKey::Missing) => Ordering::Equal,
        (SortKey::Missing, _) => Ordering::Greater,
        (_, SortKey::Missing) => Ordering::Less,
        _ if descending => b.compare(a),
        _ => a.compare(b),
    });
    view.clear();
    view.extend(keyed.into_iter().map(|(_, row)| row));
}
