//! Two tables compared by key — on one connection or two, under one name or two — as DynamoDB
//! compares values (numbers as numbers, sets as sets, maps and lists in depth): the items only
//! on one side, and those that differ, attribute by attribute. Each side is read once, through
//! the one reader (its retries and Cancel), both sides at once; an item waits, as its key's
//! hash, its digest and its packed key (a 40-byte slot, about twice that with the table's spare
//! room, and the key's bytes, whatever the item's size), only until
//! the other side's item of that key arrives, and the items that differ are read again by key
//! to say how.

mod canon;
mod exported;
mod over_time;
mod packed;
mod pairing;
mod report;
mod snapshot;
mod tallies;

pub use canon::AttrChange;
pub use exported::Source;
pub use over_time::{Moved, SnapshotDiff, compare_snapshots};
pub use report::{MAX_LISTED, TableDiff};
pub use snapshot::{SnapParent, TallySnapshot};
pub use tallies::{TallyDiff, TallyPair, compare_tallies};

use std::sync::{Mutex, PoisonError};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::read::{
    self, BrowseRequest, Page, ReadEvent, SegmentEvent, SegmentStarts, Stopped, Until, read_pages,
    scan_segments,
};
use crate::table::TableInfo;
use crate::value::Item;
use crate::write::Destination;

use canon::{changes, digest, key_text};
use packed::unpack;
use pairing::{On, Pairing};

/// The segments each side of a whole-table comparison is scanned in.
pub const SEGMENTS: usize = 4;
use report::{Listed, Side};

/// What is compared.
#[derive(Debug, Clone, PartialEq)]
pub enum DiffScope {
    /// One partition's items, by its key value as typed (a Query on each side).
    Partition(String),
    /// Every item (a Scan on each side).
    Table,
    /// Only these items, each read by key on both sides.
    Keys(Vec<Item>),
}

/// Compare `a`'s table with `b`'s (each a connection and its table, described) over `scope`.
/// Refused before anything is read when the two tables' keys differ.
pub async fn diff(
    a: (&Connection, &TableInfo),
    b: (&Connection, &TableInfo),
    scope: &DiffScope,
    stop: &CancelToken,
) -> Result<TableDiff> {
    same_keys(a.1, b.1)?;
    if let DiffScope::Keys(keys) = scope {
        return by_keys(a, b, keys, scope, stop).await;
    }
    let (source_a, source_b) = (Source::Live(a.0, a.1), Source::Live(b.0, b.1));
    compare_sources(source_a, source_b, a.1, scope, stop).await
}

/// Compare two sides, either of them an export's files (S3 export format): every item, by key;
/// `info` gives the key (a live side's table, or the table the export is of, described). An
/// export is read from disk and spends no read unit.
pub async fn diff_sources(
    a: Source<'_>,
    b: Source<'_>,
    info: &TableInfo,
    stop: &CancelToken,
) -> Result<TableDiff> {
    for source in [&a, &b] {
        if let Source::Live(_, table) = source {
            same_keys(info, table)?;
        }
    }
    compare_sources(a, b, info, &DiffScope::Table, stop).await
}

/// Read both sides at once, pair their items by key, then read the differing ones again.
async fn compare_sources(
    a: Source<'_>,
    b: Source<'_>,
    info: &TableInfo,
    scope: &DiffScope,
    stop: &CancelToken,
) -> Result<TableDiff> {
    let mut diff = TableDiff::new(a.side(info), b.side(info), scope);
    let pairing = Mutex::new(Pairing::new(info));
    // Both sides at once: an item waits only until its key arrives from the other side, so
    // two copies scanned in the same order hold little at any moment.
    let (side_a, side_b) = (&mut diff.a, &mut diff.b);
    // The first side to fail stops the other (no read is spent on a comparison already lost),
    // and both are waited for: a side reading an export on a thread of its own has ended
    // before the comparison answers, so nothing of it outlives the run.
    let halt = CancelToken::default();
    let read_a = async {
        let read = a.read_all(info, scope, &halt, |items, rcu| {
            side_a.rcu += rcu;
            side_a.read += items.len() as u64;
            lock(&pairing).arrive(On::A, items);
        });
        read.await.inspect_err(|_| halt.cancel())
    };
    let read_b = async {
        let read = b.read_all(info, scope, &halt, |items, rcu| {
            side_b.rcu += rcu;
            side_b.read += items.len() as u64;
            lock(&pairing).arrive(On::B, items);
        });
        read.await.inspect_err(|_| halt.cancel())
    };
    let (read_a, read_b) = {
        let both = async { tokio::join!(read_a, read_b) };
        tokio::pin!(both);
        tokio::select! {
            read = &mut both => read,
            () = stop.cancelled() => {
                halt.cancel();
                // A side whose last page was on the wire when the stop came may end whole: the
                // run was stopped all the same, and nothing is compared (a failure of a side's
                // own is said first).
                let (read_a, read_b) = both.await;
                first_failure(read_a, read_b)?;
                return Err(Error::Cancelled { op: "Scan" });
            }
        }
    };
    first_failure(read_a, read_b)?;
    let pairing = pairing.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(error) = pairing.keyless {
        return Err(error);
    }
    (diff.same, diff.changed_count) = (pairing.same, pairing.changed);
    let key_names = &pairing.key_names;
    // Only the keys listed are unpacked: the first of each side in packed order, then sorted
    // as keys; the rest are counted.
    let left = pairing.left();
    for on in [On::A, On::B] {
        let mine = left.iter().filter(|(side, _)| *side == on);
        let count = mine.clone().count() as u64;
        let mut keys: Vec<Item> = (mine.take(MAX_LISTED))
            .map(|(_, packed)| unpack(packed, key_names))
            .collect();
        keys.sort_by_cached_key(|key| key_text(key, key_names));
        let listed = match on {
            On::A => &mut diff.only_a,
            On::B => &mut diff.only_b,
        };
        (listed.keys, listed.count) = (keys, count);
    }
    drop(left);
    let keys = pairing.differing;
    let (items_a, rcu_a) = a.items_of(&keys, key_names, stop).await?;
    let (items_b, rcu_b) = b.items_of(&keys, key_names, stop).await?;
    (diff.a.rcu, diff.b.rcu) = (diff.a.rcu + rcu_a, diff.b.rcu + rcu_b);
    for ((key, item_a), item_b) in keys.into_iter().zip(items_a).zip(items_b) {
        let (item_a, item_b) = (item_a.unwrap_or_default(), item_b.unwrap_or_default());
        diff.changed.push((key, changes(&item_a, &item_b)));
    }
    Ok(diff)
}

/// The first of two sides' failures that is not only the other's stop (a side halted because
/// the other failed says `Cancelled`).
fn first_failure(a: Result<()>, b: Result<()>) -> Result<()> {
    match (a, b) {
        (Err(e), _) | (_, Err(e)) if !matches!(e, Error::Cancelled { .. }) => Err(e),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Ok(()),
    }
}

/// The pairing, whoever held it last (a callback never panics while holding it).
fn lock<'m, 'a>(pairing: &'m Mutex<Pairing<'a>>) -> std::sync::MutexGuard<'m, Pairing<'a>> {
    pairing.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Compare only `keys`: each item read by key (consistently) on both sides.
async fn by_keys(
    a: (&Connection, &TableInfo),
    b: (&Connection, &TableInfo),
    keys: &[Item],
    scope: &DiffScope,
    stop: &CancelToken,
) -> Result<TableDiff> {
    let mut diff = TableDiff::new(side(a.0, a.1), side(b.0, b.1), scope);
    let (reader_a, reader_b) = (a.0.reader(), b.0.reader());
    for key in keys {
        if stop.is_cancelled() {
            return Err(Error::Cancelled { op: "GetItem" });
        }
        let (item_a, rcu_a) = read::get_item_costed(&reader_a, &a.1.name, key.clone()).await?;
        let (item_b, rcu_b) = read::get_item_costed(&reader_b, &b.1.name, key.clone()).await?;
        (diff.a.rcu, diff.b.rcu) = (diff.a.rcu + rcu_a, diff.b.rcu + rcu_b);
        diff.a.read += u64::from(item_a.is_some());
        diff.b.read += u64::from(item_b.is_some());
        match (item_a, item_b) {
            (None, None) => diff.absent += 1,
            (Some(_), None) => diff.only_a.push(key.clone()),
            (None, Some(_)) => diff.only_b.push(key.clone()),
            (Some(x), Some(y)) if digest(&x) == digest(&y) => diff.same += 1,
            (Some(x), Some(y)) => {
                diff.changed_count += 1;
                diff.changed.push((key.clone(), changes(&x, &y)));
            }
        }
    }
    Ok(diff)
}

/// The two tables' keys are the same names and types, or the comparison is refused.
fn same_keys(a: &TableInfo, b: &TableInfo) -> Result<()> {
    if a.partition == b.partition && a.sort == b.sort {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "the tables' keys differ ({} has {}, {} has {}): items are compared by key; nothing was read",
        a.name,
        a.keys_text(),
        b.name,
        b.keys_text()
    )))
}

/// The read of `scope` on `info`'s table.
fn request(info: &TableInfo, scope: &DiffScope) -> Result<BrowseRequest> {
    match scope {
        DiffScope::Table | DiffScope::Keys(_) => BrowseRequest::scan(info, None),
        DiffScope::Partition(pk) => {
            let value = info.partition.kind.parse(pk)?;
            BrowseRequest::query(info, None, value, None, true)
        }
    }
}

/// Read one side whole, each page handed to `on_page`: one partition by a Query; every item by
/// a parallel scan in [`SEGMENTS`] segments, with the one reader's retries. A read stopped
/// before its last page is an error: the comparison is not made on part of a side.
async fn read_side(
    reader: &Reader,
    request: &BrowseRequest,
    scope: &DiffScope,
    stop: &CancelToken,
    mut on_page: impl FnMut(Page),
) -> Result<()> {
    let stopped = match scope {
        DiffScope::Partition(_) | DiffScope::Keys(_) => {
            read_pages(reader, request, None, Until::LastPage, stop, on_page).await?
        }
        DiffScope::Table => {
            let starts = SegmentStarts::all(SEGMENTS)?;
            let backoff = reader.backoff();
            let scanned = scan_segments(
                reader,
                request,
                starts,
                Until::LastPage,
                &backoff,
                stop,
                |event| {
                    if let SegmentEvent::Read {
                        event: ReadEvent::Page(page),
                        ..
                    } = event
                    {
                        on_page(page);
                    }
                },
            );
            scanned.await.result?
        }
    };
    match stopped {
        Stopped::LastPage => Ok(()),
        Stopped::Cancelled | Stopped::Reached => Err(Error::Cancelled { op: "Scan" }),
    }
}

/// The side of the report that `info`'s table on `connection` is, before anything is read.
fn side(connection: &Connection, info: &TableInfo) -> Side {
    Side {
        table: info.name.clone(),
        place: Destination::of(connection).place(),
        key_names: info.key_names(),
        pricing: connection.pricing(info),
        read: 0,
        rcu: 0.0,
    }
}

impl Listed {
    /// Keep `key` among the first [`MAX_LISTED`], counting it in any case.
    fn push(&mut self, key: Item) {
        self.count += 1;
        if self.keys.len() < MAX_LISTED {
            self.keys.push(key);
        }
    }
}
