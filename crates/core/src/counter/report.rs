//! How a counter edit ended, and what that means in words (the app's card and the CLI print the
//! same lines) and as JSON.

use bigdecimal::BigDecimal;

use crate::cost::{Kind, Pricing};
use crate::counter::UpdatePlan;
use crate::ending::Ending;
use crate::error::Error;
use crate::number::{self, to_dynamodb};
use crate::report::{Line, Report, Tone};
use crate::value::key_shown;

/// How a counter edit ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The server applied it and returned the new value.
    Applied {
        /// The value the server returned (`UPDATED_NEW`).
        new_value: Option<String>,
        /// Write capacity consumed.
        consumed_wcu: f64,
        /// Requests sent (more than one only after throttling rejections).
        attempts: u32,
        /// Each wait after a throttled attempt, in words with the limit it hit.
        throttled: Vec<String>,
    },
    /// The item does not exist; nothing was written (creating it is an explicit choice).
    Missing,
    /// Exact mode: someone else changed the value; nothing was written.
    ConditionFailed {
        /// The value the server holds now (`ALL_OLD` on the failed condition).
        current: Option<String>,
    },
    /// The request may have reached the server but no readable answer came back. It was not
    /// sent again (a repeatable one, at most the gateway's few re-sends).
    Unknown {
        /// What happened to the request.
        error: Error,
        /// Requests sent: 1, or more for a repeatable request (the exact mode's conditional SET).
        attempts: u32,
        /// The value stored now, read again with a consistent read.
        stored_now: std::result::Result<Option<String>, Error>,
    },
    /// Refused before anything could apply (not confirmed, read-only, unreachable, the
    /// server's error): nothing changed.
    Failed(Error),
}

impl Outcome {
    /// Its class: done, refused (a condition, a missing item), unknown, or the class of the
    /// failure that applied nothing ([`failure`](Self::failure)).
    pub fn ending(&self) -> Ending {
        match self {
            Self::Applied { .. } => Ending::Done,
            Self::Unknown { .. } => Ending::Unknown,
            Self::ConditionFailed { .. } | Self::Missing => Ending::Refused,
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
}

/// A finished edit: what was asked and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct EditReport {
    /// The request that was sent.
    pub plan: UpdatePlan,
    /// How it ended.
    pub outcome: Outcome,
    /// What the table's writes cost.
    pub pricing: Pricing,
}

impl EditReport {
    /// The outcome in one line, for a place with room for one (the head of the Numbers panel,
    /// always where it was): `likeTally: 41 → 42`, or what happened to the write.
    pub fn headline(&self) -> Line {
        match self.outcome_lines().into_iter().next() {
            Some(line) => Line::new(line.tone, format!("{}: {}", self.plan.attribute, line.text)),
            None => Line::new(Tone::Plain, format!("{}: sent", self.plan.attribute)),
        }
    }

    /// What became of the edit, in words: the card's lines after its title and place, and the
    /// head of the Numbers panel's first.
    fn outcome_lines(&self) -> Vec<Line> {
        let plan = &self.plan;
        let old = self.old_text();
        let expected = to_dynamodb(&plan.planned.expected);
        let mut lines = Vec::new();
        match &self.outcome {
            Outcome::Applied { .. } => lines.extend(self.applied_lines(&old, &expected)),
            Outcome::Missing if plan.create => lines.push(Line::new(
                Tone::Warn,
                "The item does not exist (any more), so the condition on the value seen failed and nothing was written.",
            )),
            Outcome::Missing => lines.push(Line::new(
                Tone::Warn,
                Error::Missing {
                    what: "The item".into(),
                    kind: "item",
                }
                .to_string(),
            )),
            Outcome::ConditionFailed { current } => lines.push(Line::new(
                Tone::Warn,
                format!(
                    "Condition failed: the server has {} now, not {old}. Nothing was written.",
                    current.as_deref().unwrap_or("(missing)")
                ),
            )),
            Outcome::Unknown {
                error,
                stored_now,
                attempts,
            } => lines.extend(self.unknown_lines(error, *attempts, stored_now, &expected)),
            Outcome::Failed(error) => lines.push(Line::new(Tone::Bad, error.write_words())),
        }
        lines
    }

    /// An edit whose task stopped before it answered: it may have been sent, so its outcome is
    /// unknown, and nothing was left to read the value again.
    pub fn lost(plan: UpdatePlan, pricing: Pricing, error: Error) -> Self {
        Self {
            plan,
            pricing,
            outcome: Outcome::Unknown {
                stored_now: Err(error.clone()),
                error,
                attempts: 0,
            },
        }
    }

    /// When the server's new value differs from the one expected: by how much (someone else
    /// changed the value in between).
    pub(crate) fn interference(&self) -> Option<BigDecimal> {
        let Outcome::Applied {
            new_value: Some(new),
            ..
        } = &self.outcome
        else {
            return None;
        };
        let new = number::parse(new).ok()?;
        let diff = &new - &self.plan.planned.expected;
        (diff != BigDecimal::default()).then_some(diff)
    }

    /// The value to retry from after a failed condition: the server's.
    pub fn retry_from(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::ConditionFailed { current } => current.as_deref(),
            _ => None,
        }
    }

    fn old_text(&self) -> String {
        self.plan
            .planned
            .current
            .as_ref()
            .map_or("(missing)".to_owned(), to_dynamodb)
    }

    /// The lines of an applied edit: the change, what it cost, and what to know about it (re-sends,
    /// throttling, a created attribute, someone else's change in between).
    fn applied_lines(&self, old: &str, expected: &str) -> Vec<Line> {
        let Outcome::Applied {
            new_value,
            consumed_wcu,
            attempts,
            throttled,
        } = &self.outcome
        else {
            return Vec::new();
        };
        let plan = &self.plan;
        let mut lines = Vec::new();
        let new = new_value.as_deref().unwrap_or("(not returned)");
        lines.push(Line::new(Tone::Figure, format!("{old} → {new}")));
        lines.push(Line::new(
            Tone::Plain,
            format!(
                "expected {expected} · {}",
                self.pricing
                    .charge_reported(Kind::Write, *consumed_wcu)
                    .text()
            ),
        ));
        if *attempts > 1 {
            lines.push(Line::new(
                Tone::Quiet,
                if plan.repeatable() {
                    format!(
                        "sent {attempts} times: the earlier ones were throttled or their answer was lost (this request is safe to repeat)"
                    )
                } else {
                    format!(
                        "sent {attempts} times: the server throttled the earlier ones, which applied nothing"
                    )
                },
            ));
        }
        lines.extend(throttled.iter().map(|note| Line::new(Tone::Quiet, note)));
        if plan.planned.creates() {
            lines.push(Line::new(
                Tone::Plain,
                "The attribute was missing: it was created from 0.",
            ));
        }
        if let Some(diff) = self.interference() {
            lines.push(Line::new(
                Tone::Warn,
                format!(
                    "Someone else changed it in between: the server's value differs from the expected one by {}.",
                    to_dynamodb(&diff)
                ),
            ));
        }
        lines
    }

    /// The lines of an edit whose outcome is unknown: the error, how often it was sent, and the
    /// value stored now (or why it could not be read again).
    fn unknown_lines(
        &self,
        error: &Error,
        attempts: u32,
        stored_now: &std::result::Result<Option<String>, Error>,
        expected: &str,
    ) -> Vec<Line> {
        let plan = &self.plan;
        let mut lines = Vec::new();
        lines.push(Line::new(Tone::Warn, "Outcome unknown"));
        lines.push(Line::new(Tone::Plain, error.to_string()));
        let sent = match attempts {
            0 | 1 => "Not re-sent.".to_owned(),
            n if plan.repeatable() => format!(
                "Sent {n} times (it is safe to repeat: its condition keeps it from applying twice), the last without a readable answer; not sent again."
            ),
            n => format!(
                "Sent {n} times: the earlier ones were throttled (nothing applied), the last one's answer was lost; not sent again."
            ),
        };
        lines.push(Line::new(
            Tone::Plain,
            match stored_now {
                Ok(value) => format!(
                    "{sent} Stored now: {} (you expected {expected}); decide whether to send again.",
                    value.as_deref().unwrap_or("(missing)")
                ),
                // Said once: the read failed for the same reason as the request.
                Err(e) if e == error => {
                    format!("{sent} The value could not be read again.")
                }
                Err(e) => format!("{sent} The value could not be read again: {e}"),
            },
        ));
        lines
    }
}

impl Report for EditReport {
    /// What the edit did, in words: a title, the change, and what to know about it.
    fn lines(&self) -> Vec<Line> {
        let plan = &self.plan;
        let mut lines = vec![
            Line::new(
                Tone::Title,
                format!("{} on {}", plan.update_expression, plan.attribute),
            ),
            Line::new(
                Tone::Quiet,
                format!(
                    "table {} · {} · {}",
                    plan.table,
                    key_shown(&plan.key, &[]),
                    plan.destination.place()
                ),
            ),
        ];
        lines.extend(self.outcome_lines());
        lines
    }

    /// The server's new value, when applied and returned; else nothing (the exit status and
    /// stderr say why).
    fn result(&self) -> Vec<String> {
        match &self.outcome {
            Outcome::Applied { new_value, .. } => new_value.iter().cloned().collect(),
            _ => Vec::new(),
        }
    }

    fn ending(&self) -> Ending {
        self.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        self.outcome.failure()
    }
}
