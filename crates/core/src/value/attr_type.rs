//! The ten DynamoDB attribute types, as one type: the editor's menu, the builder's value rows,
//! the grid's tags and the validator all name a type by it, never by a string.

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::number;
use crate::value::{self, strict};

/// A DynamoDB attribute type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttrType {
    /// String.
    S,
    /// Number (exact).
    N,
    /// Binary, written as base64.
    B,
    /// `true` or `false`.
    Bool,
    /// Null.
    Null,
    /// A map, written as DynamoDB JSON: `{"k": {"S": "v"}}`.
    M,
    /// A list, written as DynamoDB JSON: `[{"N": "1"}]`.
    L,
    /// A string set: `["a", "b"]`.
    Ss,
    /// A number set: `["1", "2.5"]`.
    Ns,
    /// A binary set: `["AQI="]`.
    Bs,
}

impl AttrType {
    /// Every type, in the order offered.
    pub const ALL: [Self; 10] = [
        Self::S,
        Self::N,
        Self::B,
        Self::Bool,
        Self::Null,
        Self::M,
        Self::L,
        Self::Ss,
        Self::Ns,
        Self::Bs,
    ];

    /// The DynamoDB type descriptor: `S`, `N`, …, `BS`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::S => "S",
            Self::N => "N",
            Self::B => "B",
            Self::Bool => "BOOL",
            Self::Null => "NULL",
            Self::M => "M",
            Self::L => "L",
            Self::Ss => "SS",
            Self::Ns => "NS",
            Self::Bs => "BS",
        }
    }

    #[cfg(test)]
    /// The type a descriptor names (`S`, `BOOL`, …), as DynamoDB spells it.
    pub(crate) fn from_tag(tag: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.tag() == tag)
    }

    /// The type of `value` (`None` for a type this SDK version does not know).
    pub fn of(value: &AttributeValue) -> Option<Self> {
        Some(match value {
            AttributeValue::S(_) => Self::S,
            AttributeValue::N(_) => Self::N,
            AttributeValue::B(_) => Self::B,
            AttributeValue::Bool(_) => Self::Bool,
            AttributeValue::Null(_) => Self::Null,
            AttributeValue::M(_) => Self::M,
            AttributeValue::L(_) => Self::L,
            AttributeValue::Ss(_) => Self::Ss,
            AttributeValue::Ns(_) => Self::Ns,
            AttributeValue::Bs(_) => Self::Bs,
            _ => return None,
        })
    }

    /// Whether its value is written as JSON (a map, a list, a set), not as a line of text.
    pub fn is_nested(self) -> bool {
        matches!(self, Self::M | Self::L | Self::Ss | Self::Ns | Self::Bs)
    }

    /// How a value of it is typed, as an example: `a number, e.g. 3 or -0.5`.
    pub fn example(self) -> &'static str {
        match self {
            Self::S => "",
            Self::N => "a number, e.g. 3 or -0.5",
            Self::B => "base64",
            Self::Bool => "true or false",
            Self::Null => "(no value)",
            Self::M => "{\"a\": {\"S\": \"x\"}}",
            Self::L => "[{\"N\": \"1\"}]",
            Self::Ss | Self::Ns | Self::Bs => "[\"a\", \"b\"]",
        }
    }

    /// The type of `value` and its whole text, as [`parse`](Self::parse) takes it back: the
    /// text itself for `S`, the number for `N`, base64 for `B`, `true` or `false`, nothing for
    /// `NULL`, and the JSON of the contents for `M`, `L` and the sets. Never cut (a grid cell's
    /// [`value::cell_text`] is, at 200 characters), so a value opened in the editor, the
    /// builder or a key field comes back exactly.
    pub(crate) fn text_of(value: &AttributeValue) -> (Self, String) {
        let kind = Self::of(value).unwrap_or(Self::S);
        let text = match value {
            AttributeValue::S(s) => s.clone(),
            AttributeValue::N(n) => n.clone(),
            AttributeValue::Bool(b) => b.to_string(),
            AttributeValue::Null(_) => String::new(),
            other => {
                let typed = value::json::value_to_json(other, value::Style::Typed);
                match typed.get(kind.tag()).cloned().unwrap_or(Value::Null) {
                    Value::String(text) => text,
                    inner => value::json::text(&inner, value::Layout::Compact),
                }
            }
        };
        (kind, text)
    }

    /// A value of this type from the text typed for it: scalars as typed (numbers checked
    /// exactly, binary as base64), the others as JSON (`{"a": {"S": "x"}}` for M,
    /// `[{"N": "1"}]` for L, `["a", "b"]` for a set; a number set's numbers may be JSON
    /// numbers, taken by their exact text).
    pub fn parse(self, text: &str) -> Result<AttributeValue> {
        let typed = |inner: Value| {
            let mut object = serde_json::Map::new();
            object.insert(self.tag().to_owned(), inner);
            value::value_from_json(&Value::Object(object))
        };
        let parsed = |what: &str| {
            strict::parse(text).map_err(|e| {
                Error::Invalid(format!(
                    "{what}, not valid JSON (column {}: {})",
                    e.column(),
                    strict::message_of(&e)
                ))
            })
        };
        match self {
            Self::S => Ok(AttributeValue::S(text.to_owned())),
            Self::N => number::parse(text.trim())
                .map(|_| AttributeValue::N(text.trim().to_owned()))
                .map_err(|e| Error::Invalid(e.to_string())),
            Self::B => typed(Value::String(text.trim().to_owned())),
            Self::Bool => match text.trim() {
                "true" => Ok(AttributeValue::Bool(true)),
                "false" => Ok(AttributeValue::Bool(false)),
                _ => Err(Error::Invalid("a BOOL is true or false".into())),
            },
            Self::Null => Ok(AttributeValue::Null(true)),
            Self::M => typed(parsed(
                "a map is a DynamoDB JSON object, like {\"a\": {\"S\": \"x\"}}",
            )?),
            Self::L => typed(parsed(
                "a list is a DynamoDB JSON array, like [{\"N\": \"1\"}]",
            )?),
            Self::Ss | Self::Ns | Self::Bs => {
                let mut list = parsed("a set is a JSON array of strings, like [\"a\", \"b\"]")?;
                // Numbers written as JSON numbers are taken as their exact text.
                if let Value::Array(items) = &mut list {
                    for item in items.iter_mut() {
                        if let Value::Number(n) = item {
                            *item = Value::String(n.to_string());
                        }
                    }
                }
                typed(list)
            }
        }
    }
}

impl std::fmt::Display for AttrType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_by_its_tag_and_its_values() {
        for kind in AttrType::ALL {
            assert_eq!(AttrType::from_tag(kind.tag()), Some(kind));
        }
        assert_eq!(AttrType::from_tag("bool"), None, "DynamoDB's spelling only");
        let samples = [
            (AttrType::S, "text"),
            (AttrType::N, "12345678901234567890123456789012345678"),
            (AttrType::B, "AAH+"),
            (AttrType::Bool, "true"),
            (AttrType::Null, ""),
            (AttrType::M, r#"{"a": {"S": "x"}}"#),
            (AttrType::L, r#"[{"N": "1"}]"#),
            (AttrType::Ss, r#"["a", "b"]"#),
            (AttrType::Ns, r#"[1, "2.5"]"#),
            (AttrType::Bs, r#"["AQI="]"#),
        ];
        for (kind, text) in samples {
            let value = kind.parse(text).unwrap();
            assert_eq!(AttrType::of(&value), Some(kind), "{text}");
            assert_eq!(kind.is_nested(), text.starts_with(['{', '[']), "{kind}");
        }
        assert!(
            AttrType::N.parse("1e200").is_err(),
            "beyond DynamoDB's range"
        );
        let err = AttrType::M.parse("{").unwrap_err().to_string();
        assert!(err.starts_with("a map is a DynamoDB JSON object"), "{err}");
    }

    #[test]
    fn a_long_value_s_text_comes_back_whole() {
        use aws_sdk_dynamodb::primitives::Blob;
        let bytes: Vec<u8> = (0..1024u32).map(|i| (i * 7 % 256) as u8).collect();
        let long = "é".repeat(4000);
        let values = [
            AttributeValue::B(Blob::new(bytes.clone())),
            AttributeValue::S(long.clone()),
            AttributeValue::Bs(vec![Blob::new(bytes)]),
            AttributeValue::L(vec![AttributeValue::S(long)]),
            AttributeValue::N("-12345678901234567890123456789012345678E-40".into()),
        ];
        for value in values {
            let (kind, text) = AttrType::text_of(&value);
            assert_eq!(kind.parse(&text).unwrap(), value, "{kind}");
            assert_eq!(value::whole_text(&value), text);
        }
    }
}
