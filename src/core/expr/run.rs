//! Running a built request against the connection.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{ReturnConsumedCapacity, ReturnValue};

use crate::core::error::{Error, Result};
use crate::core::expr::codegen::{Operation, Request, ReturnValues};
use crate::core::value::Item;
use crate::core::write;

/// What a run returned.
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    /// One line on what happened.
    pub summary: String,
    /// Capacity consumed (read or write).
    pub consumed: f64,
    /// The item after an update, or the items of the first page of a Query or Scan.
    pub items: Vec<Item>,
}

fn some_map<K, V>(map: &std::collections::HashMap<K, V>) -> Option<std::collections::HashMap<K, V>>
where
    K: Clone + Eq + std::hash::Hash,
    V: Clone,
{
    (!map.is_empty()).then(|| map.clone())
}

/// Send `request` once, as it is written (a Query or Scan reads its first page). Writes are never retried by the
/// SDK: a built update may be an `ADD`, which must not be applied twice after a lost answer.
pub async fn run(client: &Client, request: &Request) -> Result<RunResult> {
    let names = some_map(&request.names);
    let values = some_map(&request.values);
    let capacity = |c: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>| {
        c.and_then(|c| c.capacity_units()).unwrap_or_default()
    };
    match &request.operation {
        Operation::Update(key) => {
            let out = client
                .update_item()
                .table_name(&request.table)
                .set_key(Some(key.clone()))
                .set_update_expression(request.update.clone())
                .set_condition_expression(request.condition.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values(return_values(request))
                .set_return_consumed_capacity(consumed(request))
                .customize()
                .config_override(write::without_retries())
                .send()
                .await
                .map_err(|e| Error::from_sdk("UpdateItem", e))?;
            Ok(written(
                "UpdateItem",
                out.attributes,
                capacity(out.consumed_capacity.as_ref()),
            ))
        }
        Operation::Delete(key) => {
            let out = client
                .delete_item()
                .table_name(&request.table)
                .set_key(Some(key.clone()))
                .set_condition_expression(request.condition.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values(return_values(request))
                .set_return_consumed_capacity(consumed(request))
                .customize()
                .config_override(write::without_retries())
                .send()
                .await
                .map_err(|e| Error::from_sdk("DeleteItem", e))?;
            Ok(written(
                "DeleteItem",
                out.attributes,
                capacity(out.consumed_capacity.as_ref()),
            ))
        }
        Operation::Put(item) => {
            let out = client
                .put_item()
                .table_name(&request.table)
                .set_item(Some(item.clone()))
                .set_condition_expression(request.condition.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_consumed_capacity(consumed(request))
                .customize()
                .config_override(write::without_retries())
                .send()
                .await
                .map_err(|e| Error::from_sdk("PutItem", e))?;
            Ok(written(
                "PutItem",
                Some(item.clone()),
                capacity(out.consumed_capacity.as_ref()),
            ))
        }
        Operation::Query(index) => {
            let out = client
                .query()
                .table_name(&request.table)
                .set_index_name(index.clone())
                .set_key_condition_expression(request.key_condition.clone())
                .set_filter_expression(request.filter.clone())
                .set_projection_expression(request.projection.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_consumed_capacity(consumed(request))
                .send()
                .await
                .map_err(|e| Error::from_sdk("Query", e))?;
            Ok(first_page(
                "Query",
                out.items.unwrap_or_default(),
                out.scanned_count,
                out.last_evaluated_key.is_some(),
                capacity(out.consumed_capacity.as_ref()),
            ))
        }
        Operation::Scan(index) => {
            let out = client
                .scan()
                .table_name(&request.table)
                .set_index_name(index.clone())
                .set_filter_expression(request.filter.clone())
                .set_projection_expression(request.projection.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_consumed_capacity(consumed(request))
                .send()
                .await
                .map_err(|e| Error::from_sdk("Scan", e))?;
            Ok(first_page(
                "Scan",
                out.items.unwrap_or_default(),
                out.scanned_count,
                out.last_evaluated_key.is_some(),
                capacity(out.consumed_capacity.as_ref()),
            ))
        }
    }
}

/// `ReturnValues` as the request asks.
fn return_values(request: &Request) -> Option<ReturnValue> {
    request.returns.values.map(|v| match v {
        ReturnValues::UpdatedNew => ReturnValue::UpdatedNew,
        ReturnValues::AllNew => ReturnValue::AllNew,
        ReturnValues::AllOld => ReturnValue::AllOld,
    })
}

/// `ReturnConsumedCapacity` as the request asks.
fn consumed(request: &Request) -> Option<ReturnConsumedCapacity> {
    request
        .returns
        .consumed_capacity
        .then_some(ReturnConsumedCapacity::Total)
}

fn written(op: &str, item: Option<Item>, consumed: f64) -> RunResult {
    RunResult {
        summary: format!("{op} applied · {consumed} WCU"),
        consumed,
        items: item.into_iter().collect(),
    }
}

fn first_page(op: &str, items: Vec<Item>, scanned: i32, more: bool, consumed: f64) -> RunResult {
    RunResult {
        summary: format!(
            "{op}: {} items on the first page ({scanned} scanned) · {consumed} RCU{}",
            items.len(),
            if more { " · more pages" } else { "" }
        ),
        consumed,
        items,
    }
}
