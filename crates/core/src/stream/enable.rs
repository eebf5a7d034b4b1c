//! Turning a table's stream on, as one run every front end starts: the change sent once
//! through the write gateway (asked about off this machine, refused on a read-only
//! connection), then the table described until it lists its stream (at once on an emulator,
//! seconds on AWS). Its report says how it went in the same words everywhere.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use crate::cancel::{CancelToken, not_stopped};
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::read::describe_unless_stopped;
use crate::report::{Line, Report, Tone, plain};
use crate::schema::{StreamView, TableChange};
use crate::table::TableInfo;
use crate::write::{self, Destination, TableSetting, WriteOutcome, WritePlan};

/// How long a stream turned on is waited for before the run says it is not listed yet.
pub(crate) const LISTED_WITHIN: Duration = Duration::from_secs(30);

/// How often the table is described while its stream is waited for.
const EVERY: Duration = Duration::from_millis(500);

/// The plan turning on a stream with new and old images on `info`'s table, through the write
/// gateway: asked about off this machine, refused on a read-only connection.
pub fn enable_plan(connection: &Connection, info: &TableInfo) -> WritePlan {
    WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::Change {
            table: info.name.clone(),
            change: TableChange::Stream(Some(StreamView::NewAndOldImages)),
        },
    )
}

/// How turning a stream on went.
#[derive(Debug, Clone)]
pub struct EnableReport {
    /// The table.
    pub table: String,
    /// The gateway's outcome of the change.
    pub outcome: WriteOutcome,
    /// The table described again once it listed its stream (`None`: not applied, or not
    /// listed within [`LISTED_WITHIN`]).
    pub listed: Option<TableInfo>,
    /// Why the table could not be described after the change applied (a lost connection, a
    /// stop): the change stands, whether the stream is listed is not known.
    pub wait_error: Option<Error>,
}

impl EnableReport {
    /// What happened, in words.
    fn texts(&self) -> Vec<String> {
        let table = &self.table;
        let turned = format!("turned on a stream (NEW_AND_OLD_IMAGES) on {table}");
        match (&self.outcome, &self.listed) {
            (WriteOutcome::Applied { .. }, Some(_)) => vec![turned],
            (WriteOutcome::Applied { .. }, None) => vec![
                turned,
                match &self.wait_error {
                    Some(error) => format!(
                        "the stream of {table} was turned on; whether it is listed is not known: \
                         {error}"
                    ),
                    None => format!(
                        "the stream of {table} was turned on but is not listed after {} s; \
                         watch again shortly",
                        LISTED_WITHIN.as_secs()
                    ),
                },
            ],
            (WriteOutcome::Unknown { .. }, _) => vec![format!(
                "outcome unknown: turning on the stream of {table} may have been applied; it was \
                 not sent again (describe the table to see)"
            )],
            (WriteOutcome::Refused { .. }, _) => {
                vec![format!("turning on the stream of {table} was refused")]
            }
        }
    }
}

/// A stream turned on: how the change ended and whether the table lists its stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct EnableDocument {
    /// The table.
    pub(crate) table: String,
    /// How the change ended.
    pub(crate) outcome: EnableOutcome,
    /// Whether the table, described again, lists its stream.
    pub(crate) listed: bool,
    /// What happened, in words, a line each.
    pub(crate) lines: Vec<String>,
}

/// How the change turning the stream on ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EnableOutcome {
    /// The server applied it.
    Applied,
    /// The server refused it: nothing changed.
    Refused,
    /// It may or may not have been applied, and was not sent again.
    Unknown,
}

impl EnableReport {
    /// The report's document.
    pub(crate) fn document(&self) -> EnableDocument {
        EnableDocument {
            table: self.table.clone(),
            outcome: match self.outcome {
                WriteOutcome::Applied { .. } => EnableOutcome::Applied,
                WriteOutcome::Refused { .. } => EnableOutcome::Refused,
                WriteOutcome::Unknown { .. } => EnableOutcome::Unknown,
            },
            listed: self.listed.is_some(),
            lines: self.texts(),
        }
    }
}

crate::document_as!(EnableReport => EnableDocument, document);

impl Report for EnableReport {
    fn lines(&self) -> Vec<Line> {
        let tone = match self.ending() {
            Ending::Done => Tone::Good,
            _ => Tone::Warn,
        };
        plain(tone, self.texts())
    }

    /// Done once the stream is listed; unknown when it may be on but is not listed; refused
    /// when the server refused the change.
    fn ending(&self) -> Ending {
        match (&self.outcome, &self.listed) {
            (WriteOutcome::Applied { .. }, Some(_)) => Ending::Done,
            (WriteOutcome::Refused { .. }, _) => Ending::Refused,
            _ => Ending::Unknown,
        }
    }
}

/// Send `plan` (made by [`enable_plan`] for `table`) once through the gateway and, once
/// applied, describe the table until it lists its stream, for at most [`LISTED_WITHIN`]. A
/// refusal before anything could apply (read-only, not confirmed) is the error.
pub async fn enable(
    connection: &Connection,
    plan: &WritePlan,
    table: &str,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<EnableReport> {
    not_stopped(stop, "UpdateTable")?;
    let outcome = write::send(connection, plan, confirmed).await;
    if let Some(error) = outcome.failure() {
        return Err(error.clone());
    }
    // Once applied, the change stands: a failed or stopped wait is said, never the run's error.
    let (listed, wait_error) = if outcome.applied() {
        match listed_within(connection, table, stop).await {
            Ok(listed) => (listed, None),
            Err(error) => (None, Some(error)),
        }
    } else {
        (None, None)
    };
    Ok(EnableReport {
        table: table.to_owned(),
        outcome,
        listed,
        wait_error,
    })
}

/// The table as described once it lists a stream, or `None` after [`LISTED_WITHIN`].
async fn listed_within(
    connection: &Connection,
    table: &str,
    stop: &CancelToken,
) -> Result<Option<TableInfo>> {
    let deadline = tokio::time::Instant::now() + LISTED_WITHIN;
    loop {
        let described = describe_unless_stopped(&connection.reader(), table, stop).await?;
        if described.stream_arn.is_some() {
            return Ok(Some(described));
        }
        if tokio::time::Instant::now() + EVERY > deadline {
            return Ok(None);
        }
        tokio::select! {
            () = tokio::time::sleep(EVERY) => {}
            () = stop.cancelled() => return Err(Error::Cancelled { op: "DescribeTable" }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::ScalarType;
    use crate::table::KeyAttr;

    fn report(outcome: WriteOutcome, listed: bool, wait_error: Option<Error>) -> EnableReport {
        let info = TableInfo::with_keys("Social", KeyAttr::new("PK", ScalarType::S), None);
        EnableReport {
            table: "Social".to_owned(),
            outcome,
            listed: listed.then_some(info),
            wait_error,
        }
    }

    fn applied() -> WriteOutcome {
        WriteOutcome::Applied {
            returned: None,
            consumed_wcu: 0.0,
            attempts: 1,
            unwritten: None,
            throttled: Vec::new(),
        }
    }

    #[test]
    fn a_stream_turned_on_is_done_only_once_listed() {
        let listed = report(applied(), true, None);
        assert_eq!(listed.ending(), Ending::Done);
        assert_eq!(
            listed.texts(),
            ["turned on a stream (NEW_AND_OLD_IMAGES) on Social"]
        );
        let late = report(applied(), false, None);
        assert_eq!(late.ending(), Ending::Unknown);
        assert!(late.texts()[1].ends_with("not listed after 30 s; watch again shortly"));
        // A stop while waiting does not undo what applied: said, and unknown.
        let stopped = report(
            applied(),
            false,
            Some(Error::Cancelled {
                op: "DescribeTable",
            }),
        );
        assert_eq!(stopped.ending(), Ending::Unknown);
        assert!(stopped.texts()[1].contains("whether it is listed is not known"));
        let lost = report(
            WriteOutcome::lost(Error::Invalid("reset".into())),
            false,
            None,
        );
        assert_eq!(lost.ending(), Ending::Unknown);
        assert!(lost.texts()[0].starts_with("outcome unknown"));
    }
}
