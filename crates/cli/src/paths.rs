//! `dynoscope paths`: where dynoscope keeps things on this machine (core's report, printed).

use crate::exit::{Exit, said};
use crate::output::Output;
use dynoscope_core::error::Result;

/// Print every place.
pub(crate) fn paths(out: &mut Output) -> Result<Exit> {
    said(out, &dynoscope_core::places::places())
}
