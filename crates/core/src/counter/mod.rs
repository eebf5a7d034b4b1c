//! Counter edits: change a number attribute by an exact delta, sent as `ADD`, as
//! `SET … if_not_exists(…) + :d`, or exactly with a condition on the value seen; and how each
//! ended, in words.

mod document;
mod mode;
mod plan;
mod report;
mod send;
mod update;

pub use mode::EditMode;
pub use plan::*;
pub use report::{EditReport, Outcome};
pub use send::update_counter;
pub use update::*;
