//! `dynoscope truncate` and `dynoscope delete --from-query`: many items deleted, counted first
//! (the first keys and what it does to the counters shown), then deleted in batches of 25
//! through the gateway. It destroys, so `--yes` is asked for even on this machine.

use crate::context::Ctx;
use clap::Args;

use crate::exit::{EXIT_TABLE, Exit, said, said_read};
use crate::interrupt::describe;
use crate::write_args::{DeleteArgs, PurgeFlags};
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::purge::{self, CountedPurge};
use dynoscope_core::report::Report;
use dynoscope_core::spec::{PurgeScope, PurgeSpec};
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
pub(crate) async fn truncate(cx: &mut Ctx<'_>, args: &TruncateArgs) -> Result<Exit> {
    run(cx, &args.purge, args.table.clone(), PurgeScope::Table).await
}

/// Delete what a Query of one partition reads.
pub(crate) async fn from_query(cx: &mut Ctx<'_>, args: &DeleteArgs) -> Result<Exit> {
    let scope = PurgeScope::Partition {
        pk: args.pk.clone().unwrap_or_default(),
        sk_prefix: args.sk_begins_with.clone(),
    };
    run(cx, &args.purge, args.table.clone(), scope).await
}

/// Describe the table, count what the spec takes, and (confirmed) delete it.
async fn run(
    cx: &mut Ctx<'_>,
    flags: &PurgeFlags,
    table: String,
    scope: PurgeScope,
) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let spec = PurgeSpec {
        table,
        scope,
        tallies: flags.tallies.as_deref().map(str::parse).transpose()?,
    };
    let rules = flags.counters.counted()?;
    let info = &describe(&connection.reader(), &spec.table, stop).await?;
    let source = spec.plan(info)?;
    let out = &mut *cx.out;
    let choice = spec.tallies;
    let count = purge::count(connection, info, &source, &rules, stop, |_| {}).await?;
    let counted = CountedPurge::new(count, info, connection);
    if flags.dry_run {
        // A dry run only reads: what it could not print, it did not do.
        return said_read(out, &counted);
    }
    if !out.json() {
        // What is about to be deleted, beside the report (none with --quiet).
        counted
            .lines()
            .into_iter()
            .for_each(|line| out.aside(line.text));
    }
    if let Err(error) = counted.check_choice(choice) {
        out.error("dynoscope: choose with --tallies repair or --tallies leave");
        return Err(error);
    }
    if !confirmed {
        return Err(not_confirmed(connection, info, counted.count.items));
    }
    let run = purge::delete_counted(
        connection,
        info,
        &source,
        counted,
        choice,
        true,
        stop,
        |_| {},
    )
    .await?;
    // Items were deleted: a closed stdout is said when the output ends and changes no exit.
    said(out, &run)
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
