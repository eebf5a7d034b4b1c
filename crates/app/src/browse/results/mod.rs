//! The rows of one result tab, as loaded page by page into the compact row store, and how the
//! grid shows them: the order (server order, or sorted by a column), find (highlight or filter),
//! the selection, the columns shown; what loading cost and where the next page starts is the
//! core's [`Load`], kept beside the rows.

use std::collections::HashSet;

use crate::browse::freshness::RowTimes;
use crate::browse::progress::LoadProgress;
use dynoscope_core::error::Error;
use dynoscope_core::read::{
    BrowseRequest, Load, Page, ReadEvent, SegmentEvent, SegmentStarts, Stopped,
};
use dynoscope_core::rows::{ColumnLayout, RowChanges, RowSet, Rows, merge_sorted, sort_rows};
use dynoscope_core::value::Item;

pub use find::FIND_TIME_PER_FRAME;
pub(super) use find::Find;

mod find;
#[cfg(test)]
mod tests;
mod view;

/// Sorting by one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sort {
    /// The attribute.
    pub column: String,
    /// Largest first.
    pub descending: bool,
}

/// The rows of a result tab and how they were loaded.
#[derive(Debug, Default)]
pub struct Results {
    /// Counts the runs, so that what is derived from the rows knows when they changed.
    pub run: u64,
    /// What the load loaded: request, pages, capacity, where it goes on, how it stopped.
    pub load: Load,
    /// Loaded rows, in server order.
    pub rows: Rows,
    /// Every row, in the order shown (indexes into `rows`): the server's, or sorted. The
    /// rows shown are these, or the find's matches among them when it filters.
    order: Vec<u32>,
    /// Column names: key attributes first, then every other name seen, sorted.
    columns: Vec<String>,
    known: HashSet<String>,
    /// The columns' order, those hidden, those shown with dates.
    layout: ColumnLayout,
    /// The key attribute names of the table or index.
    key_names: Vec<String>,
    /// The row opened in the item view (an index into `rows`): the cursor's, unless closed.
    selected: Option<usize>,
    /// The keyboard cursor: a row (an index into `rows`) and a column among those shown. Kept
    /// by row, so that a sort, a filter or a page arriving leaves it on the same item.
    cursor: Option<(u32, usize)>,
    /// The row at the other end of a range of selected rows.
    anchor: Option<u32>,
    /// The rows selected, by row: a sort or a filter keeps the same items selected.
    chosen: RowSet,
    /// Sorted by this column.
    sort: Option<Sort>,
    /// Find within the rows.
    find: Find,
    /// Scroll the grid to this view position next frame, and to this column (among those
    /// shown) when one is named.
    scroll_to: Option<(usize, Option<usize>)>,
    /// What the load under way (or the last one) is doing.
    pub progress: LoadProgress,
    /// When each row was read.
    pub times: RowTimes,
    /// What an auto-refresh found changed since the read before.
    changes: Option<RowChanges>,
    /// Which grid shows these rows: each tab's its own scroll and column widths.
    grid: GridId,
    /// The rows of the run before, while this run has no page yet: shown again when it fails.
    earlier: Option<Box<Results>>,
    /// A run after these rows failed before its first page (why): these rows are the run
    /// before's, not what the server holds now.
    pub failed_run: Option<Error>,
}

/// A grid's own identity, new for each result set made (kept across a tab's runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GridId(u64);

impl Default for GridId {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Self(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// How a row differs from the read before (an auto-refresh's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowChange {
    /// Its key was not there.
    Added,
    /// Its item differs.
    Changed,
}

impl Results {
    /// Start a new run: clear the rows, keep the column layout and the find text.
    pub fn start(&mut self, request: BrowseRequest, key_names: Vec<String>, estimate: Option<i64>) {
        let mut previous = std::mem::take(self);
        let (run, layout, grid) = (previous.run, previous.layout.clone(), previous.grid);
        let find = std::mem::take(&mut previous.find).restarted();
        // Kept until this run's first page: a run that fails before it shows them again.
        previous.earlier = None;
        let earlier = (previous.load.request.is_some() && !previous.rows.is_empty())
            .then(|| Box::new(previous));
        *self = Self {
            run: run + 1,
            load: Load::of(request, estimate),
            columns: key_names.clone(),
            known: key_names.iter().cloned().collect(),
            key_names,
            layout,
            grid,
            find,
            scroll_to: Some((0, None)),
            earlier,
            ..Self::default()
        };
    }

    /// Empty rows for a result that is not a Query or Scan (PartiQL, SQL), keyed by `key_names`.
    pub fn for_rows(key_names: Vec<String>, run: u64) -> Self {
        Self {
            run,
            columns: key_names.clone(),
            known: key_names.iter().cloned().collect(),
            key_names,
            scroll_to: Some((0, None)),
            ..Self::default()
        }
    }

    /// Show exactly these columns, in this order (a SQL result's), before rows are added.
    pub fn set_columns(&mut self, columns: Vec<String>) {
        self.known = columns.iter().cloned().collect();
        self.columns = columns;
    }

    /// Append a page, adding any new attribute names as columns.
    #[expect(
        clippy::needless_pass_by_value,
        reason = "a page is handed over as it arrives and dropped here once stored (benches time both)"
    )]
    pub fn add_page(&mut self, page: Page) {
        self.earlier = None;
        self.load.count(&page, true);
        self.add_items(&page.items);
    }

    /// Append rows (a page, or rows computed elsewhere such as a SQL result).
    pub fn add_items(&mut self, items: &[Item]) {
        let mut new_names: Vec<String> = Vec::new();
        for item in items {
            for name in item.keys() {
                if !self.known.contains(name) {
                    self.known.insert(name.clone());
                    new_names.push(name.clone());
                }
            }
        }
        if !new_names.is_empty() {
            let keys = self.key_names.len().min(self.columns.len());
            self.columns.extend(new_names);
            self.columns[keys..].sort_by_key(|name| name.to_lowercase());
        }
        let first = self.rows.len() as u32;
        self.times.page(first as usize, std::time::Instant::now());
        self.rows.extend(items);
        let added: Vec<u32> = (first..self.rows.len() as u32).collect();
        match &self.sort {
            None => {
                // Appended in server order: a find goes on to the new rows by itself.
                self.order.extend(&added);
                self.find.appended(&added);
            }
            Some(sort) => {
                // Merged into the sorted order, not the order sorted again; the cursor and the
                // selection are kept by row, so they stay on their items. A find starts over.
                let (column, descending) = (sort.column.clone(), sort.descending);
                merge_sorted(&self.rows, &mut self.order, &added, &column, descending);
                self.find.order_changed();
            }
        }
    }

    /// A parallel scan of `total` segments starts.
    pub fn segments_started(&mut self, total: usize) {
        self.progress = LoadProgress::segmented(total);
    }

    /// Take in what the reader reported: a page, a wait, a segment done.
    pub fn add_event(&mut self, event: SegmentEvent) {
        let segmented = !self.progress.segments.is_empty();
        match event {
            SegmentEvent::Read {
                segment,
                event: ReadEvent::Page(page),
            } => {
                self.progress.page(segment, page.items.len());
                if segmented {
                    self.earlier = None;
                    // Each segment has its own last key; `left` keeps them at the end.
                    self.load.count(&page, false);
                    self.add_items(&page.items);
                } else {
                    self.add_page(page);
                }
            }
            SegmentEvent::Read { segment, event } => {
                let note = if segmented {
                    SegmentEvent::Read { segment, event }.note()
                } else {
                    event.note()
                };
                self.progress.waiting(segment, note);
            }
            SegmentEvent::Done { segment } => self.progress.done(segment),
        }
    }

    /// The load ended with `result`; `left` is what a parallel scan did not read.
    pub fn ended(&mut self, result: Result<Stopped, Error>, left: Option<SegmentStarts>) {
        self.progress.note = None;
        // A failure never wipes what was shown: a run that failed before its first page gives
        // the rows of the run before back, marked as not current.
        if let Err(error) = &result
            && !matches!(error, Error::Cancelled { .. })
            && self.load.pages == 0
            && let Some(mut earlier) = self.earlier.take()
        {
            earlier.run = self.run;
            earlier.failed_run = Some(error.clone());
            earlier.scroll_to = None;
            *self = *earlier;
            return;
        }
        self.earlier = None;
        self.load.ended(result, left);
    }

    /// The item open in the item view.
    pub fn selected_item(&self) -> Option<Item> {
        self.selected.and_then(|i| self.rows.item(i))
    }

    /// The row (index into `rows`) at view position `position`.
    pub fn row_at(&self, position: usize) -> Option<usize> {
        self.view().get(position).map(|&r| r as usize)
    }

    /// Where row `row` is shown (a position in the view), if it is.
    pub fn position_of(&self, row: u32) -> Option<usize> {
        self.view().iter().position(|&r| r == row)
    }

    /// The columns shown, keys first, in the layout's order (borrowed: a frame copies no
    /// name).
    pub fn shown_columns(&self) -> Vec<&str> {
        self.layout.shown(&self.columns, self.key_count())
    }

    /// How many of the columns are key attributes (they come first).
    fn key_count(&self) -> usize {
        self.columns
            .iter()
            .take_while(|c| self.key_names.contains(c))
            .count()
    }

    /// Sort by `column` (ascending, then descending, then server order on the third click);
    /// the same items stay selected and the cursor's row is scrolled to where it went.
    pub fn toggle_sort(&mut self, column: &str) {
        self.sort = match &self.sort {
            Some(s) if s.column == column && !s.descending => Some(Sort {
                column: column.to_owned(),
                descending: true,
            }),
            Some(s) if s.column == column => None,
            _ => Some(Sort {
                column: column.to_owned(),
                descending: false,
            }),
        };
        match &self.sort {
            Some(sort) => sort_rows(&self.rows, &mut self.order, &sort.column, sort.descending),
            None => self.order = (0..self.rows.len() as u32).collect(),
        }
        self.find.order_changed();
        self.scroll_to_cursor();
    }

    /// Scroll to where the cursor's row is now (after a sort or a filter moved it).
    fn scroll_to_cursor(&mut self) {
        if let Some((row, _)) = self.cursor {
            self.scroll_to = self.position_of(row).map(|p| (p, None));
        }
    }

    /// The loaded row whose key is `key` (rows may have been reloaded since it was asked for).
    pub fn row_with_key(&self, key: &Item) -> Option<usize> {
        self.rows.find_key(key)
    }

    /// Put `item`, as the server has it now, in place of row `row`.
    pub fn replace_row(&mut self, row: usize, item: &Item) {
        self.rows.replace(row, item);
        self.times.read_again(row, std::time::Instant::now(), true);
    }

    /// The items at `keys` were deleted by a write of ours: their rows leave the grid — the
    /// row store, the order, the selection, the cursor, the item view — and the rest stay as
    /// they were (selected, sorted, as old as they were). Returns how many rows left.
    pub fn remove_rows(&mut self, keys: &[Item]) -> usize {
        let gone: HashSet<usize> = keys
            .iter()
            .filter_map(|key| self.rows.find_key(key))
            .collect();
        if gone.is_empty() {
            return 0;
        }
        // Old row → new row, for the rows kept.
        let mut moved: Vec<Option<u32>> = vec![None; self.rows.len()];
        let mut kept = Vec::with_capacity(self.rows.len() - gone.len());
        for row in (0..self.rows.len()).filter(|r| !gone.contains(r)) {
            if let Some(item) = self.rows.item(row) {
                moved[row] = u32::try_from(kept.len()).ok();
                kept.push(item);
            }
        }
        let at = |row: u32| moved.get(row as usize).copied().flatten();
        self.times = self.times.kept(&moved);
        self.rows = Rows::from_items(&kept);
        self.order = self.order.iter().filter_map(|&row| at(row)).collect();
        let mut chosen = RowSet::default();
        for row in 0..moved.len() {
            if let Some(new) = u32::try_from(row)
                .ok()
                .filter(|&r| self.chosen.contains(r))
                .and_then(at)
            {
                chosen.insert(new);
            }
        }
        self.chosen = chosen;
        self.selected = self
            .selected
            .and_then(|r| at(u32::try_from(r).ok()?))
            .map(|r| r as usize);
        self.cursor = self.cursor.and_then(|(r, c)| Some((at(r)?, c)));
        self.anchor = self.anchor.and_then(at);
        self.changes = None;
        self.find.order_changed();
        gone.len()
    }

    /// The selected rows shown, in view order.
    pub fn selected_rows(&self) -> Vec<u32> {
        if self.chosen.is_empty() {
            return Vec::new();
        }
        self.view()
            .iter()
            .copied()
            .filter(|&r| self.chosen.contains(r))
            .collect()
    }

    /// The selected rows, by their place in the row store.
    pub fn chosen(&self) -> &RowSet {
        &self.chosen
    }

    /// Whether row `row` is selected.
    pub fn is_chosen(&self, row: u32) -> bool {
        self.chosen.contains(row)
    }
}
