//! The whole item as compact plain JSON, written straight into a reused buffer: the same text
//! as [`item_to_plain_json`](crate::core::value::item_to_plain_json) (key attributes first,
//! numbers with every digit), without building a `serde_json::Value` for each of a million
//! rows. Maps, lists, sets and binary go through the shared JSON code.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::value::Item;
use crate::core::value::json::{self, Layout, Style};

/// One attribute of an item: its place among the key attributes (`usize::MAX` for none),
/// name and value.
pub type Entry<'a> = (usize, &'a str, &'a AttributeValue);

/// The attributes of `item` into `entries` (cleared first), in the order the JSON and the
/// columns follow: the key attributes in `key_names` order, then the rest by name.
pub fn ordered_entries<'a>(entries: &mut Vec<Entry<'a>>, item: &'a Item, key_names: &[String]) {
    entries.clear();
    entries.extend(item.iter().map(|(name, value)| {
        let rank = key_names
            .iter()
            .position(|k| k == name)
            .unwrap_or(usize::MAX);
        (rank, name.as_str(), value)
    }));
    entries.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
}

/// Write the item whose `entries` these are into `out` (cleared first).
pub fn write_item(out: &mut String, entries: &[Entry<'_>]) {
    out.clear();
    out.push('{');
    for (i, (_, name, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_string(out, name);
        out.push(':');
        match value {
            AttributeValue::S(s) => push_string(out, s),
            AttributeValue::N(n) if is_json_number(n) => push_number(out, n),
            AttributeValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            AttributeValue::Null(_) => out.push_str("null"),
            other => out.push_str(&json::text(
                &json::value_to_json(other, Style::Plain),
                Layout::Compact,
            )),
        }
    }
    out.push('}');
}

/// A number that is JSON as it stands, written as serde_json writes it (`1E+3` as `1e+3`).
fn push_number(out: &mut String, text: &str) {
    match text.find('E') {
        Some(at) => {
            out.push_str(&text[..at]);
            out.push('e');
            out.push_str(&text[at + 1..]);
        }
        None => out.push_str(text),
    }
}

/// `text` as a JSON string, escaped as serde_json escapes it.
fn push_string(out: &mut String, text: &str) {
    out.push('"');
    let needs_escape = |b: &u8| *b < 0x20 || *b == b'"' || *b == b'\\';
    if !text.as_bytes().iter().any(needs_escape) {
        out.push_str(text);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        if escape.is_empty() {
            out.push_str(&format!("\\u{byte:04x}"));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Whether `text` is a JSON number as it stands: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    let digits = |at: &mut usize| {
        let from = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - from
    };
    let whole_from = at;
    match digits(&mut at) {
        0 => return false,
        n if n > 1 && bytes[whole_from] == b'0' => return false,
        _ => {}
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use aws_sdk_dynamodb::primitives::Blob;

    use super::*;
    use crate::core::value::item_to_plain_json;

    #[test]
    fn writes_what_the_shared_json_code_writes() {
        let item: Item = HashMap::from([
            (
                "PK".to_owned(),
                AttributeValue::S("POST#\"a\"\\\n\t\u{1}é".into()),
            ),
            ("SK".to_owned(), AttributeValue::N("1E+3".into())),
            (
                "big".to_owned(),
                AttributeValue::N("98765432109876543210987654321098765432".into()),
            ),
            ("odd".to_owned(), AttributeValue::N(".5".into())),
            ("neg".to_owned(), AttributeValue::N("-0.10".into())),
            ("flag".to_owned(), AttributeValue::Bool(false)),
            ("none".to_owned(), AttributeValue::Null(true)),
            ("bin".to_owned(), AttributeValue::B(Blob::new(vec![1, 2]))),
            ("tags".to_owned(), AttributeValue::Ss(vec!["x\"".into()])),
            (
                "m".to_owned(),
                AttributeValue::M(HashMap::from([(
                    "n".to_owned(),
                    AttributeValue::N("2".into()),
                )])),
            ),
        ]);
        let keys = ["PK".to_owned(), "SK".to_owned()];
        let mut out = String::from("left over");
        let mut entries = Vec::new();
        ordered_entries(&mut entries, &item, &keys);
        write_item(&mut out, &entries);
        assert_eq!(out, item_to_plain_json(&item, &keys, false));
        assert!(out.contains(r#""odd":".5""#), "{out}");
    }

    #[test]
    fn json_numbers() {
        for good in ["0", "-0", "12", "1.50", "1E+3", "-2e-7", "0.0"] {
            assert!(is_json_number(good), "{good}");
        }
        for bad in ["", "-", "01", ".5", "5.", "1e", "+1", "1e+", "NaN", "1 "] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}
