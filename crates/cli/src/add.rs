//! `dynoscope add`: a counter edit from the shell, planned, sent and reported by the same core
//! code as the app's, in the same words.

use crate::args::AddArgs;
use crate::exit::Exit;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::Result;
use dynoscope_core::report::Lines;
use dynoscope_core::spec::AddSpec;

/// Run the edit (`confirmed`: `--yes`) and print the report on stdout; an error before
/// anything could apply is returned, to be printed once on stderr. Interrupted before it is
/// sent, nothing is sent; once sent, its answer is waited for and said.
pub async fn add(
    connection: &Connection,
    args: AddArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let spec = AddSpec {
        table: args.table.clone(),
        key: crate::flags::key_spec(args.keys.iter().map(String::as_str))?,
        attribute: args.attr.clone(),
        delta: args.delta.clone(),
        mode: args.mode,
        create: args.create,
    };
    let report = spec.run(connection, confirmed, stop).await?;
    // A failure that applied nothing is said once, on stderr.
    let exit = Exit::from(report.outcome.ending()?);
    if args.json {
        out.line(report.to_json());
    } else {
        out.line(Lines(&report.lines()));
    }
    Ok(exit)
}
