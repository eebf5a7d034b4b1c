//! A whole table read once in a parallel scan, page by page, with progress and a cancel: what a
//! one-pass reconcile and the export of a table read (the export into the row store).

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::error::Result;
use crate::read::{
    BrowseRequest, Page, ReadEvent, SegmentEvent, SegmentStarts, Stopped, TableRead, Until,
    scan_segments,
};
use crate::rows::Rows;
use crate::table::TableInfo;

/// How far a whole-table scan is.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ScanProgress {
    /// Items read.
    pub items: u64,
    /// Pages read.
    pub pages: usize,
    /// Read capacity consumed.
    pub rcu: f64,
}

/// Read every item of table `info` once, in a parallel scan of `segments`, handing each page
/// to `on_page` with the progress after it. `None` when cancelled: part of a table is neither
/// an export of it nor a count over it.
pub(crate) async fn scan_whole(
    reader: &Reader,
    info: &TableInfo,
    segments: usize,
    cancel: &CancelToken,
    mut on_page: impl FnMut(Page, ScanProgress),
) -> Result<Option<ScanProgress>> {
    let request = BrowseRequest::scan(info, None)?;
    let mut progress = ScanProgress::default();
    let stopped = scan_segments(
        reader,
        &request,
        SegmentStarts::all(segments)?,
        Until::LastPage,
        &reader.backoff(),
        cancel,
        |event| {
            if let SegmentEvent::Read {
                event: ReadEvent::Page(page),
                ..
            } = event
            {
                progress.items += page.items.len() as u64;
                progress.pages += 1;
                progress.rcu += page.consumed_rcu;
                on_page(page, progress);
            }
        },
    )
    .await;
    match stopped.result? {
        Stopped::Cancelled => Ok(None),
        Stopped::LastPage | Stopped::Reached => Ok(Some(progress)),
    }
}

/// [`scan_whole`] into the row store, telling `on_progress` after each page.
pub async fn scan_table(
    reader: &Reader,
    info: &TableInfo,
    segments: usize,
    cancel: &CancelToken,
    mut on_progress: impl FnMut(ScanProgress),
) -> Result<Option<TableRead>> {
    let request = BrowseRequest::scan(info, None)?;
    let mut rows = Rows::new();
    let read = scan_whole(reader, info, segments, cancel, |page, progress| {
        rows.extend(&page.items);
        on_progress(progress);
    })
    .await?;
    Ok(read.map(|read| TableRead {
        request,
        rows,
        pages: read.pages,
        rcu: read.rcu,
    }))
}
