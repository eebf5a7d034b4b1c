//! The write pass of an import: the files read again on a blocking thread, each item checked
//! again and put in batches of 25, a few batches in flight through the write gateway.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::Error;
use crate::import::batches::{Batches, send_batches};
use crate::import::feed::{Places, check_rejected_free, feed};
use crate::import::{ImportCheck, ImportProgress, ImportReport, refusal_text};
use crate::report::sent_unknown;
use crate::table::TableInfo;
use crate::value::Item;
use crate::value::same_item;
use crate::write::{Refusal, WriteOutcome, WritePlan, WriteRequest};

/// Batches in flight at once unless told otherwise. More than one keeps the connection busy
/// while an answer travels; after an unknown outcome none is sent, and those in flight are
/// waited for.
pub const BATCHES_AT_ONCE: usize = 4;

/// Put the items `checked` found into `info`'s table on `connection`, reading the files again:
/// batches of 25, at most `batches_at_once` in flight (at least 1), telling `progress` after
/// each.
/// `confirmed`: the user said yes to [`confirmation`](super::confirmation)'s question.
/// Cancelling sends no new batch and waits for those in flight; an unknown outcome does the
/// same (its items are reported unknown, the rest not sent); so does a file that changed since
/// it was checked (said in [`ImportReport::stopped`]).
pub async fn import(
    connection: &Connection,
    info: &TableInfo,
    checked: &ImportCheck,
    batches_at_once: usize,
    confirmed: bool,
    cancel: &CancelToken,
    progress: impl Fn(ImportProgress),
) -> ImportReport {
    let started = Instant::now();
    if let Err(refused) = check_rejected_free(checked) {
        return ImportReport {
            read: checked.items,
            skipped: checked.invalid.total,
            not_sent: checked.items,
            stopped: Some(refused.to_string()),
            ..ImportReport::default()
        };
    }
    let mut counted = Counted {
        report: ImportReport {
            read: checked.items,
            skipped: checked.invalid.total,
            ..ImportReport::default()
        },
        started,
        progress,
    };
    let (tx, mut rx) = mpsc::channel(1);
    let reader = {
        let (checked, info, cancel) = (checked.clone(), info.clone(), cancel.clone());
        tokio::task::spawn_blocking(move || feed(&checked, &info, &tx, &cancel))
    };
    send_batches(
        connection,
        info,
        &mut rx,
        batches_at_once,
        confirmed,
        cancel,
        &mut counted,
    )
    .await;
    let mut report = counted.report;
    // The reader stops at its next batch once nobody takes them.
    drop(rx);
    match reader.await {
        Ok(rejected) => report.rejected_file = rejected,
        Err(e) => {
            report.stopped = Some(format!("reading the files again stopped unexpectedly: {e}"));
        }
    }
    let sent = report.written + report.refused_count() + report.unknown_count();
    report.not_sent = report.read.saturating_sub(sent);
    report.elapsed = started.elapsed();
    report
}

/// An import's report as its batches end, and its progress told.
struct Counted<F> {
    report: ImportReport,
    started: Instant,
    progress: F,
}

impl<F: Fn(ImportProgress)> Batches<Places> for Counted<F> {
    fn unplanned(&mut self, places: Places, error: Error) {
        self.report
            .not_written(false, &places, error.to_string(), true);
    }

    fn ended(&mut self, places: Places, plan: Option<&WritePlan>, outcome: WriteOutcome) -> bool {
        count(&mut self.report, plan, &places, outcome)
    }

    fn stopping(&mut self, why: String) {
        self.report.stopped = Some(why);
    }

    fn tell(&mut self, in_flight: usize, stopping: bool) {
        let report = &mut self.report;
        report.elapsed = self.started.elapsed();
        (self.progress)(ImportProgress {
            done: report.written + report.refused_count() + report.unknown_count(),
            total: report.read,
            written: report.written,
            wcu: report.wcu,
            elapsed: report.elapsed,
            in_flight,
            stopping,
        });
    }
}

/// Count how one batch ended into `report`; whether nothing more should be sent (an unknown
/// outcome, or a refusal before sending, which holds for every batch). The batch's items came
/// from `places`, one each, in order.
pub(crate) fn count(
    report: &mut ImportReport,
    plan: Option<&WritePlan>,
    places: &[(Arc<Path>, usize)],
    outcome: WriteOutcome,
) -> bool {
    report.requests += outcome.attempts();
    let items: &[Item] = match plan.map(|p| &p.request) {
        Some(WriteRequest::Batch(batch)) => &batch.items,
        _ => &[],
    };
    match outcome {
        WriteOutcome::Applied {
            consumed_wcu,
            unwritten,
            attempts,
            ..
        } => {
            report.wcu += consumed_wcu;
            report.written += places.len();
            if let Some(unwritten) = unwritten {
                // Told apart by value, sets as sets: the server may give a set's elements in
                // another order than they were sent.
                let left: Vec<(Arc<Path>, usize)> = items
                    .iter()
                    .zip(places)
                    .filter(|(item, _)| unwritten.items.iter().any(|u| same_item(u, item)))
                    .map(|(_, place)| place.clone())
                    .collect();
                report.written -= left.len();
                let bad_input = unwritten.refusal.as_ref().is_some_and(is_validation);
                let reason = match unwritten.refusal {
                    None => format!(
                        "left unprocessed by the server after {attempts} tries (not written)"
                    ),
                    Some(refusal) => format!(
                        "left unprocessed by the server, then {} (not written)",
                        refusal_text(refusal)
                    ),
                };
                report.not_written(false, &left, reason, bad_input);
            }
            false
        }
        WriteOutcome::Refused { refusal, attempts } => {
            let bad_input = attempts == 0 || is_validation(&refusal);
            report.not_written(false, places, refusal_text(refusal), bad_input);
            attempts == 0
        }
        WriteOutcome::Unknown {
            error,
            stored_now,
            attempts,
        } => {
            // The gateway read every item again; say how many are stored as imported.
            let as_put = stored_now
                .iter()
                .zip(items)
                .filter(|(now, item)| matches!(now, Ok(Some(stored)) if same_item(stored, item)))
                .count();
            let reason = format!(
                "{error}; {}. Read again: {as_put} of {} stored as imported now",
                sent_unknown(attempts),
                places.len()
            );
            report.not_written(true, places, reason, false);
            true
        }
    }
}

/// The server's `ValidationException`: the input, not the table's state, was refused.
fn is_validation(refusal: &Refusal) -> bool {
    matches!(refusal, Refusal::Error(e) if e.code() == Some("ValidationException"))
}
