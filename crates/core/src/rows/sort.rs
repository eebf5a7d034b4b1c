//! Sorting rows by one attribute, the way DynamoDB orders values: numbers by value (exactly,
//! beyond what `f64` holds, in the order `bigdecimal` gives), strings and binary by their bytes; rows of different types are
//! grouped (numbers, strings, binary, booleans, null, then sets, lists and maps), and rows
//! without the attribute come last in either direction. Equal values keep their order.

use crate::rows::Rows;
use crate::rows::encode::tag;
use std::cmp::Ordering;

/// A number, compared by value exactly without parsing it into a big decimal: its sign, its
/// decimal exponent and its significant digits as they stand in the server's text. Agrees with
/// `bigdecimal`'s order (a unit test checks), at the cost of a byte comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Number<'a> {
    /// -1, 0 or 1.
    sign: i8,
    /// The number is 0.d1d2… × 10^exponent.
    exponent: i64,
    /// From the first significant digit to the end of the mantissa (may hold a '.').
    digits: &'a [u8],
}

impl<'a> Number<'a> {
    fn parse(text: &'a str) -> Option<Self> {
        let bytes = text.as_bytes();
        let (negative, rest) = match bytes.first() {
            Some(b'-') => (true, &bytes[1..]),
            Some(b'+') => (false, &bytes[1..]),
            _ => (false, bytes),
        };
        let (mantissa, exp) = match rest.iter().position(|b| matches!(b, b'e' | b'E')) {
            Some(at) => (
                &rest[..at],
                std::str::from_utf8(&rest[at + 1..])
                    .ok()?
                    .parse::<i64>()
                    .ok()?,
            ),
            None => (rest, 0),
        };
        let point = mantissa.iter().position(|b| *b == b'.');
        let int_len = point.unwrap_or(mantissa.len()) as i64;
        if mantissa.is_empty() || !mantissa.iter().all(|b| b.is_ascii_digit() || *b == b'.') {
            return None;
        }
        let Some(first) = mantissa.iter().position(|b| (b'1'..=b'9').contains(b)) else {
            return Some(Self {
                sign: 0,
                exponent: 0,
                digits: b"",
            });
        };
        let exponent = match point {
            Some(p) if first > p => -((first - p - 1) as i64),
            _ => int_len - first as i64,
        };
        Some(Self {
            sign: if negative { -1 } else { 1 },
            exponent: exponent.checked_add(exp)?,
            digits: &mantissa[first..],
        })
    }

    fn magnitude(&self, other: &Self) -> Ordering {
        self.exponent.cmp(&other.exponent).then_with(|| {
            let mut a = self.digits.iter().filter(|b| **b != b'.');
            let mut b = other.digits.iter().filter(|b| **b != b'.');
            loop {
                match (a.next(), b.next()) {
                    (Some(x), Some(y)) if x == y => {}
                    (Some(x), Some(y)) => return x.cmp(y),
                    // Trailing zeros do not make a number larger.
                    (Some(x), None) => {
                        return if *x == b'0' && a.all(|d| *d == b'0') {
                            Ordering::Equal
                        } else {
                            Ordering::Greater
                        };
                    }
                    (None, Some(y)) => {
                        return if *y == b'0' && b.all(|d| *d == b'0') {
                            Ordering::Equal
                        } else {
                            Ordering::Less
                        };
                    }
                    (None, None) => return Ordering::Equal,
                }
            }
        })
    }

    fn cmp(&self, other: &Self) -> Ordering {
        self.sign.cmp(&other.sign).then_with(|| match self.sign {
            1 => self.magnitude(other),
            -1 => other.magnitude(self),
            _ => Ordering::Equal,
        })
    }
}

/// What a row is sorted by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SortKey<'a> {
    /// A number (text that does not parse as one sorts with strings).
    Number(NumberKey<'a>),
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

/// A number, ready to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NumberKey<'a>(Number<'a>);

impl<'a> SortKey<'a> {
    fn of(body: Option<&'a [u8]>) -> Self {
        let Some((&t, rest)) = body.and_then(<[u8]>::split_first) else {
            return Self::Missing;
        };
        match t {
            tag::N => match std::str::from_utf8(rest).ok().and_then(Number::parse) {
                Some(n) => Self::Number(NumberKey(n)),
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
    pub(super) fn compare(&self, other: &Self) -> Ordering {
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
    let keyed = sorted_keys(rows, view, name, descending);
    view.clear();
    view.extend(keyed.into_iter().map(|(_, row)| row));
}

/// Put `added` rows (arriving after every row of `view`) into `view`, which is sorted already
/// as [`sort_rows`] sorts: only the new rows are sorted, then the two are merged, so a page
/// costs one pass over the view rather than a sort of it. Ties keep server order.
pub fn merge_sorted(rows: &Rows, view: &mut Vec<u32>, added: &[u32], name: &str, descending: bool) {
    let added = sorted_keys(rows, added, name, descending);
    let id = rows.id_of(name);
    let key_of = |row: u32| SortKey::of(id.and_then(|id| rows.body(row as usize, id)));
    let mut merged = Vec::with_capacity(view.len() + added.len());
    let mut new = added.into_iter().peekable();
    for &row in view.iter() {
        let key = key_of(row);
        // A new row goes first only when strictly before: equal keys keep server order.
        while let Some((_, r)) = new.next_if(|(k, _)| order(k, &key, descending).is_lt()) {
            merged.push(r);
        }
        merged.push(row);
    }
    merged.extend(new.map(|(_, r)| r));
    *view = merged;
}

/// `rows` paired with their keys, in the order [`sort_rows`] gives.
fn sorted_keys<'a>(
    rows: &'a Rows,
    view: &[u32],
    name: &str,
    descending: bool,
) -> Vec<(SortKey<'a>, u32)> {
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
    keyed.sort_by(|(a, _), (b, _)| order(a, b, descending));
    keyed
}

/// The grid's order: ascending or descending, rows without the attribute last either way.
fn order(a: &SortKey<'_>, b: &SortKey<'_>, descending: bool) -> Ordering {
    match (a, b) {
        (SortKey::Missing, SortKey::Missing) => Ordering::Equal,
        (SortKey::Missing, _) => Ordering::Greater,
        (_, SortKey::Missing) => Ordering::Less,
        _ if descending => b.compare(a),
        _ => a.compare(b),
    }
}
