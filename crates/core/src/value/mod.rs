//! Attribute values: their type tags, how a cell shows them, and DynamoDB JSON / plain JSON.
//!
//! Items are the SDK's own `HashMap<String, AttributeValue>`. Numbers stay the strings the
//! server sent; JSON goes through serde_json with exact numbers ([`json`]), never `f64`.

mod attr_type;
mod epoch;
pub mod json;
mod same;
pub mod strict;

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::error::{Error, Result};

pub use attr_type::AttrType;
pub use epoch::date_of;
pub(crate) use epoch::{civil_date, epoch_text};
pub use json::{Layout, Style};
pub use same::{same, same_item};

/// One DynamoDB item.
pub type Item = HashMap<String, AttributeValue>;

/// The DynamoDB type descriptor of a value: `S`, `N`, `B`, `BOOL`, `NULL`, `M`, `L`, `SS`, `NS`, `BS`
/// (`?` for a type this SDK version does not know).
pub(crate) fn type_tag(value: &AttributeValue) -> &'static str {
    AttrType::of(value).map_or("?", AttrType::tag)
}

/// The whole text of `value`, as a field that is read back holds it (a key field, a form's
/// partition, a comparison): [`AttrType::text_of`]'s, never cut.
pub fn whole_text(value: &AttributeValue) -> String {
    AttrType::text_of(value).1
}

/// A short one-line rendering for a grid cell, cut at 200 characters: for showing only (a
/// field that is read back takes [`whole_text`]). Numbers are shown exactly as stored.
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
        AttributeValue::Ss(v) | AttributeValue::Ns(v) => format!("{{{}}}", v.join(", ")),
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
pub(crate) fn ordered_names<'a>(item: &'a Item, key_names: &[String]) -> Vec<&'a str> {
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

/// The item as DynamoDB JSON (`{"PK": {"S": "POST#a91f"}, "likeTally": {"N": "3"}}`), key
/// attributes first; `pretty` puts one attribute on each line.
pub fn item_to_dynamodb_json(item: &Item, key_names: &[String], pretty: bool) -> String {
    json::text(
        &json::item_to_json(item, key_names, Style::Typed),
        layout(pretty),
    )
}

/// The item as plain JSON (`{"PK": "POST#a91f", "likeTally": 3}`); numbers keep every digit.
pub fn item_to_plain_json(item: &Item, key_names: &[String], pretty: bool) -> String {
    json::text(
        &json::item_to_json(item, key_names, Style::Plain),
        layout(pretty),
    )
}

/// One value as DynamoDB JSON (`{"N": "3"}`).
pub(crate) fn dynamodb_json(value: &AttributeValue) -> String {
    json::text(&json::value_to_json(value, Style::Typed), Layout::Compact)
}

/// One value as plain JSON.
pub fn plain_json(value: &AttributeValue, pretty: bool) -> String {
    json::text(&json::value_to_json(value, Style::Plain), layout(pretty))
}

fn layout(pretty: bool) -> Layout {
    if pretty {
        Layout::Lines { spaced: true }
    } else {
        Layout::Compact
    }
}

/// Parse one item from DynamoDB JSON text.
pub fn item_from_dynamodb_json(text: &str) -> Result<Item> {
    let json = strict::parse(text).map_err(|e| Error::Invalid(strict::error_text(&e)))?;
    item_from_json_value(&json)
}

/// Parse one item from an already parsed DynamoDB JSON object.
pub fn item_from_json_value(json: &serde_json::Value) -> Result<Item> {
    let object = json
        .as_object()
        .ok_or_else(|| Error::Invalid("a DynamoDB JSON item must be an object".into()))?;
    object
        .iter()
        .map(|(name, v)| Ok((name.clone(), value_from_json(v).map_err(|e| e.at(name))?)))
        .collect()
}

/// Parse one typed value (`{"N": "3"}`) from DynamoDB JSON.
pub(crate) fn value_from_json(json: &serde_json::Value) -> Result<AttributeValue> {
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
        crate::number::parse(&text).map_err(|e| Error::Invalid(e.to_string()))?;
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
        "NULL" if inner.as_bool() == Some(true) => AttributeValue::Null(true),
        "NULL" => return Err(invalid("NULL takes true (`{\"NULL\": true}`)")),
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

/// A key for people: `PK = POST#a91f · SK = META`, the attributes `key_names` (the table's
/// key, in order) when given, otherwise every attribute of `key` by name.
pub fn key_shown(key: &Item, key_names: &[String]) -> String {
    let mut names: Vec<&String> = if key_names.is_empty() {
        key.keys().collect()
    } else {
        key_names.iter().filter(|n| key.contains_key(*n)).collect()
    };
    if key_names.is_empty() {
        names.sort();
    }
    names
        .into_iter()
        .map(|name| format!("{name} = {}", cell_text(&key[name])))
        .collect::<Vec<_>>()
        .join(" · ")
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
