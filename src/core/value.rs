//! Attribute values: their type tags, how a cell shows them, and DynamoDB JSON / plain JSON.
//!
//! Items are the SDK's own `HashMap<String, AttributeValue>`. Numbers stay the strings the
//! server sent; JSON is written by hand here so that no number passes through `f64`.

use std::collections::HashMap;
use std::fmt::Write as _;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::core::error::{Error, Result};

/// One DynamoDB item.
pub type Item = HashMap<String, AttributeValue>;

/// The DynamoDB type descriptor of a value: `S`, `N`, `B`, `BOOL`, `NULL`, `M`, `L`, `SS`, `NS`, `BS`.
pub fn type_tag(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::M(_) => "M",
        AttributeValue::L(_) => "L",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
        _ => "?",
    }
}

/// A short one-line rendering for a grid cell. Numbers are shown exactly as stored.
pub fn cell_text(value: &AttributeValue) -> String {
    const MAX_CHARS: usize = 200;
    let text = match value {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::B(b) => BASE64.encode(b.as_ref()),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".to_owned(),
        AttributeValue::M(m) => format!("{{{} attributes}} {}", m.len(), plain_json(value, false)),
        AttributeValue::L(l) => format!("[{} elements] {}", l.len(), plain_json(value, false)),
        AttributeValue::Ss(v) => format!("{{{}}}", v.join(", ")),
        AttributeValue::Ns(v) => format!("{{{}}}", v.join(", ")),
        AttributeValue::Bs(v) => {
            let parts: Vec<String> = v.iter().map(|b| BASE64.encode(b.as_ref())).collect();
            format!("{{{}}}", parts.join(", "))
        }
        _ => "(unknown type)".to_owned(),
    };
    if text.chars().count() > MAX_CHARS {
        let mut cut: String = text.chars().take(MAX_CHARS).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

/// Attribute names of `item` with the key attributes first (in `key_names` order), then the rest
/// sorted.
pub fn ordered_names<'a>(item: &'a Item, key_names: &[String]) -> Vec<&'a str> {
    let mut names: Vec<&str> = key_names
        .iter()
        .filter_map(|k| item.get_key_value(k.as_str()).map(|(k, _)| k.as_str()))
        .collect();
    let mut rest: Vec<&str> = item
        .keys()
        .map(String::as_str)
        .filter(|k| !key_names.iter().any(|key| key == k))
        .collect();
    rest.sort_unstable();
    names.extend(rest);
    names
}

/// The item as DynamoDB JSON (`{"PK": {"S": "POST#a91f"}, "likeTally": {"N": "3"}}`).
pub fn item_to_dynamodb_json(item: &Item, key_names: &[String], pretty: bool) -> String {
    let mut out = String::new();
    write_object(
        &mut out,
        item,
        key_names,
        pretty,
        0,
        &mut |out, v, indent| write_value(out, v, true, pretty, indent),
    );
    out
}

/// The item as plain JSON (`{"PK": "POST#a91f", "likeTally": 3}`); numbers keep every digit.
pub fn item_to_plain_json(item: &Item, key_names: &[String], pretty: bool) -> String {
    let mut out = String::new();
    write_object(
        &mut out,
        item,
        key_names,
        pretty,
        0,
        &mut |out, v, indent| write_value(out, v, false, pretty, indent),
    );
    out
}

/// `text` as a JSON string literal, quoted and escaped.
pub fn json_string(text: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, text);
    out
}

/// One value as DynamoDB JSON (`{"N": "3"}`).
pub fn dynamodb_json(value: &AttributeValue) -> String {
    let mut out = String::new();
    write_value(&mut out, value, true, false, 0);
    out
}

/// One value as plain JSON.
pub fn plain_json(value: &AttributeValue, pretty: bool) -> String {
    let mut out = String::new();
    write_value(&mut out, value, false, pretty, 0);
    out
}

type ValueWriter<'w> = dyn FnMut(&mut String, &AttributeValue, usize) + 'w;

fn write_object(
    out: &mut String,
    map: &Item,
    key_names: &[String],
    pretty: bool,
    indent: usize,
    write_value: &mut ValueWriter<'_>,
) {
    if map.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push('{');
    for (i, name) in ordered_names(map, key_names).into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, pretty, indent + 1);
        write_string(out, name);
        out.push(':');
        if pretty {
            out.push(' ');
        }
        if let Some(v) = map.get(name) {
            write_value(out, v, indent + 1);
        }
    }
    newline(out, pretty, indent);
    out.push('}');
}

fn write_array<T>(
    out: &mut String,
    items: &[T],
    pretty: bool,
    indent: usize,
    mut write_item: impl FnMut(&mut String, &T, usize),
) {
    if items.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, pretty, indent + 1);
        write_item(out, item, indent + 1);
    }
    newline(out, pretty, indent);
    out.push(']');
}

/// Write `value` as DynamoDB JSON (`typed`: `{"N": "3"}`) or plain JSON (`3`).
fn write_value(out: &mut String, value: &AttributeValue, typed: bool, pretty: bool, indent: usize) {
    let write_number = |o: &mut String, n: &str| {
        if typed {
            write_string(o, n);
        } else {
            // A DynamoDB number is valid JSON number syntax; writing the stored text keeps it exact.
            o.push_str(n);
        }
    };
    if typed {
        out.push('{');
        write_string(out, type_tag(value));
        out.push(':');
        if pretty {
            out.push(' ');
        }
    }
    match value {
        AttributeValue::S(s) => write_string(out, s),
        AttributeValue::N(n) => write_number(out, n),
        AttributeValue::B(b) => write_string(out, &BASE64.encode(b.as_ref())),
        AttributeValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        AttributeValue::Null(_) => out.push_str(if typed { "true" } else { "null" }),
        AttributeValue::M(m) => write_object(out, m, &[], pretty, indent, &mut |o, v, i| {
            write_value(o, v, typed, pretty, i)
        }),
        AttributeValue::L(l) => write_array(out, l, pretty, indent, |o, v, i| {
            write_value(o, v, typed, pretty, i)
        }),
        AttributeValue::Ss(v) => write_array(out, v, pretty, indent, |o, s, _| write_string(o, s)),
        AttributeValue::Ns(v) => write_array(out, v, pretty, indent, |o, n, _| write_number(o, n)),
        AttributeValue::Bs(v) => write_array(out, v, pretty, indent, |o, b, _| {
            write_string(o, &BASE64.encode(b.as_ref()))
        }),
        _ => out.push_str("null"),
    }
    if typed {
        out.push('}');
    }
}

fn newline(out: &mut String, pretty: bool, indent: usize) {
    if pretty {
        out.push('\n');
        for _ in 0..indent {
            out.push_str("  ");
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parse one item from DynamoDB JSON text.
pub fn item_from_dynamodb_json(text: &str) -> Result<Item> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::Invalid(format!("not valid JSON: {e}")))?;
    item_from_json_value(&json)
}

/// Parse one item from an already parsed DynamoDB JSON object.
pub fn item_from_json_value(json: &serde_json::Value) -> Result<Item> {
    let object = json
        .as_object()
        .ok_or_else(|| Error::Invalid("a DynamoDB JSON item must be an object".into()))?;
    object
        .iter()
        .map(|(name, v)| Ok((name.clone(), value_from_json(v).map_err(|e| at(name, e))?)))
        .collect()
}

fn at(name: &str, err: Error) -> Error {
    match err {
        Error::Invalid(msg) => Error::Invalid(format!("{name}: {msg}")),
        other => other,
    }
}

/// Parse one typed value (`{"N": "3"}`) from DynamoDB JSON.
pub fn value_from_json(json: &serde_json::Value) -> Result<AttributeValue> {
    let invalid = |msg: &str| Error::Invalid(msg.to_owned());
    let object = json.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
        invalid("a typed value must be an object with one type key, like {\"S\": \"x\"}")
    })?;
    let (tag, inner) = object
        .iter()
        .next()
        .ok_or_else(|| invalid("empty typed value"))?;
    let string = |v: &serde_json::Value| -> Result<String> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| invalid(&format!("{tag} needs a string")))
    };
    let number = |v: &serde_json::Value| -> Result<String> {
        let text = string(v)?;
        crate::core::number::parse(&text).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(text)
    };
    let binary = |v: &serde_json::Value| -> Result<Blob> {
        let text = string(v)?;
        BASE64
            .decode(text.as_bytes())
            .map(Blob::new)
            .map_err(|e| invalid(&format!("{tag} needs base64: {e}")))
    };
    let array = |v: &serde_json::Value| -> Result<Vec<serde_json::Value>> {
        v.as_array()
            .cloned()
            .ok_or_else(|| invalid(&format!("{tag} needs an array")))
    };
    Ok(match tag.as_str() {
        "S" => AttributeValue::S(string(inner)?),
        "N" => AttributeValue::N(number(inner)?),
        "B" => AttributeValue::B(binary(inner)?),
        "BOOL" => AttributeValue::Bool(
            inner
                .as_bool()
                .ok_or_else(|| invalid("BOOL needs true or false"))?,
        ),
        "NULL" => AttributeValue::Null(true),
        "M" => AttributeValue::M(item_from_json_value(inner)?),
        "L" => AttributeValue::L(
            array(inner)?
                .iter()
                .map(value_from_json)
                .collect::<Result<_>>()?,
        ),
        "SS" => AttributeValue::Ss(array(inner)?.iter().map(string).collect::<Result<_>>()?),
        "NS" => AttributeValue::Ns(array(inner)?.iter().map(number).collect::<Result<_>>()?),
        "BS" => AttributeValue::Bs(array(inner)?.iter().map(binary).collect::<Result<_>>()?),
        other => return Err(invalid(&format!("unknown type `{other}`"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Item {
        HashMap::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S("META".into())),
            (
                "big".to_owned(),
                AttributeValue::N("12345678901234567890123456789012345678".into()),
            ),
            ("flag".to_owned(), AttributeValue::Bool(true)),
            ("nothing".to_owned(), AttributeValue::Null(true)),
            (
                "tags".to_owned(),
                AttributeValue::Ss(vec!["a".into(), "b\"c".into()]),
            ),
            (
                "nested".to_owned(),
                AttributeValue::M(HashMap::from([(
                    "l".to_owned(),
                    AttributeValue::L(vec![AttributeValue::N("1.50".into())]),
                )])),
            ),
            (
                "bin".to_owned(),
                AttributeValue::B(Blob::new(vec![0, 1, 2])),
            ),
        ])
    }

    #[test]
    fn dynamodb_json_round_trips_exactly() {
        let keys = ["PK".to_owned(), "SK".to_owned()];
        for pretty in [false, true] {
            let text = item_to_dynamodb_json(&sample(), &keys, pretty);
            assert_eq!(item_from_dynamodb_json(&text).unwrap(), sample());
        }
        let compact = item_to_dynamodb_json(&sample(), &keys, false);
        assert!(compact.starts_with(r#"{"PK":{"S":"POST#a91f"},"SK":{"S":"META"},"big""#));
    }

    #[test]
    fn plain_json_keeps_every_digit() {
        let text = item_to_plain_json(&sample(), &[], false);
        assert!(
            text.contains(r#""big":12345678901234567890123456789012345678"#),
            "{text}"
        );
        assert!(text.contains(r#""nested":{"l":[1.50]}"#), "{text}");
        assert!(text.contains(r#""tags":["a","b\"c"]"#), "{text}");
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["PK"], "POST#a91f");
    }

    #[test]
    fn cells_show_type_and_exact_numbers() {
        let item = sample();
        assert_eq!(
            cell_text(&item["big"]),
            "12345678901234567890123456789012345678"
        );
        assert_eq!(type_tag(&item["tags"]), "SS");
        assert_eq!(cell_text(&item["tags"]), "{a, b\"c}");
        assert_eq!(cell_text(&item["bin"]), "AAEC");
    }

    #[test]
    fn rejects_bad_numbers_in_json() {
        assert!(item_from_dynamodb_json(r#"{"n": {"N": "NaN"}}"#).is_err());
        assert!(item_from_dynamodb_json(r#"{"n": {"X": "1"}}"#).is_err());
    }
}
