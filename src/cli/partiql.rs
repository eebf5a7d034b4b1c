//! `dynoscope partiql`: one PartiQL statement from the shell. A SELECT is read page by page by
//! the same core code as the app's; a write is planned, sent once through the write gateway and
//! reported in the same words.

use std::io::Write as _;

use crate::cli::args::PartiqlArgs;
use crate::cli::exit::Exit;
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::partiql::{self, Statement, StatementOutcome, StatementReport};
use crate::core::read::Until;
use crate::core::report::{Lines, read_summary};
use crate::core::value;
use crate::core::write::Destination;

/// Run the statement (`confirmed`: `--yes`): a read prints items on stdout and a summary on
/// stderr; a write prints its report. An error before anything could apply is returned, to be
/// printed once on stderr.
pub async fn partiql(connection: &Connection, args: PartiqlArgs, confirmed: bool) -> Result<Exit> {
    let statement = Statement::from_json(args.statement.as_str(), &args.params)?;
    if statement.check()?.kind.writes() {
        if args.limit.is_some() || args.page_size.is_some() {
            return Err(Error::Invalid(
                "--limit and --page-size are for SELECT; nothing was sent".into(),
            ));
        }
        return write(connection, statement, args.json, confirmed).await;
    }
    read(connection, &statement, &args).await?;
    Ok(Exit::Done)
}

async fn write(
    connection: &Connection,
    statement: Statement,
    json: bool,
    confirmed: bool,
) -> Result<Exit> {
    let plan = partiql::plan_write(Destination::of(connection), statement)?;
    // Refused before anything is sent when a confirmation is needed and not given.
    plan.confirmation().check(confirmed)?;
    let outcome = partiql::write(connection, &plan, confirmed).await;
    let exit = match &outcome {
        StatementOutcome::Applied { .. } => Exit::Done,
        StatementOutcome::Refused { .. } => Exit::Refused,
        StatementOutcome::Unknown { .. } => Exit::Unknown,
        // Nothing applied: said once, on stderr.
        StatementOutcome::Failed(error) => return Err(error.clone()),
    };
    let report = StatementReport { plan, outcome };
    if json {
        println!("{}", report.to_json());
    } else {
        println!("{}", Lines(&report.lines()));
    }
    Ok(exit)
}

async fn read(connection: &Connection, statement: &Statement, args: &PartiqlArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let (mut items, mut pages, mut rcu) = (0usize, 0usize, 0.0);
    let mut failed = None;
    let until = args.limit.map_or(Until::LastPage, Until::Items);
    partiql::read_statement(
        &connection.client,
        statement,
        None,
        args.page_size,
        until,
        &CancelToken::default(),
        |page| {
            pages += 1;
            rcu += page.consumed_rcu;
            for item in page.items {
                if args.limit.is_some_and(|l| items >= l) || failed.is_some() {
                    return;
                }
                let line = if args.json {
                    value::item_to_dynamodb_json(&item, &[], false)
                } else {
                    value::item_to_plain_json(&item, &[], false)
                };
                if let Err(e) = writeln!(out, "{line}") {
                    failed = Some(Error::Invalid(format!("cannot write output: {e}")));
                }
                items += 1;
            }
        },
    )
    .await?;
    if let Some(error) = failed {
        return Err(error);
    }
    eprintln!("{}", read_summary(items, pages, rcu));
    Ok(())
}
