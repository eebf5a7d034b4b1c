//! Values and items as JSON, through `serde_json` only: DynamoDB JSON (`{"N": "3"}`) and plain
//! JSON (`3`). Numbers become `serde_json::Number` with `arbitrary_precision`, so every digit of
//! the stored text is kept; the key attributes come first (`preserve_order`).

use std::fmt;
use std::io;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize as _;
use serde_json::{Map, Number, Value};

use crate::error::{Error, Result};
use crate::value::{Item, ordered_names, type_tag};

/// How a value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// DynamoDB JSON: every value wrapped in its type, numbers as strings.
    Typed,
    /// Plain JSON: numbers as JSON numbers (exact), sets as arrays, binary as base64.
    Plain,
}

/// How JSON text is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line, no spaces: `{"PK":{"S":"x"}}`.
    Compact,
    /// One top-level entry per line; nested values stay on their line, with spaces after `:`
    /// and `,` when `spaced`.
    Lines {
        /// `{"N": "3"}` rather than `{"N":"3"}` inside a line.
        spaced: bool,
    },
    /// A request body: one top-level field per line, and each element of a top-level array
    /// (the writes of `TransactItems`) on its own line; everything else compact.
    Request,
}

/// `value` as a JSON value in `style`.
pub(crate) fn value_to_json(value: &AttributeValue, style: Style) -> Value {
    let number = |n: &String| match style {
        Style::Typed => Value::String(n.clone()),
        Style::Plain => exact_number(n),
    };
    let blob = |b: &aws_sdk_dynamodb::primitives::Blob| Value::String(BASE64.encode(b.as_ref()));
    let inner = match value {
        AttributeValue::S(s) => Value::String(s.clone()),
        AttributeValue::N(n) => number(n),
        AttributeValue::B(b) => blob(b),
        AttributeValue::Bool(b) => Value::Bool(*b),
        AttributeValue::Null(_) => match style {
            Style::Typed => Value::Bool(true),
            Style::Plain => Value::Null,
        },
        AttributeValue::M(m) => item_to_json(m, &[], style),
        AttributeValue::L(l) => Value::Array(l.iter().map(|v| value_to_json(v, style)).collect()),
        AttributeValue::Ss(v) => Value::Array(v.iter().cloned().map(Value::String).collect()),
        AttributeValue::Ns(v) => Value::Array(v.iter().map(number).collect()),
        AttributeValue::Bs(v) => Value::Array(v.iter().map(blob).collect()),
        _ => Value::Null,
    };
    match style {
        Style::Typed => {
            let mut typed = Map::new();
            typed.insert(type_tag(value).to_owned(), inner);
            Value::Object(typed)
        }
        Style::Plain => inner,
    }
}

/// `item` as a JSON object in `style`, the key attributes (`key_names`) first, then the rest
/// by name.
pub fn item_to_json(item: &Item, key_names: &[String], style: Style) -> Value {
    let mut object = Map::new();
    for name in ordered_names(item, key_names) {
        if let Some(v) = item.get(name) {
            object.insert(name.to_owned(), value_to_json(v, style));
        }
    }
    Value::Object(object)
}

/// A DynamoDB number as a JSON number with every digit of `text`. DynamoDB's number syntax is
/// JSON's; should a text ever not parse, it is kept as a string rather than changed.
fn exact_number(text: &str) -> Value {
    text.parse::<Number>()
        .map_or_else(|_| Value::String(text.to_owned()), Value::Number)
}

/// JSON text of `value`, laid out as `layout` says.
pub fn text(value: &Value, layout: Layout) -> String {
    Text { value, layout }.to_string()
}

/// Renders through serde_json's serializer with [`LayoutFormatter`].
struct Text<'a> {
    value: &'a Value,
    layout: Layout,
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = FmtWriter(f);
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut out, LayoutFormatter::new(self.layout));
        self.value
            .serialize(&mut serializer)
            .map_err(|_| fmt::Error)
    }
}

/// `io::Write` onto a `fmt::Formatter`, so that JSON text is written without a byte buffer.
struct FmtWriter<'a, 'b>(&'a mut fmt::Formatter<'b>);

impl io::Write for FmtWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(io::Error::other)?;
        self.0.write_str(text).map_err(io::Error::other)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact format, with the top level on lines and optional spaces.
struct LayoutFormatter {
    layout: Layout,
    depth: usize,
    top_entries: bool,
    /// Inside an element of a top-level array of a request: spaced, so that it wraps well.
    in_open_array: bool,
}

impl LayoutFormatter {
    fn new(layout: Layout) -> Self {
        Self {
            layout,
            depth: 0,
            top_entries: false,
            in_open_array: false,
        }
    }

    fn lines(&self) -> bool {
        matches!(self.layout, Layout::Lines { .. } | Layout::Request)
    }

    /// Whether the array being written is a top-level value whose elements go on lines.
    fn open_array(&self) -> bool {
        self.layout == Layout::Request && self.depth == 2
    }

    /// Separators inside a line: `", "` and `": "` when spaced.
    fn spaced(&self) -> bool {
        matches!(self.layout, Layout::Lines { spaced: true }) || self.in_open_array
    }

    fn separator<W: ?Sized + io::Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else if self.spaced() && !(self.lines() && self.depth == 1) {
            writer.write_all(b", ")
        } else {
            writer.write_all(b",")
        }
    }
}

impl serde_json::ser::Formatter for LayoutFormatter {
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.lines() && self.depth == 1 && self.top_entries {
            writer.write_all(b"\n")?;
        }
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.separator(writer, first)?;
        if self.lines() && self.depth == 1 {
            self.top_entries = true;
            writer.write_all(b"\n  ")?;
        }
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let top_line = self.lines() && self.depth == 1;
        writer.write_all(if self.spaced() || top_line {
            b": "
        } else {
            b":"
        })
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.open_array() {
            self.in_open_array = false;
            writer.write_all(b"\n  ")?;
        }
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if self.open_array() {
            self.in_open_array = true;
            writer.write_all(if first { b"\n    " } else { b",\n    " })
        } else {
            self.separator(writer, first)
        }
    }
}

/// A plain JSON value as DynamoDB's: strings `S`, numbers `N` (every digit), booleans, null,
/// arrays `L`, objects `M`.
pub(crate) fn plain_value(json: &serde_json::Value) -> Result<AttributeValue> {
    Ok(match json {
        Value::String(s) => AttributeValue::S(s.clone()),
        Value::Number(n) => {
            let text = n.to_string();
            crate::number::parse(&text).map_err(|e| Error::Invalid(e.to_string()))?;
            AttributeValue::N(text)
        }
        Value::Bool(b) => AttributeValue::Bool(*b),
        Value::Null => AttributeValue::Null(true),
        Value::Array(list) => {
            AttributeValue::L(list.iter().map(plain_value).collect::<Result<_>>()?)
        }
        Value::Object(map) => AttributeValue::M(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), plain_value(v)?)))
                .collect::<Result<_>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let value = serde_json::json!({"a": {"N": "1"}, "b": [1, 2]});
        assert_eq!(
            text(&value, Layout::Compact),
            r#"{"a":{"N":"1"},"b":[1,2]}"#
        );
        assert_eq!(
            text(&value, Layout::Lines { spaced: true }),
            "{\n  \"a\": {\"N\": \"1\"},\n  \"b\": [1, 2]\n}"
        );
        assert_eq!(
            text(&value, Layout::Lines { spaced: false }),
            "{\n  \"a\": {\"N\":\"1\"},\n  \"b\": [1,2]\n}"
        );
        assert_eq!(
            text(&serde_json::json!({}), Layout::Lines { spaced: true }),
            "{}"
        );
    }

    #[test]
    fn numbers_keep_their_text() {
        for n in [
            "1.50",
            "12345678901234567890123456789012345678",
            "-0.001",
            "-1.5e-130",
        ] {
            let v = value_to_json(&AttributeValue::N(n.into()), Style::Plain);
            assert_eq!(text(&v, Layout::Compact), n);
        }
        // JSON writes the exponent in lower case; the number is the same.
        let v = value_to_json(&AttributeValue::N("1E+5".into()), Style::Plain);
        assert_eq!(text(&v, Layout::Compact), "1e+5");
    }
}
