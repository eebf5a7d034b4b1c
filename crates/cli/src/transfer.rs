//! `dynoscope export` and `dynoscope import`: items to and from files in DynamoDB's formats,
//! read through the one reader and written through the write gateway, as the app does.

use crate::context::Ctx;
use std::collections::HashMap;

use crate::args::{ExportArgs, ImportArgs};
use crate::exit::{Exit, said};
use crate::interrupt::{describe, unless_stopped};
use crate::output::{Notes, Output};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::import::{self, CheckLimits, ImportCheck, ImportRun};
use dynoscope_core::read;
use dynoscope_core::report::{plural, read_summary};
use dynoscope_core::spec::{ExportSpec, ImportSpec};
use dynoscope_core::table::{TableInfo, human_bytes};
use dynoscope_core::tally::TallyRule;
use dynoscope_core::transfer::{self, CellType, Format};
use dynoscope_core::value;

/// Read the table (Scan) or one partition (Query) and write it to `--out`: a new file, put in
/// place when complete; an existing one only with `--force`.
pub(crate) async fn export(cx: &mut Ctx<'_>, args: ExportArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let client = &connection.reader();
    let plan = ExportSpec {
        table: args.table.clone(),
        pk: args.pk.clone(),
        format: args.format.clone(),
        gzip: args.gzip,
        out: args.out.clone(),
        force: args.force,
        segments: args.segments,
    }
    .plan()?;
    let (format, if_exists, gzip) = (plan.format, plan.if_exists, plan.gzip);
    // Before the table is read: a refusal should not wait for the scan.
    transfer::check_target(&args.out, if_exists)?;
    let info = describe(client, &args.table, stop).await?;
    if args.pk.is_none() {
        dynoscope_core::limits::check_segments(args.segments, &info, confirmed)?;
        out.note(dynoscope_core::cost::whole_read(
            info.size_bytes,
            info.item_count,
            &connection.pricing(&info),
        ));
    }
    let read = match &args.pk {
        Some(_) => {
            unless_stopped(
                stop,
                "Query",
                read::read_table(client, &info, args.pk.as_deref()),
            )
            .await?
        }
        None => read::scan_table(client, &info, plan.segments.at_once, stop, |_| {})
            .await?
            .ok_or(Error::Cancelled { op: "Scan" })?,
    };
    let written = transfer::write_rows_file(
        &args.out,
        &read.rows,
        &info.key_names(),
        format,
        gzip,
        if_exists,
    )?;
    out.note(format_args!(
        "exported {written} items to {} as {}{} ({} of {}: {})",
        args.out.display(),
        format.name(),
        if gzip { ", gzipped" } else { "" },
        read.request.op(),
        info.name,
        read_summary(
            read.rows.len(),
            read.pages,
            &connection.pricing(&info).read(read.rcu)
        )
    ));
    Ok(Exit::Done)
}

/// Read and check every item of the file(s) against the table, then (unless `--dry-run`) read
/// them again and put them in batches of 25 through the write gateway.
pub(crate) async fn import(cx: &mut Ctx<'_>, args: ImportArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let plan = ImportSpec {
        table: args.table.clone(),
        path: args.source(),
        format: args.format(),
        types: args.types.clone(),
        dry_run: args.dry_run,
        concurrency: args.concurrency,
    }
    .plan()?;
    let (format, types) = (plan.format, plan.types);
    let rules = args.counters.counted()?;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let checked = check_files(connection, &info, &args, format, types, rules, stop).await?;
    tell_files(&checked, out.notes());
    print_check(&checked, &info, out);
    let pricing = connection.pricing(&info);
    out.aside(checked.estimate(&pricing));
    if args.dry_run {
        let report = import::ImportReport::dry_run(&checked);
        return said(out, &ImportRun { report, pricing });
    }
    import::check_rejected_free(&checked)?;
    import::confirmation(connection, &info, checked.items).check(confirmed)?;
    out.flush();
    let at_once = plan.batches;
    if let Some(note) = at_once.note("batches") {
        out.note(format_args!("dynoscope: {note}"));
    }
    let at_once = at_once.at_once;
    // A few progress lines a second at most (a batch is 25 items: a million would be 40,000
    // lines), and always the one that says it is stopping.
    let said_at = std::cell::Cell::new(None::<std::time::Instant>);
    let notes = out.notes();
    let report = import::import(
        connection,
        &info,
        &checked,
        at_once,
        true,
        stop,
        |progress| {
            let due = said_at
                .get()
                .is_none_or(|at| at.elapsed() >= std::time::Duration::from_millis(500));
            if due || progress.stopping || progress.done == progress.total {
                said_at.set(Some(std::time::Instant::now()));
                notes.say(progress.line(&pricing));
            }
        },
    )
    .await;
    said(out, &ImportRun { report, pricing })
}

/// Read and check every item of the import's files against the table `info`, on a blocking
/// thread (the reading is file work).
async fn check_files(
    connection: &Connection,
    info: &TableInfo,
    args: &ImportArgs,
    format: Format,
    types: HashMap<String, CellType>,
    rules: Vec<TallyRule>,
    stop: &CancelToken,
) -> Result<ImportCheck> {
    let (info, stop) = (info.clone(), stop.clone());
    let limits = CheckLimits {
        preview: args.preview,
        skip_invalid: args.skip_invalid,
        ..CheckLimits::default()
    };
    let (path, connection) = (args.source(), connection.clone());
    tokio::task::spawn_blocking(move || {
        let sources = import::import_sources(&path, &connection, &stop)?;
        import::check_import(
            &sources,
            format,
            &types,
            &info,
            &rules,
            limits,
            &stop,
            |_| {},
        )
    })
    .await
    .map_err(|e| Error::TaskDied {
        op: "checking the import",
        detail: e.to_string(),
    })?
}

/// What the check read: the first items, the columns and their types, the lines refused and the
/// counters found (beside the result: on stderr with `--output`).
fn print_check(checked: &ImportCheck, info: &TableInfo, out: &mut Output) {
    out.aside(format_args!(
        "{} read; first items:",
        dynoscope_core::report::plural(checked.items, "item")
    ));
    for read in &checked.preview {
        let line = value::item_to_plain_json(&read.item, &info.key_names(), false);
        out.aside(format_args!("  {}: {line}", read.place()));
    }
    out.aside("columns (types seen):");
    for (name, kinds) in checked.columns.list() {
        out.aside(format_args!("  {name}: {}", kinds.join(", ")));
    }
    if checked.columns.more {
        out.aside(format_args!(
            "  … (more names than the {} listed)",
            import::MAX_COLUMNS
        ));
    }
    for line in checked.invalid.lines() {
        out.aside(line);
    }
    for line in checked.tallies.lines() {
        out.aside(format!("counters: {line}"));
    }
}

/// The files read and the entries left out, on stderr.
fn tell_files(checked: &ImportCheck, notes: Notes) {
    for skipped in &checked.skipped {
        notes.say(format_args!("dynoscope: {skipped}"));
    }
    let in_s3 = matches!(
        transfer::S3Location::parse(&checked.path.to_string_lossy()),
        Ok(Some(_))
    );
    notes.say(format_args!(
        "dynoscope: read {} from {}:",
        plural(checked.files.len(), if in_s3 { "object" } else { "file" }),
        checked.path.display()
    ));
    for file in &checked.files {
        notes.say(format_args!(
            "  {} ({}, {} of text)",
            file.path.display(),
            plural(file.items, "item"),
            human_bytes(i64::try_from(file.text_bytes).unwrap_or(i64::MAX))
        ));
    }
}
