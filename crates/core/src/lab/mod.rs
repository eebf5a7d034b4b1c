//! The counter lab: K writers increment a scratch item by three methods — naive
//! read-then-write, atomic `ADD`, and conditional `SET` with retries — and the final values are
//! compared with the expected one. Scratch items are deleted afterwards.
//!
//! The writers go in rounds, the worst case made certain rather than left to chance: in each
//! round every writer reads, then every writer writes, all at once. So the naive method loses
//! exactly K − 1 of each round's K increments, `ADD` loses none, and the conditional `SET` lets
//! exactly one writer a round through and sends the others round again until each has made the
//! increment. Every write goes through the write gateway.

mod rounds;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::value::{Item, cell_text};
use crate::write::{Confirmation, Destination, WriteOp};

use rounds::Lab;

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

impl LabResult {
    /// What the method's reads and writes cost together.
    pub fn cost(&self, pricing: &crate::cost::Pricing) -> String {
        crate::cost::sum_text(&[
            pricing.read(self.consumed_rcu),
            pricing.write(self.consumed_wcu),
        ])
    }

    /// The write rate on the method's one scratch item against one partition's ceiling.
    pub fn load(&self) -> crate::cost::hot::KeyRate {
        crate::cost::hot::KeyRate::new(
            &format!("{}'s scratch item", self.method.label()),
            crate::cost::Kind::Write,
            self.consumed_wcu,
            self.elapsed_ms,
        )
    }
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
    if let Err(error) = confirmation(&lab.destination, info).check(confirmed) {
        run.error = Some(error);
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
        let outcome = lab.run_method(&key, method, writers, increments).await;
        let delete = lab.plan(WriteOp::Delete(key.clone()), None, HashMap::new(), true);
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
    if info.partition.kind != crate::condition::ScalarType::S {
        return Err(Error::Invalid(
            "the lab writes scratch items with a string partition key".into(),
        ));
    }
    let mut key = Item::from([(
        info.partition.name.clone(),
        text(format!("SCRATCH#dynoscope-lab-{run_id}-{method:?}")),
    )]);
    if let Some(sort) = &info.sort {
        if sort.kind != crate::condition::ScalarType::S {
            return Err(Error::Invalid(
                "the lab writes scratch items with a string sort key".into(),
            ));
        }
        key.insert(sort.name.clone(), text("COUNTER".into()));
    }
    Ok(key)
}
