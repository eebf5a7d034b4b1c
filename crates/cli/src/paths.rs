//! `dynoscope paths`: where dynoscope keeps things on this machine (core's report, printed).

use crate::exit::{Exit, said_read};
use crate::flags::ConnectionFlags;
use crate::output::Output;
use dynoscope_core::error::Result;

/// `dynoscope paths`.
#[derive(Debug, clap::Args)]
pub struct PathsArgs {
    /// One JSON object: every place with `what`, `path`, `from` and `exists`.
    #[arg(long)]
    pub json: bool,
}

/// Print every place.
pub fn paths(args: &PathsArgs, _: &ConnectionFlags, out: &mut Output) -> Result<Exit> {
    said_read(out, &dynoscope_core::places::places(), args.json)
}
