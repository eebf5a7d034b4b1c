//! `dynoscope table create|update|delete|iac|backup|backups|restore|delete-backup` (and
//! `export|exports`, in `s3_export.rs`): the core's
//! table management, printed. Each change is a configuration write through the gateway (--yes
//! off this machine), followed until the table settles; the table (and a backup) is described
//! again at the end.

use crate::context::Ctx;
use crate::output::Notes;

use crate::backup_args::{BackupArgs, BackupsArgs, DeleteBackupArgs, RestoreArgs};
use crate::exit::{Exit, said, said_read};
use crate::interrupt::unless_stopped;
use crate::s3_export;
use crate::table_args::{CreateArgs, DropArgs, IacArgs, TableCommand, UpdateArgs};
use dynoscope_core::admin::{self, AdminEvent, AdminReport, BackupInfo, ChangeRun};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::Result;
use dynoscope_core::schema::{Described, IacFormat, create_input_json, read_spec, render_iac};
use dynoscope_core::write::WritePlan;

/// Run `command` on `connection`.
pub(crate) async fn table(cx: &mut Ctx<'_>, command: &TableCommand) -> Result<Exit> {
    match command {
        TableCommand::Create(args) => create(cx, args).await,
        TableCommand::Update(args) => update(cx, args).await,
        TableCommand::Delete(args) => drop(cx, args).await,
        TableCommand::Iac(args) => iac(cx, args).await,
        TableCommand::Backup(args) => backup(cx, args).await,
        TableCommand::Backups(args) => backups(cx, args).await,
        TableCommand::Restore(args) => restore(cx, args).await,
        TableCommand::DeleteBackup(args) => delete_backup(cx, args).await,
        TableCommand::Export(args) => s3_export::export(cx, args).await,
        TableCommand::Exports(args) => s3_export::list(cx, args).await,
    }
}

async fn create(cx: &mut Ctx<'_>, args: &CreateArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let spec = args.spec()?;
    let plan = admin::create_plan(connection, &spec)?;
    if args.dry_run {
        if out.json() {
            out.line(create_input_json(&spec));
        } else {
            out.text(spec.cli_commands(&connection.client_setup()));
            out.line("");
        }
        out.flush();
        return out.failure().map_or(Ok(Exit::Done), Err);
    }
    let run = ChangeRun::one(send(connection, &plan, confirmed, stop, out.notes()).await);
    said(out, &run)
}

async fn update(cx: &mut Ctx<'_>, args: &UpdateArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let table = read(connection, &args.table, stop).await?;
    let changes = args.changes(&table)?;
    let mut say = say_events(out.notes());
    let run = admin::change_all(connection, table, changes, confirmed, stop, &mut say).await;
    said(out, &run)
}

async fn drop(cx: &mut Ctx<'_>, args: &DropArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let table = read(connection, &args.table, stop).await?;
    let plan = admin::delete_plan(connection, &table, &args.confirm)?;
    let run = ChangeRun::one(send(connection, &plan, confirmed, stop, out.notes()).await);
    said(out, &run)
}

async fn backup(cx: &mut Ctx<'_>, args: &BackupArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let table = read(connection, &args.table, stop).await?;
    let plan = admin::backup_plan(connection, &table, &args.name)?;
    let run = ChangeRun::one(send(connection, &plan, confirmed, stop, out.notes()).await);
    said(out, &run)
}

/// Every backup of the table, a line each (or one JSON object).
async fn backups(cx: &mut Ctx<'_>, args: &BackupsArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let reader = connection.reader();
    let listed = admin::list_backups(&reader, &args.table);
    let backups = unless_stopped(stop, "ListBackups", listed).await?;
    if backups.is_empty() {
        out.note(format_args!(
            "dynoscope: table {} has no backups",
            args.table
        ));
    }
    said_read(out, &BackupInfo::listed(&args.table, &backups))
}

async fn restore(cx: &mut Ctx<'_>, args: &RestoreArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let reader = connection.reader();
    let described = admin::describe_backup(&reader, &args.backup_arn);
    let backup = unless_stopped(stop, "DescribeBackup", described).await?;
    let planned = admin::restore_plan(connection, &backup, &args.to_table);
    let plan = unless_stopped(stop, "DescribeTable", planned).await?;
    let run = ChangeRun::one(send(connection, &plan, confirmed, stop, out.notes()).await);
    said(out, &run)
}

async fn delete_backup(cx: &mut Ctx<'_>, args: &DeleteBackupArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let reader = connection.reader();
    let described = admin::describe_backup(&reader, &args.backup_arn);
    let backup = unless_stopped(stop, "DescribeBackup", described).await?;
    admin::check_backup_named(&backup, &args.confirm)?;
    let plan = admin::delete_backup_plan(connection, &backup)?;
    let run = ChangeRun::one(send(connection, &plan, confirmed, stop, out.notes()).await);
    said(out, &run)
}

/// Print the table as infrastructure code; what the server did not describe (the engine's
/// continuous backups) is said on stderr, since the code then leaves it out.
async fn iac(cx: &mut Ctx<'_>, args: &IacArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
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
    stop: &CancelToken,
    notes: Notes,
) -> AdminReport {
    admin::run(connection, plan, confirmed, stop, &mut say_events(notes)).await
}

/// Each state of a run said on stderr as it comes.
fn say_events(notes: Notes) -> impl FnMut(AdminEvent) + Send {
    move |event: AdminEvent| match event {
        AdminEvent::Applied(what) => notes.say(format_args!("dynoscope: applied: {what}")),
        AdminEvent::State(state) => notes.say(format_args!("dynoscope: waiting: {state}")),
    }
}
