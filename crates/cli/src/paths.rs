//! `dynoscope paths`: where dynoscope keeps things on this machine (core's report, printed).

use crate::docs_args::PathsArgs;
use crate::exit::{Exit, said};
use crate::flags::ConnectionFlags;
use crate::output::Output;
use dynoscope_core::error::Result;

/// Print every place.
pub fn paths(args: &PathsArgs, _: &ConnectionFlags, out: &mut Output) -> Result<Exit> {
    said(out, &dynoscope_core::places::places(), args.json)
}
