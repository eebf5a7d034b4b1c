//! Everything that is not drawing: connections, DynamoDB operations, attribute values and
//! exact numbers, conditions. Nothing here imports egui or eframe.

pub mod condition;
pub mod connection;
pub mod counter;
pub mod error;
pub mod export;
pub mod expr;
pub mod lab;
pub mod likes;
pub mod number;
pub mod ops;
#[cfg(feature = "sandbox")]
pub mod sandbox;
#[cfg(feature = "sandbox")]
pub mod seed;
pub mod table;
pub mod tally;
pub mod tally_ops;
pub mod value;

pub use error::{Error, Result};
