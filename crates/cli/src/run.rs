//! Running a subcommand: thin glue from arguments to core functions and back to text, through
//! the one output path, listening for Ctrl-C and SIGTERM from the start.

use std::process::ExitCode;

use crate::args::{ConnectionFlags, OutputFlags, Subcommand};
use crate::context::Ctx;
use crate::exit::{Exit, print_error, said_read};
use crate::interrupt::{Interrupt, describe, unless_stopped};
use crate::output::Output;
use crate::style::{Form, Style};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{self, Connection, ConnectionSpec};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::listed::{TableFacts, TableNames};
use dynoscope_core::read;

/// Run `command` against the connection `spec`, with the `--timeout`, `--read-only` and `--yes`
/// of `flags`; prints results on stdout and errors on stderr (once), and returns the exit status
/// of the one table ([`EXIT_TABLE`](crate::EXIT_TABLE)). A closed stdout or a signal
/// changes neither what was sent nor the status that says how it ended.
pub async fn run(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    shown: OutputFlags,
    command: Subcommand,
) -> ExitCode {
    let mut out = match shown.style(command.unshaped()) {
        Ok(style) => Output::with_style(style),
        Err(error) => {
            // Said as JSON when JSON was asked for, by either spelling.
            let json = shown.json || shown.output.is_some_and(Form::is_json);
            let form = json.then_some(Form::Json);
            print_error(
                &Output::with_style(Style {
                    form,
                    ..Style::default()
                }),
                &error,
            );
            return Exit::of_error(&error).code();
        }
    };
    let interrupt = Interrupt::listen(command.writes());
    let exit = match run_inner(spec, flags, command, &mut out, interrupt.token()).await {
        Ok(exit) => exit,
        Err(error) => {
            print_error(&out, &error);
            // One message: the way to confirm is said once, where the question does not say it.
            if let Error::NotConfirmed { question } = &error
                && !out.json()
            {
                match flags.protected_name() {
                    Some(name) => out.error(format_args!(
                        "dynoscope: add --confirm-name {name} to confirm it (--yes is not enough \
                         on a protected connection)"
                    )),
                    None if !question.contains("--yes") => {
                        out.error("dynoscope: add --yes to confirm it");
                    }
                    None => {}
                }
            }
            Exit::of_error(&error)
        }
    };
    out.finish();
    exit.code()
}

async fn run_inner(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    command: Subcommand,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    // What needs no connection at all.
    match command {
        Subcommand::Expr(args) => return crate::expr::expr(&args, out),
        Subcommand::Completions(args) => return Ok(crate::docs::completions(&args, out)),
        Subcommand::Man(args) => return crate::docs::man(&args, out),
        Subcommand::Paths(_) => return crate::paths::paths(out),
        _ => {}
    }
    // Without a table, what an item or a counter costs needs no connection.
    let command = match command {
        Subcommand::Size(args) if args.table.is_none() => {
            return crate::size::size(None, args, out, stop).await;
        }
        Subcommand::ShardsAdvice(args) if args.table.is_none() => {
            return crate::size::shards_advice(None, args, out, stop).await;
        }
        Subcommand::Plan(args) if args.table.is_none() => {
            return crate::plan::plan(None, &args, out, stop).await;
        }
        other => other,
    };
    // The app's marks on this connection (and on a clone's destination) hold here too.
    let marked = flags.marked(crate::marks::mark_of(&spec, command.writes(), out)?);
    let flags = &marked;
    let destination_protected = match &command {
        Subcommand::CloneTable(args) => args.to.chosen().ok().flatten().is_some_and(|to| {
            crate::marks::mark_of(&to, false, out).is_ok_and(|m| m.protected.is_some())
        }),
        _ => false,
    };
    flags.check(destination_protected)?;
    if let Subcommand::Sql(args) = command {
        return crate::sql::sql(spec, flags, args, out, stop).await;
    }
    if let Subcommand::Sandbox { port } = command {
        serve_sandbox(spec, port, out, stop).await?;
        return Ok(Exit::Done);
    }
    let mut connection = unless_stopped(
        stop,
        "connect",
        connection::connect_with(spec, flags.options()),
    )
    .await?;
    connection.pick_price_region(flags.price_region.clone());
    if let Some(wait) = flags.max_throttle_wait {
        connection.set_max_throttle_wait(wait);
    }
    // Protected: every write's question is the gateway's typed one, answered by the name.
    if let Some(name) = flags.protected_name() {
        connection.set_naming(name, true);
    }
    if let Some(warning) = connection.price_warning() {
        // A warning about the figures printed: said even with --quiet.
        out.error(format_args!(
            "dynoscope: {warning}; the shipped prices are used"
        ));
    }
    run_connected(connection, flags, command, out, stop).await
}

/// Run `command` through `connection`: one handler per subcommand, each with the one context.
async fn run_connected(
    connection: Connection,
    flags: &ConnectionFlags,
    command: Subcommand,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    if let Subcommand::Mcp(args) = command {
        crate::mcp::mcp(connection, flags, &args, out, stop).await?;
        return Ok(Exit::Done);
    }
    let mut cx = Ctx {
        connection: &connection,
        flags,
        confirmed: flags.confirmed(),
        out,
        stop,
    };
    run_command(&mut cx, command).await
}

/// Run one subcommand with its context, saying how it ended.
async fn run_command(cx: &mut Ctx<'_>, command: Subcommand) -> Result<Exit> {
    match command {
        Subcommand::Tables => tables(cx).await,
        Subcommand::Describe { table } => describe_table(cx, &table).await,
        Subcommand::Items(args) => crate::reads::items(cx, args).await.map(|()| Exit::Done),
        Subcommand::Scan(args) => crate::reads::scan(cx, args).await.map(|()| Exit::Done),
        Subcommand::Add(args) => crate::add::add(cx, args).await,
        Subcommand::Get(args) => crate::item::get(cx, args).await,
        Subcommand::Check(args) => crate::check::check(cx, args).await,
        Subcommand::Like(args) => crate::likes::like(cx, args).await,
        Subcommand::Unlike(args) => crate::likes::unlike(cx, args).await,
        Subcommand::Storm(args) => crate::likes::storm(cx, args).await,
        Subcommand::Partiql(args) => crate::partiql::partiql(cx, args).await,
        Subcommand::Export(args) => crate::transfer::export(cx, args).await,
        Subcommand::Import(args) => crate::transfer::import(cx, args).await,
        Subcommand::Put(args) => crate::item::put(cx, args).await,
        Subcommand::Delete(args) => crate::item::delete(cx, args).await,
        Subcommand::Truncate(args) => crate::purge::truncate(cx, &args).await,
        Subcommand::CloneTable(args) => crate::clone::clone(cx, args).await,
        Subcommand::Diff(args) => crate::diff::diff(cx, args).await,
        Subcommand::Snapshot(args) => crate::snapshot::snapshot(cx, args).await,
        Subcommand::Table(command) => crate::table::table(cx, &command).await,
        Subcommand::Metrics(args) => crate::metrics::metrics(cx, &args).await,
        Subcommand::Insights(args) => crate::metrics::insights(cx, &args).await,
        Subcommand::Cost(args) => crate::cost::cost(cx, &args).await,
        Subcommand::Plan(args) => {
            crate::plan::plan(Some(cx.connection), &args, cx.out, cx.stop).await
        }
        Subcommand::Watch(args) => crate::watch::watch(cx, args).await,
        Subcommand::Size(args) => {
            crate::size::size(Some(cx.connection), args, cx.out, cx.stop).await
        }
        Subcommand::ShardsAdvice(args) => {
            crate::size::shards_advice(Some(cx.connection), args, cx.out, cx.stop).await
        }
        // Run before a connection is made (`run_inner`).
        Subcommand::Mcp(_)
        | Subcommand::Sandbox { .. }
        | Subcommand::Expr(_)
        | Subcommand::Completions(_)
        | Subcommand::Man(_)
        | Subcommand::Paths(_)
        | Subcommand::Sql(_) => Ok(Exit::Done),
    }
}

/// `dynoscope tables`: every table's name.
async fn tables(cx: &mut Ctx<'_>) -> Result<Exit> {
    let reader = cx.connection.reader();
    let listed = read::list_tables(&reader);
    let names = TableNames {
        tables: unless_stopped(cx.stop, "ListTables", listed).await?,
    };
    said_read(cx.out, &names)
}

/// `dynoscope describe`: the table's facts.
async fn describe_table(cx: &mut Ctx<'_>, table: &str) -> Result<Exit> {
    let info = describe(&cx.connection.reader(), table, cx.stop).await?;
    said_read(cx.out, &TableFacts(&info))
}

#[cfg(feature = "sandbox")]
async fn serve_sandbox(
    spec: ConnectionSpec,
    port: u16,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<()> {
    let db_path = match spec {
        ConnectionSpec::Sandbox { db_path } => db_path,
        _ => None,
    };
    let sandbox = dynoscope_core::sandbox::Sandbox::start(db_path.as_deref(), port).await?;
    if let Some(report) = sandbox.seeded() {
        out.note(format_args!(
            "seeded {} items in {} tables in {} ms",
            report.items, report.tables, report.elapsed_ms
        ));
    }
    out.line(sandbox.endpoint());
    out.flush();
    out.note(format_args!(
        "serving until Ctrl-C; try: aws dynamodb list-tables --endpoint-url {}",
        sandbox.endpoint()
    ));
    stop.cancelled().await;
    drop(sandbox);
    Ok(())
}

#[cfg(not(feature = "sandbox"))]
async fn serve_sandbox(
    _spec: ConnectionSpec,
    _port: u16,
    _out: &mut Output,
    _stop: &CancelToken,
) -> Result<()> {
    Err(Error::Sandbox(
        "this build has no sandbox (built without the `sandbox` feature)".into(),
    ))
}
