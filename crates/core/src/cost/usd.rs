//! Money and exact decimals as a document writes them: dollars exact (`null` when the price is
//! unknown), and a decimal as a JSON number with every digit.

use std::borrow::Cow;

use bigdecimal::BigDecimal;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

use crate::cost::{Charge, decimal_json};

/// What something cost in US dollars, exact (a JSON number with every digit), or `null` when
/// the price is unknown (another currency, or a Region without a price).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Usd(serde_json::Value);

impl Usd {
    /// Nothing known.
    pub fn unknown() -> Self {
        Self(serde_json::Value::Null)
    }
}

impl From<&Charge> for Usd {
    fn from(charge: &Charge) -> Self {
        Self(charge.usd_json())
    }
}

impl From<Charge> for Usd {
    fn from(charge: Charge) -> Self {
        Self(charge.usd_json())
    }
}

impl JsonSchema for Usd {
    fn schema_name() -> Cow<'static, str> {
        "Usd".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "US dollars, exact (every digit kept); null when the price is unknown.",
            "type": ["number", "null"]
        })
    }
}

/// An exact decimal written as a JSON number with every digit (`0.5`, `2`, `28200`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactNumber(pub BigDecimal);

impl Serialize for ExactNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        decimal_json(&self.0).serialize(serializer)
    }
}

impl JsonSchema for ExactNumber {
    fn schema_name() -> Cow<'static, str> {
        "ExactNumber".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An exact decimal (every digit kept).",
            "type": "number"
        })
    }
}
