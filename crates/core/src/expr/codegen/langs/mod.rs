//! The C-family targets: Go, Java, C# (.NET), Kotlin and PHP, each written from the same call
//! (operation, fields in the API's names) as every other target. Every string is written
//! escaped to printable ASCII, so no value — a quote, `$`, a new line, a bidirectional
//! override — can end its literal or read as something else on screen.

mod dotnet;
mod go;
mod java;
mod kotlin;
mod php;

pub(super) use go::{
    GoClient, aligned as go_aligned, fields as go_fields, imports as go_imports, pairs as go_pairs,
    s as go_str,
};

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

/// How a language writes a string literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    Go,
    Java,
    CSharp,
    Kotlin,
    Php,
}

/// `text` as a double-quoted string literal of `quoting`'s language: printable ASCII as it
/// is, `"` and `\` escaped (and `$`, where the language would interpolate it), everything
/// else as a Unicode escape.
pub(super) fn c_str(text: &str, quoting: Quoting) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' if matches!(quoting, Quoting::Kotlin | Quoting::Php) => out.push_str("\\$"),
            ' '..='~' => out.push(c),
            c => unicode_escape(c, quoting, &mut out),
        }
    }
    out.push('"');
    out
}

fn unicode_escape(c: char, quoting: Quoting, out: &mut String) {
    let code = u32::from(c);
    match quoting {
        Quoting::Php => {
            let _ = write!(out, "\\u{{{code:x}}}");
        }
        Quoting::Go | Quoting::CSharp if code > 0xFFFF => {
            let _ = write!(out, "\\U{code:08x}");
        }
        // Java and Kotlin write a character past the BMP as its UTF-16 surrogate pair.
        _ => {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
}

/// `TableName` → `tableName`: Java's builder methods and Kotlin's properties.
pub(super) fn lower_camel(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_ascii_lowercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `UPDATED_NEW` → `UpdatedNew`: Go's and Kotlin's enum members.
pub(super) fn pascal(option: &str) -> String {
    option
        .split('_')
        .map(|word| {
            let lower = word.to_ascii_lowercase();
            let mut chars = lower.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The SDKs' enum type of an option field: `ReturnValues` takes a `ReturnValue`.
pub(super) fn enum_type(field: &str) -> &str {
    match field {
        "ReturnValues" => "ReturnValue",
        other => other,
    }
}

/// A binary value's bytes as base64, for the languages that decode it where it is used.
pub(super) fn base64_of(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// `parts` a line each, indented one `unit` deeper and ending in `,` (a trailing comma every
/// language here takes), between `open` and `close`; `empty` when there are none. A part of
/// several lines is indented whole, so blocks nest.
pub(super) fn block(open: &str, parts: &[String], close: &str, unit: &str, empty: &str) -> String {
    if parts.is_empty() {
        return empty.to_owned();
    }
    let lines: Vec<String> = parts
        .iter()
        .map(|p| format!("{unit}{},", indented(p, unit)))
        .collect();
    format!(
        "{open}
{}
{close}",
        lines.join("\n")
    )
}

/// `text` with every line after its first indented by `by`.
pub(super) fn indented(text: &str, by: &str) -> String {
    text.replace('\n', &format!("\n{by}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_printable_ascii_and_keep_every_character() {
        let hostile = "a\"b\\c$d\ne\u{202e}f😀\u{1}";
        assert_eq!(
            c_str(hostile, Quoting::Go),
            r#""a\"b\\c$d\ne\u202ef\U0001f600\u0001""#
        );
        assert_eq!(
            c_str(hostile, Quoting::Java),
            r#""a\"b\\c$d\ne\u202ef\ud83d\ude00\u0001""#
        );
        assert_eq!(
            c_str(hostile, Quoting::Kotlin),
            r#""a\"b\\c\$d\ne\u202ef\ud83d\ude00\u0001""#
        );
        assert_eq!(
            c_str(hostile, Quoting::Php),
            r#""a\"b\\c\$d\ne\u{202e}f\u{1f600}\u{1}""#
        );
        assert_eq!(
            c_str(hostile, Quoting::CSharp),
            r#""a\"b\\c$d\ne\u202ef\U0001f600\u0001""#
        );
        assert_eq!(lower_camel("TableName"), "tableName");
        assert_eq!(pascal("UPDATED_NEW"), "UpdatedNew");
        assert_eq!(pascal("TOTAL"), "Total");
        assert_eq!(enum_type("ReturnValues"), "ReturnValue");
    }
}
