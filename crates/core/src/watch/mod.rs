//! Watching counters move: a table's stream (or, without one, polling) folded into each
//! parent's stored tally beside its counted children, under one tally rule; a divergence that
//! outlives the settle window is named by the records that opened it.

pub mod change;
mod check;
mod config;
mod effects;
mod event_document;
pub mod fold;
mod lifecycle;
pub mod parent;
mod plan;
mod poll;
pub mod run;
mod samples;
mod summary;

pub use change::{AttrDiff, Effect};
pub use change::{Change, gap_text};
pub use config::FoldConfig;
pub use event_document::{WatchRecordDocument, WatchRecordKind};
pub use fold::{CounterFold, WatchEvent};
pub use parent::ParentWatch;
pub use parent::{Base, Divergence};
pub use plan::{WatchPlan, WatchProgress, WatchScope, Watched};
pub use run::watch;
pub use summary::summary;

#[cfg(test)]
mod tests;
