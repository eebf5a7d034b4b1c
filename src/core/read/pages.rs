//! The one reader: every Query and Scan of dynoscope pages through here, one request at a time,
//! with a cancel that also interrupts the request in flight.

use aws_sdk_dynamodb::Client;

use crate::core::cancel::CancelToken;
use crate::core::error::Result;
use crate::core::read::{BrowseRequest, Page, fetch_page};
use crate::core::value::Item;

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
    client: &Client,
    request: &BrowseRequest,
    on_page: impl FnMut(Page),
) -> Result<()> {
    read_pages(
        client,
        request,
        None,
        Until::LastPage,
        &CancelToken::default(),
        on_page,
    )
    .await
    .map(|_| ())
}

/// Read `request` from `start` (the beginning when `None`), handing each page to `on_page` as
/// it arrives, until `until` is reached, the last page is read, or `cancel` is used. A failed
/// request ends the read with its error; the pages before it were handed over already.
pub async fn read_pages(
    client: &Client,
    request: &BrowseRequest,
    mut start: Option<Item>,
    until: Until,
    cancel: &CancelToken,
    mut on_page: impl FnMut(Page),
) -> Result<Stopped> {
    let mut matched = 0usize;
    loop {
        if cancel.is_cancelled() {
            return Ok(Stopped::Cancelled);
        }
        let page = tokio::select! {
            page = fetch_page(client, request, start.take()) => page?,
            () = cancel.cancelled() => return Ok(Stopped::Cancelled),
        };
        matched += usize::try_from(page.count).unwrap_or_default();
        let next = page.last_key.clone();
        on_page(page);
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
