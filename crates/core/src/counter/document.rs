//! A counter edit's one JSON document, typed: what was asked (where, which attribute, the
//! numbers planned, the request sent), then how it ended, each outcome with its own keys.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Kind;
use crate::cost::usd::Usd;
use crate::counter::{EditMode, EditReport, Outcome};
use crate::number::to_dynamodb;

/// A counter edit: the change planned and sent, and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct EditDocument {
    /// Where the edit was sent, in words (the endpoint, and the connection's name when it has one).
    pub(crate) endpoint: String,
    /// The table.
    pub(crate) table: String,
    /// The number attribute changed.
    pub(crate) attribute: String,
    /// How the change was sent: `add`, `set` or `exact`.
    pub(crate) mode: EditMode,
    /// The value seen before the edit, as a DynamoDB number; `null` when the attribute was
    /// missing.
    pub(crate) old: Option<String>,
    /// The change asked for, as a DynamoDB number.
    pub(crate) delta: String,
    /// The value expected after the edit, as a DynamoDB number.
    pub(crate) expected: String,
    /// The low-level `UpdateItem` request body sent, as the code generator writes it.
    pub(crate) request: serde_json::Value,
    /// How it ended.
    #[serde(flatten)]
    pub(crate) outcome: EditOutcomeDocument,
}

/// How a counter edit ended, named by `outcome`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub(crate) enum EditOutcomeDocument {
    /// The server applied the edit.
    Applied {
        /// Each wait after a throttled attempt, in words with the limit it hit.
        throttled: Vec<String>,
        /// The value the server returned, as a DynamoDB number; `null` when it returned none.
        new: Option<String>,
        /// The write capacity units the edit consumed.
        consumed_wcu: f64,
        /// What the write cost in US dollars.
        usd: Usd,
        /// Requests sent (more than one only after throttling or a lost answer).
        attempts: u32,
        /// How far the server's new value is from the one expected (someone else changed it in
        /// between), as a DynamoDB number; `null` when it is the one expected.
        interference: Option<String>,
    },
    /// Nothing was written: why is named by `reason`.
    Refused(EditRefusalDocument),
    /// The request may have reached the server, but no readable answer came back.
    Unknown {
        /// What happened to the request, in words.
        error: String,
        /// Requests sent.
        attempts: u32,
        /// The value stored now, read again, or why it could not be.
        #[serde(flatten)]
        stored: StoredNowDocument,
    },
}

/// Why a counter edit wrote nothing, named by `reason`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub(crate) enum EditRefusalDocument {
    /// The item does not exist.
    ItemMissing,
    /// Someone else changed the value since it was seen (the exact mode's condition).
    ConditionFailed {
        /// The value the server holds now, as a DynamoDB number; `null` when missing.
        current: Option<String>,
    },
    /// The edit was refused before anything could apply.
    Error {
        /// The error in words.
        error: String,
        /// The server's error code, when it sent one.
        code: Option<String>,
    },
}

/// The value of an edit whose outcome is unknown, read again with a consistent read.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum StoredNowDocument {
    /// It was read again.
    Read {
        /// The value stored now, as a DynamoDB number; `null` when missing.
        stored_now: Option<String>,
    },
    /// It could not be read again.
    Unread {
        /// Why it could not be read again, in words.
        stored_now_error: String,
    },
}

impl EditReport {
    /// The report's document.
    pub(crate) fn document(&self) -> EditDocument {
        let plan = &self.plan;
        EditDocument {
            endpoint: plan.destination.place(),
            table: plan.table.clone(),
            attribute: plan.attribute.clone(),
            mode: plan.mode,
            old: plan.planned.current.as_ref().map(to_dynamodb),
            delta: to_dynamodb(&plan.planned.delta),
            expected: to_dynamodb(&plan.planned.expected),
            request: plan.request().json(),
            outcome: self.outcome_document(),
        }
    }

    fn outcome_document(&self) -> EditOutcomeDocument {
        match &self.outcome {
            Outcome::Applied {
                new_value,
                consumed_wcu,
                attempts,
                throttled,
            } => EditOutcomeDocument::Applied {
                throttled: throttled.clone(),
                new: new_value.clone(),
                consumed_wcu: *consumed_wcu,
                usd: Usd::from(self.pricing.charge_reported(Kind::Write, *consumed_wcu)),
                attempts: *attempts,
                interference: self.interference().as_ref().map(to_dynamodb),
            },
            Outcome::Missing => EditOutcomeDocument::Refused(EditRefusalDocument::ItemMissing),
            Outcome::ConditionFailed { current } => {
                EditOutcomeDocument::Refused(EditRefusalDocument::ConditionFailed {
                    current: current.clone(),
                })
            }
            Outcome::Unknown {
                error,
                stored_now,
                attempts,
            } => EditOutcomeDocument::Unknown {
                error: error.to_string(),
                attempts: *attempts,
                stored: match stored_now {
                    Ok(value) => StoredNowDocument::Read {
                        stored_now: value.clone(),
                    },
                    Err(e) => StoredNowDocument::Unread {
                        stored_now_error: e.to_string(),
                    },
                },
            },
            Outcome::Failed(error) => EditOutcomeDocument::Refused(EditRefusalDocument::Error {
                error: error.to_string(),
                code: error.code().map(str::to_owned),
            }),
        }
    }
}

crate::document_as!(EditReport => EditDocument, document);
