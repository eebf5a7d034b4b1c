//! The write pass of an import: the files read again on a blocking thread, each item checked
//! again and put in batches of 25, a few batches in flight through the write gateway.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::Error;
use crate::core::items::same_item;
use crate::core::table::TableInfo;
use crate::core::transfer::import::feed::{Feed, Places, feed};
use crate::core::transfer::import::{ImportCheck, ImportProgress, ImportReport, refusal_text};
use crate::core::value::Item;
use crate::core::write::{
    self, Batch, Destination, Refusal, WriteOutcome, WritePlan, WriteRequest,
};

/// Batches in flight at once unless told otherwise. More than one keeps the connection busy
/// while an answer travels; after an unknown outcome none is sent, and those in flight are
/// waited for.
pub const BATCHES_AT_ONCE: usize = 4;

/// Bytes of items in flight beyond which no other batch is sent until one ends (one batch is
/// always let go): 4 batches of 400 KB items would be 40 MB, sent and held a few times over.
const MAX_BYTES_IN_FLIGHT: usize = 16 << 20;

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
    let destination = Destination::of(connection);
    let mut report = ImportReport {
        read: checked.items,
        skipped: checked.invalid.total,
        ..ImportReport::default()
    };
    let (tx, mut rx) = mpsc::channel(1);
    let reader = {
        let (checked, info, cancel) = (checked.clone(), info.clone(), cancel.clone());
        tokio::task::spawn_blocking(move || feed(&checked, &info, &tx, &cancel))
    };
    let mut flying: JoinSet<(WritePlan, WriteOutcome)> = JoinSet::new();
    // Each batch in flight: its places and its bytes.
    let mut in_flight: HashMap<tokio::task::Id, (Places, usize)> = HashMap::new();
    let mut bytes_in_flight = 0;
    let (mut feeding, mut stopping) = (true, false);
    loop {
        report.elapsed = started.elapsed();
        let room = feeding
            && !stopping
            && (flying.is_empty()
                || (flying.len() < batches_at_once.max(1)
                    && bytes_in_flight < MAX_BYTES_IN_FLIGHT));
        if !room && flying.is_empty() {
            break;
        }
        // The window is filled before an answer is looked at, so which batches are in flight
        // does not depend on how fast answers come: a run sends the same requests every time.
        if room {
            tokio::select! {
                biased;
                () = cancel.cancelled(), if !stopping => {
                    stopping = cancelled(&mut report);
                    tell(&progress, &report, flying.len(), stopping);
                }
                next = rx.recv() => match next {
                    Some(Feed::Batch(items, places, bytes)) => {
                        let batch = Batch::put(&info.name, items);
                        match WritePlan::batch(destination.clone(), batch, info.key_names()) {
                            Ok(plan) => {
                                let connection = connection.clone();
                                let handle = flying.spawn(async move {
                                    let outcome = write::send(&connection, &plan, confirmed).await;
                                    (plan, outcome)
                                });
                                in_flight.insert(handle.id(), (places, bytes));
                                bytes_in_flight += bytes;
                            }
                            Err(error) => report.not_written(false, &places, error.to_string(), true),
                        }
                    }
                    Some(Feed::Stop(why)) => {
                        report.stopped = Some(why);
                        stopping = true;
                    }
                    None => feeding = false,
                },
            }
            continue;
        }
        tokio::select! {
            biased;
            () = cancel.cancelled(), if !stopping => {
                    stopping = cancelled(&mut report);
                    tell(&progress, &report, flying.len(), stopping);
                }
            ended = flying.join_next_with_id() => {
                let (id, plan, outcome) = match ended {
                    Some(Ok((id, (plan, outcome)))) => (id, Some(plan), outcome),
                    Some(Err(e)) => (e.id(), None, WriteOutcome::lost(Error::TaskDied { op: "BatchWriteItem", detail: e.to_string() })),
                    None => continue,
                };
                let (places, bytes) = in_flight.remove(&id).unwrap_or_default();
                bytes_in_flight -= bytes;
                stopping |= count(&mut report, plan.as_ref(), &places, outcome);
                tell(&progress, &report, flying.len(), stopping);
            }
        }
    }
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

/// Tell `progress` how far `report` is, with `in_flight` batches sent and awaited.
fn tell(
    progress: &impl Fn(ImportProgress),
    report: &ImportReport,
    in_flight: usize,
    stopping: bool,
) {
    progress(ImportProgress {
        done: report.written + report.refused_count() + report.unknown_count(),
        total: report.read,
        written: report.written,
        wcu: report.wcu,
        elapsed: report.elapsed,
        in_flight,
        stopping,
    });
}

/// Say in `report` that the import was cancelled; nothing more is sent.
fn cancelled(report: &mut ImportReport) -> bool {
    report.stopped =
        Some("cancelled: no batch was sent after that; those in flight were waited for".into());
    true
}

/// Count how one batch ended into `report`; whether nothing more should be sent (an unknown
/// outcome, or a refusal before sending, which holds for every batch).
fn count(
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
            error, stored_now, ..
        } => {
            // The gateway read every item again; say how many are stored as imported.
            let as_put = stored_now
                .iter()
                .zip(items)
                .filter(|(now, item)| matches!(now, Ok(Some(stored)) if same_item(stored, item)))
                .count();
            let reason = format!(
                "{error}; not sent again. Read again: {as_put} of {} stored as imported now",
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
