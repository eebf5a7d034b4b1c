//! Running a subcommand: thin glue from arguments to core functions and back to text, through
//! the one output path, listening for Ctrl-C and SIGTERM from the start.

use std::process::ExitCode;

use crate::args::{ConnectionFlags, Subcommand};
use crate::exit::{Exit, print_error};
use crate::interrupt::{Interrupt, describe, unless_stopped};
use crate::output::Output;
use crate::reads;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{self, Connection, ConnectionSpec};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::likes::LikeOp;
use dynoscope_core::read;
use dynoscope_core::table::TableInfo;

/// Run `command` against the connection `spec`, with the `--timeout`, `--read-only` and `--yes`
/// of `flags`; prints results on stdout and errors on stderr (once), and returns the exit status
/// of the one table ([`EXIT_TABLE`](crate::EXIT_TABLE)). A closed stdout or a signal
/// changes neither what was sent nor the status that says how it ended.
pub async fn run(spec: ConnectionSpec, flags: &ConnectionFlags, command: Subcommand) -> ExitCode {
    let json = command.json();
    let mut out = Output::new();
    let interrupt = Interrupt::listen(command.writes());
    let exit = match run_inner(spec, flags, command, &mut out, interrupt.token()).await {
        Ok(exit) => exit,
        Err(error) => {
            print_error(&out, &error, json);
            // One message: the way to confirm is said once, where the question does not say it.
            if let Error::NotConfirmed { question } = &error
                && !json
                && !question.contains("--yes")
            {
                out.note("dynoscope: add --yes to confirm it");
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
    if let Subcommand::Expr(args) = command {
        return crate::expr::expr(args, out);
    }
    // Without a table, what an item or a counter costs needs no connection.
    let command = match command {
        Subcommand::Size(args) if args.table.is_none() => {
            return crate::size::size(None, args, out, stop).await;
        }
        Subcommand::ShardsAdvice(args) if args.table.is_none() => {
            return crate::size::shards_advice(None, args, out, stop).await;
        }
        other => other,
    };
    flags.check()?;
    if let Subcommand::Sql(args) = command {
        return crate::sql::sql(spec, flags, args, out, stop).await;
    }
    if let Subcommand::Sandbox { port } = command {
        serve_sandbox(spec, port, out, stop).await?;
        return Ok(Exit::Done);
    }
    let connection = unless_stopped(
        stop,
        "connect",
        connection::connect_with(spec, flags.options()),
    )
    .await?;
    connection.pick_price_region(flags.price_region.clone());
    if let Some(warning) = connection.price_warning() {
        out.note(format_args!(
            "dynoscope: {warning}; the shipped prices are used"
        ));
    }
    run_connected(connection, flags, command, out, stop).await
}

/// Run `command` through `connection`: the table list, a table's description, reads and the
/// MCP server here, the rest in [`run_table_command`].
async fn run_connected(
    connection: Connection,
    flags: &ConnectionFlags,
    command: Subcommand,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let client = &connection.reader();
    let confirmed = flags.yes;
    match command {
        Subcommand::Tables => {
            for name in unless_stopped(stop, "ListTables", read::list_tables(client)).await? {
                out.line(name);
            }
            // What was read is all it does: unread, it failed.
            out.failure().map_or(Ok(()), Err)?;
        }
        Subcommand::Describe { table } => {
            let info = describe(client, &table, stop).await?;
            out.text(describe_text(&info));
            out.flush();
            out.failure().map_or(Ok(()), Err)?;
        }
        Subcommand::Items(args) => reads::items(&connection, args, out, stop).await?,
        Subcommand::Scan(args) => reads::scan(&connection, args, out, stop, confirmed).await?,
        Subcommand::Mcp(args) => {
            crate::mcp::mcp(connection, flags, &args, out, stop).await?;
        }
        Subcommand::Sandbox { .. } | Subcommand::Expr(_) | Subcommand::Sql(_) => {}
        other => return run_table_command(&connection, flags, other, out, stop).await,
    }
    Ok(Exit::Done)
}

/// Run a `command` on one table or its items through `connection`, saying how it ended.
async fn run_table_command(
    connection: &Connection,
    flags: &ConnectionFlags,
    command: Subcommand,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let confirmed = flags.yes;
    match command {
        Subcommand::Add(args) => crate::add::add(connection, args, confirmed, out, stop).await,
        Subcommand::Get(args) => crate::item::get(connection, args, out, stop).await,
        Subcommand::Check(args) => {
            crate::check::check(connection, args, confirmed, out, stop).await
        }
        Subcommand::Like(args) => {
            crate::likes::like(connection, LikeOp::Like, args, confirmed, out, stop).await
        }
        Subcommand::Unlike(args) => {
            crate::likes::like(connection, LikeOp::Unlike, args, confirmed, out, stop).await
        }
        Subcommand::Storm(args) => {
            crate::likes::storm(connection, args, confirmed, out, stop).await
        }
        Subcommand::Partiql(args) => {
            crate::partiql::partiql(connection, args, confirmed, out, stop).await
        }
        Subcommand::Export(args) => {
            crate::transfer::export(connection, args, confirmed, out, stop).await
        }
        Subcommand::Import(args) => {
            crate::transfer::import(connection, args, confirmed, out, stop).await
        }
        Subcommand::Put(args) => crate::item::put(connection, args, confirmed, out, stop).await,
        Subcommand::Delete(args) => {
            crate::item::delete(connection, args, confirmed, out, stop).await
        }
        Subcommand::Truncate(args) => {
            crate::purge::truncate(connection, &args, confirmed, out, stop).await
        }
        Subcommand::CloneTable(args) => {
            crate::clone::clone(connection, flags, args, out, stop).await
        }
        Subcommand::Table(command) => {
            crate::table::table(connection, &command, confirmed, out, stop).await
        }
        Subcommand::Metrics(args) => crate::metrics::metrics(connection, &args, out, stop).await,
        Subcommand::Insights(args) => {
            crate::metrics::insights(connection, &args, confirmed, out, stop).await
        }
        Subcommand::Cost(args) => crate::cost::cost(connection, &args, out, stop).await,
        Subcommand::Watch(args) => {
            crate::watch::watch(connection, args, confirmed, out, stop).await
        }
        Subcommand::Size(args) => crate::size::size(Some(connection), args, out, stop).await,
        Subcommand::ShardsAdvice(args) => {
            crate::size::shards_advice(Some(connection), args, out, stop).await
        }
        Subcommand::Tables
        | Subcommand::Describe { .. }
        | Subcommand::Items(_)
        | Subcommand::Scan(_)
        | Subcommand::Mcp(_)
        | Subcommand::Sandbox { .. }
        | Subcommand::Expr(_)
        | Subcommand::Sql(_) => Ok(Exit::Done),
    }
}

/// The describe panel as text: the same facts, a line each.
pub fn describe_text(info: &TableInfo) -> String {
    let mut text = format!("{:<14} {}\n", "Table", info.name);
    for (name, value) in info.facts() {
        text += &format!("{name:<14} {value}\n");
    }
    for index in &info.indexes {
        text += &format!(
            "{:<14} {}: {} · projection {}\n",
            index.kind_name(),
            index.name,
            index.keys_text(),
            index.projection
        );
    }
    if let Some(arn) = &info.arn {
        text += &format!("{:<14} {arn}\n", "ARN");
    }
    text
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
