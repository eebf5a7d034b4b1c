//! `dynoscope <subcommand>`: the scriptable twin of the app, over the same core.

mod args;
mod run;

pub use args::{Cli, ConnectionFlags, Subcommand};
pub use run::run;
