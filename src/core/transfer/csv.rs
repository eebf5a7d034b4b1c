//! CSV as spreadsheets write it (RFC 4180: fields quoted when they hold a comma, a quote or a
//! line break, quotes doubled), and DynamoDB values in its cells, exactly.
//!
//! A cell is read by its text alone: a DynamoDB number is `N` (every digit kept; one with a
//! leading zero, like the code `08001`, is `S`, since the number would lose it), `true` and
//! `false` are `BOOL`, a DynamoDB JSON value (`{"SS":["a","b"]}`) is that value, anything else is
//! `S`, and an empty cell is an attribute the item does not have. So a string that would read as
//! something else (`123`, `true`, `{…`, or the empty string) is written as DynamoDB JSON
//! (`{"S":"123"}`), and every value comes back as it went out. A column can be told to be read
//! as `S`, `N` or `BOOL` instead ([`CellType`]), for files written by other tools.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::value::{self, Item};

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
pub fn cell(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) if reads_as_itself(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        other => value::dynamodb_json(other),
    }
}

/// Whether the string `s`, written as it is, reads back as the same `S`.
fn reads_as_itself(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('{') && s != "true" && s != "false" && !reads_as_number(s)
}

fn is_number(text: &str) -> bool {
    text.trim() == text && number::parse(text).is_ok()
}

/// Whether a cell read by its text is a number: a DynamoDB number written without a leading
/// `+` or a leading zero (`08001` is a code, which DynamoDB would store as 8001).
fn reads_as_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let leading_zero = digits.len() > 1
        && digits.starts_with('0')
        && digits.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
    is_number(text) && !text.starts_with('+') && !leading_zero
}

/// The value of a non-empty cell `text` read as `kind`.
pub fn read_cell(text: &str, kind: CellType) -> Result<AttributeValue> {
    match kind {
        CellType::S => Ok(AttributeValue::S(text.to_owned())),
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
        CellType::Auto if reads_as_number(text) => Ok(AttributeValue::N(text.to_owned())),
        CellType::Auto => Ok(AttributeValue::S(text.to_owned())),
    }
}

/// Append one record (a line) of `fields` to `out`, each quoted when it needs to be.
pub fn push_record<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
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

/// One record of a CSV text and the line it starts on (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its line.
    pub line: usize,
    /// Its fields, unquoted.
    pub fields: Vec<String>,
}

/// Split `text` into records. A quote left open is an error at the line it opened on.
pub fn records(text: &str) -> Result<Vec<Record>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut line, mut start_line, mut quote_line) = (1, 1, 0);
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut at_record_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        if at_record_start {
            start_line = line;
            at_record_start = false;
        }
        match c {
            '"' if field.is_empty() => {
                quoted = true;
                quote_line = line;
            }
            ',' => fields.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                fields.push(std::mem::take(&mut field));
                records.push(Record {
                    line: start_line,
                    fields: std::mem::take(&mut fields),
                });
                line += 1;
                at_record_start = true;
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(Error::Invalid(format!(
            "line {quote_line}: a quoted field is never closed"
        )));
    }
    if !at_record_start {
        fields.push(field);
        records.push(Record {
            line: start_line,
            fields,
        });
    }
    // Blank lines hold no item.
    records.retain(|r| !(r.fields.len() == 1 && r.fields[0].is_empty()));
    Ok(records)
}

/// The items of a CSV text whose first record names the attributes, each with its line;
/// `types` says how to read a column (by name), every other column is [`CellType::Auto`].
pub fn items(text: &str, types: &HashMap<String, CellType>) -> Result<Vec<(usize, Item)>> {
    let mut records = records(text)?.into_iter();
    let Some(header) = records.next() else {
        return Ok(Vec::new());
    };
    for (i, name) in header.fields.iter().enumerate() {
        if name.is_empty() {
            return Err(Error::Invalid(format!(
                "line {}: column {} of the header has no name",
                header.line,
                i + 1
            )));
        }
        if header.fields[..i].contains(name) {
            return Err(Error::Invalid(format!(
                "line {}: the header names `{name}` twice",
                header.line
            )));
        }
    }
    for name in types.keys() {
        if !header.fields.contains(name) {
            return Err(Error::Invalid(format!(
                "a type is given for `{name}`, which the header does not name"
            )));
        }
    }
    let kinds: Vec<CellType> = header
        .fields
        .iter()
        .map(|n| types.get(n).copied().unwrap_or_default())
        .collect();
    let mut out = Vec::new();
    for record in records {
        if record.fields.len() != header.fields.len() {
            return Err(Error::Invalid(format!(
                "line {}: {} fields where the header has {}",
                record.line,
                record.fields.len(),
                header.fields.len()
            )));
        }
        let mut item = Item::new();
        for ((name, text), kind) in header.fields.iter().zip(&record.fields).zip(&kinds) {
            if text.is_empty() {
                continue;
            }
            let value = read_cell(text, *kind).map_err(|e| match e {
                Error::Invalid(why) => {
                    Error::Invalid(format!("line {}, column {name}: {why}", record.line))
                }
                other => other,
            })?;
            item.insert(name.clone(), value);
        }
        out.push((record.line, item));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
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
    fn records_quote_and_break_lines_as_spreadsheets_do() {
        let mut text = String::new();
        push_record(&mut text, ["PK", "note"]);
        push_record(&mut text, ["a", "one, \"two\"\nthree"]);
        push_record(&mut text, ["b", ""]);
        let parsed = records(&text).unwrap();
        assert_eq!(parsed.len(), 3);
        assert_eq!(parsed[1].fields, ["a", "one, \"two\"\nthree"]);
        assert_eq!(parsed[2].line, 4);
        assert_eq!(parsed[2].fields, ["b", ""]);
        let err = records("PK\n\"open\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn columns_can_be_told_their_type() {
        let text = "PK,zip,n\nx,28001,5\ny,,1.50\n";
        let auto = items(text, &HashMap::new()).unwrap();
        assert_eq!(auto[0].1["zip"], AttributeValue::N("28001".into()));
        assert!(!auto[1].1.contains_key("zip"));
        let typed = items(text, &HashMap::from([("zip".to_owned(), CellType::S)])).unwrap();
        assert_eq!(typed[0].1["zip"], AttributeValue::S("28001".into()));
        // A leading zero reads as text by itself; told N, it is a number.
        let zero = items(
            "PK,n\nx,007\n",
            &HashMap::from([("n".to_owned(), CellType::N)]),
        );
        assert_eq!(zero.unwrap()[0].1["n"], AttributeValue::N("007".into()));
        let err = items(
            "PK,n\nx,abc\n",
            &HashMap::from([("n".to_owned(), CellType::N)]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("line 2, column n"), "{err}");
        let err = items("PK,n\nx\n", &HashMap::new()).unwrap_err().to_string();
        assert!(
            err.contains("line 2: 1 fields where the header has 2"),
            "{err}"
        );
    }
}
