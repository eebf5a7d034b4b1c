//! `dynoscope diff`: two tables compared by key — on this connection and another (`--to-…`), or
//! two tables on one (`--to-table`) — by the core's one comparison, its report printed.

use clap::Args;

use crate::context::Ctx;
use crate::exit::{EXIT_TABLE, Exit, said_read};
use crate::flags::RuleFlags;
use crate::interrupt::{describe, unless_stopped};
use crate::to_flags::ToConnectionFlags;
use dynoscope_core::connection::{self, ConnectOptions};
use dynoscope_core::diff::TallySnapshot;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::spec::{DiffSpec, KeySpec, SnapshotSpec};

/// `dynoscope diff`.
#[derive(Debug, Args)]
#[command(after_help = EXIT_TABLE)]
#[command(group = clap::ArgGroup::new("scope").required(true).args(["pk", "all", "key", "snapshot"]))]
pub struct DiffArgs {
    /// Side A: the table, on the connection the global flags choose (with --snapshot: the
    /// snapshot's own).
    #[arg(long, required_unless_present = "snapshot")]
    pub table: Option<String>,
    /// Side B's table (default: the same name).
    #[arg(long, value_name = "NAME")]
    pub to_table: Option<String>,
    /// Side B's connection (default: the same as side A's); it is only read.
    #[command(flatten)]
    pub to: ToConnectionFlags,
    /// Compare one partition: the items with this partition key value (a Query on each side).
    #[arg(long, allow_hyphen_values = true, value_name = "VALUE")]
    pub pk: Option<String>,
    /// Compare every item (a Scan of each side).
    #[arg(long)]
    pub all: bool,
    /// Compare only this item, by its key as a JSON object of texts
    /// (`{"PK":"POST#a91f","SK":"META"}`): each read by key on both sides. Repeat it (at most
    /// 100).
    #[arg(long, value_name = "JSON")]
    pub key: Vec<String>,
    /// Compare counters over time: a tally snapshot (`dynoscope snapshot`) with a newer one
    /// (a second --snapshot) or, given once, with the table's counters now on this connection.
    /// Exit 1 when a parent started drifting between them.
    #[arg(long, value_name = "FILE", num_args = 1, action = clap::ArgAction::Append,
        conflicts_with_all = ["to_table", "pk", "all", "key"])]
    pub snapshot: Vec<std::path::PathBuf>,
    /// With --tally (and --all): compare the counters instead of the items — every parent's
    /// stored tally and counted children on each side, and how each side drifted.
    #[command(flatten)]
    pub rule: RuleFlags,
    /// Side A is this DynamoDB export (a file or folder in the S3 export format, gzipped or
    /// not, or its folder in S3: s3://BUCKET/…/AWSDynamoDB/<ExportId>/) instead of the table:
    /// no read units; --table gives the key. With --all.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["pk", "key", "snapshot"])]
    pub from_export: Option<std::path::PathBuf>,
    /// Side B is this DynamoDB export instead of a table. With --all.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["pk", "key", "snapshot", "to_table"])]
    pub to_export: Option<std::path::PathBuf>,
}

/// Compare, and exit 0 when the two sides hold the same items, 1 when they differ.
pub(crate) async fn diff(cx: &mut Ctx<'_>, args: DiffArgs) -> Result<Exit> {
    if !args.snapshot.is_empty() {
        return over_time(cx, &args).await;
    }
    let table = args.table.clone().unwrap_or_default();
    let keys = (args.key.iter())
        .map(|k| {
            serde_json::from_str::<KeySpec>(k).map_err(|e| {
                Error::Invalid(format!(
                    "--key `{k}` is not a key as a JSON object of texts ({e})"
                ))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if args.to_export.is_some() && args.to.chosen()?.is_some() {
        return Err(Error::Invalid(
            "side B is the export (--to-export) or another connection's table, not both".into(),
        ));
    }
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
    let to_table = args.to_table.as_deref().unwrap_or(&table);
    let info_a = describe(&cx.connection.reader(), &table, cx.stop).await?;
    let info_b = describe(&b_connection.reader(), to_table, cx.stop).await?;
    let (a, b) = ((cx.connection, &info_a), (b_connection, &info_b));
    let spec = DiffSpec {
        table: table.clone(),
        to_table: to_table.to_owned(),
        pk: args.pk.clone(),
        keys,
        from_export: args.from_export.clone(),
        to_export: args.to_export.clone(),
        rule: if args.rule.tally.is_some() {
            Some(args.rule.spec(None))
        } else {
            // No stray rule flag: without --tally it would say nothing.
            args.rule.counted()?;
            None
        },
    };
    let found = spec.compare(a, b, cx.stop).await?;
    said_read(cx.out, &found)
}

/// `diff --snapshot OLD [--snapshot NEW]`: counters over time; without NEW, the table's now.
async fn over_time(cx: &mut Ctx<'_>, args: &DiffArgs) -> Result<Exit> {
    if args.to.chosen()?.is_some() || args.rule.tally.is_some() {
        return Err(Error::Invalid(
            "--snapshot compares snapshots of one table under their own rule: give no --to-… \
             connection and no rule flags"
                .into(),
        ));
    }
    let (old, new) = match args.snapshot.as_slice() {
        [old] => (old, None),
        [old, new] => (old, Some(new.as_path())),
        _ => {
            return Err(Error::Invalid(
                "--snapshot is given once (then now) or twice (older, newer)".into(),
            ));
        }
    };
    let info = if new.is_some() {
        None
    } else {
        let table = TallySnapshot::read(old)?.table;
        Some(describe(&cx.connection.reader(), &table, cx.stop).await?)
    };
    let now = info.as_ref().map(|info| (cx.connection, info));
    let found = SnapshotSpec::compare(old, new, now, cx.stop).await?;
    said_read(cx.out, &found)
}
