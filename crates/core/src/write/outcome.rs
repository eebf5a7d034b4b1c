//! How a write ended: applied, refused (with the server's reason), or unknown.

use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::value::Item;

/// Why nothing was written.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// An error before anything could apply: not confirmed, read-only, the connection changed,
    /// a refused connection, no credentials, or the server's refusal with its code
    /// (`ValidationException`, `ResourceNotFoundException`, …).
    Error(Error),
    /// The condition failed. The item as stored (`ALL_OLD`), `None` when there is no item.
    Condition {
        /// The item as the server holds it.
        stored: Option<Item>,
    },
    /// The transaction was cancelled: one reason per write, in order.
    Cancelled {
        /// The reasons.
        reasons: Vec<CancelReason>,
    },
}

/// Why a transaction's write was cancelled, by DynamoDB's code for it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CancelReason {
    /// This write was fine; another one cancelled the transaction (`None`).
    Fine,
    /// Its condition failed.
    ConditionalCheckFailed,
    /// Another transaction or write touched the item at the same time: nothing was written.
    TransactionConflict,
    /// Its item collection would grow over 10 GB.
    ItemCollectionSizeLimitExceeded,
    /// The table's capacity was exceeded.
    ProvisionedThroughputExceeded,
    /// Throttled.
    ThrottlingError,
    /// The write itself is invalid (a key of the wrong type, say).
    ValidationError,
    /// A code this version does not know, as the server sent it.
    Other(String),
}

impl CancelReason {
    /// The reason for DynamoDB's `code` (`None` when it sent no code).
    pub(crate) fn from_code(code: Option<&str>) -> Self {
        match code {
            None | Some("None") => Self::Fine,
            Some("ConditionalCheckFailed") => Self::ConditionalCheckFailed,
            Some("TransactionConflict") => Self::TransactionConflict,
            Some("ItemCollectionSizeLimitExceeded") => Self::ItemCollectionSizeLimitExceeded,
            Some("ProvisionedThroughputExceeded") => Self::ProvisionedThroughputExceeded,
            Some("ThrottlingError") => Self::ThrottlingError,
            Some("ValidationError") => Self::ValidationError,
            Some(other) => Self::Other(other.to_owned()),
        }
    }

    /// DynamoDB's code: `None`, `ConditionalCheckFailed`, …
    pub fn code(&self) -> &str {
        match self {
            Self::Fine => "None",
            Self::ConditionalCheckFailed => "ConditionalCheckFailed",
            Self::TransactionConflict => "TransactionConflict",
            Self::ItemCollectionSizeLimitExceeded => "ItemCollectionSizeLimitExceeded",
            Self::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            Self::ThrottlingError => "ThrottlingError",
            Self::ValidationError => "ValidationError",
            Self::Other(code) => code,
        }
    }

    /// Whether `reasons` cancelled a transaction for `reason` alone: some write for it, every
    /// other one fine.
    pub fn only(reasons: &[Self], reason: &Self) -> bool {
        reasons.contains(reason) && reasons.iter().all(|r| r == reason || *r == Self::Fine)
    }

    /// `reasons` as DynamoDB's codes, comma-separated: `None, ConditionalCheckFailed`.
    pub fn list(reasons: &[Self]) -> String {
        reasons
            .iter()
            .map(Self::code)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl CancelReason {
    /// What this reason says of its write, in words (`its condition failed`); `None` for a
    /// write that was fine (another one cancelled the transaction).
    pub fn words(&self) -> Option<String> {
        Some(match self {
            Self::Fine => return None,
            Self::ConditionalCheckFailed => "its condition failed".into(),
            Self::TransactionConflict => {
                "another transaction or write touched the item at the same time".into()
            }
            Self::ItemCollectionSizeLimitExceeded => {
                "its item collection would grow over 10 GB".into()
            }
            Self::ProvisionedThroughputExceeded => {
                "the table's provisioned capacity was exceeded".into()
            }
            Self::ThrottlingError => "DynamoDB throttled it".into(),
            Self::ValidationError => "DynamoDB found the write itself invalid".into(),
            Self::Other(code) => format!("DynamoDB's reason `{code}`"),
        })
    }

    /// A cancelled transaction in words: each write that cancelled it, by its place from 1 and
    /// its key when `keys` (the writes' keys in words, in order) holds it, and that none was
    /// written: `item 2 (PK = POST#a91f · SK = LIKE#u1): its condition failed; none of the 2
    /// items was written`.
    pub(crate) fn cancelled_words(reasons: &[Self], keys: &[String]) -> String {
        let why: Vec<String> = reasons
            .iter()
            .enumerate()
            .filter_map(|(i, reason)| {
                let words = reason.words()?;
                Some(match keys.get(i) {
                    Some(key) => format!("item {} ({key}): {words}", i + 1),
                    None => format!("item {}: {words}", i + 1),
                })
            })
            .collect();
        let written = match reasons.len() {
            0 | 1 => "nothing was written".to_owned(),
            n => format!("none of the {n} items was written"),
        };
        if why.is_empty() {
            format!("the transaction was cancelled without a reason given; {written}")
        } else {
            format!("{}; {written}", why.join("; "))
        }
    }
}

impl std::fmt::Display for CancelReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Items of a batch that the server did not write, while it wrote the others.
#[derive(Debug, Clone, PartialEq)]
pub struct Unwritten {
    /// The items.
    pub items: Vec<Item>,
    /// Why: `None` when the server still left them unprocessed after they were sent again
    /// as often as [`Policy::WRITES`](crate::retry::Policy::WRITES) allows; the
    /// refusal when sending them again was refused (throttled out, say).
    pub refusal: Option<Refusal>,
}

/// How a write ended. There is no fourth case: an error either proves nothing was written
/// (refused) or leaves it open (unknown).
#[derive(Debug, Clone, PartialEq)]
pub enum WriteOutcome {
    /// The server applied it.
    Applied {
        /// What the server returned (`ReturnValues`), when asked.
        returned: Option<Item>,
        /// Write capacity consumed.
        consumed_wcu: f64,
        /// Requests sent: more than one only after throttling refusals, re-sends of a
        /// repeatable request whose answer was lost, or a batch's unprocessed items sent again.
        attempts: u32,
        /// A batch's items the server did not write, and why; `None` for every other write
        /// and for a batch written whole.
        unwritten: Option<Unwritten>,
        /// Each wait after the server throttled an attempt, in words with the limit it hit
        /// when the server said (`report::throttled_note`).
        throttled: Vec<String>,
    },
    /// Nothing was written.
    Refused {
        /// Why.
        refusal: Refusal,
        /// Requests sent (0: it never left).
        attempts: u32,
    },
    /// It may or may not have been applied. It was not sent again; what is stored now was read
    /// again instead.
    Unknown {
        /// What happened to the request.
        error: Error,
        /// Requests sent.
        attempts: u32,
        /// Each written item as stored now (consistent read), in the plan's order.
        stored_now: Vec<Result<Option<Item>>>,
    },
}

impl WriteOutcome {
    /// Its class: done, refused by the data or the server, or unknown; a refusal before
    /// anything could apply (read-only, not confirmed, the server's validation) is handed back,
    /// to be said once as an error.
    pub fn ending(&self) -> Ending {
        match self {
            Self::Applied { .. } => Ending::Done,
            Self::Unknown { .. } => Ending::Unknown,
            Self::Refused {
                refusal: Refusal::Error(error),
                ..
            } => Ending::of_error(error),
            Self::Refused { .. } => Ending::Refused,
        }
    }

    /// The error of a refusal before anything could apply, to be said once as an error.
    pub fn failure(&self) -> Option<&Error> {
        match self {
            Self::Refused {
                refusal: Refusal::Error(error),
                ..
            } => Some(error),
            _ => None,
        }
    }

    /// A write refused before it was sent.
    pub fn not_sent(error: Error) -> Self {
        Self::Refused {
            refusal: Refusal::Error(error),
            attempts: 0,
        }
    }

    /// A write whose task stopped before it answered: it may have been sent.
    pub fn lost(error: Error) -> Self {
        Self::Unknown {
            stored_now: vec![Err(error.clone())],
            error,
            attempts: 0,
        }
    }

    /// Requests sent.
    pub fn attempts(&self) -> u32 {
        match self {
            Self::Applied { attempts, .. }
            | Self::Refused { attempts, .. }
            | Self::Unknown { attempts, .. } => *attempts,
        }
    }

    /// Whether it was applied.
    pub fn applied(&self) -> bool {
        matches!(self, Self::Applied { .. })
    }

    /// `applied`, `refused`, `unknown`: the outcome's name in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Applied { .. } => "applied",
            Self::Refused { .. } => "refused",
            Self::Unknown { .. } => "unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CancelReason;

    #[test]
    fn cancellation_reasons_are_dynamodbs_codes() {
        for code in [
            "None",
            "ConditionalCheckFailed",
            "TransactionConflict",
            "ItemCollectionSizeLimitExceeded",
            "ProvisionedThroughputExceeded",
            "ThrottlingError",
            "ValidationError",
            "SomethingNew",
        ] {
            assert_eq!(CancelReason::from_code(Some(code)).code(), code);
        }
        assert_eq!(CancelReason::from_code(None), CancelReason::Fine);
        let reasons = [CancelReason::Fine, CancelReason::TransactionConflict];
        assert_eq!(CancelReason::list(&reasons), "None, TransactionConflict");
        let keys = [
            "PK = POST#a91f".to_owned(),
            "PK = POST#a91f · SK = LIKE#u1".to_owned(),
        ];
        let cancelled = [CancelReason::Fine, CancelReason::ConditionalCheckFailed];
        assert_eq!(
            CancelReason::cancelled_words(&cancelled, &keys),
            "item 2 (PK = POST#a91f · SK = LIKE#u1): its condition failed; none of the 2 items \
             was written"
        );
        assert_eq!(
            CancelReason::cancelled_words(&[CancelReason::Other("Odd".into())], &[]),
            "item 1: DynamoDB's reason `Odd`; nothing was written"
        );
        assert!(CancelReason::only(
            &reasons,
            &CancelReason::TransactionConflict
        ));
        assert!(!CancelReason::only(
            &reasons,
            &CancelReason::ValidationError
        ));
        let mixed = [
            CancelReason::ConditionalCheckFailed,
            CancelReason::TransactionConflict,
        ];
        assert!(!CancelReason::only(
            &mixed,
            &CancelReason::TransactionConflict
        ));
    }
}
