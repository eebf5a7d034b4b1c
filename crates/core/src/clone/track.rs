//! Where each segment of a clone goes on from: after the last page every item of which was
//! written, whatever order the batches end in. A page is registered when it is cut into
//! batches; it is behind us once each of its batches was written whole and every earlier page
//! of its segment is behind us too. A page not written whole holds its segment there.

use std::collections::VecDeque;

use crate::read::{Page, ReadEvent, SegmentEvent, SegmentStarts};
use crate::value::Item;

/// One page of a segment on its way.
#[derive(Debug)]
struct Mark {
    /// Its batches not yet ended.
    left: usize,
    /// One of its items was not written (or was not sent).
    failed: bool,
    /// Where the segment goes on after it (`None`: the segment's last page).
    last_key: Option<Item>,
}

/// One segment's pages on their way, oldest first.
#[derive(Debug, Default)]
struct Segment {
    /// The number of the first page in `pages`.
    front: u64,
    pages: VecDeque<Mark>,
}

/// Every segment's place.
#[derive(Debug)]
pub(crate) struct Track {
    /// Where each segment goes on from.
    left: SegmentStarts,
    segments: Vec<Segment>,
}

impl Track {
    /// Segments from `starts`.
    pub(crate) fn new(starts: &SegmentStarts) -> Self {
        let segments = (0..starts.total()).map(|_| Segment::default()).collect();
        Self {
            left: starts.clone(),
            segments,
        }
    }

    /// A page of `segment` cut into `batches` (0 for a page with nothing to send), going on
    /// after `last_key`; `failed` when some of its items will not be sent. Its number.
    pub(crate) fn page(
        &mut self,
        segment: usize,
        batches: usize,
        last_key: Option<Item>,
        failed: bool,
    ) -> u64 {
        let Some(s) = self.segments.get_mut(segment) else {
            return 0;
        };
        s.pages.push_back(Mark {
            left: batches,
            failed,
            last_key,
        });
        let number = s.front + s.pages.len() as u64 - 1;
        self.advance(segment);
        number
    }

    /// A batch of page `page` of `segment` ended, its items all written (`whole`) or not.
    pub(crate) fn ended(&mut self, segment: usize, page: u64, whole: bool) {
        let Some(s) = self.segments.get_mut(segment) else {
            return;
        };
        let at = usize::try_from(page.saturating_sub(s.front)).unwrap_or(usize::MAX);
        if let Some(mark) = s.pages.get_mut(at) {
            mark.left = mark.left.saturating_sub(1);
            mark.failed |= !whole;
        }
        self.advance(segment);
    }

    /// Move `segment` past its pages that are behind us, as a scan moves past a page read.
    fn advance(&mut self, segment: usize) {
        let Some(s) = self.segments.get_mut(segment) else {
            return;
        };
        while let Some(mark) = s.pages.front() {
            if mark.left > 0 || mark.failed {
                break;
            }
            let page = Page {
                last_key: mark.last_key.clone(),
                ..Page::default()
            };
            let event = ReadEvent::Page(page);
            self.left.note(&SegmentEvent::Read { segment, event });
            s.pages.pop_front();
            s.front += 1;
        }
    }

    /// Where each segment goes on from.
    pub(crate) fn left(&self) -> &SegmentStarts {
        &self.left
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn key(n: u32) -> Item {
        Item::from([("PK".to_owned(), AttributeValue::N(n.to_string()))])
    }

    #[expect(
        clippy::option_option,
        reason = "None: the segment is done; Some(None): it is still at its beginning"
    )]
    fn at(track: &Track, segment: usize) -> Option<Option<Item>> {
        track
            .left()
            .unfinished()
            .find(|(s, _)| *s == segment)
            .map(|(_, k)| k.cloned())
    }

    #[test]
    fn a_segment_goes_on_after_its_last_page_written_whole_in_order() {
        let mut track = Track::new(&SegmentStarts::all(2).unwrap());
        let p0 = track.page(0, 2, Some(key(1)), false);
        let p1 = track.page(0, 1, Some(key(2)), false);
        assert_eq!((p0, p1), (0, 1));
        // The later page ends first: the segment stays at its beginning.
        track.ended(0, p1, true);
        assert_eq!(at(&track, 0), Some(None));
        track.ended(0, p0, true);
        assert_eq!(
            at(&track, 0),
            Some(None),
            "one batch of the first page left"
        );
        track.ended(0, p0, true);
        assert_eq!(at(&track, 0), Some(Some(key(2))), "both pages behind");
        // A page with nothing to send is behind at once; the last page finishes the segment.
        track.page(0, 0, Some(key(3)), false);
        assert_eq!(at(&track, 0), Some(Some(key(3))));
        let last = track.page(0, 1, None, false);
        track.ended(0, last, true);
        assert_eq!(at(&track, 0), None, "done");
        assert_eq!(at(&track, 1), Some(None), "segment 1 untouched");
    }

    #[test]
    fn a_page_not_written_whole_holds_its_segment() {
        let mut track = Track::new(&SegmentStarts::resume(3, vec![(1, Some(key(7)))]).unwrap());
        assert_eq!(at(&track, 0), None, "done before");
        assert_eq!(at(&track, 1), Some(Some(key(7))));
        let p0 = track.page(1, 1, Some(key(8)), false);
        let p1 = track.page(1, 1, Some(key(9)), false);
        track.ended(1, p0, false);
        track.ended(1, p1, true);
        assert_eq!(
            at(&track, 1),
            Some(Some(key(7))),
            "goes on before the page not written"
        );
        let bad = track.page(1, 0, Some(key(10)), true);
        assert_eq!(bad, 2);
        assert_eq!(at(&track, 1), Some(Some(key(7))));
        assert!(!track.left().finished());
    }
}
