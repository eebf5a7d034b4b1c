//! The staging area: the changes staged, one per item, and what a commit's outcome does to
//! them.

use crate::items::commit::{CommitReport, ItemOutcome};
use crate::items::stage::{Change, Diff};
use crate::value::Item;

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
    /// after a conflict): the user's own differences — what they set, added and removed — are
    /// applied to the server's item, and a second commit writes them only if the server still
    /// holds that; what others changed meanwhile stays. With no item on the server, an update
    /// becomes a create of the user's whole item.
    pub fn rebase(&mut self, key: &Item, server: Option<Item>) {
        if let Some(change) = self.changes.iter_mut().find(|c| &c.key == key) {
            // Deleted meanwhile: the user's item is created whole; a delete stays one.
            if let (Some(now), Some(_)) = (&server, &change.after) {
                let mut after = now.clone();
                for diff in change.diff() {
                    match diff {
                        Diff::Changed { name, new, .. } | Diff::Added { name, new } => {
                            after.insert(name, new);
                        }
                        Diff::Removed { name, .. } => {
                            after.remove(&name);
                        }
                    }
                }
                change.after = Some(after);
            }
            change.before = server;
        }
        self.changes
            .retain(|c| !c.is_empty() && (c.before.is_some() || c.after.is_some()));
    }

    /// Drop every change.
    pub fn clear(&mut self) {
        self.changes.clear();
    }

    /// Take in a commit's outcome for `committed`, the changes it sent: an item written leaves
    /// the staging area — unless it was staged again while the commit ran, when that newer
    /// change stays, based on what was just written. Every other change stays staged as it
    /// was (a conflicting one would conflict again until rebased).
    pub fn apply(&mut self, report: &CommitReport, committed: &[Change]) {
        for result in &report.items {
            let ItemOutcome::Written { .. } = &result.outcome else {
                continue;
            };
            let sent = committed.iter().find(|c| c.key == result.key);
            match (self.get(&result.key), sent) {
                (Some(now), Some(sent)) if now != sent => {
                    let written = sent.after.clone();
                    if let Some(change) = self.changes.iter_mut().find(|c| c.key == result.key) {
                        change.before = written;
                    }
                    self.changes
                        .retain(|c| !c.is_empty() && (c.before.is_some() || c.after.is_some()));
                }
                _ => self.discard(&result.key),
            }
        }
    }
}
