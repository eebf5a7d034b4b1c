//! `dynoscope add`: a counter edit from the shell, reported like the app's result card.

use std::process::ExitCode;

use aws_sdk_dynamodb::Client;
use serde_json::json;

use crate::cli::args::{AddArgs, AddMode};
use crate::core::counter::{self, Change, EditMode, EditReport, Outcome};
use crate::core::error::{Error, Result};
use crate::core::ops;
use crate::core::value::Item;

/// Exit status when the outcome is unknown.
pub const EXIT_UNKNOWN: u8 = 3;

/// Run the edit and print the report; the exit status says how it ended.
pub async fn add(client: &Client, args: AddArgs) -> Result<ExitCode> {
    let info = ops::describe_table(client, &args.table).await?;
    let mut key = Item::new();
    for pair in &args.keys {
        let (name, text) = pair
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--key `{pair}` is not NAME=VALUE")))?;
        let kind = [Some(&info.partition), info.sort.as_ref()]
            .into_iter()
            .flatten()
            .find(|k| k.name == name)
            .map(|k| k.kind)
            .ok_or_else(|| {
                Error::Invalid(format!("`{name}` is not a key attribute of {}", info.name))
            })?;
        key.insert(name.to_owned(), kind.parse(text)?);
    }
    for name in info.key_names() {
        if !key.contains_key(&name) {
            return Err(Error::Invalid(format!(
                "give the key attribute `{name}` with --key {name}=…"
            )));
        }
    }
    // Check the input before anything is read or sent.
    counter::check_editable(&key, &args.attr)?;
    counter::plan(Some("0"), &Change::By(args.delta.clone()))?;
    let stored = ops::read_attribute(client, &info.name, &key, &args.attr).await?;
    let current = counter::stored_number(&args.attr, stored.as_ref())?;
    let planned = counter::plan(current.as_deref(), &Change::By(args.delta.clone()))?;
    let mode = match args.mode {
        AddMode::Add => EditMode::Add,
        AddMode::Set => EditMode::SetFromZero,
        AddMode::Exact => EditMode::Exact,
    };
    let plan = counter::update_plan(&info.name, key, &args.attr, mode, planned)?;
    let outcome = ops::update_counter(client, &plan).await;
    let report = EditReport { plan, outcome };
    if args.json {
        println!("{}", report_json(&report));
    } else {
        println!("{}", report_text(&report));
    }
    Ok(match &report.outcome {
        Outcome::Applied { .. } => ExitCode::SUCCESS,
        Outcome::Unknown { .. } => ExitCode::from(EXIT_UNKNOWN),
        Outcome::ConditionFailed { .. } | Outcome::Failed(_) => ExitCode::FAILURE,
    })
}

fn text(value: Option<&bigdecimal::BigDecimal>) -> String {
    value.map_or("(missing)".to_owned(), counter::to_dynamodb)
}

/// The report as lines of text.
pub fn report_text(report: &EditReport) -> String {
    let plan = &report.plan;
    let old = text(plan.planned.current.as_ref());
    let expected = counter::to_dynamodb(&plan.planned.expected);
    let head = format!("{}: {}", plan.attribute, plan.update_expression);
    match &report.outcome {
        Outcome::Applied {
            new_value,
            consumed_wcu,
            ..
        } => {
            let new = new_value.as_deref().unwrap_or("(not returned)");
            let mut out = format!(
                "{head}\nold {old} -> new {new} (expected {expected}) · {consumed_wcu} WCU"
            );
            if plan.planned.creates() {
                out += "\nthe attribute was missing: it started from 0";
            }
            if let Some(diff) = report.interference() {
                out += &format!(
                    "\nsomeone else changed it in between, by {}",
                    counter::to_dynamodb(&diff)
                );
            }
            out
        }
        Outcome::ConditionFailed { current } => format!(
            "{head}\ncondition failed: the value is {} now, not {old}; nothing was written",
            current.as_deref().unwrap_or("(missing)")
        ),
        Outcome::Unknown { error, stored_now } => format!(
            "{head}\noutcome unknown: {error}\nnot re-sent; stored now: {}",
            match stored_now {
                Ok(value) => value.as_deref().unwrap_or("(missing)").to_owned(),
                Err(e) => format!("cannot tell ({e})"),
            }
        ),
        Outcome::Failed(error) => format!("{head}\nfailed: {error}"),
    }
}

/// The report as one JSON object; numbers are strings so they stay exact.
pub fn report_json(report: &EditReport) -> serde_json::Value {
    let plan = &report.plan;
    let request: serde_json::Value = serde_json::from_str(&plan.to_json()).unwrap_or_default();
    let mut out = json!({
        "table": plan.table,
        "attribute": plan.attribute,
        "mode": plan.mode.cli_name(),
        "old": plan.planned.current.as_ref().map(counter::to_dynamodb),
        "delta": counter::to_dynamodb(&plan.planned.delta),
        "expected": counter::to_dynamodb(&plan.planned.expected),
        "request": request,
    });
    match &report.outcome {
        Outcome::Applied {
            new_value,
            consumed_wcu,
            attempts,
        } => {
            out["outcome"] = json!("applied");
            out["new"] = json!(new_value);
            out["consumedWCU"] = json!(consumed_wcu);
            out["attempts"] = json!(attempts);
            out["interference"] = json!(report.interference().as_ref().map(counter::to_dynamodb));
        }
        Outcome::ConditionFailed { current } => {
            out["outcome"] = json!("condition_failed");
            out["current"] = json!(current);
        }
        Outcome::Unknown { error, stored_now } => {
            out["outcome"] = json!("unknown");
            out["error"] = json!(error.to_string());
            match stored_now {
                Ok(value) => out["storedNow"] = json!(value),
                Err(e) => out["storedNowError"] = json!(e.to_string()),
            }
        }
        Outcome::Failed(error) => {
            out["outcome"] = json!("failed");
            out["error"] = json!(error.to_string());
            out["code"] = json!(error.code());
        }
    }
    out
}
