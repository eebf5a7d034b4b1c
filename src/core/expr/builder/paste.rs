//! A pasted low-level request, parsed back into the builder.

use std::collections::HashMap;

use crate::core::error::{Error, Result};
use crate::core::expr::builder::{Field, Input, Kind};
use crate::core::value;

impl Input {
    /// Parse a pasted low-level request (`{"TableName": …, "UpdateExpression": …,
    /// "ExpressionAttributeNames": …, "ExpressionAttributeValues": …}`) back into the builder.
    pub fn from_request_json(text: &str) -> Result<Self> {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("not a JSON request: {e}")))?;
        let string = |field: &str| json.get(field).and_then(|v| v.as_str()).map(str::to_owned);
        let mut input = Self::new(&string("TableName").unwrap_or_default());
        for (field, name) in [
            (Field::Update, "UpdateExpression"),
            (Field::Condition, "ConditionExpression"),
            (Field::KeyCondition, "KeyConditionExpression"),
            (Field::Filter, "FilterExpression"),
            (Field::Projection, "ProjectionExpression"),
        ] {
            if let Some(text) = string(name) {
                input.texts.insert(field, text);
            }
        }
        input.index = string("IndexName");
        input.kind = if input.texts.contains_key(&Field::Update) {
            Kind::Update
        } else if input.texts.contains_key(&Field::KeyCondition) {
            Kind::Query
        } else if json.get("Item").is_some() {
            Kind::Put
        } else if json.get("Key").is_some() {
            Kind::Delete
        } else {
            Kind::Scan
        };
        if let Some(item) = json.get("Key").or_else(|| json.get("Item")) {
            input.item = Some(value::item_from_json_value(item)?);
        }
        let names: HashMap<String, String> = match json.get("ExpressionAttributeNames") {
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::Invalid(format!("ExpressionAttributeNames: {e}")))?,
            None => HashMap::new(),
        };
        let values = match json.get("ExpressionAttributeValues") {
            Some(v) => value::item_from_json_value(v)?,
            None => HashMap::new(),
        };
        input.set_maps(&names, &values);
        Ok(input)
    }
}
