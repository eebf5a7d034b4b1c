//! What every subcommand runs with, made once by the dispatcher: the connection, the flags it
//! was made from, whether the user confirmed beforehand (`--yes`), the one output, and the stop
//! that Ctrl-C and SIGTERM trigger.

use crate::flags::ConnectionFlags;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;

/// One subcommand's context.
pub(crate) struct Ctx<'a> {
    /// The connection the subcommand reads and writes through.
    pub connection: &'a Connection,
    /// The connection flags (a clone makes its destination's connection from them).
    pub flags: &'a ConnectionFlags,
    /// `--yes`: the user agreed beforehand to the write's question.
    pub confirmed: bool,
    /// The one output: stdout's lines, stderr's notes.
    pub out: &'a mut Output,
    /// Stopped by Ctrl-C or SIGTERM.
    pub stop: &'a CancelToken,
}
