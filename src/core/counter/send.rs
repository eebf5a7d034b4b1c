//! Sending a counter edit: never twice when it may already have been applied.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};

use crate::core::counter::{Outcome, UpdatePlan};
use crate::core::error::Error;
use crate::core::read;
use crate::core::value::cell_text;
use crate::core::write::{
    MAX_THROTTLE_RETRIES, is_throttled, may_have_been_applied, without_retries,
};

/// Send a counter edit with `UpdateItem`, `ReturnValues: UPDATED_NEW` and consumed capacity.
///
/// `ADD` and `SET … + :d` are not idempotent, so for them the SDK's automatic retries are off:
/// only a throttling rejection (which the server did not apply) is sent again. When the outcome
/// is unknown (timeout, connection lost after sending, a 5xx), nothing is re-sent: the value is
/// read again and reported. The exact mode is safe to retry and keeps the SDK's retries.
pub async fn update_counter(client: &Client, plan: &UpdatePlan) -> Outcome {
    let mut attempts = 0;
    loop {
        attempts += 1;
        let mut request = client
            .update_item()
            .table_name(&plan.table)
            .set_key(Some(plan.key.clone()))
            .update_expression(&plan.update_expression)
            .set_condition_expression(plan.condition_expression.clone())
            .set_expression_attribute_names(Some(plan.names.clone()))
            .set_expression_attribute_values(Some(plan.values.clone()))
            .return_values(ReturnValue::UpdatedNew)
            .return_consumed_capacity(ReturnConsumedCapacity::Total);
        if plan.condition_expression.is_some() {
            request = request.return_values_on_condition_check_failure(
                ReturnValuesOnConditionCheckFailure::AllOld,
            );
        }
        let result = if plan.mode.retry_is_safe() {
            request.send().await
        } else {
            request
                .customize()
                .config_override(without_retries())
                .send()
                .await
        };
        let err = match result {
            Ok(out) => {
                return Outcome::Applied {
                    new_value: out
                        .attributes
                        .as_ref()
                        .and_then(|a| a.get(&plan.attribute))
                        .map(cell_text),
                    consumed_wcu: out
                        .consumed_capacity
                        .as_ref()
                        .and_then(|c| c.capacity_units())
                        .unwrap_or_default(),
                    attempts,
                };
            }
            Err(err) => err,
        };
        if let SdkError::ServiceError(service) = &err
            && let UpdateItemError::ConditionalCheckFailedException(failed) = service.err()
        {
            return Outcome::ConditionFailed {
                current: failed
                    .item()
                    .and_then(|i| i.get(&plan.attribute))
                    .map(cell_text),
            };
        }
        let error = Error::from_sdk("UpdateItem", err);
        if is_throttled(&error) && attempts <= MAX_THROTTLE_RETRIES {
            tokio::time::sleep(Duration::from_millis(50 << attempts)).await;
            continue;
        }
        if may_have_been_applied(&error) {
            return Outcome::Unknown {
                stored_now: read::read_number(client, &plan.table, &plan.key, &plan.attribute)
                    .await,
                error,
            };
        }
        return Outcome::Failed(error);
    }
}
