//! The whole item as compact plain JSON, written straight into a reused buffer: the same text
//! as [`item_to_plain_json`](crate::value::item_to_plain_json) (key attributes first,
//! numbers with every digit), without building a `serde_json::Value` for each of a million
//! rows. Maps, lists, sets and binary go through the shared JSON code.

use crate::rows::encode::{decode_body, tag};
use crate::value::json::{self, Layout, Style};

/// One attribute of a stored row: its place in the JSON (key attributes first, in the keys'
/// order, then the rest by name), its name already written as a JSON key (`"likeTally":`),
/// and its encoded value.
pub(crate) type Entry<'a> = (u32, &'a str, &'a [u8]);

/// Write the item whose `entries` these are (sorted by place) into `out` (cleared first).
pub(crate) fn write_item(out: &mut String, entries: &[Entry<'_>]) {
    out.clear();
    out.push('{');
    for (i, (_, key, body)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(key);
        write_value(out, body);
    }
    out.push('}');
}

/// `name` as a JSON object key with its colon, written once per loaded attribute.
pub(crate) fn json_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len() + 3);
    push_string(&mut key, name);
    key.push(':');
    key
}

/// One encoded value as plain JSON: strings, JSON-shaped numbers, booleans and null written
/// straight from the stored bytes; everything else through the shared JSON code.
fn write_value(out: &mut String, body: &[u8]) {
    let (&t, rest) = body.split_first().unwrap_or((&0, &[]));
    let text = std::str::from_utf8(rest).ok();
    match (t, text) {
        (tag::S, Some(s)) => push_string(out, s),
        (tag::N, Some(n)) if is_json_number(n) => push_number(out, n),
        (tag::TRUE, _) => out.push_str("true"),
        (tag::FALSE, _) => out.push_str("false"),
        (tag::NULL, _) => out.push_str("null"),
        _ => match decode_body(body) {
            Some(value) => out.push_str(&json::text(
                &json::value_to_json(&value, Style::Plain),
                Layout::Compact,
            )),
            None => out.push_str("null"),
        },
    }
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
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use crate::rows::Rows;
    use crate::rows::encode::Fields;
    use crate::value::{Item, item_to_plain_json};

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
            ("q\"uote".to_owned(), AttributeValue::S(String::new())),
            (
                "m".to_owned(),
                AttributeValue::M(HashMap::from([(
                    "n".to_owned(),
                    AttributeValue::N("2".into()),
                )])),
            ),
        ]);
        let keys = ["PK".to_owned(), "SK".to_owned()];
        let rows = Rows::from_items([&item]);
        let mut names: Vec<(usize, &str)> = rows
            .names()
            .iter()
            .map(|n| {
                (
                    keys.iter().position(|k| **k == **n).unwrap_or(usize::MAX),
                    &**n,
                )
            })
            .collect();
        names.sort_unstable();
        let json_keys: Vec<String> = rows.names().iter().map(|n| json_key(n)).collect();
        let mut entries: Vec<Entry<'_>> = Fields::new(rows.bytes(0))
            .map(|(id, body)| {
                let rank = names
                    .iter()
                    .position(|n| *n.1 == *rows.names()[id])
                    .unwrap();
                (rank as u32, json_keys[id].as_str(), body)
            })
            .collect();
        entries.sort_unstable_by_key(|e| e.0);
        let mut out = String::from("left over");
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
