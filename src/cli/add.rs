//! `dynoscope add`: a counter edit from the shell, planned, sent and reported by the same core
//! code as the app's, in the same words.

use crate::cli::args::{AddArgs, AddMode};
use crate::cli::exit::Exit;
use crate::cli::interrupt::{describe, not_stopped, unless_stopped};
use crate::cli::output::Output;
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::counter::{self, Change, EditMode, EditReport, EditRequest};
use crate::core::error::Result;
use crate::core::read;
use crate::core::report::Lines;
use crate::core::write::Destination;

/// Run the edit (`confirmed`: `--yes`) and print the report on stdout; an error before
/// anything could apply is returned, to be printed once on stderr. Interrupted before it is
/// sent, nothing is sent; once sent, its answer is waited for and said.
pub async fn add(
    connection: &Connection,
    args: AddArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let client = &connection.client;
    let info = describe(client, &args.table, stop).await?;
    let key = crate::cli::flags::key_from_text(&info, args.keys.iter().map(String::as_str))?;
    let request = EditRequest {
        attribute: args.attr.clone(),
        change: Change::By(args.delta.clone()),
        from: None,
        create: args.create,
    };
    // Check the input before anything is read or sent.
    counter::check_request(&key, &request)?;
    let mut item = key;
    let stored = unless_stopped(
        stop,
        "GetItem",
        read::read_attribute(client, &info.name, &item, &args.attr),
    )
    .await?;
    if let Some(stored) = stored {
        item.insert(args.attr.clone(), stored);
    }
    let mode = match args.mode {
        AddMode::Add => EditMode::Add,
        AddMode::Set => EditMode::SetFromZero,
        AddMode::Exact => EditMode::Exact,
    };
    let plan = counter::plan_edit(&Destination::of(connection), &info, &item, &request, mode)?;
    not_stopped(stop, "UpdateItem")?;
    let outcome = counter::update_counter(connection, &plan, confirmed).await;
    // A failure that applied nothing is said once, on stderr.
    let exit = Exit::from(outcome.ending()?);
    let report = EditReport { plan, outcome };
    if args.json {
        out.line(report.to_json());
    } else {
        out.line(Lines(&report.lines()));
    }
    Ok(exit)
}
