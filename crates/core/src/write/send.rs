//! The one place writes are sent: the destination checked, the confirmation required, what may
//! be sent again decided by idempotency and how often by the one retry policy
//! ([`Policy::WRITES`]), every failure sorted into refused or unknown.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::execute_statement::ExecuteStatementError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::connection::Reader;
use crate::error::{Error, throttle_words};
use crate::expr::codegen::{Request, ReturnValues};
use crate::read;
use crate::report::throttled_note;
use crate::retry::{self, Next, Policy, Retries};
use crate::statement::Statement;
use crate::value::Item;
use crate::write::attempt::{Failure, Sent, old_on_failure};
use crate::write::many;
use crate::write::sendable::{refused_unsent, resend_kind};
use crate::write::{
    Batch, Deadline, Refusal, Unwritten, WriteOutcome, WritePlan, WriteRequest,
    may_have_been_applied, one_attempt_within,
};
use crate::write::{SingleWrite, WriteOp};

/// Send `plan` on `connection`, the one it was planned on. `confirmed` says the user agreed to
/// the plan's [`confirmation`](WritePlan::confirmation) question; a write that needs one and
/// lacks it, a read-only connection, or another connection than planned are refused unsent.
///
/// The connection's timeout is one deadline for the whole write: every attempt is given what is
/// left of it, and a re-send (after throttling, a conflict, a lost answer, unprocessed items)
/// is made only while its wait and a fair share of an attempt still fit before it.
pub async fn send(connection: &Connection, plan: &WritePlan, confirmed: bool) -> WriteOutcome {
    send_until(connection, plan, confirmed, &CancelToken::default()).await
}

/// Wait `wait` before a re-send; `false` when `stop` was used first (then nothing more is
/// sent).
async fn wait_unless_stopped(wait: Duration, stop: &CancelToken) -> bool {
    tokio::select! {
        () = tokio::time::sleep(wait) => !stop.is_cancelled(),
        () = stop.cancelled() => false,
    }
}

/// [`send`], sending nothing more once `stop` is used (a signal, Cancel): a re-send still to
/// come is not made, and the write ends as its last attempt says (refused after throttling or a
/// conflict, unknown after a lost answer, applied with a batch's unprocessed items left). An
/// attempt under way is never cut short: its answer decides.
pub(crate) async fn send_until(
    connection: &Connection,
    plan: &WritePlan,
    confirmed: bool,
    stop: &CancelToken,
) -> WriteOutcome {
    if let Some(refused) = refused_unsent(connection, plan, confirmed) {
        return refused;
    }
    let client = &connection.client;
    let deadline = Deadline::after(connection.timeout);
    let mut retries = Retries::new(Policy::WRITES, connection.timeout);
    let mut so_far = SoFar::default();
    loop {
        let attempts = retries.attempts();
        let request = so_far.remaining.as_ref().unwrap_or(&plan.request);
        let failure = match attempt(client, request, deadline.left()).await {
            Ok(sent) => {
                so_far.wcu += sent.wcu;
                if let WriteRequest::Batch(batch) = request
                    && !sent.unprocessed.is_empty()
                    && let Next::Resend(wait) =
                        retries.next(retry::Failure::Unprocessed, deadline.left())
                    && wait_unless_stopped(wait, stop).await
                {
                    so_far.remaining = Some(WriteRequest::Batch(Batch {
                        table: batch.table.clone(),
                        kind: batch.kind,
                        items: sent.unprocessed,
                    }));
                    continue;
                }
                return WriteOutcome::Applied {
                    returned: sent.returned,
                    consumed_wcu: so_far.wcu,
                    attempts,
                    unwritten: (!sent.unprocessed.is_empty()).then(|| Unwritten {
                        items: sent.unprocessed,
                        refusal: None,
                    }),
                    throttled: so_far.throttled,
                };
            }
            Err(failure) => failure,
        };
        let again = resend_kind(&failure, plan);
        if let Some(kind) = again
            && !stop.is_cancelled()
            && let Next::Resend(wait) = retries.next(kind, deadline.left())
        {
            match (kind, &failure) {
                (retry::Failure::Lost, Failure::Error(error)) => {
                    so_far.uncertain.get_or_insert_with(|| error.clone());
                }
                (retry::Failure::Throttled, Failure::Error(error)) => {
                    so_far.throttled.push(throttled_note(
                        retries.attempts(),
                        wait,
                        throttle_words(error.throttle_reasons()).as_deref(),
                    ));
                }
                _ => {}
            }
            if wait_unless_stopped(wait, stop).await {
                continue;
            }
        }
        return gave_up(client, plan, failure, so_far, attempts, connection.timeout).await;
    }
}

/// What a write gathered over its attempts so far.
#[derive(Default)]
struct SoFar {
    /// A batch's items still to send: all of them, then what the server left unprocessed.
    remaining: Option<WriteRequest>,
    /// Write capacity consumed.
    wcu: f64,
    /// The first failure after which the write may have been applied, when it was re-sent.
    uncertain: Option<Error>,
    /// Each throttled attempt's wait, in words.
    throttled: Vec<String>,
}

/// How a write ends after its last attempt failed and is not sent again: unknown when it may
/// have been applied (then read again), applied in part for a batch's earlier rounds, or
/// refused.
async fn gave_up(
    client: &Client,
    plan: &WritePlan,
    failure: Failure,
    so_far: SoFar,
    attempts: u32,
    timeout: Duration,
) -> WriteOutcome {
    let refusal = match failure {
        Failure::Refused(refusal) => refusal,
        Failure::Error(error) if may_have_been_applied(&error) => {
            return unknown(
                client,
                plan,
                so_far.uncertain.unwrap_or(error),
                attempts,
                timeout,
            )
            .await;
        }
        Failure::Error(error) => Refusal::Error(error),
    };
    // A refusal after an earlier attempt may have been applied does not say the earlier
    // one was not: a re-sent conditional write fails its own condition once the first
    // attempt got through.
    if let Some(error) = so_far.uncertain {
        return unknown(client, plan, error, attempts, timeout).await;
    }
    // A batch's earlier rounds wrote all but these: refusing these leaves those written.
    if let Some(WriteRequest::Batch(left)) = so_far.remaining {
        return WriteOutcome::Applied {
            returned: None,
            consumed_wcu: so_far.wcu,
            attempts,
            unwritten: Some(Unwritten {
                items: left.items,
                refusal: Some(refusal),
            }),
            throttled: so_far.throttled,
        };
    }
    WriteOutcome::Refused { refusal, attempts }
}

/// Read every written item again (consistent reads, all at once), never re-sending the write.
/// The reads together get one timeout more: an item not read by then is said so.
async fn unknown(
    client: &Client,
    plan: &WritePlan,
    error: Error,
    attempts: u32,
    timeout: Duration,
) -> WriteOutcome {
    let mut reads = tokio::task::JoinSet::new();
    let targets = plan.target_keys();
    for (i, (table, key)) in targets.iter().cloned().enumerate() {
        let client = client.clone();
        reads.spawn(async move { (i, read::get_item(&Reader::of(&client), &table, key).await) });
    }
    let not_read = || {
        Err(Error::Timeout {
            op: "GetItem",
            detail: format!("not read again within {} s", timeout.as_secs_f64()),
        })
    };
    let mut stored_now: Vec<crate::error::Result<Option<Item>>> =
        targets.iter().map(|_| not_read()).collect();
    let _ = tokio::time::timeout(timeout, async {
        while let Some(done) = reads.join_next().await {
            if let Ok((i, read)) = done {
                stored_now[i] = read;
            }
        }
    })
    .await;
    WriteOutcome::Unknown {
        error,
        attempts,
        stored_now,
    }
}

/// A failed attempt of `op`: a failed condition, when `condition` finds one in the server's
/// error (with the item as stored, when it was sent back), or the error.
fn failure<E>(
    op: &'static str,
    err: SdkError<E, HttpResponse>,
    condition: impl Fn(&E) -> Option<Option<Item>>,
) -> Failure
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    if let SdkError::ServiceError(service) = &err
        && let Some(stored) = condition(service.err())
    {
        return Failure::Refused(Refusal::Condition { stored });
    }
    Failure::Error(Error::from_sdk(op, err))
}

fn return_values(request: &Request) -> Option<ReturnValue> {
    request.returns.values.map(|v| match v {
        ReturnValues::UpdatedNew => ReturnValue::UpdatedNew,
        ReturnValues::AllNew => ReturnValue::AllNew,
        ReturnValues::AllOld => ReturnValue::AllOld,
    })
}

/// One attempt, with the SDK's own retries off: re-sending is decided above, by idempotency.
/// `budget`: what is left of the write's deadline, the most this attempt may take.
async fn attempt(
    client: &Client,
    request: &WriteRequest,
    budget: Duration,
) -> std::result::Result<Sent, Failure> {
    let answered = |(returned, wcu): (Option<Item>, f64)| Sent {
        returned,
        wcu,
        unprocessed: Vec::new(),
    };
    match request {
        WriteRequest::Single(write) => single(client, write, budget).await.map(answered),
        WriteRequest::Transaction(transaction) => many::transact(client, transaction, budget)
            .await
            .map(answered),
        WriteRequest::Statement(statement) => {
            execute(client, statement, budget).await.map(answered)
        }
        WriteRequest::Batch(batch) => many::batch(client, batch, budget).await,
        WriteRequest::Table(setting) => super::setting::table_setting(client, setting, budget)
            .await
            .map(|returned| answered((returned, 0.0))),
    }
}

/// One PartiQL write: the item it returned (`RETURNING`), or on a failed condition the item as
/// stored (`ALL_OLD`).
async fn execute(
    client: &Client,
    statement: &Statement,
    budget: Duration,
) -> std::result::Result<(Option<Item>, f64), Failure> {
    client
        .execute_statement()
        .statement(&statement.text)
        .set_parameters((!statement.params.is_empty()).then(|| statement.params.clone()))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .customize()
        .config_override(one_attempt_within(budget))
        .send()
        .await
        .map(|out| {
            let wcu = read::consumed_units(out.consumed_capacity());
            (out.items.and_then(|items| items.into_iter().next()), wcu)
        })
        .map_err(|e| {
            failure("ExecuteStatement", e, |e| match e {
                ExecuteStatementError::ConditionalCheckFailedException(c) => Some(c.item.clone()),
                _ => None,
            })
        })
}

/// What the three single writes share after their key or item: the condition, names, values,
/// what to return, capacity, and the SDK's retries off. One attempt, sent.
macro_rules! send_once {
    ($builder:expr, $request:expr, $budget:expr) => {
        $builder
            .table_name(&$request.table)
            .set_condition_expression($request.condition.clone())
            .set_expression_attribute_names($request.names_sent())
            .set_expression_attribute_values($request.values_sent())
            .set_return_values(return_values($request))
            .set_return_values_on_condition_check_failure(old_on_failure($request))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .customize()
            .config_override(one_attempt_within($budget))
            .send()
            .await
    };
}

async fn single(
    client: &Client,
    write: &SingleWrite,
    budget: Duration,
) -> std::result::Result<(Option<Item>, f64), Failure> {
    let request = write.request();
    match write.op() {
        WriteOp::Update(key) => send_once!(
            client
                .update_item()
                .set_key(Some(key.clone()))
                .set_update_expression(request.update.clone()),
            request,
            budget
        )
        .map(|out| {
            (
                out.attributes,
                read::consumed_units(out.consumed_capacity.as_ref()),
            )
        })
        .map_err(|e| {
            failure("UpdateItem", e, |e| match e {
                UpdateItemError::ConditionalCheckFailedException(c) => Some(c.item.clone()),
                _ => None,
            })
        }),
        WriteOp::Put(item) => send_once!(
            client.put_item().set_item(Some(item.clone())),
            request,
            budget
        )
        // A put returns the item it wrote: it is what is stored now.
        .map(|out| {
            (
                Some(item.clone()),
                read::consumed_units(out.consumed_capacity.as_ref()),
            )
        })
        .map_err(|e| {
            failure("PutItem", e, |e| match e {
                PutItemError::ConditionalCheckFailedException(c) => Some(c.item.clone()),
                _ => None,
            })
        }),
        WriteOp::Delete(key) => send_once!(
            client.delete_item().set_key(Some(key.clone())),
            request,
            budget
        )
        .map(|out| {
            (
                out.attributes,
                read::consumed_units(out.consumed_capacity.as_ref()),
            )
        })
        .map_err(|e| {
            failure("DeleteItem", e, |e| match e {
                DeleteItemError::ConditionalCheckFailedException(c) => Some(c.item.clone()),
                _ => None,
            })
        }),
    }
}
