//! `dynoscope export` and `dynoscope import`: items to and from files in DynamoDB's formats,
//! read through the one reader and written through the write gateway, as the app does.

use std::collections::HashMap;

use crate::cli::args::{ExportArgs, ImportArgs};
use crate::cli::exit::Exit;
use crate::cli::interrupt::unless_stopped;
use crate::cli::output::Output;
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::limits::AtOnce;
use crate::core::read;
use crate::core::report::read_summary;
use crate::core::transfer::{self, CellType, Format, import};
use crate::core::value;

/// Read the table (Scan) or one partition (Query) and write it to `--out`.
pub async fn export(
    connection: &Connection,
    args: ExportArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let client = &connection.client;
    let format = Format::parse(&args.format)?;
    let info = unless_stopped(
        stop,
        "DescribeTable",
        read::describe_table(client, &args.table),
    )
    .await?;
    let read = match &args.pk {
        Some(_) => {
            unless_stopped(
                stop,
                "Query",
                read::read_table(client, &info, args.pk.as_deref()),
            )
            .await?
        }
        None => {
            let segments = AtOnce::new(args.segments, "segments")?.at_once;
            read::scan_table(client, &info, segments, stop, |_| {})
                .await?
                .ok_or(Error::Cancelled { op: "Scan" })?
        }
    };
    let written =
        transfer::write_rows_file(&args.out, &read.rows, &info.key_names(), format, args.gzip)?;
    out.note(format_args!(
        "exported {written} items to {} as {}{} ({} of {}: {})",
        args.out.display(),
        format.name(),
        if args.gzip { ", gzipped" } else { "" },
        read.request.op(),
        info.name,
        read_summary(read.rows.len(), read.pages, read.rcu)
    ));
    Ok(Exit::Done)
}

/// Read every item of the file(s), check them all against the table, then (unless
/// `--dry-run`) put them in batches of 25 through the write gateway.
pub async fn import(
    connection: &Connection,
    args: ImportArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let format = Format::parse(&args.format)?;
    let mut types = HashMap::new();
    for pair in &args.types {
        let (name, kind) = pair
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--type `{pair}` is not NAME=S|N|BOOL")))?;
        types.insert(name.to_owned(), CellType::parse(kind)?);
    }
    if !types.is_empty() && format != Format::Csv {
        return Err(Error::Invalid(
            "--type is for CSV columns; the JSON formats carry their types".to_owned(),
        ));
    }
    let info = unless_stopped(
        stop,
        "DescribeTable",
        read::describe_table(&connection.client, &args.table),
    )
    .await?;
    let items = import::read_for_import(&args.path, format, &types, &info)?;
    out.line(format_args!("{} items read; first items:", items.len()));
    for read in items.iter().take(args.preview) {
        let line = value::item_to_plain_json(&read.item, &info.key_names(), false);
        out.line(format_args!("  {}: {line}", read.place()));
    }
    out.line("columns (types seen):");
    for (name, kinds) in transfer::column_types(&items) {
        out.line(format_args!("  {name}: {}", kinds.join(", ")));
    }
    if args.dry_run {
        let report = import::ImportReport {
            read: items.len(),
            dry_run: true,
            ..import::ImportReport::default()
        };
        out.line(report.summary());
        return Ok(Exit::Done);
    }
    import::confirmation(connection, &info, items.len()).check(confirmed)?;
    out.flush();
    let report = import::import(connection, &info, items, true, stop, |progress| {
        crate::cli::output::say(progress);
    })
    .await;
    out.line(report.summary());
    for line in report.details() {
        out.line(line);
    }
    Ok(if report.unknown_count() > 0 {
        Exit::Unknown
    } else if report.refused_count() > 0 || report.not_sent > 0 {
        Exit::Refused
    } else {
        Exit::Done
    })
}
