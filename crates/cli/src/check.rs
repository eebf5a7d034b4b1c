//! `dynoscope check`: stored tallies beside counted children, from the shell, checked and summed
//! up by the same core code as the app's tally check.

use crate::context::Ctx;
use std::path::Path;
use std::time::Instant;

use serde_json::json;

use crate::args::CheckArgs;
use crate::exit::{Exit, said_program, said_read};
use crate::interrupt::{describe, unless_stopped};
use crate::output::Output;
use crate::style::Form;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{Connection, Reader};
use dynoscope_core::cost::Pricing;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::expr::codegen::Program;
use dynoscope_core::spec::{TallySpec, WindowSpec};
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{self, AthenaRunSpec, Reconciled, RepairReport, TallyRule};
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
        return program(connection, (&spec, name), out, stop).await;
    }
    if let Some(export) = &args.incremental_export {
        let window = WindowSpec {
            table: args.table.clone(),
            rule: spec.rule.clone(),
            export: export.clone(),
        };
        return said_read(out, &window.run(connection, &info, stop).await?);
    }
    let rule = spec.rule.tally_rule()?;
    let started = Instant::now();
    let pricing = connection.pricing(&info);
    let mut all = Reconciled::default();
    if let Some(location) = &args.athena {
        return athena(connection, (&info, &rule), &args, location, (out, stop)).await;
    }
    match (&args.pk, args.all, &args.from_export) {
        (_, _, Some(path)) => {
            all = check_from_export(connection, (&info, &rule), &args, path, out, stop).await?;
        }
        (Some(_), _, None) => {
            let partition = spec.one_partition(&info)?;
            let (check, _) = unless_stopped(
                stop,
                "Query",
                tally::check_partition(client, &info, &rule, partition),
            )
            .await?;
            all.add(Ok(check));
        }
        (None, true, None) => {
            all = check_all(client, &info, &rule, &args, &pricing, out, stop).await?;
        }
        (None, false, None) => {
            return Err(Error::Invalid(
                "give --pk VALUE, --all or --from-export PATH".into(),
            ));
        }
    }
    print_checks(&all, &pricing, out);
    print_totals(&all, &pricing, started, out);
    let totals = &all.checked.totals;
    let checked = Exit::from(all.ending());
    if !args.repair || totals.drifted == 0 {
        return Ok(checked);
    }
    let repaired = tally::repair_all(
        connection,
        &info,
        &rule,
        &all.checked.checks,
        confirmed,
        stop,
        |partition, report| print_repair(partition, report, &pricing, out),
    )
    .await?;
    out.note(format_args!("Repair: {}.", repaired.summary()));
    // Parents that could not be checked are still unrepaired: the data still disagrees.
    let unchecked = if all.failures.is_empty() {
        Ending::Done
    } else {
        all.ending()
    };
    Ok(Exit::from(repaired.ending().graver(unchecked)))
}

/// `--program`: the reconcile of `spec` as a whole program, printed; nothing read but the
/// table's description.
async fn program(
    connection: &Connection,
    (spec, name): (&TallySpec, &str),
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let target = Program::target_named(name)?;
    said_program(out, &spec.program(connection, target, stop).await?)
}

/// `--athena`: its SQL printed, or with `--run` run in Athena and its report said.
async fn athena(
    connection: &Connection,
    (info, rule): (&TableInfo, &TallyRule),
    args: &CheckArgs,
    location: &str,
    (out, stop): (&mut Output, &CancelToken),
) -> Result<Exit> {
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
    let run = tally::run_in_athena(connection, (info, rule), &spec, stop).await?;
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

/// Check every parent, after noting what the scan will read and cost and the plan it runs on;
/// when interrupted, what was checked is printed before the run is said cancelled.
async fn check_all(
    client: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    args: &CheckArgs,
    pricing: &Pricing,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Reconciled> {
    let (estimate, plan) = args.spec().reconcile_plan(info)?;
    for line in estimate.lines(&info.name, pricing) {
        out.note(line);
    }
    out.note(format_args!("Plan: {}.", plan.label()));
    let all = tally::reconcile_checked(client, info, rule, plan, stop).await?;
    if all.cancelled {
        // What was checked before the interrupt is printed; the run did not finish.
        print_checks(&all, pricing, out);
        return Err(Error::Cancelled { op: "reconcile" });
    }
    Ok(all)
}

/// Check every parent in the export at `path` (files here, or `s3://…`; their names noted
/// first); no item is read from the table.
async fn check_from_export(
    connection: &Connection,
    rule: (&TableInfo, &TallyRule),
    args: &CheckArgs,
    path: &Path,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Reconciled> {
    let format = Format::parse(&args.export_format)?;
    let location = path.to_string_lossy();
    let read = tally::check_export_at(connection, rule, (&location, format), stop, |_| {}).await?;
    for skipped in &read.skipped {
        out.note(format_args!("dynoscope: {skipped}"));
    }
    out.note(format_args!("dynoscope: {}", read.source_line()));
    for source in &read.sources {
        out.note(format_args!("  {source}"));
    }
    let read_line = read.read_line();
    let checks = read.checks.ok_or(Error::Cancelled {
        op: "reading the export",
    })?;
    let mut all = Reconciled::default();
    for check in checks {
        all.add(check);
    }
    out.note(read_line);
    Ok(all)
}

/// The totals of a finished check: as JSON with `--json`, then the summary line, and a word
/// when no parent matched the rule.
fn print_totals(all: &Reconciled, pricing: &Pricing, started: Instant, out: &mut Output) {
    let totals = &all.checked.totals;
    if out.form() == Some(Form::Json) {
        out.line(json!({"totals": all.totals_json(pricing)}));
    }
    out.note(format_args!(
        "{} · {} · {} ms",
        all.summary(),
        pricing.read(totals.rcu),
        started.elapsed().as_millis()
    ));
    if all.checked.checks.is_empty() && all.failures.is_empty() {
        // Nothing matched the rule (a typo in a prefix or a sort key): no drift found is not a
        // tally that matches.
        out.note(
            "dynoscope: no parent matched the rule, so nothing was checked (look at --parent-sk, --parent-prefix and --tally)",
        );
    }
}

/// One line per repair as it ends: the parent and what happened, with the check made after.
fn print_repair(partition: &str, report: &RepairReport, pricing: &Pricing, out: &mut Output) {
    let line = report.line();
    if out.json() {
        let after = report
            .recheck
            .as_ref()
            .map_or(serde_json::Value::Null, |(check, _)| check.to_json(pricing));
        // A failure by its error's class (throttled out is the server refusing).
        let ending = report.outcome.ending();
        out.line(json!({"repair": partition, "ending": ending.word(), "line": line.text, "after": after}));
    } else if out.form().is_some() {
        // Beside the rows of a table or text, never among them.
        out.aside(format_args!("{partition}\trepair: {}", line.text));
    } else {
        out.line(format_args!("{partition}\trepair: {}", line.text));
    }
}

/// One row per parent checked (pk, stored, counted and drift; a JSON object each with JSON
/// output, in words without `--output`), then one line per parent that could not be checked,
/// with why.
fn print_checks(all: &Reconciled, pricing: &Pricing, out: &mut Output) {
    if out.form().is_some() {
        out.listing(&all.listing(pricing));
    } else {
        all.checked
            .checks
            .iter()
            .for_each(|check| out.line(check.line()));
    }
    for failure in &all.failures {
        match out.form() {
            Some(Form::Json | Form::Jsonl) => out.line(failure.to_json()),
            // Beside the rows of a table or text, never among them; said even with --quiet.
            Some(Form::Table | Form::Text) => {
                out.error(format_args!("dynoscope: not checked: {failure}"))
            }
            None => out.line(format_args!("error\t{failure}")),
        }
    }
}

/// `--shards`: sum a sharded counter, one line per shard, the hot one marked.
async fn shards(cx: &mut Ctx<'_>, info: &TableInfo, args: &CheckArgs) -> Result<Exit> {
    let sum = args.spec().sum_shards(cx.connection, info, cx.stop).await?;
    said_read(cx.out, &sum)
}
