//! How a table management run is said: one write and its table described again
//! ([`AdminReport`]), or several changes to one table sent one after another, each held against
//! the table as the one before left it ([`ChangeRun`]) — in the same lines and JSON keys in the
//! CLI, the app and an agent's answer.

use crate::admin::document::{AdminDocument, ChangeRunDocument};
use crate::admin::{AdminEvent, AdminReport, change_plan, run};
use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::Error;
use crate::report::{Line, Report, Tone};
use crate::schema::{Described, TableChange};
use crate::write::{Refusal, WriteOutcome};

impl Report for AdminReport {
    /// Each write and how it ended, then the table as it is now. A refusal with an error before
    /// anything applied is left to [`failure`](Report::failure), to be said once; after a
    /// write that applied, it is said here.
    fn lines(&self) -> Vec<Line> {
        let applied = self.applied();
        let mut lines: Vec<Line> = self
            .writes
            .iter()
            .filter_map(|(what, outcome)| match outcome {
                WriteOutcome::Applied { .. } => {
                    Some(Line::new(Tone::Good, format!("applied: {what}")))
                }
                WriteOutcome::Refused {
                    refusal: Refusal::Error(error),
                    ..
                } => applied.then(|| Line::new(Tone::Bad, format!("refused: {what}: {error}"))),
                WriteOutcome::Refused { .. } => {
                    Some(Line::new(Tone::Warn, format!("refused: {what}")))
                }
                WriteOutcome::Unknown { error, .. } => Some(Line::new(
                    Tone::Warn,
                    format!(
                        "outcome unknown: {what} may have been applied; it was not sent again \
                         ({error})"
                    ),
                )),
            })
            .collect();
        let mut plain = |text: String| lines.push(Line::new(Tone::Plain, text));
        match (&self.after, &self.unread) {
            (Some(table), _) => {
                plain(format!("now: {} ({})", table.spec.summary(), table.state()));
                table
                    .unread
                    .iter()
                    .for_each(|u| plain(format!("not read: {u}")));
            }
            (None, Some(why)) => plain(why.clone()),
            (None, None) => {}
        }
        self.backup
            .iter()
            .for_each(|b| plain(format!("backup: {}", b.line())));
        self.notes.iter().for_each(|note| plain(note.clone()));
        if self.stopped_following {
            plain(
                "stopped waiting: the change goes on on the server; describe the table to see"
                    .to_owned(),
            );
        }
        lines
    }

    /// The graver of the writes' endings; an error after a write that applied is a refusal
    /// (what applied stands), never an error before anything applied.
    fn ending(&self) -> Ending {
        if let Some(error) = self.failure() {
            return Ending::of_error(error);
        }
        self.writes
            .iter()
            .fold(Ending::Done, |ending, (_, outcome)| {
                ending.graver(match outcome.failure() {
                    Some(_) => Ending::Refused,
                    None => outcome.ending(),
                })
            })
    }

    /// The error of a run none of whose writes applied.
    fn failure(&self) -> Option<&Error> {
        if self.applied() {
            return None;
        }
        self.writes
            .iter()
            .find_map(|(_, outcome)| outcome.failure())
    }
}

impl AdminReport {
    /// Whether any write applied, or may have (its outcome unknown).
    fn applied(&self) -> bool {
        self.writes
            .iter()
            .any(|(_, outcome)| !matches!(outcome, WriteOutcome::Refused { .. }))
    }
}

/// Several table management writes, one after another, and why the run stopped before the
/// next one, if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRun {
    /// Each write's report, in the order sent.
    pub reports: Vec<AdminReport>,
    /// Why the run stopped before its next change (a change the table as it now is refuses).
    pub stopped: Option<Error>,
}

impl ChangeRun {
    /// The run of one write.
    pub fn one(report: AdminReport) -> Self {
        Self {
            reports: vec![report],
            stopped: None,
        }
    }

    fn applied(&self) -> bool {
        self.reports.iter().any(AdminReport::applied)
    }

    /// The error that stopped the run once something had applied: said after what applied.
    fn error_after(&self) -> Option<&Error> {
        self.first_error().filter(|_| self.applied())
    }

    /// Why the run stopped: the change the table refused before it was sent, or the first
    /// write that applied nothing.
    fn first_error(&self) -> Option<&Error> {
        self.stopped
            .as_ref()
            .or_else(|| self.reports.iter().find_map(Report::failure))
    }
}

impl ChangeRun {
    /// The run's document.
    pub(crate) fn document(&self) -> ChangeRunDocument {
        ChangeRunDocument {
            run: AdminDocument::of(&self.reports),
            error: self.error_after().map(ToString::to_string),
        }
    }
}

crate::document_as!(ChangeRun => ChangeRunDocument, document);

impl Report for ChangeRun {
    fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = self.reports.iter().flat_map(Report::lines).collect();
        if let Some(error) = self.error_after() {
            lines.push(Line::new(Tone::Bad, format!("stopped: {error}")));
        }
        lines
    }

    /// The graver of the writes' endings; once something applied, an error after it makes the
    /// run refused (what applied stands), never an error before anything applied.
    fn ending(&self) -> Ending {
        if let Some(error) = self.failure() {
            return Ending::of_error(error);
        }
        // A report that applied nothing is said by `error_after`: a refusal after the others.
        let ending = self
            .reports
            .iter()
            .filter(|report| report.failure().is_none())
            .fold(Ending::Done, |ending, report| {
                ending.graver(report.ending())
            });
        if self.error_after().is_some() {
            ending.graver(Ending::Refused)
        } else {
            ending
        }
    }

    /// An error before anything applied.
    fn failure(&self) -> Option<&Error> {
        self.first_error().filter(|_| !self.applied())
    }
}

/// Send `changes` to `table` one after another, each planned and checked against the table
/// as the one before left it (settled), stopping at the first that does not end done.
pub async fn change_all(
    connection: &Connection,
    mut table: Described,
    changes: Vec<TableChange>,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> ChangeRun {
    let mut done = ChangeRun {
        reports: Vec::new(),
        stopped: None,
    };
    for change in changes {
        let plan = match change_plan(connection, &table, change) {
            Ok(plan) => plan,
            Err(error) => {
                done.stopped = Some(error);
                break;
            }
        };
        let report = run(connection, &plan, confirmed, stop, on_event).await;
        let settled = report.after.clone();
        let ending = (report.failure().is_none()).then(|| report.ending());
        done.reports.push(report);
        match (ending, settled) {
            (Some(Ending::Done), Some(after)) => table = after,
            _ => break,
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn applied(what: &str) -> AdminReport {
        AdminReport::of(
            what.to_owned(),
            WriteOutcome::Applied {
                returned: None,
                consumed_wcu: 0.0,
                attempts: 1,
                unwritten: None,
                throttled: Vec::new(),
            },
        )
    }

    fn refused_before(error: &str) -> Error {
        Error::Invalid(error.to_owned())
    }

    #[test]
    fn a_run_that_applied_nothing_is_its_error_and_one_that_did_is_refused_after_it() {
        let nothing = ChangeRun {
            reports: Vec::new(),
            stopped: Some(refused_before("its class is already STANDARD")),
        };
        assert!(nothing.failure().is_some());
        assert_eq!(nothing.ending(), Ending::BadInput);
        let not_sent = ChangeRun::one(AdminReport::of(
            "a stream".into(),
            WriteOutcome::not_sent(refused_before("read-only")),
        ));
        assert_eq!(
            not_sent.failure().map(ToString::to_string).as_deref(),
            Some("read-only")
        );
        let partial = ChangeRun {
            reports: vec![applied("a stream with NEW_IMAGE turned on")],
            stopped: Some(refused_before("its class is already STANDARD")),
        };
        assert!(partial.failure().is_none(), "something applied");
        assert_eq!(partial.ending(), Ending::Refused);
        let texts: Vec<String> = partial.lines().into_iter().map(|l| l.text).collect();
        assert_eq!(
            texts,
            [
                "applied: a stream with NEW_IMAGE turned on",
                "stopped: its class is already STANDARD"
            ]
        );
        assert_eq!(
            partial.to_json()["error"],
            "its class is already STANDARD",
            "the JSON says it too"
        );
        // A create whose TTL write is then refused: the create stands, the run is refused.
        let mut create = applied("table T created");
        create.writes.push((
            "TTL on expiresAt".into(),
            WriteOutcome::not_sent(refused_before("ValidationException")),
        ));
        assert!(create.failure().is_none());
        assert_eq!(create.ending(), Ending::Refused);
        assert!(
            create
                .lines()
                .iter()
                .any(|l| l.text == "refused: TTL on expiresAt: ValidationException")
        );
        // A second change refused by the server after the first applied: refused, not an error.
        let second = ChangeRun {
            reports: vec![
                applied("a stream turned on"),
                AdminReport::of(
                    "class changed".into(),
                    WriteOutcome::not_sent(refused_before("ValidationException")),
                ),
            ],
            stopped: None,
        };
        assert_eq!(
            (second.failure().is_none(), second.ending()),
            (true, Ending::Refused)
        );
        let whole = ChangeRun::one(applied("table T deleted"));
        assert_eq!(
            (whole.failure().is_none(), whole.ending()),
            (true, Ending::Done)
        );
    }
}
