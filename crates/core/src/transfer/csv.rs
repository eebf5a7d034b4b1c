//! CSV as spreadsheets write it (RFC 4180: fields quoted when they hold a comma, a quote or a
//! line break, quotes doubled), and DynamoDB values in its cells, exactly.
//!
//! A cell is read by its text alone: a DynamoDB number is `N` (every digit kept; one with a
//! leading zero, like the code `08001`, is `S`, since the number would lose it), `true` and
//! `false` are `BOOL`, a DynamoDB JSON value (`{"SS":["a","b"]}`) is that value, anything else is
//! `S`, and an empty cell is an attribute the item does not have. A cell written as a number
//! that DynamoDB cannot hold (39 digits, 1E+126) is refused, with the hint to read its column as
//! `S`, as the same number in a JSON line is refused. So a string that would read as
//! something else (`123`, `true`, `{…`, or the empty string) is written as DynamoDB JSON
//! (`{"S":"123"}`), and every value comes back as it went out. A column can be told to be read
//! as `S`, `N` or `BOOL` instead ([`CellType`]), for files written by other tools.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::number;
use crate::value;

/// How the cells of one column are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellType {
    /// Each cell by its text (see the module's rules).
    #[default]
    Auto,
    /// Every non-empty cell is a string, as written.
    S,
    /// Every non-empty cell must be a DynamoDB number.
    N,
    /// Every non-empty cell must be `true` or `false`.
    Bool,
}

impl CellType {
    /// Every choice, as offered.
    pub const ALL: [Self; 4] = [Self::Auto, Self::S, Self::N, Self::Bool];

    /// What a menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Auto => "by its text",
            Self::S => "S (text as written)",
            Self::N => "N (a number)",
            Self::Bool => "BOOL (true or false)",
        }
    }

    /// `S`, `N`, `BOOL` (any case), or `auto`.
    pub fn parse(text: &str) -> Result<Self> {
        match text.to_ascii_uppercase().as_str() {
            "AUTO" => Ok(Self::Auto),
            "S" => Ok(Self::S),
            "N" => Ok(Self::N),
            "BOOL" => Ok(Self::Bool),
            _ => Err(Error::Invalid(format!(
                "`{text}` is not a column type: use S, N, BOOL or auto"
            ))),
        }
    }
}

/// `value` as one CSV cell's text (before quoting).
pub(super) fn cell(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) if reads_as_itself(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        other => value::dynamodb_json(other),
    }
}

/// Whether the string `s`, written as it is, reads back as the same `S`.
fn reads_as_itself(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('{') && s != "true" && s != "false" && !shaped_as_number(s)
}

fn is_number(text: &str) -> bool {
    text.trim() == text && number::parse(text).is_ok()
}

/// Whether a cell read by its text is a number, DynamoDB's or not: decimal digits (a sign, a
/// point, an exponent) without spaces, a leading `+` or a leading zero (`08001` is a code,
/// which DynamoDB would store as 8001). Such a cell that is
/// beyond DynamoDB's numbers (39 digits, 1E+126) is refused rather than quietly read as text,
/// as the same number is in a JSON line.
pub(crate) fn shaped_as_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let leading_zero = digits.len() > 1
        && digits.starts_with('0')
        && digits.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
    let decimal = match number::parse(text) {
        Ok(_) => true,
        Err(e) => !matches!(
            e,
            number::NumberError::NotANumber(_) | number::NumberError::Empty
        ),
    };
    text.trim() == text && !text.starts_with('+') && !leading_zero && decimal
}

/// The value of a non-empty cell `text` read as `kind`.
pub(crate) fn read_cell(text: &str, kind: CellType) -> Result<AttributeValue> {
    match kind {
        CellType::N if is_number(text) => Ok(AttributeValue::N(text.to_owned())),
        CellType::N => Err(Error::Invalid(format!("`{text}` is not a number"))),
        CellType::Bool => match text {
            "true" => Ok(AttributeValue::Bool(true)),
            "false" => Ok(AttributeValue::Bool(false)),
            _ => Err(Error::Invalid(format!("`{text}` is not true or false"))),
        },
        CellType::Auto if text.starts_with('{') => {
            match value::strict::parse(text) {
                Ok(json) => value::value_from_json(&json),
                // JSON that names a member twice is not a string that happens to start with `{`.
                Err(e) if e.is_data() => Err(Error::Invalid(value::strict::error_text(&e))),
                Err(_) => Ok(AttributeValue::S(text.to_owned())),
            }
        }
        CellType::Auto if text == "true" || text == "false" => {
            Ok(AttributeValue::Bool(text == "true"))
        }
        CellType::Auto if shaped_as_number(text) => match number::parse(text) {
            Ok(_) => Ok(AttributeValue::N(text.to_owned())),
            Err(e) => Err(Error::Invalid(format!(
                "{e}, so it cannot be stored as a number"
            ))),
        },
        // A string as asked, and what any other cell is.
        CellType::S | CellType::Auto => Ok(AttributeValue::S(text.to_owned())),
    }
}

/// Append one record (a line) of `fields` to `out`, each quoted when it needs to be.
pub(crate) fn push_record<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) || field.starts_with(' ') || field.ends_with(' ')
        {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(field);
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use aws_sdk_dynamodb::primitives::Blob;

    use super::*;

    #[test]
    fn every_value_reads_back_as_it_went_out() {
        let values = [
            AttributeValue::S("plain".into()),
            AttributeValue::S("007".into()),
            AttributeValue::S("true".into()),
            AttributeValue::S(String::new()),
            AttributeValue::S("{not json".into()),
            AttributeValue::S(" 5".into()),
            AttributeValue::S("123456789012345678901234567890123456789".into()),
            AttributeValue::N("98765432109876543210987654321098765432".into()),
            AttributeValue::N("-0.10".into()),
            AttributeValue::Bool(false),
            AttributeValue::Null(true),
            AttributeValue::B(Blob::new(vec![0, 255])),
            AttributeValue::Ss(vec!["a,b".into(), "c\"d".into()]),
            AttributeValue::Ns(vec!["1".into(), "2.5".into()]),
            AttributeValue::L(vec![AttributeValue::S("x".into())]),
            AttributeValue::M(HashMap::from([(
                "n".to_owned(),
                AttributeValue::N("1".into()),
            )])),
        ];
        for v in values {
            assert_eq!(read_cell(&cell(&v), CellType::Auto).unwrap(), v, "{v:?}");
        }
    }

    #[test]
    fn a_number_beyond_dynamodb_is_refused_not_read_as_text() {
        for text in [
            "123456789012345678901234567890123456789",
            "1E+126",
            "-1e-131",
        ] {
            let error = read_cell(text, CellType::Auto).unwrap_err().to_string();
            assert!(
                error.contains("cannot be stored as a number"),
                "{text}: {error}"
            );
            assert_eq!(
                read_cell(text, CellType::S).unwrap(),
                AttributeValue::S(text.into())
            );
        }
        // Codes and words are text, as before.
        for text in ["08001", "+5", "1e", "12abc", " 5"] {
            assert_eq!(
                read_cell(text, CellType::Auto).unwrap(),
                AttributeValue::S(text.into()),
                "{text}"
            );
        }
    }
}
