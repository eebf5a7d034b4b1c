//! `dynoscope export` and `dynoscope import`: items to and from files in DynamoDB's formats,
//! read through the one reader and written through the write gateway, as the app does.

use std::collections::HashMap;
use std::io::Write as _;

use crate::cli::args::{ExportArgs, ImportArgs};
use crate::cli::exit::{Exit, io_error};
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::limits::AtOnce;
use crate::core::read;
use crate::core::report::read_summary;
use crate::core::transfer::{self, CellType, Format, import};
use crate::core::value;

/// Read the table (Scan) or one partition (Query) and write it to `--out`.
pub async fn export(connection: &Connection, args: ExportArgs) -> Result<Exit> {
    let client = &connection.client;
    let format = Format::parse(&args.format)?;
    let info = read::describe_table(client, &args.table).await?;
    let read = match &args.pk {
        Some(_) => read::read_table(client, &info, args.pk.as_deref()).await?,
        None => {
            let segments = AtOnce::new(args.segments, "segments")?.at_once;
            read::scan_table(client, &info, segments, &CancelToken::default(), |_| {})
                .await?
                .ok_or(Error::Cancelled { op: "Scan" })?
        }
    };
    let written =
        transfer::write_rows_file(&args.out, &read.rows, &info.key_names(), format, args.gzip)?;
    eprintln!(
        "exported {written} items to {} as {}{} ({} of {}: {})",
        args.out.display(),
        format.name(),
        if args.gzip { ", gzipped" } else { "" },
        read.request.op(),
        info.name,
        read_summary(read.rows.len(), read.pages, read.rcu)
    );
    Ok(Exit::Done)
}

/// Read every item of the file(s), check them all against the table, then (unless
/// `--dry-run`) put them in batches of 25 through the write gateway.
pub async fn import(connection: &Connection, args: ImportArgs, confirmed: bool) -> Result<Exit> {
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
    let info = read::describe_table(&connection.client, &args.table).await?;
    let items = import::read_for_import(&args.path, format, &types, &info)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} items read; first items:", items.len()).map_err(io_error)?;
    for read in items.iter().take(args.preview) {
        let line = value::item_to_plain_json(&read.item, &info.key_names(), false);
        writeln!(out, "  {}: {line}", read.place()).map_err(io_error)?;
    }
    writeln!(out, "columns (types seen):").map_err(io_error)?;
    for (name, kinds) in transfer::column_types(&items) {
        writeln!(out, "  {name}: {}", kinds.join(", ")).map_err(io_error)?;
    }
    if args.dry_run {
        let report = import::ImportReport {
            read: items.len(),
            dry_run: true,
            ..import::ImportReport::default()
        };
        writeln!(out, "{}", report.summary()).map_err(io_error)?;
        return Ok(Exit::Done);
    }
    import::confirmation(connection, &info, items.len()).check(confirmed)?;
    out.flush().map_err(io_error)?;
    let report = import::import(
        connection,
        &info,
        items,
        true,
        &CancelToken::default(),
        |progress| eprintln!("{progress}"),
    )
    .await;
    writeln!(out, "{}", report.summary()).map_err(io_error)?;
    for line in report.details() {
        writeln!(out, "{line}").map_err(io_error)?;
    }
    Ok(if report.unknown_count() > 0 {
        Exit::Unknown
    } else if report.refused_count() > 0 || report.not_sent > 0 {
        Exit::Refused
    } else {
        Exit::Done
    })
}
