//! How a delete pass ended, counted batch by batch, and said in words and money.

use crate::ending::Ending;
use crate::error::Error;
use crate::report::plural;
use crate::value::Item;
use crate::write::{self, WriteOutcome};

/// How a delete pass ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PurgeReport {
    /// Items read again to be deleted.
    pub read: u64,
    /// Items deleted (answered, or found gone when read again after a lost answer).
    pub deleted: u64,
    /// Items the server did not delete (refused, or left unprocessed after the re-sends).
    pub not_deleted: u64,
    /// Items whose delete may or may not have happened (a lost answer, not read again).
    pub unknown: u64,
    /// Write capacity consumed.
    pub wcu: f64,
    /// Read capacity consumed reading them again.
    pub rcu: f64,
    /// `BatchWriteItem` requests sent.
    pub requests: u32,
    /// Each wait after a throttle, in words.
    pub throttled: Vec<String>,
    /// Stopped by a cancel.
    pub cancelled: bool,
    /// Why it stopped before the end, other than a cancel.
    pub stopped: Option<String>,
    /// The error that stopped it, when one did.
    pub error: Option<Error>,
    /// The keys of the items known deleted (the first [`MAX_GONE_KEPT`]): what a view showing
    /// them takes away.
    pub gone: Vec<Item>,
}

/// The deleted keys a report keeps, at most.
pub(crate) const MAX_GONE_KEPT: usize = 100_000;

impl PurgeReport {
    /// Done when everything read was deleted; unknown when an outcome is; refused when items
    /// were left (not deleted, stopped, cancelled); when it stopped before deleting anything,
    /// its error's class (throttled beyond the re-sends: the server refused, nothing written).
    pub fn ending(&self) -> Ending {
        if self.unknown > 0 {
            Ending::Unknown
        } else if let Some(error) = self.error.as_ref().filter(|_| self.deleted == 0) {
            Ending::of_error(error)
        } else if self.not_deleted > 0
            || self.stopped.is_some()
            || self.cancelled
            || self.error.is_some()
        {
            Ending::Refused
        } else {
            Ending::Done
        }
    }

    /// The report in lines, its units in money as `pricing` says.
    pub fn lines(&self, table: &str, pricing: &crate::cost::Pricing) -> Vec<String> {
        let n = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let mut lines = vec![format!(
            "{} deleted from {table} ({} read again, {}, {} WCU {}, {} RCU {})",
            plural(n(self.deleted), "item"),
            self.read,
            plural(self.requests as usize, "BatchWriteItem request"),
            crate::report::capacity(self.wcu),
            pricing.write(self.wcu).money_text(),
            crate::report::capacity(self.rcu),
            pricing.read(self.rcu).money_text(),
        )];
        if self.not_deleted > 0 {
            lines.push(format!(
                "{} not deleted",
                plural(n(self.not_deleted), "item")
            ));
        }
        if self.unknown > 0 {
            lines.push(format!(
                "outcome unknown for {}: their batch may have been applied; it was not sent again",
                plural(n(self.unknown), "item")
            ));
        }
        lines.extend(self.throttled.iter().cloned());
        if self.cancelled {
            lines.push("stopped by a cancel: no batch was sent after it".to_owned());
        }
        lines.extend(self.stopped.iter().cloned());
        if let Some(error) = &self.error {
            lines.push(format!("stopped: {error}"));
        }
        lines
    }

    fn keep_gone<'a>(&mut self, keys: impl Iterator<Item = &'a Item>) {
        let room = MAX_GONE_KEPT.saturating_sub(self.gone.len());
        self.gone.extend(keys.take(room).cloned());
    }

    /// Count one batch's outcome; false when no other batch should be sent.
    pub(super) fn count(&mut self, sent: &[Item], outcome: WriteOutcome) -> bool {
        let keys = sent.len() as u64;
        self.requests += outcome.attempts();
        match outcome {
            WriteOutcome::Applied {
                consumed_wcu,
                unwritten,
                throttled,
                ..
            } => {
                self.wcu += consumed_wcu;
                self.throttled.extend(throttled);
                let left = unwritten.as_ref().map_or(0, |u| u.items.len() as u64);
                let unwritten = unwritten.map(|u| u.items).unwrap_or_default();
                self.keep_gone(sent.iter().filter(|key| {
                    !unwritten
                        .iter()
                        .any(|u| key.iter().all(|(n, v)| u.get(n) == Some(v)))
                }));
                self.deleted += keys - left;
                self.not_deleted += left;
                left == 0
            }
            WriteOutcome::Refused { refusal, .. } => {
                self.not_deleted += keys;
                if let write::Refusal::Error(error) = refusal {
                    self.error.get_or_insert(error);
                }
                false
            }
            WriteOutcome::Unknown {
                error, stored_now, ..
            } => {
                // Each key was read again: gone is deleted, still there is not.
                for (key, read) in sent.iter().zip(&stored_now) {
                    match read {
                        Ok(None) => {
                            self.deleted += 1;
                            self.keep_gone(std::iter::once(key));
                        }
                        Ok(Some(_)) => self.not_deleted += 1,
                        Err(_) => self.unknown += 1,
                    }
                }
                self.unknown += keys.saturating_sub(stored_now.len() as u64);
                if self.unknown > 0 {
                    self.error.get_or_insert(error);
                    return false;
                }
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(code: &str) -> PurgeReport {
        PurgeReport {
            read: 25,
            not_deleted: 25,
            error: Some(Error::Service {
                op: "BatchWriteItem",
                code: code.into(),
                message: "refused".into(),
                throttled: Vec::new(),
            }),
            ..PurgeReport::default()
        }
    }

    #[test]
    fn a_pass_stopped_before_deleting_ends_as_its_error_says() {
        // Throttled beyond the re-sends: the server refused and nothing was written.
        assert_eq!(refused("ThrottlingException").ending(), Ending::Refused);
        assert_eq!(refused("ValidationException").ending(), Ending::BadInput);
        let mut some = refused("ThrottlingException");
        some.deleted = 25;
        assert_eq!(some.ending(), Ending::Refused);
    }
}
