//! The builder's typed values: a placeholder, its DynamoDB type and the text typed for it.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::condition::ScalarType;
use crate::core::error::{Error, Result};
use crate::core::value::{self, Layout, Style, json};

/// The type a value placeholder is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// String.
    S,
    /// Number (exact).
    N,
    /// Binary, as base64.
    B,
    /// `true` or `false`.
    Bool,
    /// Null.
    Null,
    /// A list, as DynamoDB JSON: `[{"N": "1"}]`.
    L,
    /// A map, as DynamoDB JSON: `{"k": {"S": "v"}}`.
    M,
    /// A string set: `["a", "b"]`.
    Ss,
    /// A number set: `["1", "2.5"]`.
    Ns,
    /// A binary set: `["AQI="]`.
    Bs,
}

impl ValueType {
    /// Every type, in the order offered.
    pub const ALL: [Self; 10] = [
        Self::S,
        Self::N,
        Self::B,
        Self::Bool,
        Self::Null,
        Self::L,
        Self::M,
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
            Self::L => "L",
            Self::M => "M",
            Self::Ss => "SS",
            Self::Ns => "NS",
            Self::Bs => "BS",
        }
    }

    /// The type of `value`.
    pub fn of(value: &AttributeValue) -> Self {
        Self::ALL
            .into_iter()
            .find(|t| t.tag() == value::type_tag(value))
            .unwrap_or(Self::S)
    }

    fn scalar(self) -> Option<ScalarType> {
        match self {
            Self::S => Some(ScalarType::S),
            Self::N => Some(ScalarType::N),
            Self::B => Some(ScalarType::B),
            Self::Bool => Some(ScalarType::Bool),
            Self::Null => Some(ScalarType::Null),
            _ => None,
        }
    }

    /// A value of this type from its text: scalars as typed (numbers checked exactly), the
    /// others as JSON (`["a", "b"]` for SS, `[{"N": "1"}]` for L, `{"k": {"S": "v"}}` for M).
    pub fn parse(self, text: &str) -> Result<AttributeValue> {
        if let Some(scalar) = self.scalar() {
            return scalar.parse(text);
        }
        let tag = self.tag();
        let inner = value::strict::parse(text).map_err(|e| {
            Error::Invalid(format!(
                "{tag} is written as JSON: {}",
                value::strict::error_text(&e)
            ))
        })?;
        value::value_from_json(&serde_json::json!({ tag: inner }))
    }
}

/// One value placeholder of the builder: `:one` is an `N` typed as `1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRow {
    /// The placeholder, `:one`.
    pub placeholder: String,
    /// Its type.
    pub kind: ValueType,
    /// The text typed for it.
    pub text: String,
}

impl ValueRow {
    /// A row for `placeholder` holding `value`, written as the builder shows it.
    pub fn new(placeholder: &str, value: &AttributeValue) -> Self {
        let kind = ValueType::of(value);
        let text = match value {
            AttributeValue::S(s) => s.clone(),
            AttributeValue::N(n) => n.clone(),
            AttributeValue::Bool(b) => b.to_string(),
            AttributeValue::Null(_) => String::new(),
            AttributeValue::B(_) => value::cell_text(value),
            other => {
                let inner = match json::value_to_json(other, Style::Typed) {
                    serde_json::Value::Object(mut typed) => {
                        typed.remove(kind.tag()).unwrap_or(serde_json::Value::Null)
                    }
                    plain => plain,
                };
                json::text(&inner, Layout::Compact)
            }
        };
        Self {
            placeholder: placeholder.to_owned(),
            kind,
            text,
        }
    }

    /// The value the row describes.
    pub fn value(&self) -> Result<AttributeValue> {
        self.kind.parse(&self.text)
    }
}
