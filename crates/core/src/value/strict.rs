//! JSON text read strictly: every object names each member once. serde_json keeps the last of
//! two members with one name, which would change what was written without a word
//! (`{"PK": {"S": "a"}, "PK": {"S": "b"}}` would put `b`); here it is an error at its place.
//! Every JSON a user types or a file holds (an item, a key, a parameter, an import line, the
//! editor's text) is read here.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// JSON text as a value, every object naming each member once; a member given twice is an
/// error placed at the second one. A byte-order mark before the text is ignored, as every text
/// format here does.
pub fn parse(text: &str) -> serde_json::Result<Value> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text)?;
    let mut de = serde_json::Deserializer::from_str(text);
    Members.deserialize(&mut de)?;
    Ok(value)
}

/// Check JSON text without building it: well formed, and every object names each member once
/// at any depth (as [`parse`] would accept it). For a whole message checked before a
/// parser that keeps the last of two members reads it (the MCP server's transport).
pub fn check_slice(bytes: &[u8]) -> serde_json::Result<()> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Members.deserialize(&mut de)?;
    de.end()
}

/// serde_json's message without its "at line 1 column 9", and the line and column apart; a
/// lone surrogate escape said in words (serde_json names only the escape's shape).
pub(crate) fn message_of(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let why = text.strip_suffix(&suffix).unwrap_or(&text);
    // serde_json exposes no kind for these, only these two messages.
    match why {
        "unexpected end of hex escape" | "lone leading surrogate in hex escape" => {
            "a lone UTF-16 surrogate (a \\uD800 to \\uDFFF escape not in a high-low pair) is \
             not a character"
                .to_owned()
        }
        other => other.to_owned(),
    }
}

/// An error of [`parse`] in a sentence with its place: `not valid JSON: … (line 1, column 9)`,
/// or, for a member given twice, that alone with its place.
pub fn error_text(error: &serde_json::Error) -> String {
    let why = message_of(error);
    let place = if error.line() > 1 {
        format!("line {}, column {}", error.line(), error.column())
    } else {
        format!("column {}", error.column())
    };
    if error.is_data() {
        format!("{why} ({place})")
    } else {
        format!("not valid JSON: {why} ({place})")
    }
}

/// An attribute or member name, borrowed from the text when it has no escapes.
pub(crate) enum Name<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Name<'_> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Self::Borrowed(s) => s,
            Self::Owned(s) => s,
        }
    }
}

impl<'de> de::Deserialize<'de> for Name<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name")
            }
            fn visit_borrowed_str<E: de::Error>(
                self,
                v: &'de str,
            ) -> std::result::Result<Name<'de>, E> {
                Ok(Name::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Name<'de>, E> {
                Ok(Name::Owned(v.to_owned()))
            }
        }
        d.deserialize_str(V)
    }
}

/// The error of a member named twice in one object.
pub(crate) fn twice<E: de::Error>(name: &str) -> E {
    E::custom(format!(
        "`{name}` is given twice in one object; give each name once"
    ))
}

/// The names of one object so far: a list while it is short (most objects are), a set once it
/// is long, so that a hostile object of a million members is checked in linear time.
#[derive(Default)]
pub(crate) struct Seen<'de> {
    few: Vec<Name<'de>>,
    many: std::collections::HashSet<String>,
    last: String,
}

impl<'de> Seen<'de> {
    const FEW: usize = 16;

    /// Add `name`; `false` when it was there already.
    pub(crate) fn insert(&mut self, name: Name<'de>) -> bool {
        let seen = if self.many.is_empty() {
            self.few.iter().any(|n| n.as_str() == name.as_str())
        } else {
            self.many.contains(name.as_str())
        };
        if seen {
            name.as_str().clone_into(&mut self.last);
            return false;
        }
        if self.few.len() < Self::FEW && self.many.is_empty() {
            self.few.push(name);
        } else {
            if self.many.is_empty() {
                self.many
                    .extend(self.few.drain(..).map(|n| n.as_str().to_owned()));
            }
            self.many.insert(name.as_str().to_owned());
        }
        true
    }

    /// The name that [`insert`](Self::insert) last refused.
    pub(crate) fn last(&self) -> &str {
        &self.last
    }
}

/// Walks JSON text and refuses an object naming a member twice; builds nothing.
struct Members;

impl<'de> DeserializeSeed<'de> for Members {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Members {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        while seq.next_element_seed(Members)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let mut names = Seen::default();
        while let Some(name) = map.next_key::<Name<'de>>()? {
            if !names.insert(name) {
                return Err(twice(names.last()));
            }
            map.next_value_seed(Members)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_given_twice_is_an_error_at_its_place() {
        let e = parse(r#"{"PK":{"S":"DP#4"},"PK":{"S":"DP#5"},"SK":{"S":"A"}}"#).unwrap_err();
        let text = error_text(&e);
        assert!(
            text.starts_with("`PK` is given twice in one object"),
            "{text}"
        );
        assert!(text.contains("(column 23)"), "at the second name: {text}");
        // At any depth, in lists too; the same name in two objects is fine.
        assert!(parse(r#"{"a":[{"M":{"x":{"N":"1"},"x":{"N":"2"}}}]}"#).is_err());
        assert!(parse(r#"[{"x":1},{"x":2}]"#).is_ok());
        // A long object is checked as a set, in linear time.
        let many: Vec<String> = (0..5000).map(|i| format!("\"k{i}\":{i}")).collect();
        let text = format!("{{{}}}", many.join(","));
        assert!(parse(&text).is_ok());
        let text = format!("{{{},\"k4999\":0}}", many.join(","));
        assert!(error_text(&parse(&text).unwrap_err()).contains("`k4999`"));
        // Numbers keep every digit; a byte-order mark is no part of the text.
        let n = "123456789012345678901234567890123456789012";
        assert_eq!(parse(&format!("\u{feff}[{n}]")).unwrap()[0].to_string(), n);
        assert!(error_text(&parse("{").unwrap_err()).starts_with("not valid JSON: "));
    }

    #[test]
    fn a_lone_surrogate_is_said_in_words() {
        for text in [r#""\ud800""#, r#""\udc00""#, r#"{"S":"a\ud800\u0041"}"#] {
            let said = error_text(&parse(text).unwrap_err());
            assert!(said.contains("a lone UTF-16 surrogate"), "{text}: {said}");
            assert!(!said.contains("hex escape"), "{text}: {said}");
        }
        assert_eq!(parse(r#""\ud83d\ude00""#).unwrap(), "\u{1f600}");
    }

    #[test]
    fn a_whole_text_is_checked_without_being_built() {
        let twice = br#"{"jsonrpc":"2.0","id":7,"params":{"arguments":{"PK":"A","PK":"B"}}}"#;
        let e = check_slice(twice).unwrap_err();
        assert!(e.is_data(), "{e}");
        assert!(error_text(&e).starts_with("`PK` is given twice"), "{e}");
        assert!(
            check_slice(br#"{"a":[{"x":1},{"x":2}],"n":123456789012345678901234567890}"#).is_ok()
        );
        assert!(check_slice(b"{} x").unwrap_err().is_syntax());
        assert!(check_slice(b"[1,").unwrap_err().is_eof());
    }
}
