//! The counter lab: K writers increment a scratch item by three methods — naive
//! read-then-write, atomic `ADD`, and conditional `SET` with retries — and the final values are
//! compared with the expected one. Scratch items are deleted afterwards.
//!
//! The writers go in rounds, the worst case made certain rather than left to chance: in each
//! round every writer reads, then every writer writes, all at once. So the naive method loses
//! exactly K − 1 of each round's K increments, `ADD` loses none, and the conditional `SET` lets
//! exactly one writer a round through and sends the others round again until each has made the
//! increment. Every write goes through the write gateway.

use std::collections::HashMap;
use std::future::Future;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use bigdecimal::BigDecimal;

use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::expr::codegen::{Operation, Request, ReturnOptions};
use crate::core::number;
use crate::core::table::TableInfo;
use crate::core::value::{Item, cell_text};
use crate::core::write::{
    self, Confirmation, Destination, Idempotency, Refusal, WriteOutcome, WritePlan,
};

/// The most writers a lab runs at once.
pub const MAX_WRITERS: usize = 64;
/// The most increments each writer makes. The conditional method's rounds grow with
/// writers² × increments, so this keeps a run to a few hundred thousand requests.
pub const MAX_INCREMENTS: usize = 100;

/// The attribute the lab increments.
const COUNTER: &str = "labCount";

/// How a writer increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabMethod {
    /// `GetItem`, then `PutItem` with the value + 1: writers overwrite each other.
    Naive,
    /// `UpdateItem ADD #c :one`: the server adds; nothing is lost.
    AtomicAdd,
    /// `GetItem`, then `SET #c = :next` if `#c = :current`, retrying on a failed condition.
    ConditionalSet,
}

impl LabMethod {
    /// The three methods, in the order shown.
    pub const ALL: [Self; 3] = [Self::Naive, Self::AtomicAdd, Self::ConditionalSet];

    /// How it is shown.
    pub fn label(self) -> &'static str {
        match self {
            Self::Naive => "naive read-then-write (GetItem + PutItem)",
            Self::AtomicAdd => "atomic ADD",
            Self::ConditionalSet => "conditional SET with retries",
        }
    }
}

/// One method's result.
#[derive(Debug, Clone, PartialEq)]
pub struct LabResult {
    /// The method.
    pub method: LabMethod,
    /// writers × increments.
    pub expected: u64,
    /// The value read at the end.
    pub final_value: Option<String>,
    /// expected − final.
    pub lost: i64,
    /// Failed conditions (conditional SET only).
    pub conditional_failures: u64,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
    /// Write capacity consumed.
    pub consumed_wcu: f64,
    /// Milliseconds taken.
    pub elapsed_ms: u128,
}

/// A counter lab run: each method's result, and anything that went wrong, including scratch
/// items that could not be deleted (they stay in the table, so the user must hear of them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabRun {
    /// One result per method that finished.
    pub results: Vec<LabResult>,
    /// Why the run stopped early, if it did.
    pub error: Option<Error>,
    /// Scratch items left behind: the key shown, and why the delete failed.
    pub left_behind: Vec<(String, Error)>,
}

impl LabRun {
    /// What went wrong, a line each: the error that stopped the run, and every scratch item
    /// left in the table.
    pub fn problems(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.error.iter().map(ToString::to_string).collect();
        lines.extend(self.left_behind.iter().map(|(key, e)| {
            format!("The scratch item {key} is still in the table: deleting it failed: {e}")
        }));
        lines
    }
}

/// Run all three methods on `connection` with `writers` writers doing `increments` each,
/// `confirmed` by the user (the lab writes scratch items into the table). Scratch items are
/// deleted after each method, whatever happened.
pub async fn run(
    connection: &Connection,
    info: &TableInfo,
    writers: usize,
    increments: usize,
    run_id: &str,
    confirmed: bool,
) -> LabRun {
    let mut run = LabRun::default();
    if !(1..=MAX_WRITERS).contains(&writers) || !(1..=MAX_INCREMENTS).contains(&increments) {
        run.error = Some(Error::Invalid(format!(
            "the lab takes 1 to {MAX_WRITERS} writers and 1 to {MAX_INCREMENTS} increments each"
        )));
        return run;
    }
    let lab = Lab {
        connection,
        destination: Destination::of(connection),
        table: &info.name,
        key_names: info.key_names(),
        confirmed,
    };
    match confirmation(&lab.destination, info) {
        Confirmation::Refused(error) => {
            run.error = Some(error);
            return run;
        }
        Confirmation::Ask(question) if !confirmed => {
            run.error = Some(Error::NotConfirmed { question });
            return run;
        }
        _ => {}
    }
    for method in LabMethod::ALL {
        let key = match scratch_key(info, run_id, method) {
            Ok(key) => key,
            Err(e) => {
                run.error = Some(e);
                return run;
            }
        };
        let outcome = lab.run_method(&key, method, writers, increments).await;
        let delete = lab.plan(Operation::Delete(key.clone()), None, HashMap::new(), true);
        if let Err(e) = lab.send(delete).await {
            let shown = info
                .key_names()
                .iter()
                .filter_map(|k| key.get(k).map(cell_text))
                .collect::<Vec<_>>()
                .join(" / ");
            run.left_behind.push((shown, e));
        }
        match outcome {
            Ok(result) => run.results.push(result),
            Err(e) => {
                run.error = Some(e);
                return run;
            }
        }
    }
    run
}

/// What the lab needs before it starts: one confirmation for its scratch items.
pub fn confirmation(destination: &Destination, info: &TableInfo) -> Confirmation {
    destination.confirmation(&format!(
        "table {}: three scratch items (SCRATCH#dynoscope-lab-…), written and deleted again",
        info.name
    ))
}

fn scratch_key(info: &TableInfo, run_id: &str, method: LabMethod) -> Result<Item> {
    let text = |s: String| AttributeValue::S(s);
    if info.partition.kind != crate::core::condition::ScalarType::S {
        return Err(Error::Invalid(
            "the lab writes scratch items with a string partition key".into(),
        ));
    }
    let mut key = Item::from([(
        info.partition.name.clone(),
        text(format!("SCRATCH#dynoscope-lab-{run_id}-{method:?}")),
    )]);
    if let Some(sort) = &info.sort {
        if sort.kind != crate::core::condition::ScalarType::S {
            return Err(Error::Invalid(
                "the lab writes scratch items with a string sort key".into(),
            ));
        }
        key.insert(sort.name.clone(), text("COUNTER".into()));
    }
    Ok(key)
}

/// One lab run's fixed parts.
struct Lab<'a> {
    connection: &'a Connection,
    destination: Destination,
    table: &'a str,
    key_names: Vec<String>,
    confirmed: bool,
}

/// What one write did: applied (with its WCU), or failed its condition.
enum Wrote {
    Applied(f64),
    ConditionFailed,
}

impl Lab<'_> {
    fn plan(
        &self,
        operation: Operation,
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
            operation,
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
            request: write::WriteRequest::Single(Box::new(request)),
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
    async fn send(&self, plan: WritePlan) -> Result<Wrote> {
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
                "cancelled: [{}]",
                reasons.join(", ")
            ))),
        }
    }

    fn counter_item(&self, key: &Item, value: String) -> Item {
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
                    Operation::Put(self.counter_item(key, next)),
                    None,
                    HashMap::new(),
                    false,
                ),
                LabMethod::AtomicAdd => self.plan(
                    Operation::Update(key.clone()),
                    Some("ADD #c :one"),
                    HashMap::from([(":one".to_owned(), AttributeValue::N("1".into()))]),
                    false,
                ),
                LabMethod::ConditionalSet => self.plan(
                    Operation::Update(key.clone()),
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

    async fn run_method(
        &self,
        key: &Item,
        method: LabMethod,
        writers: usize,
        increments: usize,
    ) -> Result<LabResult> {
        let started = Instant::now();
        let start = self.plan(
            Operation::Put(self.counter_item(key, "0".into())),
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
    Ok((
        value,
        out.consumed_capacity
            .and_then(|c| c.capacity_units)
            .unwrap_or_default(),
    ))
}

fn plus_one(value: Option<&str>) -> Result<String> {
    let current = value
        .map(number::parse)
        .transpose()
        .map_err(|e| Error::Invalid(e.to_string()))?;
    Ok(crate::core::number::to_dynamodb(
        &(current.unwrap_or_default() + BigDecimal::from(1)),
    ))
}
