//! A parallel scan: the table's segments read at once (at most
//! [`MAX_AT_ONCE`](crate::limits::MAX_AT_ONCE) in flight), each
//! segment's pages handed over as they arrive, so memory holds the pages in flight, not the
//! table. What is left of each unfinished segment is kept, so a stopped scan can go on.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::Client;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::limits::AtOnce;
use crate::read::events::ReadEvent;
use crate::read::pages::{Stopped, Until, page_limit};
use crate::read::retry::{Backoff, fetch_retrying};
use crate::read::{BrowseMode, BrowseRequest};
use crate::value::Item;

use crate::limits::MAX_SEGMENTS;

/// Where one segment's read starts.
#[derive(Debug, Clone, PartialEq)]
pub enum SegmentStart {
    /// From the segment's beginning.
    Beginning,
    /// After this key (the last key of the last page read).
    After(Item),
    /// Read to its end already: nothing to do.
    Done,
}

/// Where each segment of a parallel scan starts; the index is the segment, the length the
/// `TotalSegments`.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentStarts(Vec<SegmentStart>);

impl SegmentStarts {
    /// Every one of `total` segments from its beginning.
    pub fn all(total: usize) -> Result<Self> {
        check_total(total)?;
        Ok(Self(vec![SegmentStart::Beginning; total]))
    }

    /// Going on with a scan of `total` segments: the segments listed, each after its key (from
    /// its beginning when `None`); every other segment is done.
    pub fn resume(total: usize, left: Vec<(usize, Option<Item>)>) -> Result<Self> {
        check_total(total)?;
        let mut starts = vec![SegmentStart::Done; total];
        for (segment, key) in left {
            let slot = starts.get_mut(segment).ok_or_else(|| {
                Error::Invalid(format!(
                    "segment {segment} does not exist in a scan of {total} segments (0 to {})",
                    total - 1
                ))
            })?;
            if *slot != SegmentStart::Done {
                return Err(Error::Invalid(format!("segment {segment} is given twice")));
            }
            *slot = key.map_or(SegmentStart::Beginning, SegmentStart::After);
        }
        Ok(Self(starts))
    }

    /// `TotalSegments`.
    pub fn total(&self) -> usize {
        self.0.len()
    }

    /// Where `segment` starts.
    pub fn get(&self, segment: usize) -> Option<&SegmentStart> {
        self.0.get(segment)
    }

    /// The segments not done, with the key each goes on after (`None`: from its beginning).
    pub fn unfinished(&self) -> impl Iterator<Item = (usize, Option<&Item>)> {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(segment, start)| match start {
                SegmentStart::Beginning => Some((segment, None)),
                SegmentStart::After(key) => Some((segment, Some(key))),
                SegmentStart::Done => None,
            })
    }

    /// Whether every segment is done.
    pub fn finished(&self) -> bool {
        self.0.iter().all(|s| *s == SegmentStart::Done)
    }

    /// Keep up with a scan: after a page, its segment goes on after the page's last key (or is
    /// done); after `Done`, it is done.
    pub fn note(&mut self, event: &SegmentEvent) {
        let (segment, start) = match event {
            SegmentEvent::Read {
                segment,
                event: ReadEvent::Page(page),
            } => (
                *segment,
                page.last_key
                    .clone()
                    .map_or(SegmentStart::Done, SegmentStart::After),
            ),
            SegmentEvent::Done { segment } => (*segment, SegmentStart::Done),
            SegmentEvent::Read { .. } => return,
        };
        if let Some(slot) = self.0.get_mut(segment) {
            *slot = start;
        }
    }
}

fn check_total(total: usize) -> Result<()> {
    if (1..=MAX_SEGMENTS).contains(&total) {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "segments must be between 1 and {MAX_SEGMENTS}, not {total}"
        )))
    }
}

/// One thing that happened in one segment of a parallel scan.
#[derive(Debug, Clone, PartialEq)]
pub enum SegmentEvent {
    /// A page of `segment` arrived, or `segment` waits before a re-send.
    Read {
        /// The segment.
        segment: usize,
        /// What happened.
        event: ReadEvent,
    },
    /// `segment` read its last page (handed over before this).
    Done {
        /// The segment.
        segment: usize,
    },
}

impl SegmentEvent {
    /// A progress line for a wait (`segment 3: throttled, waiting 800 ms before attempt 3`).
    pub fn note(&self) -> Option<String> {
        match self {
            Self::Read { segment, event } => {
                event.note().map(|n| format!("segment {segment}: {n}"))
            }
            Self::Done { .. } => None,
        }
    }
}

/// How a parallel scan ended, and what is left of it.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentsStopped {
    /// [`Stopped::LastPage`] when every segment was read to its end, [`Stopped::Reached`] when
    /// `until` was reached, [`Stopped::Cancelled`], or the first error (the other segments are
    /// stopped then). The pages handed over before are kept in every case.
    pub result: Result<Stopped>,
    /// Where each segment would go on from, after the last page handed over: resume with it.
    pub left: SegmentStarts,
}

/// Scan `request` in `starts.total()` segments, each from its start, at most
/// [`AtOnce`] (64) segments in flight, handing each page to `on_event` as it arrives (pages of
/// one segment in order; segments interleaved), with the same retry policy as the one reader.
///
/// `until` counts for the whole scan: [`Until::Items`] stops every segment once that many
/// items matched in all (pages in flight may bring a few more; each request's `Limit` is what
/// is still wanted), [`Until::OnePage`] reads one page of each segment.
pub async fn scan_segments(
    reader: &Reader,
    request: &BrowseRequest,
    starts: SegmentStarts,
    until: Until,
    backoff: &Backoff,
    cancel: &CancelToken,
    mut on_event: impl FnMut(SegmentEvent),
) -> SegmentsStopped {
    let client = reader.sdk();
    scan_with(client, request, until, backoff, cancel, starts, |event| {
        on_event(event);
        std::future::ready(())
    })
    .await
}

/// [`scan_segments`] of every page to its end, each event sent into `events` as it arrives:
/// a full channel holds the scan up (the segments wait, as they do for a slow `on_event`), so
/// memory holds the pages in flight however slowly they are taken. A closed channel stops the
/// scan, as a cancel does.
pub(crate) async fn scan_segments_into(
    client: &Client,
    request: &BrowseRequest,
    starts: SegmentStarts,
    backoff: &Backoff,
    cancel: &CancelToken,
    events: mpsc::Sender<SegmentEvent>,
) -> SegmentsStopped {
    // Stopped by `cancel`, or by nobody taking the pages.
    let stop = CancelToken::default();
    let follow = {
        let (cancel, stop) = (cancel.clone(), stop.clone());
        tokio::spawn(async move {
            cancel.cancelled().await;
            stop.cancel();
        })
    };
    let until = Until::LastPage;
    let stopped = scan_with(client, request, until, backoff, &stop, starts, |event| {
        let (events, stop) = (events.clone(), stop.clone());
        async move {
            if events.send(event).await.is_err() {
                stop.cancel();
            }
        }
    })
    .await;
    follow.abort();
    stopped
}

/// The scan itself, each event handed to `on_event` and waited for.
async fn scan_with<F: std::future::Future<Output = ()>>(
    client: &Client,
    request: &BrowseRequest,
    until: Until,
    backoff: &Backoff,
    cancel: &CancelToken,
    starts: SegmentStarts,
    mut on_event: impl FnMut(SegmentEvent) -> F,
) -> SegmentsStopped {
    let mut left = starts;
    if !matches!(request.mode, BrowseMode::Scan { .. }) {
        let error = Error::Invalid("a Query cannot be read in segments; Scan instead".into());
        return SegmentsStopped {
            result: Err(error),
            left,
        };
    }
    let at_once = AtOnce::new(left.total(), "segments").map_or(1, |a| a.at_once);
    let mut queue: VecDeque<(usize, Option<Item>)> = left
        .unfinished()
        .map(|(segment, key)| (segment, key.cloned()))
        .collect();
    // Pages wait in a bounded channel (a segment waits while it is full); notes of waits are
    // few and small, so they never hold a segment up.
    let (pages_tx, mut pages) = mpsc::channel(at_once);
    #[expect(clippy::disallowed_methods, reason = "notes are few: one per wait")]
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let shared = Arc::new(Shared {
        client: client.clone(),
        request: request.clone(),
        total: left.total(),
        until,
        backoff: *backoff,
        cancel: cancel.clone(),
        matched: AtomicUsize::new(0),
    });
    let mut running = JoinSet::new();
    let mut outcome: Result<Stopped> = Ok(Stopped::LastPage);
    loop {
        while running.len() < at_once
            && outcome.is_ok()
            && !shared.enough()
            && !cancel.is_cancelled()
        {
            let Some((segment, start)) = queue.pop_front() else {
                break;
            };
            let (pages, notes) = (pages_tx.clone(), notes_tx.clone());
            let read = read_segment(Arc::clone(&shared), segment, start, pages, notes);
            running.spawn(read);
        }
        tokio::select! {
            biased;
            Some(event) = notes.recv() => on_event(event).await,
            Some(event) = pages.recv() => {
                left.note(&event);
                on_event(event).await;
            }
            joined = running.join_next() => match joined {
                None => break,
                Some(Ok(Ok(Stopped::Cancelled))) => outcome = outcome.and(Ok(Stopped::Cancelled)),
                Some(Ok(Ok(_))) => {}
                Some(Ok(Err(error))) => {
                    outcome = outcome.and(Err(error));
                    running.abort_all();
                }
                Some(Err(died)) if died.is_cancelled() => {}
                Some(Err(died)) => {
                    let detail = died.to_string();
                    outcome = outcome.and(Err(Error::TaskDied { op: "Scan", detail }));
                    running.abort_all();
                }
            },
        }
    }
    // Every segment has stopped: what they handed over before is still to be delivered.
    drop((pages_tx, notes_tx));
    while let Some(event) = pages.recv().await {
        left.note(&event);
        on_event(event).await;
    }
    while let Ok(event) = notes.try_recv() {
        on_event(event).await;
    }
    let result = match outcome {
        Ok(Stopped::LastPage) if !left.finished() => Ok(Stopped::Reached),
        other => other,
    };
    SegmentsStopped { result, left }
}

/// What every segment of one scan shares.
struct Shared {
    client: Client,
    request: BrowseRequest,
    total: usize,
    until: Until,
    backoff: Backoff,
    cancel: CancelToken,
    /// Items matched in all segments so far.
    matched: AtomicUsize,
}

impl Shared {
    /// Whether [`Until::Items`] is reached for the whole scan.
    fn enough(&self) -> bool {
        matches!(self.until, Until::Items(wanted) if self.matched.load(Ordering::SeqCst) >= wanted)
    }
}

/// Read one segment from `start`, sending its pages (then `Done`) and its waits.
async fn read_segment(
    shared: Arc<Shared>,
    segment: usize,
    mut start: Option<Item>,
    pages: mpsc::Sender<SegmentEvent>,
    notes: mpsc::UnboundedSender<SegmentEvent>,
) -> Result<Stopped> {
    let mut request = shared.request.clone();
    let to_i32 = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    request.mode = BrowseMode::Scan {
        segment: Some((to_i32(segment), to_i32(shared.total))),
    };
    let mut scanned = 0usize;
    loop {
        if shared.cancel.is_cancelled() {
            return Ok(Stopped::Cancelled);
        }
        if shared.enough() {
            return Ok(Stopped::Reached);
        }
        let matched = shared.matched.load(Ordering::SeqCst);
        let limit = page_limit(request.page_size, shared.until, matched, scanned);
        let note = |event| {
            // The receiver is gone only when the scan is over.
            let _ = notes.send(SegmentEvent::Read { segment, event });
        };
        let fetched = fetch_retrying(
            &shared.client,
            &request,
            start.as_ref(),
            limit,
            &shared.backoff,
            &shared.cancel,
            note,
        );
        let Some(page) = fetched.await? else {
            return Ok(Stopped::Cancelled);
        };
        let count = usize::try_from(page.count).unwrap_or_default();
        shared.matched.fetch_add(count, Ordering::SeqCst);
        scanned += usize::try_from(page.scanned_count).unwrap_or_default();
        start = page.last_key.clone();
        let event = ReadEvent::Page(page);
        if pages
            .send(SegmentEvent::Read { segment, event })
            .await
            .is_err()
        {
            return Ok(Stopped::Cancelled);
        }
        if start.is_none() {
            let _ = pages.send(SegmentEvent::Done { segment }).await;
            return Ok(Stopped::LastPage);
        }
        if shared.until == Until::OnePage {
            return Ok(Stopped::Reached);
        }
    }
}
