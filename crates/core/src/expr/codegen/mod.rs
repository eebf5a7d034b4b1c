//! Requests rendered as code: low-level JSON, AWS CLI (bash quoting), boto3, JavaScript SDK v3
//! (client and DocumentClient) and Rust `aws-sdk-dynamodb`. Every request the app shows or copies
//! — built ones, ADD edits, repairs, like transactions — is written here, numbers exact in each.

mod electro;
mod langs;
mod literal;
mod partiql;
mod program;
mod render;
mod setup;
mod shell;
mod statement;
mod target;
mod toolbox;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Result;
use crate::value::{Item, Style, json};

pub use crate::connection::ClientSetup;
pub use program::{PROGRAM_TARGETS, Program, ReconcileShape};
pub(crate) use shell::shell_quote;
pub use shell::shell_words;
pub use target::Target;

/// What the request does.
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    /// `UpdateItem` on `key`.
    Update(Item),
    /// `PutItem` of `item` (with a condition).
    Put(Item),
    /// `DeleteItem` of `key` (with a condition).
    Delete(Item),
    /// `Query`, optionally on an index.
    Query(Option<String>),
    /// `Scan`, optionally on an index.
    Scan(Option<String>),
}

impl Operation {
    /// Whether it writes (Update, Put, Delete).
    pub fn is_write(&self) -> bool {
        matches!(self, Self::Update(_) | Self::Put(_) | Self::Delete(_))
    }

    /// The key it addresses, or the item it puts.
    pub fn item(&self) -> Option<&Item> {
        match self {
            Self::Update(item) | Self::Put(item) | Self::Delete(item) => Some(item),
            Self::Query(_) | Self::Scan(_) => None,
        }
    }
}

/// `ReturnValues`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnValues {
    /// The updated attributes as they are now.
    UpdatedNew,
    /// The whole item as it is now.
    AllNew,
    /// The whole item as it was.
    AllOld,
}

impl ReturnValues {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UpdatedNew => "UPDATED_NEW",
            Self::AllNew => "ALL_NEW",
            Self::AllOld => "ALL_OLD",
        }
    }
}

/// What a request asks the server to send back besides doing its work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReturnOptions {
    /// `ReturnValues`.
    pub values: Option<ReturnValues>,
    /// `ReturnConsumedCapacity: TOTAL`.
    pub consumed_capacity: bool,
    /// `ReturnValuesOnConditionCheckFailure: ALL_OLD`.
    pub old_item_on_condition_failure: bool,
}

/// A request and its expressions, with placeholders already assigned.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Table name.
    pub table: String,
    /// The operation.
    pub operation: Operation,
    /// `UpdateExpression`.
    pub update: Option<String>,
    /// `ConditionExpression`.
    pub condition: Option<String>,
    /// `KeyConditionExpression`.
    pub key_condition: Option<String>,
    /// `FilterExpression`.
    pub filter: Option<String>,
    /// `ProjectionExpression`.
    pub projection: Option<String>,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
    /// What the server is asked to send back.
    pub returns: ReturnOptions,
}

/// A `TransactWriteItems`: writes that all happen or none does.
#[derive(Debug, Clone, PartialEq)]
pub struct Transaction {
    /// The writes, in order: each an Update, Put or Delete.
    pub writes: Vec<Request>,
    /// `ClientRequestToken`, which makes a retry idempotent.
    pub token: Option<String>,
    /// `ReturnConsumedCapacity: TOTAL`.
    pub consumed_capacity: bool,
}

/// The names of one API operation in each language.
#[derive(Debug, Clone, Copy)]
struct Api {
    /// `UpdateItem`.
    name: &'static str,
    /// `update-item`.
    cli: &'static str,
    /// `update_item`.
    snake: &'static str,
    /// The DocumentClient's command: `UpdateCommand`.
    document: &'static str,
}

/// One field of a call, typed by how each language writes it.
#[derive(Debug, Clone)]
enum Field {
    Text(String),
    /// An enum option such as `UPDATED_NEW`: a string everywhere but in Rust.
    Option(&'static str),
    Names(Vec<(String, String)>),
    Item(Item),
    /// `Parameters`: typed values in order.
    Values(Vec<AttributeValue>),
    /// `TransactItems`: each write's kind (`Put`, `Update`, `Delete`) and its fields.
    Writes(Vec<(&'static str, Vec<(&'static str, Field)>)>),
}

impl Field {
    /// The field as JSON, DynamoDB-typed where it holds values.
    fn json(&self) -> serde_json::Value {
        match self {
            Self::Text(t) => serde_json::Value::String(t.clone()),
            Self::Option(o) => serde_json::Value::String((*o).to_owned()),
            Self::Names(names) => serde_json::Value::Object(
                names
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                    .collect(),
            ),
            Self::Item(item) => json::item_to_json(item, &[], Style::Typed),
            Self::Values(values) => serde_json::Value::Array(
                values
                    .iter()
                    .map(|v| json::value_to_json(v, Style::Typed))
                    .collect(),
            ),
            Self::Writes(writes) => serde_json::Value::Array(
                writes
                    .iter()
                    .map(|(kind, fields)| serde_json::json!({ *kind: fields_json(fields) }))
                    .collect(),
            ),
        }
    }
}

fn fields_json(fields: &[(&'static str, Field)]) -> serde_json::Value {
    serde_json::Value::Object(
        fields
            .iter()
            .map(|(name, field)| ((*name).to_owned(), field.json()))
            .collect(),
    )
}

/// An API call: the operation and its fields, in the API's names and order.
#[derive(Debug, Clone)]
struct Call {
    api: Api,
    fields: Vec<(&'static str, Field)>,
}

impl Request {
    /// `ExpressionAttributeNames` as sent: none when there are none (DynamoDB refuses an empty
    /// map).
    pub(crate) fn names_sent(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// `ExpressionAttributeValues` as sent: none when there are none.
    pub(crate) fn values_sent(&self) -> Option<HashMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }

    fn api(&self) -> Api {
        let (name, cli, snake, document) = match self.operation {
            Operation::Update(_) => ("UpdateItem", "update-item", "update_item", "UpdateCommand"),
            Operation::Put(_) => ("PutItem", "put-item", "put_item", "PutCommand"),
            Operation::Delete(_) => ("DeleteItem", "delete-item", "delete_item", "DeleteCommand"),
            Operation::Query(_) => ("Query", "query", "query", "QueryCommand"),
            Operation::Scan(_) => ("Scan", "scan", "scan", "ScanCommand"),
        };
        Api {
            name,
            cli,
            snake,
            document,
        }
    }

    /// The fields of the request, in the API's names.
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let mut fields = vec![("TableName", Field::Text(self.table.clone()))];
        match &self.operation {
            Operation::Update(key) | Operation::Delete(key) => {
                fields.push(("Key", Field::Item(key.clone())));
            }
            Operation::Put(item) => fields.push(("Item", Field::Item(item.clone()))),
            Operation::Query(Some(index)) | Operation::Scan(Some(index)) => {
                fields.push(("IndexName", Field::Text(index.clone())));
            }
            _ => {}
        }
        let texts = [
            ("KeyConditionExpression", &self.key_condition),
            ("UpdateExpression", &self.update),
            ("ConditionExpression", &self.condition),
            ("FilterExpression", &self.filter),
            ("ProjectionExpression", &self.projection),
        ];
        for (name, text) in texts {
            if let Some(text) = text {
                fields.push((name, Field::Text(text.clone())));
            }
        }
        if !self.names.is_empty() {
            let mut names: Vec<(String, String)> = self
                .names
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            names.sort();
            fields.push(("ExpressionAttributeNames", Field::Names(names)));
        }
        if !self.values.is_empty() {
            fields.push((
                "ExpressionAttributeValues",
                Field::Item(self.values.clone()),
            ));
        }
        let returns = self.returns;
        if let Some(values) = returns.values {
            fields.push(("ReturnValues", Field::Option(values.as_str())));
        }
        if returns.consumed_capacity {
            fields.push(("ReturnConsumedCapacity", Field::Option("TOTAL")));
        }
        if returns.old_item_on_condition_failure {
            fields.push((
                "ReturnValuesOnConditionCheckFailure",
                Field::Option("ALL_OLD"),
            ));
        }
        fields
    }

    fn call(&self) -> Call {
        Call {
            api: self.api(),
            fields: self.fields(),
        }
    }

    /// The API's name of the operation: `UpdateItem`, `Query`, …
    pub fn operation_name(&self) -> &'static str {
        self.api().name
    }

    /// Render as `target`, connecting as `setup` says (see [`ClientSetup`]; JSON, the request
    /// body alone, leaves it out).
    pub fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match target {
            // PartiQL and dynamodb-toolbox are written from the expressions themselves, not
            // from the call.
            Target::PartiQl => self.partiql_text(),
            Target::Toolbox => self.toolbox_text(setup),
            Target::ElectroDb => self.electro_text(setup),
            _ => self.call().render(target, setup),
        }
    }

    /// Whether `target` can say this request: PartiQL and dynamodb-toolbox refuse, in words,
    /// what they cannot write (their code shows the words as a comment).
    pub fn sayable_in(&self, target: Target) -> Result<()> {
        match target {
            Target::PartiQl => self.partiql().map(|_| ()),
            Target::Toolbox => self.toolbox(&ClientSetup::default(), false).map(|_| ()),
            Target::ElectroDb => (self.electro(&ClientSetup::default(), false, None)).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// The low-level request body as JSON (what `--cli-input-json` and the HTTP API take).
    pub fn json(&self) -> serde_json::Value {
        fields_json(&self.call().fields)
    }
}

impl Transaction {
    fn call(&self) -> Call {
        let writes = self
            .writes
            .iter()
            .map(|w| {
                let kind = match w.operation {
                    Operation::Put(_) => "Put",
                    Operation::Delete(_) => "Delete",
                    _ => "Update",
                };
                (kind, w.fields())
            })
            .collect();
        let mut fields = vec![("TransactItems", Field::Writes(writes))];
        if self.consumed_capacity {
            fields.push(("ReturnConsumedCapacity", Field::Option("TOTAL")));
        }
        if let Some(token) = &self.token {
            fields.push(("ClientRequestToken", Field::Text(token.clone())));
        }
        Call {
            api: Api {
                name: "TransactWriteItems",
                cli: "transact-write-items",
                snake: "transact_write_items",
                document: "TransactWriteCommand",
            },
            fields,
        }
    }

    /// Render as `target`, connecting as `setup` says (JSON leaves it out).
    pub fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match target {
            Target::PartiQl => self.partiql_text(),
            Target::Toolbox => self.toolbox_text(setup),
            Target::ElectroDb => self.electro_text(setup),
            _ => self.call().render(target, setup),
        }
    }

    /// The low-level request body as JSON.
    pub fn json(&self) -> serde_json::Value {
        fields_json(&self.call().fields)
    }
}

#[cfg(test)]
mod tests;
