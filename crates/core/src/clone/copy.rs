//! A clone's items: the source read by the one reader (a parallel scan, or a Query of one
//! partition) into a bounded channel, each page checked against the destination and cut into
//! batches of 25, the batches put by the import's loop through the write gateway. Memory holds
//! the pages and batches on their way, never the table; each segment's place is kept by
//! [`Track`](super::track::Track), so a stopped clone goes on where its writes stopped.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use tokio::sync::mpsc;

use crate::cancel::CancelToken;
use crate::clone::Part;
use crate::clone::track::Track;
use crate::connection::{Reader, TableOn};
use crate::error::{Error, Result};
use crate::import::{Batches, Feed, ImportReport, Places, count, send_batches};
use crate::read::{
    Backoff, BrowseRequest, ReadEvent, SegmentEvent, SegmentStarts, Until, read_events,
    scan_segments_into,
};
use crate::table::TableInfo;
use crate::validate;
use crate::value::Item;
use crate::write::{Batch, WriteOutcome, WritePlan};

pub use super::report::{CopyProgress, CopyReport};

/// Items asked for in each page read (`Limit`): a stopped clone goes on from a page's end, so
/// smaller pages re-send less; DynamoDB still ends a page at 1 MB.
pub const PAGE_ITEMS: i32 = 1000;

/// What tells a batch apart: its segment, its page, its items' places.
struct Tag {
    segment: usize,
    page: u64,
    places: Places,
}

/// What the reading side and the writing side share.
struct Shared {
    track: Track,
    report: ImportReport,
    /// Items read so far in each segment (their places), and each segment's name.
    read_in: Vec<usize>,
    names: Vec<Arc<Path>>,
    pages: usize,
    rcu: f64,
    /// Waits of the reader not yet told.
    notes: Vec<String>,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Part {
    /// Where each segment starts: a partition is one segment.
    fn starts(&self) -> Result<SegmentStarts> {
        match self {
            Self::Table(starts) => Ok(starts.clone()),
            Self::Partition { after, .. } => SegmentStarts::resume(1, vec![(0, after.clone())]),
        }
    }
}

/// Copy `part` of the table at `source` into the table at `target`: read in the background, cut into
/// batches, put at most `batches_at_once` at a time (`confirmed`: `--yes`), telling `progress`
/// after each batch. Cancelling sends no new batch and waits for those in flight; so does an
/// unknown outcome, a batch not written whole, or an item the destination cannot take. The
/// report says where each segment goes on from. An error only when `part` cannot be read.
pub async fn copy(
    source: TableOn<'_>,
    target: TableOn<'_>,
    part: Part,
    batches_at_once: usize,
    confirmed: bool,
    cancel: &CancelToken,
    progress: impl FnMut(CopyProgress),
) -> Result<CopyReport> {
    let started = Instant::now();
    let (from, to) = (source.info, target.info);
    let partition = matches!(part, Part::Partition { .. });
    let starts = part.starts()?;
    let total = starts.total();
    let shared = Arc::new(Mutex::new(Shared {
        track: Track::new(&starts),
        report: ImportReport::default(),
        read_in: vec![0; total],
        names: (0..total)
            .map(|s| Path::new(&format!("segment {s}")).into())
            .collect(),
        pages: 0,
        rcu: 0.0,
        notes: Vec::new(),
    }));
    let (pages_tx, pages_rx) = mpsc::channel(1);
    let reader = {
        let (client, from, cancel) = (
            source.connection.client.clone(),
            from.clone(),
            cancel.clone(),
        );
        tokio::spawn(async move { read(&client, &from, part, starts, &cancel, pages_tx).await })
    };
    let (feed_tx, mut feed_rx) = mpsc::channel(1);
    let cutter = tokio::spawn(cut(pages_rx, feed_tx, Arc::clone(&shared), to.clone()));
    let mut counted = Counted {
        shared: Arc::clone(&shared),
        started,
        progress,
    };
    send_batches(
        target.connection,
        to,
        &mut feed_rx,
        batches_at_once,
        confirmed,
        cancel,
        &mut counted,
    )
    .await;
    // Nobody takes batches now: the cutter stops, then the reader.
    drop(feed_rx);
    let cut_died = cutter.await.err();
    let read_error = match reader.await {
        Ok(result) => result.err(),
        Err(died) => Some(Error::TaskDied {
            op: "Scan",
            detail: died.to_string(),
        }),
    };
    let mut s = lock(&shared);
    let mut items = std::mem::take(&mut s.report);
    if let Some(died) = cut_died {
        items.stopped = Some(format!(
            "cutting pages into batches stopped unexpectedly: {died}"
        ));
    }
    let sent = items.written + items.refused_count() + items.unknown_count();
    items.not_sent = items.read.saturating_sub(sent);
    items.elapsed = started.elapsed();
    Ok(CopyReport {
        items,
        pages: s.pages,
        rcu: s.rcu,
        read_error,
        left: s.track.left().clone(),
        partition,
        key_names: from.key_names(),
    })
}

/// Read `part` of `from` from `starts`, each page (and each wait) sent into `pages` as it
/// arrives; a full channel holds the reading up, a closed one stops it.
async fn read(
    client: &Client,
    from: &TableInfo,
    part: Part,
    starts: SegmentStarts,
    cancel: &CancelToken,
    pages: mpsc::Sender<SegmentEvent>,
) -> Result<()> {
    let backoff = Backoff::default();
    let (value, after) = match part {
        Part::Table(_) => {
            let mut request = BrowseRequest::scan(from, None)?;
            request.page_size = Some(PAGE_ITEMS);
            let stopped = scan_segments_into(client, &request, starts, &backoff, cancel, pages);
            return stopped.await.result.map(|_| ());
        }
        Part::Partition { value, after } => (value, after),
    };
    let mut request = BrowseRequest::query(from, None, value, None, true)?;
    request.page_size = Some(PAGE_ITEMS);
    let mut start = after;
    loop {
        let mut events = Vec::new();
        read_events(
            &Reader::of(client),
            &request,
            start.take(),
            Until::OnePage,
            &backoff,
            cancel,
            |e| events.push(e),
        )
        .await?;
        let mut next = None;
        let mut got = false;
        for event in events {
            if let ReadEvent::Page(page) = &event {
                next.clone_from(&page.last_key);
                got = true;
            }
            let event = SegmentEvent::Read { segment: 0, event };
            if pages.send(event).await.is_err() {
                return Ok(());
            }
        }
        match next {
            Some(key) if got => start = Some(key),
            // The last page, or cancelled before a page came.
            _ => return Ok(()),
        }
    }
}

/// Take pages from `pages`, check each item against the destination `to`, and hand the items
/// over in batches of 25; an item `to` cannot take is counted refused and stops the clone after
/// its page.
async fn cut(
    mut pages: mpsc::Receiver<SegmentEvent>,
    feed: mpsc::Sender<Feed<Tag>>,
    shared: Arc<Mutex<Shared>>,
    to: TableInfo,
) {
    loop {
        // Once nobody takes batches, no page more is taken (nor counted as read).
        let event = tokio::select! {
            event = pages.recv() => event,
            () = feed.closed() => return,
        };
        let Some(event) = event else { return };
        let (segment, page) = match event {
            SegmentEvent::Read {
                segment,
                event: ReadEvent::Page(page),
            } => (segment, page),
            SegmentEvent::Read { segment, event } => {
                if let Some(note) = event.note() {
                    lock(&shared)
                        .notes
                        .push(format!("segment {segment}: {note}"));
                }
                continue;
            }
            SegmentEvent::Done { .. } => continue,
        };
        let checked: Vec<(Item, Result<()>)> = page
            .items
            .into_iter()
            .map(|item| {
                let check = validate::check_item(&item, &to);
                (item, check)
            })
            .collect();
        let mut refused = None;
        let (rcu, last_key) = (page.consumed_rcu, page.last_key);
        let Some((number, places, items)) =
            take_page(&shared, segment, checked, rcu, last_key, &mut refused)
        else {
            continue;
        };
        let mut places = places.into_iter();
        let mut items = items.into_iter();
        loop {
            let batch: Vec<Item> = items.by_ref().take(Batch::MAX).collect();
            if batch.is_empty() {
                break;
            }
            let places: Places = places.by_ref().take(batch.len()).collect();
            let bytes = batch.iter().map(validate::item_size).sum();
            let tag = Tag {
                segment,
                page: number,
                places,
            };
            if feed.send(Feed::Batch(batch, tag, bytes)).await.is_err() {
                return;
            }
        }
        if let Some(reason) = refused {
            let why = format!("{reason}; nothing more was read or sent");
            let _ = feed.send(Feed::Stop(why)).await;
            return;
        }
    }
}

/// Count a page read from `segment` (`rcu` its read capacity, `last_key` where it ended) in
/// `shared` and place each checked item (its segment's name, its line there): the number the page is tracked by, and the places and items the
/// destination can take. An item it cannot take is counted refused, the reason kept in
/// `refused`. `None` for a segment without a name.
fn take_page(
    shared: &Mutex<Shared>,
    segment: usize,
    checked: Vec<(Item, Result<()>)>,
    rcu: f64,
    last_key: Option<Item>,
    refused: &mut Option<String>,
) -> Option<(u64, Places, Vec<Item>)> {
    let good = checked.iter().filter(|(_, c)| c.is_ok()).count();
    let mut s = lock(shared);
    s.pages += 1;
    s.rcu += rcu;
    s.report.read += checked.len();
    let name = s.names.get(segment).cloned()?;
    let first = s.read_in.get(segment).copied().unwrap_or_default();
    if let Some(n) = s.read_in.get_mut(segment) {
        *n += checked.len();
    }
    let (mut places, mut items): (Places, Vec<Item>) = (Vec::new(), Vec::new());
    for (i, (item, check)) in checked.into_iter().enumerate() {
        let place = (Arc::clone(&name), first + i + 1);
        match check {
            Ok(()) => {
                places.push(place);
                items.push(item);
            }
            Err(error) => {
                let reason = format!("the destination cannot take it: {}", error.reason());
                s.report.not_written(false, &[place], reason.clone(), true);
                refused.get_or_insert(reason);
            }
        }
    }
    let batches = good.div_ceil(Batch::MAX);
    let number = s.track.page(segment, batches, last_key, refused.is_some());
    Some((number, places, items))
}

/// The writing side's count of how each batch ended, and its progress told.
struct Counted<F> {
    shared: Arc<Mutex<Shared>>,
    started: Instant,
    progress: F,
}

impl<F: FnMut(CopyProgress)> Batches<Tag> for Counted<F> {
    fn unplanned(&mut self, tag: Tag, error: Error) {
        let mut s = lock(&self.shared);
        s.report
            .not_written(false, &tag.places, error.to_string(), true);
        s.track.ended(tag.segment, tag.page, false);
    }

    fn ended(&mut self, tag: Tag, plan: Option<&WritePlan>, outcome: WriteOutcome) -> bool {
        let whole = matches!(
            outcome,
            WriteOutcome::Applied {
                unwritten: None,
                ..
            }
        );
        let mut s = lock(&self.shared);
        let stop = count(&mut s.report, plan, &tag.places, outcome);
        s.track.ended(tag.segment, tag.page, whole);
        if !whole && s.report.stopped.is_none() {
            s.report.stopped = Some(
                "a batch was not written whole: nothing more was sent after it, so that the \
                 clone goes on from before it"
                    .to_owned(),
            );
        }
        stop || !whole
    }

    fn stopping(&mut self, why: String) {
        let mut s = lock(&self.shared);
        if s.report.stopped.is_none() {
            s.report.stopped = Some(why);
        }
    }

    fn tell(&mut self, in_flight: usize, stopping: bool) {
        let (notes, now) = {
            let mut s = lock(&self.shared);
            let now = CopyProgress {
                read: s.report.read,
                written: s.report.written,
                wcu: s.report.wcu,
                rcu: s.rcu,
                elapsed: self.started.elapsed(),
                in_flight,
                stopping,
                note: None,
            };
            (std::mem::take(&mut s.notes), now)
        };
        for note in notes {
            (self.progress)(CopyProgress {
                note: Some(note),
                ..now.clone()
            });
        }
        (self.progress)(now);
    }
}
