//! A read with an upper bound on what it costs: at most a number of items and of page requests,
//! and where to go on from when it stopped before the end. What an agent (the MCP server) reads.

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::error::Result;
use crate::read::{BrowseRequest, Stopped, Until, read_pages};
use crate::value::Item;

/// A checked read: the request, where it starts and when it stops.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPlan {
    /// The Query or Scan.
    pub request: BrowseRequest,
    /// Go on after this key (`None`: from the beginning).
    pub start: Option<Item>,
    /// The limit, if any.
    pub limit: Option<usize>,
    /// At most this many page requests, if bounded.
    pub max_pages: Option<usize>,
}

impl ReadPlan {
    /// When the read stops.
    pub fn until(&self) -> Until {
        self.limit.map_or(Until::LastPage, Until::Items)
    }
}

/// What a bounded read returned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bounded {
    /// The items, at most the plan's limit.
    pub items: Vec<Item>,
    /// Page requests sent.
    pub pages: usize,
    /// Read capacity consumed, as the server reported it.
    pub consumed_rcu: f64,
    /// Where to go on from (the key of the last item returned, or the last page's end); `None`
    /// when the read reached its end.
    pub next: Option<Item>,
}

/// Read `plan` until its limit, its last page or `max_pages` page requests (the plan's own cap
/// when it is lower), whichever comes first. `key_names` are the keys of what is read (an index's and the table's), so that a read
/// cut inside a page goes on after its last item returned.
pub async fn read_bounded(
    reader: &Reader,
    plan: &ReadPlan,
    key_names: &[String],
    max_pages: usize,
) -> Result<Bounded> {
    let max_pages = plan.max_pages.map_or(max_pages, |m| m.min(max_pages));
    let cap = CancelToken::default();
    let mut read = Bounded::default();
    let mut page_end = plan.start.clone();
    let mut cut = false;
    let until = plan.limit.map_or(Until::LastPage, Until::Items);
    let stopped = read_pages(
        reader,
        &plan.request,
        plan.start.clone(),
        until,
        &cap,
        |page| {
            read.pages += 1;
            read.consumed_rcu += page.consumed_rcu;
            page_end = page.last_key;
            for item in page.items {
                if plan.limit.is_some_and(|l| read.items.len() >= l) {
                    cut = true;
                    break;
                }
                read.items.push(item);
            }
            if read.pages >= max_pages {
                cap.cancel();
            }
        },
    )
    .await?;
    let finished = matches!(stopped, Stopped::LastPage) && page_end.is_none();
    read.next = if cut {
        read.items.last().map(|item| {
            item.iter()
                .filter(|(name, _)| key_names.contains(name))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()
        })
    } else if finished {
        None
    } else {
        page_end
    };
    Ok(read)
}
