//! `dynoscope check`: stored tallies beside counted children, from the shell, checked and summed
//! up by the same core code as the app's tally check.

use crate::args::CheckArgs;
use crate::context::Ctx;
use crate::exit::{Exit, said, said_program, said_read};
use crate::interrupt::describe;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::expr::codegen::Program;
use dynoscope_core::spec::{ExportAt, ReconcileFrom, TallySpec, WindowSpec};
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{
    self, AthenaRunSpec, ParentSource, ReconcileEvent, RuledTable, TallyRule,
};
use dynoscope_core::transfer::Format;

/// Run the check; exit 0 when every parent matches, 1 when any drifted or could not be
/// checked. With `--repair` (and `--all`), every drifted parent is then repaired.
pub(crate) async fn check(cx: &mut Ctx<'_>, args: CheckArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let client = &connection.reader();
    let info = describe(client, &args.table, stop).await?;
    if args.shards.is_some() {
        return shards(cx, &info, &args).await;
    }
    let out = &mut *cx.out;
    let spec = args.spec();
    if let Some(name) = &args.program {
        if args.pk.is_none() && !args.all {
            return Err(Error::Invalid("--program: give --pk VALUE or --all".into()));
        }
        return program(connection, &spec, name, out, stop).await;
    }
    if let Some(export) = &args.incremental_export {
        let window = WindowSpec {
            table: args.table.clone(),
            rule: spec.rule.clone(),
            export: export.clone(),
        };
        return said_read(out, &window.run(connection, &info, stop).await?);
    }
    if let Some(location) = &args.athena {
        let rule = spec.rule.tally_rule()?;
        let table = RuledTable {
            info: &info,
            rule: &rule,
        };
        return athena(connection, table, &args, location, out, stop).await;
    }
    let from = match (&args.pk, args.all, &args.from_export) {
        (_, _, Some(path)) => ReconcileFrom::Export(ExportAt {
            location: path.to_string_lossy().into_owned(),
            format: Format::parse(&args.export_format)?,
        }),
        (Some(_), _, None) if args.repair => {
            let repair = spec.repair(connection, &info, confirmed, stop);
            return said(out, &repair.await?);
        }
        // The verdict is the exit status, whoever reads the output.
        (Some(_), _, None) => return said(out, &spec.check(connection, &info, stop).await?),
        (None, true, None) => ReconcileFrom::Table(ParentSource::Scan),
        (None, false, None) => {
            return Err(Error::Invalid(
                "give --pk VALUE, --all or --from-export PATH".into(),
            ));
        }
    };
    let spec = TallySpec { pk: None, ..spec };
    let notes = out.notes();
    let on_event = |event| match event {
        ReconcileEvent::Planned { plan, estimate } => {
            for line in &estimate {
                notes.say(line);
            }
            notes.say(format_args!("Plan: {plan}."));
        }
        ReconcileEvent::Noted(words) => notes.say(words),
        _ => {}
    };
    let mut run = spec
        .reconcile_job(connection, &info, &from, stop, on_event)
        .await?;
    if run.all.cancelled {
        // What was checked before the interrupt is said; the run did not finish.
        said(out, &run)?;
        out.flush();
        return Err(Error::Cancelled { op: "reconcile" });
    }
    if !args.repair {
        // The verdict is the exit status, whoever reads the output.
        return said(out, &run);
    }
    run.repair(connection, &info, &spec, confirmed, stop)
        .await?;
    said(out, &run)
}

/// `--program`: the reconcile of `spec` as a whole program in the language `name` names,
/// printed; nothing read but the table's description.
async fn program(
    connection: &Connection,
    spec: &TallySpec,
    name: &str,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let target = Program::target_named(name)?;
    said_program(out, &spec.program(connection, target, stop).await?)
}

/// `--athena`: its SQL printed, or with `--run` run in Athena and its report said.
async fn athena(
    connection: &Connection,
    table: RuledTable<'_>,
    args: &CheckArgs,
    location: &str,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let RuledTable { info, rule } = table;
    if !args.run {
        return print_athena(info, rule, location, out);
    }
    let spec = AthenaRunSpec {
        location: location.to_owned(),
        output: args.athena_output.clone().unwrap_or_default(),
        workgroup: args.workgroup.clone(),
        database: args.database.clone(),
        wait_seconds: args.athena_wait,
    };
    let run = tally::run_in_athena(connection, table, &spec, stop).await?;
    said_read(out, &run)
}

/// Print the Athena SQL reconciling the export at `location`: all it does, so unprinted, it
/// failed.
fn print_athena(
    info: &TableInfo,
    rule: &TallyRule,
    location: &str,
    out: &mut Output,
) -> Result<Exit> {
    out.text(tally::athena_sql(
        info,
        rule,
        location,
        &tally::athena_table(&info.name),
    )?);
    out.flush();
    out.failure().map_or(Ok(()), Err)?;
    Ok(Exit::Done)
}

/// `--shards`: sum a sharded counter, one line per shard, the hot one marked.
async fn shards(cx: &mut Ctx<'_>, info: &TableInfo, args: &CheckArgs) -> Result<Exit> {
    let sum = args.spec().sum_shards(cx.connection, info, cx.stop).await?;
    said_read(cx.out, &sum)
}
