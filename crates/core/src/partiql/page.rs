//! Reading with a `SELECT`: one page of `ExecuteStatement`, and the pages after it followed with
//! `NextToken` under the one reader's contract ([`Until`], [`Stopped`], a cancel that also
//! interrupts the request in flight, each page handed over as it arrives).
//!
//! This is a second paging loop beside [`read_pages`](crate::read::read_pages), kept to
//! the few lines the contract needs: a statement continues with an opaque `NextToken` string
//! and a Query or Scan with a key, and the one reader is being changed elsewhere meanwhile.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::read::{self, Stopped, Until};
use crate::statement::{Kind, Statement};
use crate::value::Item;

/// One page of a `SELECT`.
#[derive(Debug, Clone, PartialEq)]
pub struct PartiqlPage {
    /// The items of this page.
    pub items: Vec<Item>,
    /// Where the next page starts, when there is one.
    pub next_token: Option<String>,
    /// Read capacity consumed by this page.
    pub consumed_rcu: f64,
}

/// Send a `SELECT` for one page from `next_token` (the first page when `None`), evaluating at
/// most `limit` items when given. A write (or `EXISTS`) is refused unsent: writes go through
/// the write gateway ([`plan_write`](crate::partiql::plan_write)).
pub async fn execute_page(
    client: &Client,
    statement: &Statement,
    next_token: Option<String>,
    limit: Option<i32>,
) -> Result<PartiqlPage> {
    let classified = statement.check()?;
    match classified.kind {
        Kind::Select => {}
        Kind::Exists => {
            return Err(Error::Invalid(
                "EXISTS is a condition inside ExecuteTransaction, not a statement of its own; nothing was sent".into(),
            ));
        }
        kind => {
            return Err(Error::Invalid(format!(
                "{} writes: it is sent through the write gateway, not read; nothing was sent",
                kind.keyword()
            )));
        }
    }
    if limit.is_some_and(|l| l < 1) {
        return Err(Error::Invalid(
            "the page size (Limit) must be at least 1".into(),
        ));
    }
    let out = client
        .execute_statement()
        .statement(&statement.text)
        .set_parameters((!statement.params.is_empty()).then(|| statement.params.clone()))
        .set_next_token(next_token)
        .set_limit(limit)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .map_err(|e| Error::from_sdk("ExecuteStatement", e))?;
    Ok(PartiqlPage {
        consumed_rcu: read::consumed_units(out.consumed_capacity()),
        next_token: out.next_token,
        items: out.items.unwrap_or_default(),
    })
}

/// Read a `SELECT` from `start` (the beginning when `None`), `limit` items evaluated per page,
/// handing each page to `on_page` as it arrives, until `until` is reached, the last page is
/// read, or `cancel` is used (which also interrupts the request in flight). A failed request
/// ends the read with its error; the pages before it were handed over already.
pub async fn read_statement(
    reader: &Reader,
    statement: &Statement,
    mut start: Option<String>,
    limit: Option<i32>,
    until: Until,
    cancel: &CancelToken,
    mut on_page: impl FnMut(PartiqlPage),
) -> Result<Stopped> {
    let client = reader.sdk();
    let mut matched = 0usize;
    loop {
        if cancel.is_cancelled() {
            return Ok(Stopped::Cancelled);
        }
        let page = tokio::select! {
            page = execute_page(client, statement, start.take(), limit) => page?,
            () = cancel.cancelled() => return Ok(Stopped::Cancelled),
        };
        matched += page.items.len();
        let next = page.next_token.clone();
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
