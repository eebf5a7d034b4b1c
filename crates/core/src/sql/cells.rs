//! One cell into SQLite and back out, exactly.
//!
//! A number that is a plain 64-bit integer as written (`42`, `-7`; not `-0`, `007`, `1E+3`) is
//! stored as an INTEGER, so it compares and sums as a number and comes back with the same text.
//! Every other number is stored as its exact text (`0.10`, a 38-digit number), which comes back
//! unchanged. Nothing passes through `f64`; only SQLite's own arithmetic (`AVG`, `/`) gives
//! REAL values, and those are marked as not exact.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use rusqlite::types::{ToSqlOutput, ValueRef};

use crate::rows::encode::tag;
use crate::sql::schema::ColumnKind;

/// `text` as an `i64` when it is written exactly as that integer prints (no `+`, no leading
/// zeros, not `-0`, no exponent), so that storing the integer loses nothing of the text.
pub(crate) fn plain_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits.len() == 1 || !digits.starts_with('0'))
        && text != "-0";
    if canonical { text.parse().ok() } else { None }
}

/// The SQLite value of one stored attribute value (as the row store encodes it): scalars as
/// themselves, sets, maps and lists as NULL (they are in the whole-item JSON).
pub(crate) fn to_sql(body: &[u8]) -> ToSqlOutput<'_> {
    let (&t, rest) = body.split_first().unwrap_or((&0, &[]));
    let cell = match t {
        tag::S => ValueRef::Text(rest),
        tag::N => match std::str::from_utf8(rest).ok().and_then(plain_integer) {
            Some(i) => ValueRef::Integer(i),
            None => ValueRef::Text(rest),
        },
        tag::B => ValueRef::Blob(rest),
        tag::TRUE => ValueRef::Integer(1),
        tag::FALSE => ValueRef::Integer(0),
        _ => ValueRef::Null,
    };
    ToSqlOutput::Borrowed(cell)
}

/// A value SQLite returned, as a DynamoDB value, knowing what the column it came from holds
/// (`Other` for computed values); `true` when it is a REAL, computed by SQLite in floating
/// point and so not exact.
pub(crate) fn from_sql(value: ValueRef<'_>, kind: ColumnKind) -> (AttributeValue, bool) {
    match value {
        ValueRef::Null => (AttributeValue::Null(true), false),
        ValueRef::Integer(i) if kind == ColumnKind::Bool && (i == 0 || i == 1) => {
            (AttributeValue::Bool(i == 1), false)
        }
        ValueRef::Integer(i) => (AttributeValue::N(i.to_string()), false),
        // Rust prints the shortest text that reads back as the same f64, never with an
        // exponent: a valid DynamoDB number. Infinity is not one, so it stays text.
        ValueRef::Real(r) if r.is_finite() => (AttributeValue::N(format!("{r}")), true),
        ValueRef::Real(r) => (AttributeValue::S(format!("{r}")), true),
        ValueRef::Text(bytes) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            if kind == ColumnKind::Number && is_number(&text) {
                (AttributeValue::N(text), false)
            } else {
                (AttributeValue::S(text), false)
            }
        }
        ValueRef::Blob(bytes) => (AttributeValue::B(Blob::new(bytes.to_vec())), false),
    }
}

/// Whether `text` is a DynamoDB number as it stands (a statement may have written anything
/// into a number column).
fn is_number(text: &str) -> bool {
    text.trim() == text && crate::number::parse(text).is_ok()
}
