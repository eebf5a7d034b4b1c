//! `dynoscope truncate` and `dynoscope delete --from-query`: many items deleted, counted first
//! (the first keys and what it does to the counters shown), then deleted in batches of 25
//! through the gateway. It destroys, so `--yes` is asked for even on this machine.

use clap::Args;
use serde_json::json;

use crate::exit::{EXIT_TABLE, Exit};
use crate::interrupt::describe;
use crate::output::Output;
use crate::write_args::{DeleteArgs, PurgeFlags};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::purge::{self, PurgeCount, PurgeSource, TallyChoice};
use dynoscope_core::spec::ReadSpec;
use dynoscope_core::table::TableInfo;

/// `dynoscope truncate`.
#[derive(Debug, Args)]
#[command(after_help = EXIT_TABLE)]
pub struct TruncateArgs {
    /// The table: every item is deleted, the table kept.
    #[arg(long)]
    pub table: String,
    /// How it is counted and confirmed.
    #[command(flatten)]
    pub purge: PurgeFlags,
}

/// Delete every item of the table.
pub async fn truncate(
    connection: &Connection,
    args: &TruncateArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let spec = ReadSpec::scan(args.table.clone());
    read_then_run(connection, spec, &args.purge, confirmed, out, stop).await
}

/// Delete what a Query of one partition reads.
pub async fn from_query(
    connection: &Connection,
    args: &DeleteArgs,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let mut spec = ReadSpec::scan(args.table.clone());
    spec.pk.clone_from(&args.pk);
    spec.sk_begins_with.clone_from(&args.sk_begins_with);
    read_then_run(connection, spec, &args.purge, confirmed, out, stop).await
}

/// Describe the table, plan `spec` on it, and delete what it reads.
async fn read_then_run(
    connection: &Connection,
    spec: ReadSpec,
    flags: &PurgeFlags,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let info = describe(&connection.reader(), &spec.table, stop).await?;
    let plan = spec.plan(&info)?;
    let source = PurgeSource::Read(Box::new(plan));
    run(connection, &info, source, flags, confirmed, out, stop).await
}

fn json_of(key: &dynoscope_core::value::Item, names: &[String]) -> serde_json::Value {
    dynoscope_core::value::json::item_to_json(key, names, dynoscope_core::value::Style::Typed)
}

async fn run(
    connection: &Connection,
    info: &TableInfo,
    source: PurgeSource,
    flags: &PurgeFlags,
    confirmed: bool,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let choice = tally_choice(flags)?;
    let rules = flags.counters.rules()?;
    let counted = purge::count(connection, info, &source, &rules, stop, |_| {}).await?;
    let pricing = connection.pricing(info);
    let keys: Vec<_> = counted
        .first
        .iter()
        .map(|k| json_of(k, &info.key_names()))
        .collect();
    let read_text = format!(
        "counting read {} RCU ({})",
        dynoscope_core::report::capacity(counted.rcu),
        pricing.read(counted.rcu).money_text()
    );
    if !flags.json {
        for line in counted.lines(info) {
            out.line(line);
        }
        out.line(&read_text);
    }
    if flags.dry_run {
        if flags.json {
            out.line(json!({"items": counted.items, "first": keys, "rcu": counted.rcu, "tallies": counted.tallies.deleted_lines()}));
        }
        // A dry run only reads: what it could not print, it did not do.
        out.flush();
        return out.failure().map_or(Ok(Exit::Done), Err);
    }
    if counted.drifts() && choice.is_none() {
        return Err(Error::Invalid(
            "these items are counted children: choose --tallies repair (count each parent again \
             and set its tally after) or --tallies leave (they stay too high); nothing was deleted"
                .to_owned(),
        ));
    }
    if !confirmed {
        return Err(not_confirmed(connection, info, counted.items));
    }
    let report = purge::purge(connection, info, &source, counted.items, true, stop, |_| {}).await;
    let mut ending = report.ending();
    let mut repaired = Vec::new();
    if choice == Some(TallyChoice::Repair) && report.deleted > 0 && report.unknown == 0 {
        repaired = repair_after(connection, info, &counted, stop, &mut ending).await;
    }
    if flags.json {
        out.line(json!({
            "items": counted.items,
            "first": keys,
            "deleted": report.deleted,
            "not_deleted": report.not_deleted,
            "unknown": report.unknown,
            "wcu": report.wcu,
            "rcu": report.rcu + counted.rcu,
            "usd": pricing.write(report.wcu).usd_json(),
            "tallies": repaired,
            "ending": ending.word(),
        }));
    } else {
        for line in report.lines(&info.name, &pricing) {
            out.line(line);
        }
        for line in repaired {
            out.line(format!("tally repaired: {line}"));
        }
    }
    // Items were deleted: a closed stdout is said when the output ends and changes no exit.
    Ok(Exit::from(ending))
}

/// What `--tallies` chose for the counters of the deleted children, if given.
fn tally_choice(flags: &PurgeFlags) -> Result<Option<TallyChoice>> {
    Ok(match flags.tallies.as_deref() {
        None => None,
        Some("repair") => Some(TallyChoice::Repair),
        Some("leave") => Some(TallyChoice::Leave),
        Some(other) => {
            return Err(Error::Invalid(format!(
                "--tallies `{other}`: repair or leave"
            )));
        }
    })
}

/// The question a purge of `items` items asks before anything is deleted, even on this machine.
fn not_confirmed(connection: &Connection, info: &TableInfo, items: u64) -> Error {
    Error::NotConfirmed {
        question: format!(
            "This deletes {} from table {} at {}; it cannot be undone: add --yes (asked even \
             on this machine).",
            dynoscope_core::report::plural(usize::try_from(items).unwrap_or(usize::MAX), "item"),
            info.name,
            dynoscope_core::write::Destination::of(connection).place()
        ),
    }
}

/// Count each drifted parent again and set its tally, after the children were deleted: a line
/// per tally, and `ending` made graver by what did not go well.
async fn repair_after(
    connection: &Connection,
    info: &TableInfo,
    counted: &PurgeCount,
    stop: &CancelToken,
    ending: &mut Ending,
) -> Vec<String> {
    let mut repaired = Vec::new();
    for (tally, run) in purge::repair_tallies(connection, info, counted, true, stop).await {
        match run {
            Ok(all) => {
                *ending = ending.graver(all.ending());
                repaired.push(format!("`{tally}`: {}", all.summary()));
            }
            Err(error) => {
                *ending = ending.graver(Ending::of_error(&error));
                repaired.push(format!("`{tally}`: not repaired: {error}"));
            }
        }
    }
    repaired
}
