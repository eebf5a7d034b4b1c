//! PartiQL writes through the write gateway: planned for a destination, sent once by
//! [`write::send`], and what the gateway's outcome means for a statement, in words and JSON.

use schemars::JsonSchema;
use serde::Serialize;

use crate::connection::Connection;
use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Report, Tone};
use crate::statement::Statement;
use crate::value::{self, Item};
use crate::write::{self, Destination, Refusal, WriteOutcome, WritePlan, WriteRequest};

/// The server's code for an `INSERT` of an item that exists already.
const DUPLICATE_ITEM: &str = "DuplicateItemException";

/// The server's code for a `WHERE` that did not hold (the statement's condition).
const CONDITION_FAILED: &str = "ConditionalCheckFailedException";

/// The write plan of an `INSERT`, `UPDATE` or `DELETE` to `destination`: sent once, never
/// again once it may have arrived (only a throttling refusal, which wrote nothing, is re-sent).
pub fn plan_write(destination: Destination, statement: Statement) -> Result<WritePlan> {
    WritePlan::statement(destination, statement)
}

/// How a PartiQL write ended.
#[derive(Debug, Clone, PartialEq)]
pub enum StatementOutcome {
    /// The server applied it.
    Applied {
        /// The item it returned (`RETURNING …`), if any.
        returned: Option<Item>,
        /// Write capacity consumed.
        consumed_wcu: f64,
        /// Requests sent (more than one only after throttling refusals).
        attempts: u32,
        /// Each wait after a throttled attempt, in words with the limit it hit.
        throttled: Vec<String>,
    },
    /// The data refused it; nothing was written: the `WHERE` did not hold
    /// (`ConditionalCheckFailedException`) or the inserted item exists (`DuplicateItemException`).
    Refused {
        /// The server's code.
        code: String,
        /// The item as stored, when the server sent it back.
        stored: Option<Item>,
        /// Requests sent (more than one only after throttling refusals).
        attempts: u32,
    },
    /// It may or may not have been applied, and was not sent again. Which items a statement
    /// touches only the server knows, so nothing was read again.
    Unknown {
        /// What happened to the request.
        error: Error,
        /// Requests sent.
        attempts: u32,
    },
    /// Refused before anything could apply (not confirmed, read-only, unreachable, a
    /// statement the server would not run).
    Failed(Error),
}

impl StatementOutcome {
    /// Its class: done, refused by the data, or unknown; a failure that applied nothing is
    /// handed back, to be said once as an error.
    pub fn ending(&self) -> Ending {
        match self {
            Self::Applied { .. } => Ending::Done,
            Self::Refused { .. } => Ending::Refused,
            Self::Unknown { .. } => Ending::Unknown,
            Self::Failed(error) => Ending::of_error(error),
        }
    }

    /// The failure that applied nothing, to be said once as an error.
    pub fn failure(&self) -> Option<&Error> {
        match self {
            Self::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// The gateway's outcome, as it concerns a statement.
    pub fn of(outcome: WriteOutcome) -> Self {
        match outcome {
            WriteOutcome::Applied {
                returned,
                consumed_wcu,
                attempts,
                throttled,
                ..
            } => Self::Applied {
                returned,
                consumed_wcu,
                attempts,
                throttled,
            },
            WriteOutcome::Refused { refusal, attempts } => match refusal {
                Refusal::Condition { stored } => Self::Refused {
                    code: CONDITION_FAILED.into(),
                    stored,
                    attempts,
                },
                Refusal::Error(error) if error.code() == Some(DUPLICATE_ITEM) => Self::Refused {
                    code: DUPLICATE_ITEM.into(),
                    stored: None,
                    attempts,
                },
                Refusal::Error(error) => Self::Failed(error),
                Refusal::Cancelled { reasons } => Self::Failed(Error::Invalid(format!(
                    "the transaction was cancelled: {}",
                    crate::write::CancelReason::cancelled_words(&reasons, &[])
                ))),
            },
            WriteOutcome::Unknown {
                error, attempts, ..
            } => Self::Unknown { error, attempts },
        }
    }

    /// `applied`, `refused`, `unknown`, `failed`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Applied { .. } => "applied",
            Self::Refused { .. } => "refused",
            Self::Unknown { .. } => "unknown",
            Self::Failed(_) => "failed",
        }
    }
}

/// Send `plan` (made by [`plan_write`]) through the write gateway on `connection`;
/// `confirmed`: the user agreed to its confirmation question.
pub async fn write(connection: &Connection, plan: &WritePlan, confirmed: bool) -> StatementOutcome {
    StatementOutcome::of(write::send(connection, plan, confirmed).await)
}

/// A finished PartiQL write: what was sent, and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct StatementReport {
    /// What was sent, and where.
    pub plan: WritePlan,
    /// How it ended.
    pub outcome: StatementOutcome,
    /// What a write costs on the connection (the statement's table is not described, so it
    /// is priced on demand, and says so).
    pub pricing: Pricing,
}

impl StatementReport {
    fn statement(&self) -> Option<&Statement> {
        match &self.plan.request {
            WriteRequest::Statement(statement) => Some(statement),
            _ => None,
        }
    }

    /// The item the outcome carries: returned by an applied write, or as stored after a
    /// refused one.
    pub fn item(&self) -> Option<&Item> {
        match &self.outcome {
            StatementOutcome::Applied { returned, .. } => returned.as_ref(),
            StatementOutcome::Refused { stored, .. } => stored.as_ref(),
            _ => None,
        }
    }
}

/// A PartiQL write: how it ended, what it cost, and the item that came back.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct StatementDocument {
    /// How it ended.
    pub(crate) outcome: StatementOutcomeWord,
    /// The statement sent, as typed; `null` when the write was not a statement.
    pub(crate) statement: Option<String>,
    /// The server's error code (`ConditionalCheckFailedException`,
    /// `DuplicateItemException`, …), when there was one.
    pub(crate) code: Option<String>,
    /// The write capacity units consumed (0 unless applied).
    pub(crate) consumed_wcu: f64,
    /// What the write cost in US dollars (priced on demand).
    pub(crate) usd: Usd,
    /// Requests sent (more than one only after throttling refusals; 0 when none was sent).
    pub(crate) attempts: u32,
    /// The item returned by an applied write (`RETURNING …`), or as stored after a refused
    /// one, in DynamoDB JSON; `null` when none came back.
    pub(crate) item: Option<serde_json::Value>,
    /// The report in words, one line each.
    pub(crate) lines: Vec<String>,
}

/// How a PartiQL write ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum StatementOutcomeWord {
    /// The server applied it.
    Applied,
    /// The data refused it (the `WHERE` did not hold, or the inserted item exists): nothing
    /// was written.
    Refused,
    /// It may or may not have been applied, and was not sent again.
    Unknown,
    /// Refused before anything could apply.
    Failed,
}

impl StatementReport {
    /// The report's document.
    pub(crate) fn document(&self) -> StatementDocument {
        let (outcome, code, wcu, attempts) = match &self.outcome {
            StatementOutcome::Applied {
                consumed_wcu,
                attempts,
                ..
            } => (
                StatementOutcomeWord::Applied,
                None,
                *consumed_wcu,
                *attempts,
            ),
            StatementOutcome::Refused { code, attempts, .. } => (
                StatementOutcomeWord::Refused,
                Some(code.clone()),
                0.0,
                *attempts,
            ),
            StatementOutcome::Unknown { error, attempts } => (
                StatementOutcomeWord::Unknown,
                error.code().map(str::to_owned),
                0.0,
                *attempts,
            ),
            StatementOutcome::Failed(error) => (
                StatementOutcomeWord::Failed,
                error.code().map(str::to_owned),
                0.0,
                0,
            ),
        };
        StatementDocument {
            outcome,
            statement: self.statement().map(|s| s.text.clone()),
            code,
            consumed_wcu: wcu,
            usd: Usd::from(self.pricing.write(wcu)),
            attempts,
            item: (self.item()).map(|i| value::json::item_to_json(i, &[], value::Style::Typed)),
            lines: self.lines().into_iter().map(|l| l.text).collect(),
        }
    }
}

crate::document_as!(StatementReport => StatementDocument, document);

impl Report for StatementReport {
    /// What the write did, in words: the outcome first, then what was sent and where.
    fn lines(&self) -> Vec<Line> {
        let keyword = self
            .statement()
            .and_then(|s| s.classify().ok())
            .map_or("Statement", |c| c.kind.keyword());
        let mut lines = vec![match &self.outcome {
            StatementOutcome::Applied {
                consumed_wcu,
                attempts,
                ..
            } => Line::new(
                Tone::Good,
                format!(
                    "{keyword} applied · {}{}",
                    self.pricing.write(*consumed_wcu),
                    resent(*attempts)
                ),
            ),
            StatementOutcome::Refused { code, stored, .. } => Line::new(
                Tone::Warn,
                match (code.as_str(), stored) {
                    (DUPLICATE_ITEM, _) => format!(
                        "{keyword} refused ({code}): the item exists already; nothing was written."
                    ),
                    (_, Some(_)) => format!(
                        "{keyword} refused ({code}): the WHERE did not hold; nothing was written. The item as stored:"
                    ),
                    (_, None) => format!(
                        "{keyword} refused ({code}): the WHERE did not hold (no such item?); nothing was written."
                    ),
                },
            ),
            StatementOutcome::Unknown { error, attempts } => Line::new(
                Tone::Warn,
                format!(
                    "{keyword}: outcome unknown ({error}); not sent again{}. dynoscope cannot tell which items a statement touches, so none was read again: check with a SELECT.",
                    resent(*attempts)
                ),
            ),
            StatementOutcome::Failed(error) => Line::new(Tone::Bad, error.write_words()),
        }];
        if let StatementOutcome::Applied { throttled, .. } = &self.outcome {
            lines.extend(throttled.iter().map(|note| Line::new(Tone::Quiet, note)));
        }
        if let Some(item) = self.item() {
            lines.push(Line::new(
                Tone::Figure,
                value::item_to_dynamodb_json(item, &[], false),
            ));
        }
        lines.push(Line::new(
            Tone::Quiet,
            format!("{} at {}", self.plan.what(), self.plan.destination.place()),
        ));
        lines
    }

    fn ending(&self) -> Ending {
        self.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        self.outcome.failure()
    }
}

/// ` · sent 2 times` when it was sent more than once (after throttling refusals).
fn resent(attempts: u32) -> String {
    if attempts > 1 {
        format!(" · sent {attempts} times")
    } else {
        String::new()
    }
}
