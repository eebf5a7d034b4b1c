//! The staging area: the changes staged, one per item, and what a commit's outcome does to
//! them.

use crate::core::items::commit::{CommitReport, ItemOutcome};
use crate::core::items::stage::Change;
use crate::core::value::Item;

/// The changes staged, one per item, in the order first staged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Staging {
    changes: Vec<Change>,
}

impl Staging {
    /// The changes.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The change staged for the item at `key`.
    pub fn get(&self, key: &Item) -> Option<&Change> {
        self.changes.iter().find(|c| &c.key == key)
    }

    /// Stage `change`. A later change of an item already staged keeps what was read first;
    /// a change back to what was read, or a delete of an item only staged as new, leaves
    /// nothing staged for it.
    pub fn stage(&mut self, mut change: Change) {
        if let Some(at) = self.changes.iter().position(|c| c.key == change.key) {
            let old = self.changes.remove(at);
            change.before = old.before;
            let nothing = change.is_empty() || (change.before.is_none() && change.after.is_none());
            if !nothing {
                self.changes.insert(at, change);
            }
        } else if !change.is_empty() {
            self.changes.push(change);
        }
    }

    /// Drop the change of the item at `key`.
    pub fn discard(&mut self, key: &Item) {
        self.changes.retain(|c| &c.key != key);
    }

    /// Base the change of the item at `key` on `server` (what the server holds now, seen
    /// after a conflict): a second commit then writes the user's item only if the server
    /// still holds that. With no item on the server, an update becomes a create.
    pub fn rebase(&mut self, key: &Item, server: Option<Item>) {
        if let Some(change) = self.changes.iter_mut().find(|c| &c.key == key) {
            change.before = server;
        }
        self.changes
            .retain(|c| !c.is_empty() && (c.before.is_some() || c.after.is_some()));
    }

    /// Drop every change.
    pub fn clear(&mut self) {
        self.changes.clear();
    }

    /// Take in a commit's outcome: the items written leave the staging area; every other
    /// change stays staged as it was (a conflicting one would conflict again until rebased).
    pub fn apply(&mut self, report: &CommitReport) {
        for result in &report.items {
            match &result.outcome {
                ItemOutcome::Written { .. } => self.discard(&result.key),
                ItemOutcome::Conflict { .. }
                | ItemOutcome::NotWritten { .. }
                | ItemOutcome::Unknown { .. }
                | ItemOutcome::NotSent => {}
            }
        }
    }
}
