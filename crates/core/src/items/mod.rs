//! Items edited, staged and committed: the editor's form and text (every type, nested values
//! included, with positioned errors), staged changes with their attribute-level diff, and the
//! commit through the write gateway, conditional on each item still being as it was read.

mod commit;
mod counters;
mod edit;
mod stage;
mod staging;

pub use commit::ItemResult;
pub use commit::{
    CommitMode, CommitPlan, CommitReport, ItemOutcome, MAX_TRANSACTION, commit, plan_commit,
};
pub use counters::{TallyEffect, tally_effects};
pub use edit::{
    Field, FieldError, TextError, TextFormat, fields_of, item_from_text, item_of, item_text,
};
pub use stage::{Change, ChangeKind, Diff};
pub use staging::Staging;

#[cfg(test)]
mod tests;
