//! A whole table read in a parallel scan into the row store, with progress and a cancel: what
//! the app's and the CLI's export of a table read.

use aws_sdk_dynamodb::Client;

use crate::core::cancel::CancelToken;
use crate::core::error::Result;
use crate::core::read::{
    Backoff, BrowseRequest, ReadEvent, SegmentEvent, SegmentStarts, Stopped, TableRead, Until,
    scan_segments,
};
use crate::core::rows::Rows;
use crate::core::table::TableInfo;

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

/// Read every item of table `info` in a parallel scan of `segments`, into the row store,
/// telling `on_progress` after each page. `None` when cancelled (the rows read are dropped:
/// part of a table is not an export of it).
pub async fn scan_table(
    client: &Client,
    info: &TableInfo,
    segments: usize,
    cancel: &CancelToken,
    mut on_progress: impl FnMut(ScanProgress),
) -> Result<Option<TableRead>> {
    let request = BrowseRequest::scan(info, None)?;
    let mut rows = Rows::new();
    let mut progress = ScanProgress::default();
    let stopped = scan_segments(
        client,
        &request,
        SegmentStarts::all(segments)?,
        Until::LastPage,
        &Backoff::default(),
        cancel,
        |event| {
            if let SegmentEvent::Read {
                event: ReadEvent::Page(page),
                ..
            } = event
            {
                rows.extend(&page.items);
                progress.items += page.items.len() as u64;
                progress.pages += 1;
                progress.rcu += page.consumed_rcu;
                on_progress(progress);
            }
        },
    )
    .await;
    match stopped.result? {
        Stopped::Cancelled => Ok(None),
        Stopped::LastPage | Stopped::Reached => Ok(Some(TableRead {
            request,
            rows,
            pages: progress.pages,
            rcu: progress.rcu,
        })),
    }
}
