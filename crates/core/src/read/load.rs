//! What one run of the reader loaded, accounted as its pages arrive: the request, the pages,
//! the capacity, the items evaluated, where it goes on, and how it stopped. Kept beside the
//! rows of a result tab; what the status bar and "Load more" read.

use crate::error::{Error, Result};
use crate::read::{BrowseRequest, Page, SegmentStarts, Stopped};
use crate::value::Item;

/// The accounting of a load.
#[derive(Debug, Clone, Default)]
pub struct Load {
    /// The request being paged through (`None`: rows that came from elsewhere, such as SQL).
    pub request: Option<BrowseRequest>,
    /// Pages loaded.
    pub pages: usize,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
    /// Items the server evaluated (before the filter): its `ScannedCount`, summed.
    pub scanned: i64,
    /// Items the server matched (after the filter): its `Count`, summed.
    pub matched: i64,
    /// Where the next page starts; `None` when the last page is loaded.
    pub last_key: Option<Item>,
    /// For a stopped parallel scan: where each unfinished segment goes on.
    pub left: Option<SegmentStarts>,
    /// More pages follow that are not keyed by a last key (a PartiQL `NextToken`).
    pub more: bool,
    /// The run was cancelled (what loaded is kept).
    pub cancelled: bool,
    /// Why the run stopped.
    pub error: Option<Error>,
    /// The table's item count, for a Scan's progress estimate.
    pub estimate: Option<i64>,
}

impl Load {
    /// A load of `request` about to start.
    pub fn of(request: BrowseRequest, estimate: Option<i64>) -> Self {
        Self {
            request: Some(request),
            estimate,
            ..Self::default()
        }
    }

    /// Count `page`; `keyed`: its last key is where this load goes on (one reader, not one
    /// segment of many, whose places are kept in `left` at the end).
    pub fn count(&mut self, page: &Page, keyed: bool) {
        self.pages += 1;
        self.consumed_rcu += page.consumed_rcu;
        self.scanned += page.scanned_count;
        self.matched += page.count;
        if keyed {
            self.last_key.clone_from(&page.last_key);
        }
    }

    /// Count a page of a statement (PartiQL): its capacity, and whether more follow.
    pub fn count_statement_page(&mut self, consumed_rcu: f64, more: bool) {
        self.pages += 1;
        self.consumed_rcu += consumed_rcu;
        self.more = more;
    }

    /// Why the server's `ScannedCount` is above its `Count` for a read with no filter (where
    /// every item evaluated is returned): shown as the server said it, with this beside it.
    pub fn scanned_note(&self) -> Option<String> {
        let unfiltered = self.request.as_ref().is_some_and(|r| r.filter.is_empty());
        let beyond = self.scanned - self.matched;
        (unfiltered && beyond > 0).then(|| {
            let items = if beyond == 1 { "item" } else { "items" };
            format!(
                "The server's ScannedCount, summed over {} pages: {beyond} {items} more than it \
                 returned, with no filter. Shown as the server counted; the embedded engine counts \
                 one more on each page it ends at 1 MB (the item that did not fit, which the next \
                 page returns).",
                self.pages
            )
        })
    }

    /// Whether there is a next page (or an unfinished segment).
    pub fn has_more(&self) -> bool {
        self.last_key.is_some() || self.more || self.left.as_ref().is_some_and(|l| !l.finished())
    }

    /// Going on from where it stopped: not cancelled, no error.
    pub fn resumed(&mut self) {
        self.cancelled = false;
        self.error = None;
    }

    /// The load ended with `result`; `left` is what a parallel scan did not read. A cancel is
    /// not an error: what loaded is kept and can be gone on with.
    pub fn ended(&mut self, result: Result<Stopped>, left: Option<SegmentStarts>) {
        self.left = left.filter(|l| !l.finished());
        self.cancelled = matches!(
            result,
            Ok(Stopped::Cancelled) | Err(Error::Cancelled { .. })
        );
        self.error = result
            .err()
            .filter(|e| !matches!(e, Error::Cancelled { .. }));
    }
}

/// How a load under way is stopped when the user cancels it; what loaded is kept either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// Through its token, which also interrupts the requests in flight, so that a parallel
    /// scan still hands back where each segment goes on.
    Cancel,
    /// At once, the request in flight too, not waited for: a single read already knows the
    /// last key of its last page.
    Abort,
}

impl Halt {
    /// How a load reading `segments` segments at once is stopped.
    pub fn for_segments(segments: usize) -> Self {
        if segments > 1 {
            Self::Cancel
        } else {
            Self::Abort
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue;

    fn page(last: Option<&str>) -> Page {
        Page {
            items: Vec::new(),
            count: 3,
            scanned_count: 5,
            last_key: last.map(|k| Item::from([("PK".to_owned(), AttributeValue::S(k.into()))])),
            consumed_rcu: 0.5,
        }
    }

    #[test]
    fn pages_are_counted_and_the_last_key_says_whether_more_follow() {
        let mut load = Load::default();
        load.count(&page(Some("a")), true);
        assert!(load.has_more());
        load.count(&page(None), true);
        assert!(!load.has_more());
        assert_eq!((load.pages, load.scanned, load.matched), (2, 10, 6));
        assert!((load.consumed_rcu - 1.0).abs() < f64::EPSILON);
        // A segment's page does not move the load's own place.
        load.count(&page(Some("b")), false);
        assert!(!load.has_more());
        load.count_statement_page(1.0, true);
        assert!(load.has_more());
    }

    #[test]
    fn a_parallel_scan_is_cancelled_and_a_single_read_aborted() {
        assert_eq!(Halt::for_segments(8), Halt::Cancel);
        assert_eq!(Halt::for_segments(1), Halt::Abort);
        assert_eq!(Halt::for_segments(0), Halt::Abort);
    }

    #[test]
    fn a_scanned_count_above_the_count_with_no_filter_is_said_not_corrected() {
        use crate::condition::{FilterClause, FilterOp, ScalarType};
        use crate::table::{KeyAttr, TableInfo};
        let info = TableInfo::with_keys("Big", KeyAttr::new("PK", ScalarType::S), None);
        let mut load = Load::of(BrowseRequest::scan(&info, None).unwrap(), None);
        let even = |n| Page {
            count: n,
            scanned_count: n,
            ..Page::default()
        };
        load.count(&even(3), true);
        assert_eq!(load.scanned_note(), None, "the two agree");
        load.count(&page(None), true);
        let note = load.scanned_note().unwrap();
        assert!(
            note.contains("over 2 pages: 2 items more than it returned"),
            "{note}"
        );
        assert_eq!(load.scanned, 8, "the server's figure is kept as it said it");
        // With a filter, evaluating more than is returned is what a filter does.
        let mut filtered = load.clone();
        if let Some(request) = &mut filtered.request {
            request.filter.push(FilterClause {
                attribute: "n".to_owned(),
                op: FilterOp::Exists,
                values: Vec::new(),
            });
        }
        assert_eq!(filtered.scanned_note(), None);
    }

    #[test]
    fn a_cancel_is_kept_apart_from_an_error() {
        let mut load = Load::default();
        load.ended(Ok(Stopped::Cancelled), None);
        assert!(load.cancelled && load.error.is_none());
        load.ended(Err(Error::Cancelled { op: "Scan" }), None);
        assert!(load.cancelled && load.error.is_none());
        load.ended(Err(Error::Invalid("no".into())), None);
        assert!(!load.cancelled && load.error.is_some());
        load.resumed();
        assert!(!load.cancelled && load.error.is_none());
        load.ended(Ok(Stopped::LastPage), None);
        assert!(!load.cancelled && load.error.is_none());
    }
}
