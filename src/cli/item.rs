//! `dynoscope put` and `dynoscope delete`: one whole item written or removed through the write
//! gateway, in the builder Run's words.

use std::collections::HashMap;

use crate::cli::args::{DeleteArgs, PutArgs};
use crate::cli::exit::Exit;
use crate::cli::interrupt::{describe, not_stopped};
use crate::cli::output::Output;
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::Result;
use crate::core::expr::codegen::{Operation, Request, ReturnOptions};
use crate::core::run;
use crate::core::validate;
use crate::core::value;
use crate::core::write;

/// Put the item of `--item` (DynamoDB JSON), only when no item has its key with
/// `--create-only`.
pub async fn put(
    connection: &Connection,
    args: PutArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    // What DynamoDB would refuse of the item alone is said before anything is read.
    let item = value::item_from_dynamodb_json(&args.item).map_err(|e| e.at("--item"))?;
    validate::check_values(&item).map_err(|e| e.at("--item"))?;
    let info = describe(&connection.client, &args.table, stop).await?;
    validate::check_item(&item, &info).map_err(|e| e.at("--item"))?;
    let (condition, names) = if args.create_only {
        (
            Some("attribute_not_exists(#pk)".to_owned()),
            HashMap::from([("#pk".to_owned(), info.partition.name.clone())]),
        )
    } else {
        (None, HashMap::new())
    };
    send(
        connection,
        &info.key_names(),
        request(&args.table, Operation::Put(item), condition, names),
        confirmed,
        (out, stop),
    )
    .await
}

/// Delete the item with the key of `--key`.
pub async fn delete(
    connection: &Connection,
    args: DeleteArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let info = describe(&connection.client, &args.table, stop).await?;
    let key = crate::cli::flags::key_from_text(&info, args.keys.iter().map(String::as_str))?;
    send(
        connection,
        &info.key_names(),
        request(&args.table, Operation::Delete(key), None, HashMap::new()),
        confirmed,
        (out, stop),
    )
    .await
}

fn request(
    table: &str,
    operation: Operation,
    condition: Option<String>,
    names: HashMap<String, String>,
) -> Request {
    Request {
        table: table.to_owned(),
        operation,
        update: None,
        condition,
        key_condition: None,
        filter: None,
        projection: None,
        names,
        values: HashMap::new(),
        returns: ReturnOptions {
            values: None,
            consumed_capacity: true,
            old_item_on_condition_failure: true,
        },
    }
}

/// Plan and send `request` through the gateway, print how it ended, and say its exit status.
async fn send(
    connection: &Connection,
    key_names: &[String],
    request: Request,
    confirmed: bool,
    (out, stop): (&mut Output, &CancelToken),
) -> Result<Exit> {
    let op = request.operation_name();
    let plan = run::plan_write(connection, &request, key_names.to_vec())?;
    not_stopped(stop, op)?;
    let outcome = write::send(connection, &plan, confirmed).await;
    // Refused before anything could apply (read-only, not confirmed, the server's
    // validation): said once, on stderr.
    let exit = Exit::from(outcome.ending()?);
    let result = run::written(op, outcome, true);
    out.line(format_args!("{} — {}", plan.what(), result.summary));
    for item in &result.items {
        out.line(value::item_to_dynamodb_json(item, key_names, false));
    }
    Ok(exit)
}
