//! How a run ended, in the four classes every front end reports the same way (the CLI's exit
//! statuses 0–3, the app's tone, an agent's structured result): done, refused by the data or the
//! server, bad input, or an outcome nobody can know. Every outcome type says its own class with
//! an `ending()`; an error that applied nothing is handed back to be said once, as an error.

/// The class of a run's end; in a report's document (and its schema) its word: `done`,
/// `refused`, `error` or `unknown`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// What was asked was done (a dry run included).
    Done,
    /// The data or the server refused (a condition, a missing item, throttled out, a drift);
    /// what was not applied is said.
    Refused,
    /// The input was bad, found before anything applied (by us or by the server).
    #[serde(rename = "error")]
    BadInput,
    /// Whether it was applied is not known.
    Unknown,
}

impl Ending {
    /// The class of a run that ended with `error`: a missing item, or a write throttled out, is
    /// refused; an unknown outcome unknown; anything else — a read throttled out among them: it
    /// could not finish, which must not read as data that disagrees — an error before anything
    /// applied.
    pub fn of_error(error: &crate::error::Error) -> Self {
        use crate::error::Error;
        match error {
            Error::Missing { .. } | Error::NotFound { .. } => Self::Refused,
            Error::Service { op, .. } if crate::throttle::is_throttled(error) && is_read(op) => {
                Self::BadInput
            }
            error if crate::throttle::is_throttled(error) => Self::Refused,
            Error::OutcomeUnknown(_) => Self::Unknown,
            _ => Self::BadInput,
        }
    }

    /// The graver of two endings, for a run of many writes: unknown over an error, an error
    /// over refused, refused over done.
    #[must_use]
    pub fn graver(self, other: Self) -> Self {
        let rank = |e: Self| match e {
            Self::Done => 0,
            Self::Refused => 1,
            Self::BadInput => 2,
            Self::Unknown => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }

    /// The class as one word: `done`, `refused`, `error` (bad input, or an error before
    /// anything applied), `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Refused => "refused",
            Self::BadInput => "error",
            Self::Unknown => "unknown",
        }
    }
}

/// Whether the operation `op` only reads (DynamoDB's, DynamoDB Streams').
fn is_read(op: &str) -> bool {
    matches!(
        op,
        "GetItem"
            | "BatchGetItem"
            | "Query"
            | "Scan"
            | "TransactGetItems"
            | "DescribeTable"
            | "ListTables"
            | "DescribeStream"
            | "GetShardIterator"
            | "GetRecords"
            | "DescribeTimeToLive"
            | "DescribeContinuousBackups"
            | "ListBackups"
            | "ListExports"
            | "DescribeExport"
    )
}
