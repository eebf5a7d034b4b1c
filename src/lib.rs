//! dynoscope: a desktop DynamoDB table inspector for people who keep counters.
//!
//! - [`core`]: every decision that is not drawing — DynamoDB, exact numbers, counters, tallies,
//!   likes, expressions, reports in words (no egui);
//! - [`task`]: typed handles to work the UI starts on the runtime `main` owns;
//! - [`ui`]: the desktop app, one folder per feature;
//! - [`cli`]: the scriptable twin over the same core.
//!
//! `ARCHITECTURE.md` at the root of the repository walks through it.

pub mod cli;
pub mod core;
pub mod mcp;
pub mod task;
pub mod ui;
