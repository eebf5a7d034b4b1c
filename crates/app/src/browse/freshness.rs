//! How old what a tab shows is: when each loaded row was read (with its page, or since on its
//! own: a Reload, a write of ours read back), and whether the server still has it. The item
//! view says it, so that nothing is edited from a screen without knowing its age.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// When each loaded row was read.
#[derive(Debug, Clone, Default)]
pub struct RowTimes {
    /// The first row of each page, in order, and when the page arrived.
    pages: Vec<(usize, Instant)>,
    /// Rows read again on their own since their page.
    again: HashMap<usize, Instant>,
    /// Rows the server no longer had when read again.
    gone: HashSet<usize>,
    /// The last write of ours to the table, when one came after rows were read.
    written: Option<Instant>,
}

impl RowTimes {
    /// Rows from `first_row` on arrived `at` (a page).
    pub fn page(&mut self, first_row: usize, at: Instant) {
        self.pages.push((first_row, at));
    }

    /// Row `row` was read again `at`; `present`: the server still has the item.
    pub fn read_again(&mut self, row: usize, at: Instant, present: bool) {
        self.again.insert(row, at);
        if present {
            self.gone.remove(&row);
        } else {
            self.gone.insert(row);
        }
    }

    /// When row `row` was last read.
    pub fn read_at(&self, row: usize) -> Option<Instant> {
        if let Some(at) = self.again.get(&row) {
            return Some(*at);
        }
        let page = self.pages.partition_point(|(first, _)| *first <= row);
        page.checked_sub(1).map(|p| self.pages[p].1)
    }

    /// The times of the rows kept when rows are taken out: `moved[old]` is the old row's new
    /// place (`None`: taken out). Each kept row keeps when it was read.
    pub fn kept(&self, moved: &[Option<u32>]) -> Self {
        let mut times = Self {
            written: self.written,
            ..Self::default()
        };
        for (old, new) in moved.iter().enumerate() {
            let (Some(new), Some(at)) = (new, self.read_at(old)) else {
                continue;
            };
            let new = *new as usize;
            if times.pages.last().is_none_or(|(_, last)| *last != at) {
                times.pages.push((new, at));
            }
            if self.gone.contains(&old) {
                times.gone.insert(new);
            }
        }
        times
    }

    /// When the oldest row shown was read (the first page, unless every row since was read
    /// again).
    pub fn oldest(&self) -> Option<Instant> {
        self.pages.first().map(|(_, at)| *at)
    }

    /// A write of ours to the table went out `at`.
    pub fn written(&mut self, at: Instant) {
        self.written = Some(at);
    }

    /// When a write of ours went out after the oldest row was read: rows older than it may
    /// not be what the server holds (each row the write touched was read back; others a
    /// trigger or a repair changed may not be).
    pub fn written_since_read(&self) -> Option<Instant> {
        let written = self.written?;
        (self.oldest()? < written).then_some(written)
    }

    /// Whether the server no longer had row `row` when it was last read.
    pub fn gone(&self, row: usize) -> bool {
        self.gone.contains(&row)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_row_is_as_old_as_its_page_until_read_again() {
        let start = Instant::now();
        let later = start + Duration::from_secs(30);
        let mut times = RowTimes::default();
        assert_eq!(times.read_at(0), None);
        times.page(0, start);
        times.page(100, later);
        assert_eq!(times.read_at(0), Some(start));
        assert_eq!(times.read_at(99), Some(start));
        assert_eq!(times.read_at(100), Some(later));
        assert_eq!(times.read_at(5000), Some(later));
        let again = later + Duration::from_secs(5);
        times.read_again(7, again, false);
        assert_eq!(times.read_at(7), Some(again));
        assert!(times.gone(7));
        times.read_again(7, again, true);
        assert!(!times.gone(7), "back on the server");
        assert_eq!(times.read_at(8), Some(start), "only that row");
        assert_eq!(times.oldest(), Some(start));
        assert_eq!(times.written_since_read(), None);
        times.written(later);
        assert_eq!(
            times.written_since_read(),
            Some(later),
            "older rows than the write"
        );
    }
}
