//! `dynoscope diff`: two tables compared by key — on this connection and another (`--to-…`), or
//! two tables on one (`--to-table`) — by the core's one comparison, its report printed.

use clap::Args;

use crate::context::Ctx;
use crate::exit::{EXIT_TABLE, Exit, said_read};
use crate::flags::{RuleFlags, ToConnectionFlags};
use crate::interrupt::{describe, unless_stopped};
use dynoscope_core::connection::{self, ConnectOptions};
use dynoscope_core::error::Result;
use dynoscope_core::spec::DiffSpec;

/// `dynoscope diff`.
#[derive(Debug, Args)]
#[command(after_help = EXIT_TABLE)]
#[command(group = clap::ArgGroup::new("scope").required(true).args(["pk", "all"]))]
pub struct DiffArgs {
    /// Side A: the table, on the connection the global flags choose.
    #[arg(long)]
    pub table: String,
    /// Side B's table (default: the same name).
    #[arg(long, value_name = "NAME")]
    pub to_table: Option<String>,
    /// Side B's connection (default: the same as side A's); it is only read.
    #[command(flatten)]
    pub to: ToConnectionFlags,
    /// Compare one partition: the items with this partition key value (a Query on each side).
    #[arg(long, value_name = "VALUE")]
    pub pk: Option<String>,
    /// Compare every item (a Scan of each side).
    #[arg(long)]
    pub all: bool,
    /// With --tally (and --all): compare the counters instead of the items — every parent's
    /// stored tally and counted children on each side, and how each side drifted.
    #[command(flatten)]
    pub rule: RuleFlags,
    /// Print the report as one JSON object: every difference kept (the first 1,000 of each kind).
    #[arg(long)]
    pub json: bool,
}

/// Compare, and exit 0 when the two sides hold the same items, 1 when they differ.
pub async fn diff(cx: &mut Ctx<'_>, args: DiffArgs) -> Result<Exit> {
    let other = match args.to.chosen()? {
        Some(spec) => {
            // Side B is only read: its connection refuses every write.
            let options = ConnectOptions {
                read_only: true,
                ..cx.flags.options()
            };
            let made = connection::connect_with(spec, options);
            Some(unless_stopped(cx.stop, "connect", made).await?)
        }
        None => None,
    };
    let b_connection = other.as_ref().unwrap_or(cx.connection);
    let to_table = args.to_table.as_deref().unwrap_or(&args.table);
    let info_a = describe(&cx.connection.reader(), &args.table, cx.stop).await?;
    let info_b = describe(&b_connection.reader(), to_table, cx.stop).await?;
    let (a, b) = ((cx.connection, &info_a), (b_connection, &info_b));
    let spec = DiffSpec {
        table: args.table.clone(),
        to_table: to_table.to_owned(),
        pk: args.pk.clone(),
        rule: match &args.rule.tally {
            Some(_) => Some(args.rule.spec(None)),
            None => {
                // No stray rule flag: without --tally it would say nothing.
                args.rule.counted()?;
                None
            }
        },
    };
    let found = spec.run(a, b, cx.stop).await?;
    said_read(cx.out, found.as_ref(), args.json)
}
