//! `dynoscope <subcommand>`: the scriptable twin of the app, over the same core.

mod add;
mod args;
mod backup_args;
mod check;
mod clone;
mod context;
mod cost;
mod cost_args;
mod diff;
mod exit;
mod expr;
mod expr_args;
mod flags;
mod interrupt;
mod item;
mod likes;
mod mcp;
mod metrics;
mod output;
mod partiql;
mod purge;
mod read_args;
mod reads;
mod resume;
mod run;
mod size;
mod sql;
mod table;
mod table_args;
mod transfer;
mod watch;
mod write_args;

pub use args::{AddArgs, Cli, ConnectionFlags, McpArgs, Subcommand};
pub use dynoscope_core::terminal::say;
pub use exit::{EXIT_TABLE, Exit};
pub use run::run;
