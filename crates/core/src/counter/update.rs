//! The `UpdateItem` request of a counter edit: planned from what the user asked
//! (`plan_edit`), built for its destination, conditional on the item existing unless it may
//! create it, and rendered for the code generator and the gateway.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::counter::{Change, EditMode, Planned, plan};
use crate::error::{Error, Result};
use crate::expr::codegen::{
    ClientSetup, Operation, Program, Request, ReturnOptions, ReturnValues, Target,
};
use crate::number::{self, to_dynamodb};
use crate::table::TableInfo;
use crate::value::{self, Item};
use crate::write::{Destination, Idempotency, WritePlan};

/// An `UpdateItem` request for a counter edit, and where it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatePlan {
    /// The connection it was planned on: it is sent there or nowhere.
    pub destination: Destination,
    /// Table name.
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// The number attribute.
    pub attribute: String,
    /// How it is sent.
    pub mode: EditMode,
    /// The checked change.
    pub planned: Planned,
    /// Create the item when it does not exist. Off, the edit is conditional on the item
    /// existing, and a missing item is reported with nothing written.
    pub create: bool,
    /// `UpdateExpression`.
    pub update_expression: String,
    /// `ConditionExpression` (exact mode only).
    pub condition_expression: Option<String>,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
}

/// Refuse key attributes: changing one would address a different item.
pub(crate) fn check_editable(key: &Item, attribute: &str) -> Result<()> {
    if attribute.trim().is_empty() {
        return Err(Error::Invalid(
            "type the name of the number attribute to change".into(),
        ));
    }
    if key.contains_key(attribute) {
        return Err(Error::Invalid(format!(
            "`{attribute}` is part of the key: changing it would make a different item, so it is not editable"
        )));
    }
    Ok(())
}

/// The stored number of `attribute` (`None` when missing); other types are refused, since ADD
/// works only on numbers (and sets).
pub(crate) fn stored_number(
    attribute: &str,
    stored: Option<&AttributeValue>,
) -> Result<Option<String>> {
    match stored {
        None => Ok(None),
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        Some(other) => Err(Error::Invalid(format!(
            "`{attribute}` is {}, not a number: ADD works only on numbers",
            value::type_tag(other)
        ))),
    }
}

/// Build the request for changing `attribute` of the item at `key` in `table`, sent to
/// `destination`. Key attributes are refused. Unless `create`, the request is conditional on
/// the item existing (`attribute_exists` on a key attribute).
pub fn update_plan(
    destination: &Destination,
    table: &str,
    key: Item,
    attribute: &str,
    mode: EditMode,
    planned: Planned,
    create: bool,
) -> Result<UpdatePlan> {
    check_editable(&key, attribute)?;
    let n = |v: &BigDecimal| AttributeValue::N(to_dynamodb(v));
    let mut names = HashMap::from([("#a".to_owned(), attribute.to_owned())]);
    let key_name = key.keys().min().cloned();
    // The value seen, as a condition: `#a = :current`, or that there is none.
    let as_seen = |values: &mut HashMap<String, AttributeValue>| match &planned.current {
        Some(current) => {
            values.insert(":current".to_owned(), n(current));
            "#a = :current".to_owned()
        }
        None => "attribute_not_exists(#a)".to_owned(),
    };
    let (update_expression, mut values) = match mode {
        EditMode::Add => (
            "ADD #a :d".to_owned(),
            HashMap::from([(":d".to_owned(), n(&planned.delta))]),
        ),
        EditMode::SetFromZero => (
            "SET #a = if_not_exists(#a, :zero) + :d".to_owned(),
            HashMap::from([
                (":zero".to_owned(), AttributeValue::N("0".into())),
                (":d".to_owned(), n(&planned.delta)),
            ]),
        ),
        EditMode::Exact => (
            "SET #a = :next".to_owned(),
            HashMap::from([(":next".to_owned(), n(&planned.expected))]),
        ),
    };
    // The exact mode always holds to the value seen; the others when a new value was typed,
    // so that it ends as typed or is refused, never lands on a value that moved meanwhile.
    let condition_expression =
        (mode == EditMode::Exact || planned.pinned).then(|| as_seen(&mut values));
    let condition_expression = match key_name.filter(|_| !create) {
        Some(key_name) => {
            names.insert("#k".to_owned(), key_name);
            Some(match condition_expression {
                Some(condition) => format!("attribute_exists(#k) AND {condition}"),
                None => "attribute_exists(#k)".to_owned(),
            })
        }
        None => condition_expression,
    };
    Ok(UpdatePlan {
        destination: destination.clone(),
        table: table.to_owned(),
        key,
        attribute: attribute.to_owned(),
        mode,
        planned,
        create,
        update_expression,
        condition_expression,
        names,
        values,
    })
}

impl UpdatePlan {
    /// The request in the code generator's terms, so that it renders in every language.
    pub fn request(&self) -> Request {
        Request {
            table: self.table.clone(),
            operation: Operation::Update(self.key.clone()),
            update: Some(self.update_expression.clone()),
            condition: self.condition_expression.clone(),
            key_condition: None,
            filter: None,
            projection: None,
            names: self.names.clone(),
            values: self.values.clone(),
            returns: ReturnOptions {
                values: Some(ReturnValues::UpdatedNew),
                consumed_capacity: true,
                old_item_on_condition_failure: self.condition_expression.is_some(),
            },
        }
    }

    /// Whether sending it twice does what sending it once does: the exact mode's `SET`, and
    /// any change held to the value seen by its condition (a second arrival fails it).
    pub fn repeatable(&self) -> bool {
        self.mode.retry_is_safe() || self.planned.pinned
    }

    /// The write for the gateway: a delta's `ADD` and `SET … + :d` are sent once; the exact
    /// mode's conditional `SET` and a change held to the value seen may be sent again.
    pub fn write_plan(&self) -> Result<WritePlan> {
        let idempotency = if self.repeatable() {
            Idempotency::Repeatable
        } else {
            Idempotency::Once
        };
        let mut key_names: Vec<String> = self.key.keys().cloned().collect();
        key_names.sort();
        WritePlan::single(
            self.destination.clone(),
            self.request(),
            idempotency,
            key_names,
        )
    }

    /// The request's expressions, names and values, a line each, as shown beside a card.
    pub fn request_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("UpdateExpression: {}", self.update_expression)];
        if let Some(condition) = &self.condition_expression {
            lines.push(format!("ConditionExpression: {condition}"));
        }
        let mut names: Vec<_> = self.names.iter().collect();
        names.sort();
        for (k, v) in names {
            lines.push(format!("{k} = {v}"));
        }
        let mut values: Vec<_> = self.values.iter().collect();
        values.sort_by(|a, b| a.0.cmp(b.0));
        for (k, v) in values {
            lines.push(format!("{k} = {}", value::dynamodb_json(v)));
        }
        lines
    }

    /// The request as low-level DynamoDB JSON (what `aws dynamodb update-item --cli-input-json`
    /// and the HTTP API take).
    pub fn to_json(&self) -> String {
        self.request().render(Target::Json, &ClientSetup::default())
    }

    /// The request as an AWS CLI command, quoted for bash, aimed at the connection the edit was
    /// planned on (its endpoint, region and profile).
    pub fn to_aws_cli(&self) -> String {
        self.request()
            .render(Target::Cli, &self.destination.client_setup())
    }

    /// The edit as a whole program in `target` (boto3 or JavaScript), aimed at the connection
    /// it was planned on: the server's new value printed, a failed condition with the item, sent
    /// once when not safe to repeat.
    pub fn program(&self, target: Target) -> Result<Program> {
        self.request()
            .counter_program(target, &self.destination.client_setup())
    }
}

/// An edit the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRequest {
    /// The number attribute.
    pub attribute: String,
    /// The change.
    pub change: Change,
    /// The value to start from (`None`: the one in the item). Set when retrying from the
    /// server's value after a failed condition.
    pub from: Option<String>,
    /// Create the item when it does not exist (off: a missing item is refused).
    pub create: bool,
}

/// Check `request` on the item at `key` before anything is read or sent: not a key attribute,
/// and an amount that is a DynamoDB number (a delta that is not 0).
pub(crate) fn check_request(key: &Item, request: &EditRequest) -> Result<()> {
    check_editable(key, &request.attribute)?;
    match &request.change {
        Change::By(_) => plan(Some("0"), &request.change).map(|_| ()),
        Change::To(value) => number::parse(value)
            .map(|_| ())
            .map_err(|e| Error::Invalid(format!("new value: {e}"))),
    }
}

/// Plan `request` on `item` of table `info` (as loaded in the grid, or as just read) for
/// `destination`: the item's key, the value seen (or `request.from`), the exact delta, and the
/// request sent in `mode`. The app and the CLI both plan here; nothing that fails is sent.
pub fn plan_edit(
    destination: &Destination,
    info: &TableInfo,
    item: &Item,
    request: &EditRequest,
    mode: EditMode,
) -> Result<UpdatePlan> {
    let key = info.key_of(item)?;
    check_editable(&key, &request.attribute)?;
    let current = match &request.from {
        Some(from) => Some(from.clone()),
        None => stored_number(&request.attribute, item.get(&request.attribute))?,
    };
    let planned = plan(current.as_deref(), &request.change)?;
    update_plan(
        destination,
        &info.name,
        key,
        &request.attribute,
        mode,
        planned,
        request.create,
    )
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
