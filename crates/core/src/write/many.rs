//! The writes of the gateway that carry more than one item: a `TransactWriteItems` and a
//! `BatchWriteItem` of puts, each one attempt with the SDK's retries off.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConsumedCapacity, Delete, DeleteRequest, Put, PutRequest, ReturnConsumedCapacity,
    TransactWriteItem, Update, WriteRequest as WriteRequestSdk,
};

use crate::error::{Error, Result};
use crate::expr::codegen::{Operation, Request, Transaction};
use crate::value::Item;
use crate::write::attempt::{Failure, Sent, old_on_failure};
use crate::write::{Batch, BatchKind, CancelReason, Refusal, one_attempt_within};

pub(super) async fn transact(
    client: &Client,
    transaction: &Transaction,
    budget: Duration,
) -> std::result::Result<(Option<Item>, f64), Failure> {
    let items = transaction
        .writes
        .iter()
        .map(transact_item)
        .collect::<Result<Vec<_>>>()
        .map_err(Failure::Error)?;
    client
        .transact_write_items()
        .set_transact_items(Some(items))
        .set_client_request_token(transaction.token.clone())
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .customize()
        .config_override(one_attempt_within(budget))
        .send()
        .await
        .map(|out| {
            let wcu = out
                .consumed_capacity()
                .iter()
                .filter_map(ConsumedCapacity::capacity_units)
                .sum();
            (None, wcu)
        })
        .map_err(|e| match e {
            SdkError::ServiceError(s)
                if matches!(
                    s.err(),
                    TransactWriteItemsError::TransactionCanceledException(_)
                ) =>
            {
                let reasons = match s.err() {
                    TransactWriteItemsError::TransactionCanceledException(c) => c
                        .cancellation_reasons()
                        .iter()
                        .map(|r| CancelReason::from_code(r.code()))
                        .collect(),
                    _ => Vec::new(),
                };
                Failure::Refused(Refusal::Cancelled { reasons })
            }
            e => Failure::Error(Error::from_sdk("TransactWriteItems", e)),
        })
}

/// What the three writes of a transaction share after their key or item: the condition,
/// names, values and what to return on a failed condition; built.
macro_rules! transact_write {
    ($builder:expr, $request:expr) => {
        $builder
            .table_name(&$request.table)
            .set_condition_expression($request.condition.clone())
            .set_expression_attribute_names($request.names_sent())
            .set_expression_attribute_values($request.values_sent())
            .set_return_values_on_condition_check_failure(old_on_failure($request))
            .build()
            .map_err(|e| Error::Invalid(e.to_string()))?
    };
}

/// One write of a transaction as the SDK's item.
fn transact_item(request: &Request) -> Result<TransactWriteItem> {
    let item = match &request.operation {
        Operation::Update(key) => TransactWriteItem::builder().update(transact_write!(
            Update::builder()
                .set_key(Some(key.clone()))
                .set_update_expression(request.update.clone()),
            request
        )),
        Operation::Put(item) => TransactWriteItem::builder().put(transact_write!(
            Put::builder().set_item(Some(item.clone())),
            request
        )),
        Operation::Delete(key) => TransactWriteItem::builder().delete(transact_write!(
            Delete::builder().set_key(Some(key.clone())),
            request
        )),
        Operation::Query(_) | Operation::Scan(_) => {
            return Err(Error::Invalid(format!(
                "a transaction cannot hold a {}",
                request.operation_name()
            )));
        }
    };
    Ok(item.build())
}

/// One `BatchWriteItem` of puts or deletes: the items (or keys) the server left unprocessed
/// come back.
pub(super) async fn batch(
    client: &Client,
    batch: &Batch,
    budget: Duration,
) -> std::result::Result<Sent, Failure> {
    let requests = batch
        .items
        .iter()
        .map(|item| match batch.kind {
            BatchKind::Put => PutRequest::builder()
                .set_item(Some(item.clone()))
                .build()
                .map(|put| WriteRequestSdk::builder().put_request(put).build()),
            BatchKind::Delete => DeleteRequest::builder()
                .set_key(Some(item.clone()))
                .build()
                .map(|delete| WriteRequestSdk::builder().delete_request(delete).build()),
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Failure::Error(Error::Invalid(e.to_string())))?;
    let out = client
        .batch_write_item()
        .request_items(&batch.table, requests)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .customize()
        .config_override(one_attempt_within(budget))
        .send()
        .await
        .map_err(|e| Failure::Error(Error::from_sdk("BatchWriteItem", e)))?;
    let wcu = out
        .consumed_capacity()
        .iter()
        .filter_map(ConsumedCapacity::capacity_units)
        .sum();
    let unprocessed = out
        .unprocessed_items
        .unwrap_or_default()
        .into_values()
        .flatten()
        .filter_map(|w| match (w.put_request, w.delete_request) {
            (Some(put), _) => Some(put.item),
            (None, Some(delete)) => Some(delete.key),
            (None, None) => None,
        })
        .collect();
    Ok(Sent {
        returned: None,
        wcu,
        unprocessed,
    })
}
