//! The one reader: every Query and Scan of dynoscope pages through here, one request at a time,
//! with a cancel that also interrupts the request in flight (or a wait before a re-send).

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::error::Result;
use crate::read::events::ReadEvent;
use crate::read::retry::{Backoff, fetch_retrying};
use crate::read::{BrowseRequest, Page};
use crate::value::Item;

/// How far a read goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// One page.
    OnePage,
    /// Every page, to the last.
    LastPage,
    /// Pages until at least this many items matched, or the last page.
    Items(usize),
}

/// Why a read stopped (without an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The last page was read.
    LastPage,
    /// As far as asked ([`Until::OnePage`] or [`Until::Items`]); more pages may follow.
    Reached,
    /// The cancel token was used; pages handed over before are kept.
    Cancelled,
}

/// Read every page of `request` from the beginning, handing each to `on_page`: a whole count,
/// a whole set of shards — reads that have no Cancel of their own.
pub async fn read_all(
    reader: &Reader,
    request: &BrowseRequest,
    on_page: impl FnMut(Page),
) -> Result<()> {
    read_pages(
        reader,
        request,
        None,
        Until::LastPage,
        &CancelToken::default(),
        on_page,
    )
    .await
    .map(|_| ())
}

/// What [`read_table`] read: the request it sent, the rows, and the pages and RCU it took.
#[derive(Debug)]
pub struct TableRead {
    /// The Scan or Query sent.
    pub request: BrowseRequest,
    /// Every item, in the store for loaded rows.
    pub rows: crate::rows::Rows,
    /// Pages read.
    pub pages: usize,
    /// Read capacity consumed.
    pub rcu: f64,
}

/// Read all of table `info` (a Scan), or one partition of it (a Query of the partition key
/// value `partition`, typed as the key), into the row store: what `sql --load` and `export`
/// read.
pub async fn read_table(
    reader: &Reader,
    info: &crate::table::TableInfo,
    partition: Option<&str>,
) -> Result<TableRead> {
    let request = match partition {
        Some(partition) => {
            let value = info.partition.kind.parse(partition)?;
            BrowseRequest::query(info, None, value, None, true)?
        }
        None => BrowseRequest::scan(info, None)?,
    };
    let (mut rows, mut pages, mut rcu) = (crate::rows::Rows::new(), 0, 0.0);
    read_all(reader, &request, |page| {
        pages += 1;
        rcu += page.consumed_rcu;
        rows.extend(&page.items);
    })
    .await?;
    Ok(TableRead {
        request,
        rows,
        pages,
        rcu,
    })
}

/// Read `request` from `start` (the beginning when `None`), handing each page to `on_page` as
/// it arrives, until `until` is reached, the last page is read, or `cancel` is used. A failed
/// request ends the read with its error; the pages before it were handed over already.
/// Throttling is waited out with [`Backoff::default`]; [`read_events`] also reports the waits.
pub async fn read_pages(
    reader: &Reader,
    request: &BrowseRequest,
    start: Option<Item>,
    until: Until,
    cancel: &CancelToken,
    mut on_page: impl FnMut(Page),
) -> Result<Stopped> {
    let forward = |event| {
        if let ReadEvent::Page(page) = event {
            on_page(page);
        }
    };
    let backoff = reader.backoff();
    read_events(reader, request, start, until, &backoff, cancel, forward).await
}

/// [`read_pages`], reporting every [`ReadEvent`]: each page as it arrives, and each wait before
/// a page request is sent again (throttled, or failed on the way), as `backoff` says.
///
/// With [`Until::Items`] each request sends `Limit`: the items still wanted (more when a filter
/// has been dropping items), never more than the request's page size.
pub async fn read_events(
    reader: &Reader,
    request: &BrowseRequest,
    mut start: Option<Item>,
    until: Until,
    backoff: &Backoff,
    cancel: &CancelToken,
    mut on_event: impl FnMut(ReadEvent),
) -> Result<Stopped> {
    let client = reader.sdk();
    let (mut matched, mut scanned) = (0usize, 0usize);
    loop {
        if cancel.is_cancelled() {
            return Ok(Stopped::Cancelled);
        }
        let limit = page_limit(request.page_size, until, matched, scanned);
        let fetched = fetch_retrying(
            client,
            request,
            start.as_ref(),
            limit,
            backoff,
            cancel,
            &mut on_event,
        );
        let Some(page) = fetched.await? else {
            return Ok(Stopped::Cancelled);
        };
        matched += usize::try_from(page.count).unwrap_or_default();
        scanned += usize::try_from(page.scanned_count).unwrap_or_default();
        let next = page.last_key.clone();
        on_event(ReadEvent::Page(page));
        let Some(next) = next else {
            return Ok(Stopped::LastPage);
        };
        match until {
            Until::OnePage => return Ok(Stopped::Reached),
            Until::Items(wanted) if matched >= wanted => return Ok(Stopped::Reached),
            Until::Items(_) | Until::LastPage => start = Some(next),
        }
    }
}

/// The `Limit` of the next page request: the request's page size, or with [`Until::Items`] the
/// items still wanted, scaled by how many the filter dropped so far (`scanned` per `matched`),
/// never above the page size. Reading 10 items of a big table then costs about 1 RCU, not a
/// whole 1 MB page.
pub(crate) fn page_limit(
    page_size: Option<i32>,
    until: Until,
    matched: usize,
    scanned: usize,
) -> Option<i32> {
    let Until::Items(wanted) = until else {
        return page_size;
    };
    let still_wanted = wanted.saturating_sub(matched).max(1);
    let evaluated_per_match = scanned.div_ceil(matched.max(1)).max(1);
    let limit = i32::try_from(still_wanted.saturating_mul(evaluated_per_match)).unwrap_or(i32::MAX);
    Some(page_size.map_or(limit, |size| size.min(limit)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_is_what_is_still_wanted() {
        assert_eq!(page_limit(None, Until::LastPage, 0, 0), None);
        assert_eq!(page_limit(Some(25), Until::OnePage, 0, 0), Some(25));
        assert_eq!(page_limit(None, Until::Items(10), 0, 0), Some(10));
        assert_eq!(page_limit(None, Until::Items(10), 4, 4), Some(6));
        assert_eq!(page_limit(Some(3), Until::Items(10), 4, 4), Some(3));
        // The filter kept 1 in 5 so far: ask for 5 evaluated per item still wanted.
        assert_eq!(page_limit(None, Until::Items(10), 2, 10), Some(40));
        // None kept yet: every item evaluated so far counts against the next one.
        assert_eq!(page_limit(None, Until::Items(10), 0, 10), Some(100));
        assert_eq!(
            page_limit(None, Until::Items(usize::MAX), 0, usize::MAX),
            Some(i32::MAX)
        );
    }
}
