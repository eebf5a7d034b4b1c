//! Literals in each language: bash quoting, Python and JavaScript values, Rust constructors.

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::terminal::steers;
use crate::value::{Item, Layout, json};

/// Quote `text` for bash: single quotes, with embedded single quotes closed and escaped; a
/// text holding a new line or a character that steers a terminal (which a terminal would not
/// show, and which the CLI prints escaped) in ANSI-C quotes, `$'…\u202e…'`, so the command
/// holds no such character raw and means the same wherever it is printed.
pub(crate) fn shell_quote(text: &str) -> String {
    if !text.chars().any(|c| c == '\n' || steers(c)) {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if steers(c) => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Split a bash command line into its words, as bash would without expanding anything: single
/// and double quotes, backslash escapes, line continuations and `#` comments. Text that bash
/// would expand (`$`, backquotes) is refused: what it stands for cannot be known here.
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    // An unescaped new line after a word ends the command; another may not follow.
    let mut ended = false;
    while let Some(c) = chars.next() {
        if ended && word.is_none() && !matches!(c, ' ' | '\t' | '\n' | '\r' | '#') {
            return Err(
                "one command only: a new line ends the command (is a `\\` missing at the end of the line before?)"
                    .into(),
            );
        }
        match c {
            ' ' | '\t' | '\r' => words.extend(word.take()),
            '\n' => {
                words.extend(word.take());
                ended = !words.is_empty();
            }
            '#' if word.is_none() => while chars.next_if(|&c| c != '\n').is_some() {},
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.next_if_eq(&'\n').is_some() => {}
                Some(escaped) => word.get_or_insert_default().push(escaped),
                None => return Err("the command ends with a lone `\\`".into()),
            },
            '\'' => {
                let part = word.get_or_insert_default();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => part.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => double_quoted(&mut chars, word.get_or_insert_default())?,
            '$' if chars.next_if_eq(&'\'').is_some() => {
                ansi_c_quoted(&mut chars, word.get_or_insert_default())?;
            }
            '$' | '`' => return Err(expansion(c)),
            ';' | '|' | '&' | '<' | '>' | '(' | ')' => {
                return Err(format!(
                    "`{c}`: one command only, without pipes or redirections"
                ));
            }
            c => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The rest of a double-quoted part, after its opening quote, onto `part`.
fn double_quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    part: &mut String,
) -> Result<(), String> {
    loop {
        match chars.next() {
            Some('"') => return Ok(()),
            Some('\\') => match chars.next() {
                Some('\n') => {}
                Some(c @ ('"' | '\\' | '$' | '`')) => part.push(c),
                Some(c) => {
                    part.push('\\');
                    part.push(c);
                }
                None => return Err("a double quote is not closed".into()),
            },
            Some(c @ ('$' | '`')) => return Err(expansion(c)),
            Some(c) => part.push(c),
            None => return Err("a double quote is not closed".into()),
        }
    }
}

/// The rest of an ANSI-C quoted part (`$'…'`), after its opening quote, onto `part`: the
/// escapes bash reads there (`\n`, `\t`, `\\`, `\'`, `\uXXXX`, …).
fn ansi_c_quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    part: &mut String,
) -> Result<(), String> {
    let open = || "an ANSI-C quote ($'…') is not closed".to_owned();
    loop {
        match chars.next().ok_or_else(open)? {
            '\'' => return Ok(()),
            '\\' => {
                let escaped = chars.next().ok_or_else(open)?;
                let simple = match escaped {
                    'n' => Some('\n'),
                    't' => Some('\t'),
                    'r' => Some('\r'),
                    'a' => Some('\u{7}'),
                    'b' => Some('\u{8}'),
                    'e' | 'E' => Some('\u{1b}'),
                    'f' => Some('\u{c}'),
                    'v' => Some('\u{b}'),
                    '\\' | '\'' | '"' | '?' => Some(escaped),
                    _ => None,
                };
                let c = match (simple, escaped) {
                    (Some(c), _) => c,
                    (None, 'u' | 'U' | 'x') => {
                        let most = match escaped {
                            'u' => 4,
                            'U' => 8,
                            _ => 2,
                        };
                        let mut hex = String::new();
                        while hex.len() < most {
                            match chars.next_if(char::is_ascii_hexdigit) {
                                Some(h) => hex.push(h),
                                None => break,
                            }
                        }
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("`\\{escaped}{hex}` is not a character"))?
                    }
                    (None, other) => return Err(format!("`\\{other}` in $'…' is not read here")),
                };
                part.push(c);
            }
            c => part.push(c),
        }
    }
}

fn expansion(c: char) -> String {
    format!(
        "`{c}` asks the shell to expand something: paste the command with its values written out"
    )
}

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
    let digits = text.chars().filter(|c| c.is_ascii_digit()).count();
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
        AttributeValue::Null(_) => "AttributeValue::Null(true)".into(),
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
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        let item = serde_json::json!({"__proto__": {"S": "__proto__\":"}, "a": {"BS": ["AA=="]}});
        assert_eq!(
            js_literal(&item),
            r#"{["__proto__"]:{"S":"__proto__\":"},"a":{"BS":[Buffer.from("AA==", "base64")]}}"#
        );
    }

    #[test]
    fn shell_words_read_back_what_shell_quote_writes() {
        for text in [
            "",
            "it's",
            "a b\n\tc",
            "\\",
            "$HOME `x`",
            "'''",
            "\"q\"",
            "#n0 = :v0",
            "é",
            "bidi \u{202e} and \u{1b}[2J, 'quoted' \\ \n new line",
        ] {
            let line = format!("aws {} \\\n  --x", shell_quote(text));
            assert_eq!(shell_words(&line).unwrap(), ["aws", text, "--x"], "{line}");
        }
        assert_eq!(
            shell_words("\n a\\ b \"c \\\"d\\$\\e\" f\\\r\ng # comment\n\n").unwrap(),
            ["a b", "c \"d$\\e", "fg"]
        );
        for bad in [
            "echo $HOME",
            "a \"$(x)\"",
            "a `x`",
            "a 'open",
            "a \"open",
            "a | b",
            "a; b",
            "a\\",
            "a\nb",
            "a # comment\nb",
        ] {
            assert!(shell_words(bad).is_err(), "{bad}");
        }
    }
}
