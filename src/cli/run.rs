//! Running a subcommand: thin glue from arguments to core functions and back to text.

use std::io::Write as _;
use std::process::ExitCode;

use crate::cli::args::{ConnectionFlags, Subcommand};
use crate::cli::exit::io_error;
use crate::cli::exit::{Exit, print_error};
use crate::cli::reads;
use crate::core::connection::{self, ConnectionSpec};
use crate::core::error::{Error, Result};
use crate::core::likes::LikeOp;
use crate::core::read;
use crate::core::table::TableInfo;

/// Run `command` against the connection `spec`, with the `--timeout`, `--read-only` and `--yes`
/// of `flags`; prints results on stdout and errors on stderr (once), and returns the exit status
/// of the one table ([`EXIT_TABLE`](crate::cli::EXIT_TABLE)).
pub async fn run(spec: ConnectionSpec, flags: &ConnectionFlags, command: Subcommand) -> ExitCode {
    let json = command.json();
    match run_inner(spec, flags, command).await {
        Ok(exit) => exit.code(),
        Err(error) => {
            print_error(&error, json);
            if matches!(error, Error::NotConfirmed { .. }) && !json {
                eprintln!(
                    "dynoscope: add --yes to confirm writes to an endpoint that is not on this machine"
                );
            }
            Exit::of_error(&error).code()
        }
    }
}

async fn run_inner(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    command: Subcommand,
) -> Result<Exit> {
    if let Subcommand::Expr(args) = command {
        return crate::cli::expr::expr(args);
    }
    if let Subcommand::Sql(args) = command {
        return crate::cli::sql::sql(spec, flags, args).await;
    }
    if let Subcommand::Sandbox { port } = command {
        serve_sandbox(spec, port).await?;
        return Ok(Exit::Done);
    }
    let connection = connection::connect_with(spec, flags.options()).await?;
    let client = &connection.client;
    let confirmed = flags.yes;
    let mut out = std::io::stdout().lock();
    match command {
        Subcommand::Tables => {
            for name in read::list_tables(client).await? {
                writeln!(out, "{name}").map_err(io_error)?;
            }
        }
        Subcommand::Describe { table } => {
            let info = read::describe_table(client, &table).await?;
            write!(out, "{}", describe_text(&info)).map_err(io_error)?;
        }
        Subcommand::Items(args) => reads::items(client, args, &mut out).await?,
        Subcommand::Scan(args) => reads::scan(client, args, &mut out).await?,
        Subcommand::Add(args) => return crate::cli::add::add(&connection, args, confirmed).await,
        Subcommand::Check(args) => return crate::cli::check::check(client, args).await,
        Subcommand::Like(args) => {
            return crate::cli::likes::like(&connection, LikeOp::Like, args, confirmed).await;
        }
        Subcommand::Unlike(args) => {
            return crate::cli::likes::like(&connection, LikeOp::Unlike, args, confirmed).await;
        }
        Subcommand::Storm(args) => {
            return crate::cli::likes::storm(&connection, args, confirmed).await;
        }
        Subcommand::Partiql(args) => {
            return crate::cli::partiql::partiql(&connection, args, confirmed).await;
        }
        Subcommand::Export(args) => return crate::cli::transfer::export(&connection, args).await,
        Subcommand::Import(args) => {
            return crate::cli::transfer::import(&connection, args, confirmed).await;
        }
        Subcommand::Put(args) => return crate::cli::item::put(&connection, args, confirmed).await,
        Subcommand::Delete(args) => {
            return crate::cli::item::delete(&connection, args, confirmed).await;
        }
        Subcommand::Sandbox { .. } | Subcommand::Expr(_) | Subcommand::Sql(_) => {}
    }
    Ok(Exit::Done)
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
async fn serve_sandbox(spec: ConnectionSpec, port: u16) -> Result<()> {
    let db_path = match spec {
        ConnectionSpec::Sandbox { db_path } => db_path,
        _ => None,
    };
    let sandbox = crate::core::sandbox::Sandbox::start(db_path.as_deref(), port).await?;
    if let Some(report) = sandbox.seeded() {
        eprintln!(
            "seeded {} items in {} tables in {} ms",
            report.items, report.tables, report.elapsed_ms
        );
    }
    println!("{}", sandbox.endpoint());
    eprintln!(
        "serving until Ctrl-C; try: aws dynamodb list-tables --endpoint-url {}",
        sandbox.endpoint()
    );
    let _ = std::io::stdout().flush();
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| Error::Sandbox(format!("cannot wait for Ctrl-C: {e}")))?;
    drop(sandbox);
    Ok(())
}

#[cfg(not(feature = "sandbox"))]
async fn serve_sandbox(_spec: ConnectionSpec, _port: u16) -> Result<()> {
    Err(Error::Sandbox(
        "this build has no sandbox (built without the `sandbox` feature)".into(),
    ))
}
