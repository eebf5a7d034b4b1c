//! Literals in each language: Python and JavaScript values, Rust constructors (bash quoting is
//! `shell.rs`).

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::value::{Item, Layout, json};

/// `ExpressionAttributeNames` → `expression-attribute-names`.
pub(super) fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `ExpressionAttributeNames` → `expression_attribute_names`.
pub(super) fn snake_case(name: &str) -> String {
    kebab(name).replace('-', "_")
}

/// `v` as a Python literal for boto3's low-level client. A typed binary value (`{"B": "…"}`,
/// `{"BS": […]}`, base64 in DynamoDB JSON) becomes `base64.b64decode("…")` bytes, which the
/// code must import: boto3 takes bytes and would encode a base64 string once more.
pub(super) fn python(v: &serde_json::Value) -> String {
    let bytes = |b: &serde_json::Value| format!("base64.b64decode({b})");
    if let serde_json::Value::Object(map) = v
        && map.len() == 1
    {
        match map.iter().next() {
            Some((k, b @ serde_json::Value::String(_))) if k == "B" => {
                return format!("{{\"B\": {}}}", bytes(b));
            }
            Some((k, serde_json::Value::Array(items)))
                if k == "BS" && items.iter().all(serde_json::Value::is_string) =>
            {
                let items: Vec<String> = items.iter().map(bytes).collect();
                return format!("{{\"BS\": [{}]}}", items.join(", "));
            }
            _ => {}
        }
    }
    match v {
        serde_json::Value::Null => "None".into(),
        serde_json::Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(python).collect::<Vec<_>>().join(", ")
        ),
        serde_json::Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", serde_json::Value::String(k.clone()), python(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// A field as a JavaScript object literal for the low-level client: its JSON, written compact;
/// a typed binary value (`{"B": "…"}`, `{"BS": […]}`, base64 in DynamoDB JSON) as the bytes,
/// `Buffer.from("…", "base64")` (the SDK would encode a string of a set once more); a key
/// named `__proto__` as a computed key (`["__proto__"]:`), an own property where the plain one
/// would set the object's prototype.
pub(super) fn js_literal(value: &serde_json::Value) -> String {
    let bytes = |b: &serde_json::Value| format!("Buffer.from({b}, \"base64\")");
    match value {
        serde_json::Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("B", serde_json::Value::String(_)) if map.len() == 1 => {
                        format!("\"B\":{}", bytes(v))
                    }
                    ("BS", serde_json::Value::Array(items))
                        if map.len() == 1 && items.iter().all(serde_json::Value::is_string) =>
                    {
                        let items: Vec<String> = items.iter().map(bytes).collect();
                        format!("\"BS\":[{}]", items.join(","))
                    }
                    _ => format!("{}:{}", js_key(k), js_literal(v)),
                })
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(js_literal).collect::<Vec<_>>().join(",")
        ),
        other => json::text(other, Layout::Compact),
    }
}

/// A key of a JavaScript object literal, `__proto__` as a computed key.
fn js_key(key: &str) -> String {
    let quoted = serde_json::Value::String(key.to_owned()).to_string();
    if key == "__proto__" {
        format!("[{quoted}]")
    } else {
        quoted
    }
}

/// Whether a JavaScript number (an IEEE double) holds `text` exactly: small integers, and short
/// decimals that print back the same.
fn js_number_is_exact(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    !text.contains(['e', 'E']) && digits <= 15 && !(text.contains('.') && text.ends_with('0'))
}

pub(super) fn js_native(v: &AttributeValue, number_value: &mut bool) -> String {
    let mut number = |n: &str| {
        if js_number_is_exact(n) {
            n.to_owned()
        } else {
            *number_value = true;
            format!(
                "NumberValue.from({})",
                serde_json::Value::String(n.to_owned())
            )
        }
    };
    match v {
        AttributeValue::S(s) => serde_json::Value::String(s.clone()).to_string(),
        AttributeValue::N(n) => number(n),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".into(),
        AttributeValue::B(b) => format!(
            "Buffer.from({}, \"base64\")",
            serde_json::Value::String(BASE64.encode(b.as_ref()))
        ),
        AttributeValue::Ss(v) => format!(
            "new Set([{}])",
            v.iter()
                .map(|s| serde_json::Value::String(s.clone()).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::Ns(v) => format!(
            "new Set([{}])",
            v.iter().map(|n| number(n)).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::Bs(v) => format!(
            "new Set([{}])",
            v.iter()
                .map(|b| format!(
                    "Buffer.from({}, \"base64\")",
                    serde_json::Value::String(BASE64.encode(b.as_ref()))
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::L(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| js_native(i, number_value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::M(map) => js_native_item(map, number_value),
        _ => "undefined".into(),
    }
}

pub(super) fn js_native_item(item: &Item, number_value: &mut bool) -> String {
    let mut entries: Vec<_> = item.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let body: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| format!("{}: {}", js_key(k), js_native(v, number_value)))
        .collect();
    format!("{{ {} }}", body.join(", "))
}

pub(super) fn rust_str(text: &str) -> String {
    format!("{text:?}")
}

pub(super) fn rust_value(v: &AttributeValue) -> String {
    let strings = |v: &[String]| {
        v.iter()
            .map(|s| format!("{s:?}.into()"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let blob = |b: &aws_sdk_dynamodb::primitives::Blob| {
        format!(
            "aws_sdk_dynamodb::primitives::Blob::new(vec!{:?})",
            b.as_ref()
        )
    };
    match v {
        AttributeValue::S(s) => format!("AttributeValue::S({s:?}.into())"),
        AttributeValue::N(n) => format!("AttributeValue::N({n:?}.into())"),
        AttributeValue::Bool(b) => format!("AttributeValue::Bool({b})"),
        AttributeValue::B(b) => format!("AttributeValue::B({})", blob(b)),
        AttributeValue::Ss(v) => format!("AttributeValue::Ss(vec![{}])", strings(v)),
        AttributeValue::Ns(v) => format!("AttributeValue::Ns(vec![{}])", strings(v)),
        AttributeValue::Bs(v) => format!(
            "AttributeValue::Bs(vec![{}])",
            v.iter().map(blob).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::L(items) => format!(
            "AttributeValue::L(vec![{}])",
            items.iter().map(rust_value).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            format!(
                "AttributeValue::M(std::collections::HashMap::from([{}]))",
                entries
                    .into_iter()
                    .map(|(k, v)| format!("({k:?}.to_string(), {})", rust_value(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        // NULL, and any type a newer SDK adds.
        _ => "AttributeValue::Null(true)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_and_js_literals() {
        assert_eq!(
            python(&serde_json::json!({"BOOL": true, "NULL": null})),
            "{\"BOOL\": True, \"NULL\": None}"
        );
        assert!(js_number_is_exact("42"));
        assert!(js_number_is_exact("-0.5"));
        assert!(!js_number_is_exact("0.10"));
        assert!(!js_number_is_exact("1234567890123456"));
        assert_eq!(
            kebab("ExpressionAttributeNames"),
            "expression-attribute-names"
        );
        let item = serde_json::json!({"__proto__": {"S": "__proto__\":"}, "a": {"BS": ["AA=="]}});
        assert_eq!(
            js_literal(&item),
            r#"{["__proto__"]:{"S":"__proto__\":"},"a":{"BS":[Buffer.from("AA==", "base64")]}}"#
        );
    }
}
