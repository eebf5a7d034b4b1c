//! `dynoscope table create|update|delete|iac|backup|backups|restore|delete-backup`: the core's
//! table management, printed. Each change is a configuration write through the gateway (--yes
//! off this machine), followed until the table settles; the table (and a backup) is described
//! again at the end.

use serde_json::{Value, json};

use crate::backup_args::{BackupArgs, BackupsArgs, DeleteBackupArgs, RestoreArgs};
use crate::exit::Exit;
use crate::interrupt::unless_stopped;
use crate::output::Output;
use crate::table_args::{CreateArgs, DropArgs, IacArgs, TableCommand, UpdateArgs};
use dynoscope_core::admin::{self, AdminEvent, AdminReport, BackupInfo};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::schema::{Described, IacFormat, create_input_json, read_spec, render_iac};
use dynoscope_core::write::{WriteOutcome, WritePlan};

/// Run `command` on `connection`.
pub async fn table(
    connection: &Connection,
    command: &TableCommand,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    match command {
        TableCommand::Create(args) => create(connection, args, confirmed, out, stop).await,
        TableCommand::Update(args) => update(connection, args, confirmed, out, stop).await,
        TableCommand::Delete(args) => drop(connection, args, confirmed, out, stop).await,
        TableCommand::Iac(args) => iac(connection, args, out, stop).await,
        TableCommand::Backup(args) => backup(connection, args, confirmed, out, stop).await,
        TableCommand::Backups(args) => backups(connection, args, out, stop).await,
        TableCommand::Restore(args) => restore(connection, args, confirmed, out, stop).await,
        TableCommand::DeleteBackup(args) => {
            delete_backup(connection, args, confirmed, out, stop).await
        }
    }
}

async fn create(
    connection: &Connection,
    args: &CreateArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let spec = args.spec()?;
    let plan = admin::create_plan(connection, &spec)?;
    if args.dry_run {
        if args.json {
            out.line(create_input_json(&spec));
        } else {
            out.text(spec.cli_commands(&connection.client_setup()));
            out.line("");
        }
        out.flush();
        return out.failure().map_or(Ok(Exit::Done), Err);
    }
    let reports = vec![send(connection, &plan, confirmed, out, stop).await];
    finish(&reports, args.json, out)
}

async fn update(
    connection: &Connection,
    args: &UpdateArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let mut table = read(connection, &args.table, stop).await?;
    let changes = args.changes(&table)?;
    let mut reports = Vec::new();
    for change in changes {
        // Each change is held against the table as it is after the one before.
        let plan = match admin::change_plan(connection, &table, change) {
            Ok(plan) => plan,
            Err(error) => return finish_after(&reports, Some(error), args.json, out),
        };
        let report = send(connection, &plan, confirmed, out, stop).await;
        let settled = report.after.clone();
        let ending = report.ending();
        reports.push(report);
        match (ending, settled) {
            (Ok(Ending::Done), Some(after)) => table = after,
            _ => break,
        }
    }
    finish_after(&reports, None, args.json, out)
}

async fn drop(
    connection: &Connection,
    args: &DropArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let table = read(connection, &args.table, stop).await?;
    let plan = admin::delete_plan(connection, &table, &args.confirm)?;
    let reports = vec![send(connection, &plan, confirmed, out, stop).await];
    finish(&reports, args.json, out)
}

async fn backup(
    connection: &Connection,
    args: &BackupArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let table = read(connection, &args.table, stop).await?;
    let plan = admin::backup_plan(connection, &table, &args.name)?;
    let reports = vec![send(connection, &plan, confirmed, out, stop).await];
    finish(&reports, args.json, out)
}

/// Every backup of the table, a line each (or one JSON object).
async fn backups(
    connection: &Connection,
    args: &BackupsArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let reader = connection.reader();
    let listed = admin::list_backups(&reader, &args.table);
    let backups = unless_stopped(stop, "ListBackups", listed).await?;
    if args.json {
        let list: Vec<Value> = backups.iter().map(BackupInfo::json).collect();
        out.line(json!({"table": args.table, "backups": list}));
    } else {
        for backup in &backups {
            out.line(backup.line());
        }
        if backups.is_empty() {
            out.note(format_args!(
                "dynoscope: table {} has no backups",
                args.table
            ));
        }
    }
    out.flush();
    out.failure().map_or(Ok(Exit::Done), Err)
}

async fn restore(
    connection: &Connection,
    args: &RestoreArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let reader = connection.reader();
    let described = admin::describe_backup(&reader, &args.backup_arn);
    let backup = unless_stopped(stop, "DescribeBackup", described).await?;
    let planned = admin::restore_plan(connection, &backup, &args.to_table);
    let plan = unless_stopped(stop, "DescribeTable", planned).await?;
    let reports = vec![send(connection, &plan, confirmed, out, stop).await];
    finish(&reports, args.json, out)
}

async fn delete_backup(
    connection: &Connection,
    args: &DeleteBackupArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let reader = connection.reader();
    let described = admin::describe_backup(&reader, &args.backup_arn);
    let backup = unless_stopped(stop, "DescribeBackup", described).await?;
    admin::check_backup_named(&backup, &args.confirm)?;
    let plan = admin::delete_backup_plan(connection, &backup)?;
    let reports = vec![send(connection, &plan, confirmed, out, stop).await];
    finish(&reports, args.json, out)
}

/// Print the table as infrastructure code; what the server did not describe (the engine's
/// continuous backups) is said on stderr, since the code then leaves it out.
async fn iac(
    connection: &Connection,
    args: &IacArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let format = IacFormat::parse(&args.format)?;
    let table = read(connection, &args.table, stop).await?;
    for unread in &table.unread {
        out.note(format_args!(
            "dynoscope: not read, so not written: {unread}"
        ));
    }
    out.text(render_iac(&table.spec, format));
    out.flush();
    out.failure().map_or(Ok(Exit::Done), Err)
}

async fn read(connection: &Connection, table: &str, stop: &CancelToken) -> Result<Described> {
    unless_stopped(
        stop,
        "DescribeTable",
        read_spec(&connection.reader(), table),
    )
    .await
}

/// Send one plan and follow its table, each state said on stderr as it comes.
async fn send(
    connection: &Connection,
    plan: &WritePlan,
    confirmed: bool,
    out: &Output,
    stop: &CancelToken,
) -> AdminReport {
    let mut say = |event: AdminEvent| match event {
        AdminEvent::Applied(what) => out.note(format_args!("dynoscope: applied: {what}")),
        AdminEvent::State(state) => out.note(format_args!("dynoscope: waiting: {state}")),
    };
    admin::run(connection, plan, confirmed, stop, &mut say).await
}

/// Print the reports, and exit by the gravest ending (an error that applied nothing is said
/// once, as the error).
fn finish(reports: &[AdminReport], json: bool, out: &mut Output) -> Result<Exit> {
    finish_after(reports, None, json, out)
}

/// [`finish`], with `stopped`: why a run of several changes stopped before its next one. Once
/// something was applied, an error is said after what was applied and the run is refused
/// (exit 1), not an error before anything applied; and stdout's failure, after a write, is said
/// by the output's end and changes no exit status.
fn finish_after(
    reports: &[AdminReport],
    stopped: Option<Error>,
    json: bool,
    out: &mut Output,
) -> Result<Exit> {
    let mut ending = Ending::Done;
    let mut error = stopped;
    for report in reports {
        match report.ending() {
            Ok(e) => ending = ending.graver(e),
            Err(e) => error = Some(e),
        }
    }
    let applied = reports
        .iter()
        .flat_map(|r| &r.writes)
        .any(|(_, outcome)| !matches!(outcome, WriteOutcome::Refused { .. }));
    let error = match error {
        Some(error) if !applied => return Err(error),
        other => other,
    };
    if json {
        let mut value = reports_json(reports);
        if let Some(error) = &error {
            value["error"] = json!(error.to_string());
        }
        out.line(value);
    } else {
        for line in reports.iter().flat_map(AdminReport::lines) {
            out.line(line);
        }
        if let Some(error) = &error {
            out.note(format_args!("dynoscope: stopped: {error}"));
        }
    }
    if error.is_some() {
        ending = ending.graver(Ending::Refused);
    }
    Ok(Exit::from(ending))
}

fn reports_json(reports: &[AdminReport]) -> Value {
    let writes: Vec<Value> = reports
        .iter()
        .flat_map(|r| &r.writes)
        .map(|(what, outcome)| json!({"what": what, "outcome": outcome.name()}))
        .collect();
    let after = reports.last().and_then(|r| r.after.as_ref()).map(|t| {
        json!({
            "table": create_input_json(&t.spec),
            "status": t.status,
            "state": t.state(),
            "ttl": t.spec.ttl,
            "pitr": t.spec.pitr,
            "item_count": t.item_count,
            "not_read": t.unread,
        })
    });
    let backup = reports
        .last()
        .and_then(|r| r.backup.as_ref())
        .map(BackupInfo::json);
    let notes: Vec<&String> = reports.iter().flat_map(|r| &r.notes).collect();
    json!({"writes": writes, "after": after, "backup": backup, "notes": notes})
}
