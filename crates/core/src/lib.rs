//! Everything that is not drawing: connections, reading and writing DynamoDB, attribute values
//! and exact numbers, conditions and expressions, counters, tallies, likes, reports in words.
//! Nothing here imports egui or eframe.

pub mod admin;
pub mod cancel;
pub mod clone;
pub mod condition;
pub mod connection;
pub mod cost;
pub mod counter;
pub mod diff;
pub mod document;
pub mod ending;
pub mod error;
pub mod exports;
pub mod expr;
pub mod files;
pub mod import;
pub mod items;
pub mod lab;
pub mod likes;
pub mod limits;
pub mod listed;
pub mod metrics;
pub mod number;
pub mod partiql;
pub mod placeholders;
pub mod places;
pub mod position;
pub mod purge;
pub mod read;
#[cfg(test)]
mod replay;
pub mod report;
pub mod retry;
pub mod rows;
pub mod run;
#[cfg(feature = "sandbox")]
pub mod sandbox;
pub mod saved;
pub mod schema;
#[cfg(feature = "sandbox")]
pub mod seed;
pub mod spec;
pub mod sql;
pub mod statement;
pub mod stream;
pub mod table;
pub mod tally;
pub mod task;
pub mod terminal;
pub mod throttle;
pub mod transfer;
pub mod validate;
pub mod value;
pub mod watch;
pub mod write;

pub use error::{Error, Result};
