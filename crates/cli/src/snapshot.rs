//! `dynoscope snapshot`: every parent's stored tally and counted children under one rule,
//! written to a file with the table, the place and the time, to compare later
//! (`dynoscope diff --snapshot`).

use clap::Args;

use crate::context::Ctx;
use crate::exit::{EXIT_TABLE, Exit, said};
use crate::flags::RuleFlags;
use crate::interrupt::describe;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::files::IfExists;
use dynoscope_core::spec::SnapshotSpec;

/// `dynoscope snapshot`.
#[derive(Debug, Args)]
#[command(after_help = EXIT_TABLE)]
pub struct SnapshotArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The rule the parents are counted under (--tally is needed).
    #[command(flatten)]
    pub rule: RuleFlags,
    /// The file to write: written beside it first, given this name only when complete. An
    /// existing file is refused unless --force.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Replace the file at --out if there is one.
    #[arg(long)]
    pub force: bool,
}

/// Take the snapshot (one reconcile of every parent) and write it.
pub(crate) async fn snapshot(cx: &mut Ctx<'_>, args: SnapshotArgs) -> Result<Exit> {
    if args.rule.tally.is_none() {
        return Err(Error::Invalid(
            "a snapshot needs the rule: give --tally (and --child-prefix or --index)".into(),
        ));
    }
    let spec = SnapshotSpec {
        table: args.table.clone(),
        rule: args.rule.spec(None),
    };
    spec.rule.tally_rule()?;
    let if_exists = if args.force {
        IfExists::Replace
    } else {
        IfExists::Refuse
    };
    let info = describe(&cx.connection.reader(), &args.table, cx.stop).await?;
    let written = spec
        .write_to(cx.connection, &info, args.out.clone(), if_exists, cx.stop)
        .await?;
    // What the run does is the file, written whole: a reader of its words that left (`| true`)
    // changes nothing of that, and is said at the end.
    said(cx.out, &written)
}
