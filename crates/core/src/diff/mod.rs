//! Two tables compared by key — on one connection or two, under one name or two — as DynamoDB
//! compares values (numbers as numbers, sets as sets, maps and lists in depth): the items only
//! on one side, and those that differ, attribute by attribute. Each side is read once, through
//! the one reader (its retries and Cancel); side A is kept as a digest per key, side B is read
//! against it page by page, and the items that differ are read again by key to say how.

mod canon;
mod report;
mod snapshot;
mod tallies;

pub use canon::AttrChange;
pub use report::{MAX_LISTED, TableDiff};
pub use snapshot::{Moved, SnapParent, SnapshotDiff, TallySnapshot, compare_snapshots};
pub use tallies::{TallyDiff, TallyPair, compare_tallies};

use std::collections::HashMap;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::read::{
    self, Backoff, BrowseRequest, Page, ReadEvent, SegmentEvent, SegmentStarts, Stopped, Until,
    read_pages, scan_segments,
};
use crate::table::TableInfo;
use crate::value::Item;
use crate::write::Destination;

use canon::{changes, digest, key_text};

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
    let (request_a, request_b) = (request(a.1, scope)?, request(b.1, scope)?);
    let key_names = a.1.key_names();
    let mut diff = TableDiff::new(side(a), side(b), scope);
    let mut kept: HashMap<String, (u128, Item)> = HashMap::new();
    let (reader_a, reader_b) = (a.0.reader(), b.0.reader());
    // An item read without the whole key (never from a table's own Query or Scan) stops it.
    let mut keyless = None;
    let read_a = read_side(&reader_a, &request_a, scope, stop, |page| {
        diff.a.rcu += page.consumed_rcu;
        for item in page.items {
            diff.a.read += 1;
            match a.1.key_of(&item) {
                Ok(key) => {
                    kept.insert(key_text(&item, &key_names), (digest(&item), key));
                }
                Err(error) => {
                    keyless.get_or_insert(error);
                }
            }
        }
    });
    read_a.await?;
    let mut differing = Vec::new();
    let read_b = read_side(&reader_b, &request_b, scope, stop, |page| {
        diff.b.rcu += page.consumed_rcu;
        for item in page.items {
            diff.b.read += 1;
            match kept.remove(&key_text(&item, &key_names)) {
                None => match b.1.key_of(&item) {
                    Ok(key) => diff.only_b.push(key),
                    Err(error) => {
                        keyless.get_or_insert(error);
                    }
                },
                Some((d, _)) if d == digest(&item) => diff.same += 1,
                Some((_, key)) => {
                    diff.changed_count += 1;
                    if differing.len() < MAX_LISTED {
                        differing.push(key);
                    }
                }
            }
        }
    });
    read_b.await?;
    if let Some(error) = keyless {
        return Err(error);
    }
    let mut left: Vec<Item> = kept.into_values().map(|(_, key)| key).collect();
    left.sort_by_cached_key(|key| key_text(key, &key_names));
    left.into_iter().for_each(|key| diff.only_a.push(key));
    for key in differing {
        let (item_a, rcu_a) = read::get_item_costed(&reader_a, &a.1.name, key.clone()).await?;
        let (item_b, rcu_b) = read::get_item_costed(&reader_b, &b.1.name, key.clone()).await?;
        (diff.a.rcu, diff.b.rcu) = (diff.a.rcu + rcu_a, diff.b.rcu + rcu_b);
        let (item_a, item_b) = (item_a.unwrap_or_default(), item_b.unwrap_or_default());
        diff.changed.push((key, changes(&item_a, &item_b)));
    }
    Ok(diff)
}

/// Compare only `keys`: each item read by key (consistently) on both sides.
async fn by_keys(
    a: (&Connection, &TableInfo),
    b: (&Connection, &TableInfo),
    keys: &[Item],
    scope: &DiffScope,
    stop: &CancelToken,
) -> Result<TableDiff> {
    let mut diff = TableDiff::new(side(a), side(b), scope);
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
            let backoff = Backoff::default();
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

fn side((connection, info): (&Connection, &TableInfo)) -> Side {
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
