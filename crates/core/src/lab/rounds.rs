//! The lab's rounds: every writer reads, then every writer writes, all at once, through the
//! write gateway.

use std::collections::HashMap;
use std::future::Future;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use bigdecimal::BigDecimal;

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::expr::codegen::{Request, ReturnOptions};
use crate::lab::{COUNTER, LabMethod, LabResult};
use crate::number;
use crate::read;
use crate::value::Item;
use crate::write::{self, Destination, Idempotency, Refusal, WriteOp, WriteOutcome, WritePlan};

/// One lab run's fixed parts.
pub(super) struct Lab<'a> {
    pub(super) connection: &'a Connection,
    pub(super) destination: Destination,
    pub(super) table: &'a str,
    pub(super) key_names: Vec<String>,
    pub(super) confirmed: bool,
}

/// What one write did: applied (with its WCU), or failed its condition.
pub(super) enum Wrote {
    Applied(f64),
    ConditionFailed,
}

impl Lab<'_> {
    pub(super) fn plan(
        &self,
        op: WriteOp,
        update: Option<&str>,
        values: HashMap<String, AttributeValue>,
        repeatable: bool,
    ) -> WritePlan {
        let condition = values
            .contains_key(":current")
            .then(|| "#c = :current".to_owned());
        let uses_counter = update.is_some() || condition.is_some();
        let request = Request {
            table: self.table.to_owned(),
            operation: op.operation(),
            update: update.map(str::to_owned),
            condition,
            key_condition: None,
            filter: None,
            projection: None,
            names: if uses_counter {
                HashMap::from([("#c".to_owned(), COUNTER.to_owned())])
            } else {
                HashMap::new()
            },
            values,
            returns: ReturnOptions {
                consumed_capacity: true,
                ..ReturnOptions::default()
            },
        };
        WritePlan {
            destination: self.destination.clone(),
            request: write::WriteRequest::Single(Box::new(write::SingleWrite::with(op, request))),
            idempotency: if repeatable {
                Idempotency::Repeatable
            } else {
                Idempotency::Once
            },
            key_names: self.key_names.clone(),
        }
    }

    /// Send through the gateway: applied, a failed condition, or the error (an unknown
    /// outcome stops the method: its count can no longer be trusted).
    pub(super) async fn send(&self, plan: WritePlan) -> Result<Wrote> {
        match write::send(self.connection, &plan, self.confirmed).await {
            WriteOutcome::Applied { consumed_wcu, .. } => Ok(Wrote::Applied(consumed_wcu)),
            WriteOutcome::Refused {
                refusal: Refusal::Condition { .. },
                ..
            } => Ok(Wrote::ConditionFailed),
            WriteOutcome::Refused {
                refusal: Refusal::Error(error),
                ..
            } => Err(error),
            WriteOutcome::Unknown { error, .. } => Err(Error::OutcomeUnknown(Box::new(error))),
            WriteOutcome::Refused {
                refusal: Refusal::Cancelled { reasons },
                ..
            } => Err(Error::Invalid(format!(
                "the transaction was cancelled: {}",
                crate::write::CancelReason::cancelled_words(&reasons, &[])
            ))),
        }
    }

    fn counter_item(key: &Item, value: String) -> Item {
        let mut item = key.clone();
        item.insert(COUNTER.into(), AttributeValue::N(value));
        item
    }

    /// One round: `active` writers read (all of them, at once), then write (all at once).
    /// Returns how many writes were applied.
    async fn round(
        &self,
        key: &Item,
        method: LabMethod,
        active: usize,
        total: &mut Tally,
    ) -> Result<usize> {
        let client = &self.connection.client;
        // Every writer reads (not needed by ADD, which never reads).
        let seen: Vec<(Option<String>, f64)> = if method == LabMethod::AtomicAdd {
            vec![(None, 0.0); active]
        } else {
            all(active, |_| {
                let (client, table, key) = (client.clone(), self.table.to_owned(), key.clone());
                async move { read(&client, &table, &key).await }
            })
            .await?
        };
        total.rcu += seen.iter().map(|(_, rcu)| rcu).sum::<f64>();
        // Then every writer writes what it read plus one.
        let mut plans = Vec::new();
        for (value, _) in &seen {
            let next = plus_one(value.as_deref())?;
            plans.push(match method {
                LabMethod::Naive => self.plan(
                    WriteOp::Put(Self::counter_item(key, next)),
                    None,
                    HashMap::new(),
                    false,
                ),
                LabMethod::AtomicAdd => self.plan(
                    WriteOp::Update(key.clone()),
                    Some("ADD #c :one"),
                    HashMap::from([(":one".to_owned(), AttributeValue::N("1".into()))]),
                    false,
                ),
                LabMethod::ConditionalSet => self.plan(
                    WriteOp::Update(key.clone()),
                    Some("SET #c = :next"),
                    HashMap::from([
                        (":next".to_owned(), AttributeValue::N(next)),
                        (
                            ":current".to_owned(),
                            AttributeValue::N(value.clone().unwrap_or_else(|| "0".into())),
                        ),
                    ]),
                    true,
                ),
            });
        }
        let mut applied = 0;
        for wrote in all(plans.len(), |i| self.send(plans[i].clone())).await? {
            match wrote {
                Wrote::Applied(wcu) => {
                    total.wcu += wcu;
                    applied += 1;
                }
                Wrote::ConditionFailed => {
                    // A failed condition still consumes a write unit.
                    total.failures += 1;
                    total.wcu += 1.0;
                }
            }
        }
        Ok(applied)
    }

    pub(super) async fn run_method(
        &self,
        key: &Item,
        method: LabMethod,
        writers: usize,
        increments: usize,
    ) -> Result<LabResult> {
        let started = Instant::now();
        let start = self.plan(
            WriteOp::Put(Self::counter_item(key, "0".into())),
            None,
            HashMap::new(),
            true,
        );
        self.send(start).await?;
        let mut total = Tally::default();
        for _ in 0..increments {
            // Each writer makes this increment; those whose condition fails go round again.
            let mut active = writers;
            while active > 0 {
                active -= self.round(key, method, active, &mut total).await?;
            }
        }
        let (final_value, _) = read(&self.connection.client, self.table, key).await?;
        let expected = (writers * increments) as u64;
        let lost = final_value
            .as_deref()
            .and_then(|v| number::parse(v).ok())
            .map(|v| BigDecimal::from(expected) - v)
            .and_then(|d| d.to_string().parse::<i64>().ok())
            .unwrap_or(expected as i64);
        Ok(LabResult {
            method,
            expected,
            final_value,
            lost,
            conditional_failures: total.failures,
            consumed_rcu: total.rcu,
            consumed_wcu: total.wcu,
            elapsed_ms: started.elapsed().as_millis(),
        })
    }
}

/// Run `count` requests at once and wait for all; their results in order.
async fn all<T, F, Fut>(count: usize, make: F) -> Result<Vec<T>>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let mut results = Vec::with_capacity(count);
    let futures: Vec<Fut> = (0..count).map(make).collect();
    // Polled together on this task: every request is in flight before any answer is awaited.
    for result in join_all(futures).await {
        results.push(result?);
    }
    Ok(results)
}

/// Await every future, polling all of them together, and return their outputs in order.
async fn join_all<Fut: Future>(futures: Vec<Fut>) -> Vec<Fut::Output> {
    let mut futures: Vec<std::pin::Pin<Box<Fut>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<Fut::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => *output = Some(value),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[derive(Default)]
struct Tally {
    rcu: f64,
    wcu: f64,
    failures: u64,
}

async fn read(client: &Client, table: &str, key: &Item) -> Result<(Option<String>, f64)> {
    let out = client
        .get_item()
        .table_name(table)
        .set_key(Some(key.clone()))
        .consistent_read(true)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .map_err(|e| Error::from_sdk("GetItem", e))?;
    let value = match out.item.as_ref().and_then(|i| i.get(COUNTER)) {
        Some(AttributeValue::N(n)) => Some(n.clone()),
        _ => None,
    };
    Ok((value, read::consumed_units(out.consumed_capacity.as_ref())))
}

fn plus_one(value: Option<&str>) -> Result<String> {
    let current = value
        .map(number::parse)
        .transpose()
        .map_err(|e| Error::Invalid(e.to_string()))?;
    Ok(crate::number::to_dynamodb(
        &(current.unwrap_or_default() + BigDecimal::from(1)),
    ))
}
