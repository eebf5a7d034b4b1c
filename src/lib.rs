//! dynoscope: a desktop DynamoDB table inspector for people who keep counters.
//!
//! - [`core`]: DynamoDB, numbers, conditions, connections, the sandbox (no egui);
//! - [`worker`]: the tokio bridge between the UI and the core;
//! - [`ui`]: one file per panel;
//! - [`cli`]: the scriptable twin over the same core.

pub mod cli;
pub mod core;
pub mod ui;
pub mod worker;
