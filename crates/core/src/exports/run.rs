//! An export run: point-in-time recovery turned on first when planned so, the export started
//! through the gateway (re-sent only with its token), then followed with `DescribeExport` until
//! it is `COMPLETED` or `FAILED`, or until Cancel — which stops following, never the export.

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::Error;
use crate::exports::info::{ExportInfo, describe_export};
use crate::exports::plan::ExportPlan;
use crate::report::{Line, Report, Tone};
use crate::transfer::S3Location;
use crate::transfer::folders;
use crate::write::{self, Refusal, WriteOutcome};

mod document;

/// The longest wait between two `DescribeExport`s.
const MOST_WAIT: Duration = Duration::from_secs(15);

/// The most export folders listed to find where an export put its files.
const MOST_FOLDERS: usize = 10_000;

/// What an export run says as it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportEvent {
    /// A write applied: what it did.
    Applied(String),
    /// The export as described again while it runs.
    State(Box<ExportInfo>),
}

/// How an export run ended: one report for the app, the CLI and the MCP server.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRun {
    /// What was asked, in words.
    pub what: String,
    /// Its price, in words, as said before it started.
    pub price: String,
    /// The token every attempt of the start carried.
    pub token: String,
    /// Point-in-time recovery turned on first, when it was.
    pub pitr: Option<WriteOutcome>,
    /// The export's start.
    pub start: WriteOutcome,
    /// The export as last described.
    pub export: Option<ExportInfo>,
    /// Where its files are, once it completed.
    pub location: Option<String>,
    /// Following was given up by a cancel: the export goes on.
    pub stopped_following: bool,
    /// What else was found, in words.
    pub notes: Vec<String>,
}

/// Run `plan` on `connection`: `confirmed` answers its question (a write off this machine).
pub async fn run(
    connection: &Connection,
    plan: &ExportPlan,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(ExportEvent) + Send),
) -> ExportRun {
    let mut report = ExportRun {
        what: plan.export.what(),
        price: plan.price.clone(),
        token: plan.request.token.clone(),
        pitr: None,
        start: WriteOutcome::not_sent(Error::Invalid("not sent".to_owned())),
        export: None,
        location: None,
        stopped_following: false,
        notes: Vec::new(),
    };
    if let Some(pitr) = &plan.pitr_first {
        let outcome = write::send(connection, pitr, confirmed).await;
        let applied = outcome.applied();
        report.pitr = Some(outcome);
        if !applied {
            report.start = WriteOutcome::not_sent(Error::Invalid(
                "point-in-time recovery was not turned on, so the export was not sent".to_owned(),
            ));
            return report;
        }
        on_event(ExportEvent::Applied(pitr.what()));
    }
    let at = export_folders(&plan.request.bucket, &plan.request.prefix);
    let before = folders(&connection.s3(), &at, MOST_FOLDERS).await.ok();
    report.start = write::send(connection, &plan.export, confirmed).await;
    let arn = match &report.start {
        WriteOutcome::Applied { returned, .. } => {
            let Some(AttributeValue::S(arn)) = returned.as_ref().and_then(|r| r.get("ExportArn"))
            else {
                report
                    .notes
                    .push("the server named no export ARN".to_owned());
                return report;
            };
            arn.clone()
        }
        WriteOutcome::Unknown { .. } => {
            report.notes.push(format!(
                "whether the export started is unknown: list the table's exports to see (a \
                 start sent again with its token {} names the same export)",
                report.token
            ));
            return report;
        }
        WriteOutcome::Refused { .. } => return report,
    };
    on_event(ExportEvent::Applied(plan.export.what()));
    follow(connection, &arn, stop, on_event, &mut report).await;
    if report
        .export
        .as_ref()
        .is_some_and(|e| e.status == "COMPLETED")
    {
        report.location = located(connection, &at, before, &mut report).await;
    }
    report
}

/// The folder under which DynamoDB writes an export's own folder: `PREFIX/AWSDynamoDB`.
fn export_folders(bucket: &str, prefix: &str) -> S3Location {
    let prefix = prefix.trim_matches('/');
    S3Location {
        bucket: bucket.to_owned(),
        prefix: if prefix.is_empty() {
            "AWSDynamoDB".to_owned()
        } else {
            format!("{prefix}/AWSDynamoDB")
        },
    }
}

/// `DescribeExport` until the export is no longer `IN_PROGRESS`, waiting longer each time (1 s
/// doubling to 15 s), or until `stop`.
async fn follow(
    connection: &Connection,
    arn: &str,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(ExportEvent) + Send),
    report: &mut ExportRun,
) {
    let mut wait = Duration::from_secs(1);
    loop {
        // A DescribeExport that hangs is given up on at once when the run is stopped.
        let reader = connection.reader();
        let described = tokio::select! {
            described = describe_export(&reader, arn) => described,
            () = stop.cancelled() => {
                report.stopped_following = true;
                return;
            }
        };
        match described {
            Ok(info) => {
                on_event(ExportEvent::State(Box::new(info.clone())));
                let running = info.status == "IN_PROGRESS";
                report.export = Some(info);
                if !running {
                    return;
                }
            }
            Err(error) => {
                report
                    .notes
                    .push(format!("the export was not described again: {error}"));
                return;
            }
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = stop.cancelled() => {
                report.stopped_following = true;
                return;
            }
        }
        wait = (wait * 2).min(MOST_WAIT);
    }
}

/// Where a completed export's files are: beside the manifest the server names; else the
/// folder named by its ID when it is there; else the one folder that appeared under
/// `PREFIX/AWSDynamoDB/` while it ran (an engine that names its folders otherwise).
async fn located(
    connection: &Connection,
    at: &S3Location,
    before: Option<Vec<String>>,
    report: &mut ExportRun,
) -> Option<String> {
    let info = report.export.as_ref()?;
    let documented = info.location()?;
    if info.manifest.is_some() {
        return Some(documented);
    }
    let (Some(before), Ok(after)) = (before, folders(&connection.s3(), at, MOST_FOLDERS).await)
    else {
        return Some(documented);
    };
    let own = format!("{}/{}/", at.prefix, info.id());
    if after.contains(&own) {
        return Some(documented);
    }
    let new: Vec<&String> = after.iter().filter(|f| !before.contains(f)).collect();
    if let [one] = new.as_slice() {
        let found = format!("s3://{}/{one}", at.bucket);
        report.notes.push(format!(
            "the server named no manifest and no folder {own}: its files are in the one \
             folder that appeared while it ran, {found}"
        ));
        Some(found)
    } else {
        report.notes.push(format!(
            "the server named no manifest, and {} folders appeared under s3://{}/{}/ while \
             it ran: its files are at DynamoDB's documented place, if anywhere",
            new.len(),
            at.bucket,
            at.prefix
        ));
        Some(documented)
    }
}

impl Report for ExportRun {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![
            Line::new(Tone::Title, format!("export: {}", self.what)),
            Line::new(Tone::Plain, self.price.clone()),
        ];
        if let Some(pitr) = &self.pitr {
            lines.push(Line::new(
                if pitr.applied() {
                    Tone::Good
                } else {
                    Tone::Bad
                },
                format!("point-in-time recovery turned on: {}", pitr.name()),
            ));
        }
        lines.push(match &self.start {
            WriteOutcome::Applied { attempts, .. } => Line::new(
                Tone::Good,
                format!(
                    "started, {attempts} request{} with one ClientToken ({})",
                    if *attempts == 1 { "" } else { "s" },
                    self.token
                ),
            ),
            WriteOutcome::Unknown { error, .. } => Line::new(
                Tone::Warn,
                format!("outcome unknown: the export may have started ({error})"),
            ),
            WriteOutcome::Refused {
                refusal: Refusal::Error(error),
                ..
            } => Line::new(Tone::Bad, format!("not started: {error}")),
            WriteOutcome::Refused { .. } => Line::new(Tone::Bad, "not started: refused"),
        });
        lines.extend(self.export.iter().map(|e| Line::new(Tone::Plain, e.line())));
        if let Some(location) = &self.location {
            lines.push(Line::new(
                Tone::Good,
                format!("its files: {location} (a reconcile reads them there, from S3)"),
            ));
        }
        lines.extend(self.notes.iter().map(|n| Line::new(Tone::Plain, n.clone())));
        if self.stopped_following {
            lines.push(Line::new(
                Tone::Warn,
                "stopped following: the export goes on on the server (Cancel stops following \
                 it, not the export); describe it later by its ARN",
            ));
        }
        lines
    }

    fn ending(&self) -> Ending {
        if let Some(error) = self.failure() {
            return Ending::of_error(error);
        }
        match (&self.start, &self.export) {
            (WriteOutcome::Unknown { .. }, _) => Ending::Unknown,
            (_, Some(e)) if e.status == "FAILED" => Ending::Refused,
            (start, _) => start.ending().graver(Ending::Done),
        }
    }

    /// A run that started nothing and turned nothing on is said as its error.
    fn failure(&self) -> Option<&Error> {
        if self.pitr.as_ref().is_some_and(WriteOutcome::applied) {
            return None;
        }
        self.pitr
            .as_ref()
            .and_then(WriteOutcome::failure)
            .or_else(|| self.start.failure())
    }
}
