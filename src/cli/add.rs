//! `dynoscope add`: a counter edit from the shell, planned, sent and reported by the same core
//! code as the app's, in the same words.

use std::process::ExitCode;

use aws_sdk_dynamodb::Client;

use crate::cli::args::{AddArgs, AddMode};
use crate::core::counter::{self, Change, EditMode, EditReport, EditRequest, Outcome};
use crate::core::error::Result;
use crate::core::read;
use crate::core::report::Lines;

/// Exit status when the outcome is unknown.
pub const EXIT_UNKNOWN: u8 = 3;

/// Run the edit and print the report; the exit status says how it ended.
pub async fn add(client: &Client, args: AddArgs) -> Result<ExitCode> {
    let info = read::describe_table(client, &args.table).await?;
    let key = info.key_from_text(args.keys.iter().map(String::as_str))?;
    let request = EditRequest {
        attribute: args.attr.clone(),
        change: Change::By(args.delta.clone()),
        from: None,
    };
    // Check the input before anything is read or sent.
    counter::check_request(&key, &request)?;
    let mut item = key;
    if let Some(stored) = read::read_attribute(client, &info.name, &item, &args.attr).await? {
        item.insert(args.attr.clone(), stored);
    }
    let mode = match args.mode {
        AddMode::Add => EditMode::Add,
        AddMode::Set => EditMode::SetFromZero,
        AddMode::Exact => EditMode::Exact,
    };
    let plan = counter::plan_edit(&info, &item, &request, mode)?;
    let outcome = counter::update_counter(client, &plan).await;
    let report = EditReport { plan, outcome };
    if args.json {
        println!("{}", report.to_json());
    } else {
        println!("{}", Lines(&report.lines()));
    }
    Ok(match &report.outcome {
        Outcome::Applied { .. } => ExitCode::SUCCESS,
        Outcome::Unknown { .. } => ExitCode::from(EXIT_UNKNOWN),
        Outcome::ConditionFailed { .. } | Outcome::Failed(_) => ExitCode::FAILURE,
    })
}
