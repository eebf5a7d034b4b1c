//! `dynoscope sql`: read tables or partitions through the one reader into an SQL session, run
//! the SQL there, print the rows as JSON objects, one per line.

use crate::args::{ConnectionFlags, SqlArgs};
use crate::exit::Exit;
use crate::interrupt::unless_stopped;
use crate::item_rows::ItemRows;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::error::Result;
use dynoscope_core::spec::SqlSpec;
use dynoscope_core::sql::{SqlLimits, SqlSession};

/// Load every `--load`, run the SQL, print the rows; the notes and a summary go to stderr.
pub(crate) async fn sql(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    args: SqlArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let loads = SqlSpec {
        loads: args.loads.clone(),
        sql: args.sql.clone(),
        max_rows: args.max_rows,
    }
    .plan()?;
    let mut session = SqlSession::new()?;
    // Ctrl-C stops a load or a statement under way (SQLite asks every few thousand steps).
    session.stop_on(stop.clone());
    // Every name is taken (empty) before anything is read: a name SQLite refuses fails at once.
    for load in &loads {
        session.load(&load.name, &[], [])?;
    }
    // Without a --load there is nothing to read, so nothing to connect to.
    if !loads.is_empty() {
        let connection = unless_stopped(
            stop,
            "connect",
            connection::connect_with(spec, flags.options()),
        )
        .await?;
        for load in &loads {
            let note =
                unless_stopped(stop, "Scan", load.load_into(&connection, &mut session)).await?;
            out.note(note);
        }
    }
    // --timeout bounds the SQL too (past it: an error, exit 2, nothing printed); without it the
    // SQL runs until it ends or Ctrl-C.
    let limits = SqlLimits::rows(args.max_rows).within(flags.timeout);
    let rows = session.query_limited(&args.sql, &limits)?;
    ItemRows::sql(rows.columns.clone()).block(out, &rows.rows);
    out.flush();
    if let Some(error) = out.failure() {
        return Err(error);
    }
    for note in &rows.notes {
        out.note(format_args!("note: {note}"));
    }
    out.note(rows.summary());
    Ok(Exit::Done)
}
