//! The counter lab: K concurrent writers increment a scratch item by three methods — naive
//! read-then-write, atomic `ADD`, and conditional `SET` with retries — and the final values are
//! compared with the expected one. Scratch items are deleted afterwards.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use bigdecimal::BigDecimal;

use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::table::TableInfo;
use crate::core::value::{Item, cell_text};

/// The most writers a lab runs at once.
pub const MAX_WRITERS: usize = 64;
/// The most increments each writer makes.
pub const MAX_INCREMENTS: usize = 1000;

/// The attribute the lab increments.
const COUNTER: &str = "labCount";

/// How a writer increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabMethod {
    /// `GetItem`, then `PutItem` with the value + 1: concurrent writers overwrite each other.
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

/// Run all three methods with `writers` concurrent writers doing `increments` each. Scratch
/// items are deleted after each method, whatever happened.
pub async fn run(
    client: &Client,
    info: &TableInfo,
    writers: usize,
    increments: usize,
    run_id: &str,
) -> LabRun {
    let mut run = LabRun::default();
    if !(1..=MAX_WRITERS).contains(&writers) || !(1..=MAX_INCREMENTS).contains(&increments) {
        run.error = Some(Error::Invalid(format!(
            "the lab takes 1 to {MAX_WRITERS} writers and 1 to {MAX_INCREMENTS} increments each"
        )));
        return run;
    }
    for method in LabMethod::ALL {
        let key = match scratch_key(info, run_id, method) {
            Ok(key) => key,
            Err(e) => {
                run.error = Some(e);
                return run;
            }
        };
        let outcome = run_method(client, info, &key, method, writers, increments).await;
        let deleted = client
            .delete_item()
            .table_name(&info.name)
            .set_key(Some(key.clone()))
            .send()
            .await;
        if let Err(e) = deleted {
            let shown = info
                .key_names()
                .iter()
                .filter_map(|k| key.get(k).map(cell_text))
                .collect::<Vec<_>>()
                .join(" / ");
            run.left_behind
                .push((shown, Error::from_sdk("DeleteItem", e)));
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

#[derive(Default)]
struct Tally {
    rcu: f64,
    wcu: f64,
    failures: u64,
}

async fn run_method(
    client: &Client,
    info: &TableInfo,
    key: &Item,
    method: LabMethod,
    writers: usize,
    increments: usize,
) -> Result<LabResult> {
    let started = Instant::now();
    let mut item = key.clone();
    item.insert(COUNTER.into(), AttributeValue::N("0".into()));
    client
        .put_item()
        .table_name(&info.name)
        .set_item(Some(item))
        .send()
        .await
        .map_err(|e| Error::from_sdk("PutItem", e))?;
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..writers {
        let (client, table, key) = (client.clone(), info.name.clone(), key.clone());
        tasks.spawn(async move {
            let mut tally = Tally::default();
            for _ in 0..increments {
                increment(&client, &table, &key, method, &mut tally).await?;
            }
            Ok::<Tally, Error>(tally)
        });
    }
    let mut total = Tally::default();
    while let Some(done) = tasks.join_next().await {
        let tally = done.map_err(|e| Error::TaskDied {
            op: "UpdateItem",
            detail: e.to_string(),
        })??;
        total.rcu += tally.rcu;
        total.wcu += tally.wcu;
        total.failures += tally.failures;
    }
    let (final_value, _) = read(client, &info.name, key).await?;
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

async fn increment(
    client: &Client,
    table: &str,
    key: &Item,
    method: LabMethod,
    tally: &mut Tally,
) -> Result<()> {
    // The pause a real client spends between reading and writing (network, logic).
    const THINK: Duration = Duration::from_millis(1);
    match method {
        LabMethod::Naive => {
            let (value, rcu) = read(client, table, key).await?;
            tally.rcu += rcu;
            tokio::time::sleep(THINK).await;
            let mut item = key.clone();
            item.insert(
                COUNTER.into(),
                AttributeValue::N(plus_one(value.as_deref())?),
            );
            let out = client
                .put_item()
                .table_name(table)
                .set_item(Some(item))
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map_err(|e| Error::from_sdk("PutItem", e))?;
            tally.wcu += out
                .consumed_capacity
                .and_then(|c| c.capacity_units)
                .unwrap_or_default();
        }
        LabMethod::AtomicAdd => {
            let out = client
                .update_item()
                .table_name(table)
                .set_key(Some(key.clone()))
                .update_expression("ADD #c :one")
                .expression_attribute_names("#c", COUNTER)
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                // An ADD is never re-sent by the SDK: a retry after a lost answer would count twice.
                .customize()
                .config_override(crate::core::write::without_retries())
                .send()
                .await
                .map_err(|e| Error::from_sdk("UpdateItem", e))?;
            tally.wcu += out
                .consumed_capacity
                .and_then(|c| c.capacity_units)
                .unwrap_or_default();
        }
        LabMethod::ConditionalSet => loop {
            let (value, rcu) = read(client, table, key).await?;
            tally.rcu += rcu;
            tokio::time::sleep(THINK).await;
            let current = value.clone().unwrap_or_else(|| "0".into());
            let result = client
                .update_item()
                .table_name(table)
                .set_key(Some(key.clone()))
                .update_expression("SET #c = :next")
                .condition_expression("#c = :current")
                .expression_attribute_names("#c", COUNTER)
                .expression_attribute_values(
                    ":next",
                    AttributeValue::N(plus_one(value.as_deref())?),
                )
                .expression_attribute_values(":current", AttributeValue::N(current))
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match result {
                Ok(out) => {
                    tally.wcu += out
                        .consumed_capacity
                        .and_then(|c| c.capacity_units)
                        .unwrap_or_default();
                    break;
                }
                Err(aws_sdk_dynamodb::error::SdkError::ServiceError(e))
                    if matches!(e.err(), UpdateItemError::ConditionalCheckFailedException(_)) =>
                {
                    tally.failures += 1;
                    tally.wcu += 1.0; // a failed condition still consumes a write unit
                }
                Err(e) => return Err(Error::from_sdk("UpdateItem", e)),
            }
        },
    }
    Ok(())
}
