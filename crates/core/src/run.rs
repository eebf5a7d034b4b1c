//! Running a request the expression builder made: a write through the write gateway, a Query
//! or Scan for its first page. Above both the builder and the gateway, so neither needs the other.

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::connection::Connection;
use crate::cost::Pricing;
use crate::error::{Error, Result};
use crate::expr::codegen::{Operation, Request};
use crate::expr::parser::{Maps, parse_update};
use crate::read;
use crate::report::{Tone, capacity as capacity_text};
use crate::value::Item;
use crate::write::{
    self, CancelReason, Destination, Idempotency, Refusal, WriteOutcome, WritePlan, WriteRequest,
};

/// What a run returned.
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    /// One line on what happened.
    pub summary: String,
    /// How that line reads: good (applied, read), a warning (refused, unknown).
    pub tone: Tone,
    /// Capacity consumed (read or write).
    pub consumed: f64,
    /// The item after an update, or the items of the first page of a Query or Scan.
    pub items: Vec<Item>,
}

/// How safe a built write is to send again: a `Put` and a `Delete` are; an update is when its
/// parsed actions say so ([`Update::repeatable`](crate::expr::ast::Update::repeatable)); anything that cannot be read is sent once.
pub fn idempotency(request: &Request) -> Idempotency {
    let Some(update) = request.update.as_deref() else {
        return Idempotency::Repeatable;
    };
    let maps = Maps::strict(&request.names, &request.values);
    match parse_update(update, maps, &[]) {
        Ok(parsed) if parsed.repeatable() => Idempotency::Repeatable,
        _ => Idempotency::Once,
    }
}

/// The write plan of a built write, for the destination `connection` is now: made when the user
/// presses Run, so that what is confirmed is what is sent.
pub fn plan_write(
    connection: &Connection,
    request: &Request,
    key_names: Vec<String>,
) -> Result<WritePlan> {
    WritePlan::single(
        Destination::of(connection),
        request.clone(),
        idempotency(request),
        key_names,
    )
}

/// Send a built write `plan` through the write gateway on `connection` (`confirmed`: the user
/// said yes to its question), and say how it ended.
pub async fn write(connection: &Connection, plan: &WritePlan, confirmed: bool) -> RunResult {
    let (op, asked_for_old) = match &plan.request {
        WriteRequest::Single(write) => (
            write.op().name(),
            write.request().returns.old_item_on_condition_failure,
        ),
        WriteRequest::Transaction(_) => ("TransactWriteItems", false),
        WriteRequest::Statement(_) => ("ExecuteStatement", true),
        WriteRequest::Batch(_) => ("BatchWriteItem", false),
        WriteRequest::Table(_) => ("UpdateTable", false),
    };
    let outcome = write::send(connection, plan, confirmed).await;
    if let WriteOutcome::Refused {
        refusal: Refusal::Cancelled { reasons },
        ..
    } = &outcome
    {
        // The plan knows each write's key, to name the ones that cancelled it.
        return cancelled(op, &plan.cancelled_words(reasons));
    }
    written(
        op,
        outcome,
        asked_for_old,
        Some(&connection.pricing_undescribed()),
    )
}

/// A transaction of `op` cancelled, `why` in words ([`CancelReason::cancelled_words`]).
fn cancelled(op: &str, why: &str) -> RunResult {
    RunResult {
        summary: format!("{op} cancelled: {why}."),
        tone: Tone::Warn,
        consumed: 0.0,
        items: Vec::new(),
    }
}

/// What a Query and a Scan share after their index (and key condition): the filter,
/// projection, names, values and capacity; sent, for one page.
macro_rules! first_page {
    ($builder:expr, $request:expr, $op:literal) => {
        $builder
            .table_name(&$request.table)
            .set_filter_expression($request.filter.clone())
            .set_projection_expression($request.projection.clone())
            .set_expression_attribute_names($request.names_sent())
            .set_expression_attribute_values($request.values_sent())
            .set_return_consumed_capacity(consumed($request))
            .send()
            .await
            .map_err(|e| Error::from_sdk($op, e))?
    };
}

/// Run `request` on `connection`. A write goes through the write gateway, planned for
/// `connection` and `confirmed` by the user; a Query or Scan reads its first page.
pub async fn run(
    connection: &Connection,
    request: &Request,
    key_names: Vec<String>,
    confirmed: bool,
) -> Result<RunResult> {
    let client = &connection.client;
    match &request.operation {
        Operation::Update(_) | Operation::Put(_) | Operation::Delete(_) => {
            let plan = plan_write(connection, request, key_names)?;
            Ok(write(connection, &plan, confirmed).await)
        }
        Operation::Query(index) => {
            let out = first_page!(
                client
                    .query()
                    .set_index_name(index.clone())
                    .set_key_condition_expression(request.key_condition.clone()),
                request,
                "Query"
            );
            Ok(first_page(
                "Query",
                &connection.pricing_undescribed(),
                out.items.unwrap_or_default(),
                out.scanned_count,
                out.last_evaluated_key.is_some(),
                read::consumed_units(out.consumed_capacity.as_ref()),
            ))
        }
        Operation::Scan(index) => {
            let out = first_page!(client.scan().set_index_name(index.clone()), request, "Scan");
            Ok(first_page(
                "Scan",
                &connection.pricing_undescribed(),
                out.items.unwrap_or_default(),
                out.scanned_count,
                out.last_evaluated_key.is_some(),
                read::consumed_units(out.consumed_capacity.as_ref()),
            ))
        }
    }
}

/// `ReturnConsumedCapacity` as the request asks.
fn consumed(request: &Request) -> Option<ReturnConsumedCapacity> {
    request
        .returns
        .consumed_capacity
        .then_some(ReturnConsumedCapacity::Total)
}

/// A write's outcome as a run result: what it did, and the item as the server returned it
/// (or holds it now, after an unknown outcome). Only a request that `asked_for_old` items on a
/// failed condition can tell a missing item from a present one.
/// How a write of `op` ended, in the words the app and the CLI both show: a line and the items
/// to show under it (what was returned, the item as stored after a failed condition or now).
/// Its units are priced by `pricing` when one is given.
pub fn written(
    op: &str,
    outcome: WriteOutcome,
    asked_for_old: bool,
    pricing: Option<&Pricing>,
) -> RunResult {
    match outcome {
        WriteOutcome::Applied {
            returned,
            consumed_wcu,
            throttled,
            ..
        } => RunResult {
            // Each throttled attempt's wait after it, with the limit hit when the server said.
            summary: std::iter::once(format!(
                "{op} applied · {}",
                match pricing {
                    Some(pricing) => pricing.write(consumed_wcu).text(),
                    None => format!("{} WCU", capacity_text(consumed_wcu)),
                }
            ))
            .chain(throttled)
            .collect::<Vec<_>>()
            .join(" · "),
            tone: Tone::Good,
            consumed: consumed_wcu,
            items: returned.into_iter().collect(),
        },
        WriteOutcome::Refused { refusal, .. } => {
            let (summary, items) = match refusal {
                Refusal::Condition { stored: Some(item) } => (
                    format!(
                        "{op} refused: the condition failed; nothing was written. The item as stored:"
                    ),
                    vec![item],
                ),
                Refusal::Condition { stored: None } if asked_for_old => (
                    format!(
                        "{op} refused: the condition failed and there is no such item; nothing was written."
                    ),
                    Vec::new(),
                ),
                Refusal::Condition { stored: None } => (
                    format!("{op} refused: the condition failed; nothing was written."),
                    Vec::new(),
                ),
                Refusal::Error(error) => (error.to_string(), Vec::new()),
                Refusal::Cancelled { reasons } => {
                    return cancelled(op, &CancelReason::cancelled_words(&reasons, &[]));
                }
            };
            RunResult {
                summary,
                tone: Tone::Warn,
                consumed: 0.0,
                items,
            }
        }
        WriteOutcome::Unknown {
            error,
            stored_now,
            attempts,
        } => {
            let (said, items) = match stored_now.into_iter().next() {
                Some(Ok(Some(item))) => ("The item as stored now:".to_owned(), vec![item]),
                Some(Ok(None)) => ("The item does not exist now.".to_owned(), Vec::new()),
                Some(Err(e)) if e == error => {
                    ("It could not be read again.".to_owned(), Vec::new())
                }
                Some(Err(e)) => (format!("It could not be read again: {e}"), Vec::new()),
                None => (String::new(), Vec::new()),
            };
            RunResult {
                summary: match attempts {
                    0 | 1 => format!("Outcome unknown ({error}); not sent again. {said}"),
                    n => format!(
                        "Outcome unknown ({error}); sent {n} times, the last without a readable answer; not sent again. {said}"
                    ),
                },
                tone: Tone::Warn,
                consumed: 0.0,
                items,
            }
        }
    }
}

/// The first page of `op`, priced by `pricing`.
fn first_page(
    op: &str,
    pricing: &Pricing,
    items: Vec<Item>,
    scanned: i32,
    more: bool,
    consumed: f64,
) -> RunResult {
    RunResult {
        summary: format!(
            "{op}: {} items on the first page ({scanned} scanned) · {}{}",
            items.len(),
            pricing.read(consumed),
            if more { " · more pages" } else { "" }
        ),
        tone: Tone::Plain,
        consumed,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue;
    use std::collections::HashMap;

    fn update(text: &str, values: &[(&str, AttributeValue)]) -> Request {
        Request {
            table: "T".into(),
            operation: Operation::Update(Item::new()),
            update: Some(text.into()),
            condition: None,
            key_condition: None,
            filter: None,
            projection: None,
            names: HashMap::from([
                ("#a".to_owned(), "a".to_owned()),
                ("#b".to_owned(), "b".to_owned()),
            ]),
            values: values
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
            returns: crate::expr::codegen::ReturnOptions::default(),
        }
    }

    #[test]
    fn what_may_be_sent_again() {
        let n = || AttributeValue::N("1".into());
        let ss = || AttributeValue::Ss(vec!["x".into()]);
        let l = || AttributeValue::L(vec![]);
        for (text, values, repeatable) in [
            ("SET #a = :v", vec![(":v", n())], true),
            ("SET #a = if_not_exists(#a, :v)", vec![(":v", n())], true),
            ("REMOVE #a", vec![], true),
            ("ADD #a :s", vec![(":s", ss())], true),
            ("DELETE #a :s", vec![(":s", ss())], true),
            ("ADD #a :v", vec![(":v", n())], false),
            ("SET #a = #a + :v", vec![(":v", n())], false),
            ("SET #a = list_append(#a, :l)", vec![(":l", l())], false),
            ("REMOVE #a[0]", vec![], false),
            ("SET #a = #b, #b = :v", vec![(":v", n())], false),
            ("not an expression", vec![], false),
        ] {
            let expected = if repeatable {
                Idempotency::Repeatable
            } else {
                Idempotency::Once
            };
            assert_eq!(idempotency(&update(text, &values)), expected, "{text}");
        }
    }
}
