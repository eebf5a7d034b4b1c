//! The one loop that puts a stream of batches into a table through the write gateway: an
//! import's lines and a clone's pages alike. A few batches in flight, bytes in flight bounded,
//! Cancel sends no new batch and waits for those in flight; how each batch ended is counted by
//! the caller ([`Batches`]), which also says when nothing more should be sent.

use std::collections::HashMap;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::Error;
use crate::table::TableInfo;
use crate::value::Item;
use crate::write::{self, Batch, Destination, WriteOutcome, WritePlan};

/// Bytes of items in flight beyond which no other batch is sent until one ends (one batch is
/// always let go): 4 batches of 400 KB items would be 40 MB, sent and held a few times over.
const MAX_BYTES_IN_FLIGHT: usize = 16 << 20;

/// What a reading side hands over to the loop.
pub(crate) enum Feed<T> {
    /// Up to 25 items, each checked, with what tells them apart (`T`) and their size.
    Batch(Vec<Item>, T, usize),
    /// Nothing more is read, and why (a file changed since it was checked).
    Stop(String),
}

/// How the batches' ends are counted: the caller's report.
pub(crate) trait Batches<T> {
    /// A batch that could not be planned (refused before anything was sent).
    fn unplanned(&mut self, tag: T, error: Error);
    /// A batch ended (`plan` is `None` when its task died); whether nothing more should be
    /// sent (an unknown outcome, a refusal that holds for every batch).
    fn ended(&mut self, tag: T, plan: Option<&WritePlan>, outcome: WriteOutcome) -> bool;
    /// No new batch will be sent, and why.
    fn stopping(&mut self, why: String);
    /// After a change: batches in flight, and whether no new batch will be sent.
    fn tell(&mut self, in_flight: usize, stopping: bool);
}

/// The words a cancelled run's report says.
pub(crate) const CANCELLED: &str =
    "cancelled: no batch was sent after that; those in flight were waited for";

/// Put the batches `rx` hands over into `info`'s table on `connection`: at most
/// `batches_at_once` in flight (at least 1) and 16 MB of items, each counted by `count` when it
/// ends. Ends when `rx` is closed and every batch has ended, or once stopping (a cancel, a
/// [`Feed::Stop`], or `count` said so) when those in flight have ended. `rx` is left open: the
/// reading side stops when it is dropped.
pub(crate) async fn send_batches<T>(
    connection: &Connection,
    info: &TableInfo,
    rx: &mut mpsc::Receiver<Feed<T>>,
    batches_at_once: usize,
    confirmed: bool,
    cancel: &CancelToken,
    count: &mut impl Batches<T>,
) {
    let destination = Destination::of(connection);
    let mut flying: JoinSet<(WritePlan, WriteOutcome)> = JoinSet::new();
    // Each batch in flight: its tag and its bytes.
    let mut in_flight: HashMap<tokio::task::Id, (T, usize)> = HashMap::new();
    let mut bytes_in_flight = 0;
    let (mut feeding, mut stopping) = (true, false);
    loop {
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
                    stopping = true;
                    count.stopping(CANCELLED.to_owned());
                    count.tell(flying.len(), stopping);
                }
                next = rx.recv() => match next {
                    Some(Feed::Batch(items, tag, bytes)) => {
                        let batch = Batch::put(&info.name, items);
                        match WritePlan::batch(destination.clone(), batch, info.key_names()) {
                            Ok(plan) => {
                                let connection = connection.clone();
                                let handle = flying.spawn(async move {
                                    let outcome = write::send(&connection, &plan, confirmed).await;
                                    (plan, outcome)
                                });
                                in_flight.insert(handle.id(), (tag, bytes));
                                bytes_in_flight += bytes;
                            }
                            Err(error) => count.unplanned(tag, error),
                        }
                    }
                    Some(Feed::Stop(why)) => {
                        count.stopping(why);
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
                stopping = true;
                count.stopping(CANCELLED.to_owned());
                count.tell(flying.len(), stopping);
            }
            ended = flying.join_next_with_id() => {
                let (id, plan, outcome) = match ended {
                    Some(Ok((id, (plan, outcome)))) => (id, Some(plan), outcome),
                    Some(Err(e)) => (e.id(), None, WriteOutcome::lost(Error::TaskDied { op: "BatchWriteItem", detail: e.to_string() })),
                    None => continue,
                };
                let Some((tag, bytes)) = in_flight.remove(&id) else {
                    continue;
                };
                bytes_in_flight -= bytes;
                stopping |= count.ended(tag, plan.as_ref(), outcome);
                count.tell(flying.len(), stopping);
            }
        }
    }
}
