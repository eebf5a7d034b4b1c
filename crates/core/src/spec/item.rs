//! One whole item written or removed, as typed.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::expr::codegen::{Operation, Request, ReturnOptions};
use crate::spec::{InputError, KeySpec};
use crate::table::TableInfo;
use crate::{validate, value};

/// Put one whole item (replacing the item with its key, unless `create_only`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PutSpec {
    /// The table.
    pub table: String,
    /// The item as DynamoDB JSON text: `{"PK": {"S": "POST#a91f"}, "SK": {"S": "META"}, …}`.
    pub item: String,
    /// Only when no item has its key (`attribute_not_exists`).
    #[serde(default)]
    pub create_only: bool,
}

/// Read the item with one key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetSpec {
    /// The table.
    pub table: String,
    /// The item's key, e.g. `{"PK": "POST#a91f", "SK": "META"}`.
    pub key: KeySpec,
}

/// Delete the item with one key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteSpec {
    /// The table.
    pub table: String,
    /// The item's key, e.g. `{"PK": "POST#a91f", "SK": "LIKE#USER#7c20"}`.
    pub key: KeySpec,
}

impl PutSpec {
    /// The item alone, checked before the table is even described: what DynamoDB would refuse
    /// of any item.
    pub fn item(&self) -> Result<value::Item, InputError> {
        let item = value::item_from_dynamodb_json(&self.item)
            .map_err(|e| InputError::from_error("item", e.at("item")))?;
        validate::check_values(&item).map_err(|e| InputError::from_error("item", e.at("item")))?;
        Ok(item)
    }

    /// The PutItem request, the item checked against `info`.
    pub fn plan(&self, info: &TableInfo) -> Result<Request, InputError> {
        let item = self.item()?;
        validate::check_item(&item, info)
            .map_err(|e| InputError::from_error("item", e.at("item")))?;
        let (condition, names) = if self.create_only {
            (
                Some("attribute_not_exists(#pk)".to_owned()),
                HashMap::from([("#pk".to_owned(), info.partition.name.clone())]),
            )
        } else {
            (None, HashMap::new())
        };
        Ok(request(&self.table, Operation::Put(item), condition, names))
    }
}

impl DeleteSpec {
    /// The DeleteItem request, its key checked against `info`.
    pub fn plan(&self, info: &TableInfo) -> Result<Request, InputError> {
        let key = self.key.plan(info)?;
        Ok(request(
            &self.table,
            Operation::Delete(key),
            None,
            HashMap::new(),
        ))
    }
}

fn request(
    table: &str,
    operation: Operation,
    condition: Option<String>,
    names: HashMap<String, String>,
) -> Request {
    Request {
        table: table.to_owned(),
        operation,
        update: None,
        condition,
        key_condition: None,
        filter: None,
        projection: None,
        names,
        values: HashMap::new(),
        returns: ReturnOptions {
            values: None,
            consumed_capacity: true,
            old_item_on_condition_failure: true,
        },
    }
}
