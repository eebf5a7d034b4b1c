//! The grid view's state, behind methods: the order shown, the columns (shown and hidden), the
//! keyboard cursor and the selected range, the row open in the item view, the sort, and where
//! to scroll. Its fields are private to the results, so that every change keeps them together
//! (a hidden column moves no cursor onto it, a click sets the anchor and the cursor at once).

use crate::ui::browse::results::{Find, Results, Sort};

impl Results {
    /// The rows shown, in the order shown (indexes into `rows`).
    pub fn view(&self) -> &[u32] {
        &self.view
    }

    /// The key attribute names of the table or index.
    pub fn key_names(&self) -> &[String] {
        &self.key_names
    }

    /// Whether `name` is a key attribute.
    pub fn is_key(&self, name: &str) -> bool {
        self.key_names.iter().any(|k| k == name)
    }

    /// Every column: key attributes first, then every other name seen, sorted.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// How many columns the user hid.
    pub fn hidden_count(&self) -> usize {
        self.hidden.len()
    }

    /// Whether the user hid `name`.
    pub fn is_hidden(&self, name: &str) -> bool {
        self.hidden.contains(name)
    }

    /// Show or hide one column (key attributes are always shown); the cursor leaves the grid,
    /// whose columns moved.
    pub fn show_column(&mut self, name: &str, shown: bool) {
        if shown {
            self.hidden.remove(name);
        } else if !self.is_key(name) {
            self.hidden.insert(name.to_owned());
        }
        self.cursor = None;
    }

    /// Show every column (`true`) or only the key attributes.
    pub fn show_all_columns(&mut self, all: bool) {
        self.hidden = if all {
            Default::default()
        } else {
            self.columns
                .iter()
                .filter(|c| !self.key_names.contains(c))
                .cloned()
                .collect()
        };
        self.cursor = None;
    }

    /// The keyboard cursor: a position in the view and a column among those shown.
    pub fn cursor(&self) -> Option<(usize, usize)> {
        self.cursor
    }

    /// Whether the other end of a range is set.
    pub fn has_anchor(&self) -> bool {
        self.anchor.is_some()
    }

    /// Move the cursor to view position `to`, column `column`; `extend` keeps the other end
    /// of the range where it was (Shift), else the range is that one row. The grid scrolls
    /// there.
    pub fn move_cursor(&mut self, to: usize, column: usize, extend: bool) {
        let to = to.min(self.view.len().saturating_sub(1));
        if !extend || self.anchor.is_none() {
            self.anchor = Some(to);
        }
        self.cursor = Some((to, column));
        self.scroll_to = Some(to);
    }

    /// Put the cursor on a cell clicked, as [`move_cursor`](Self::move_cursor) does, without
    /// scrolling: the cell is in view already.
    pub fn click_cell(&mut self, position: usize, column: usize, extend: bool) {
        let scroll = self.scroll_to;
        self.move_cursor(position, column, extend);
        self.scroll_to = scroll;
    }

    /// Select every row shown, the cursor on the last.
    pub fn select_all(&mut self) {
        if let Some(last) = self.view.len().checked_sub(1) {
            let column = self.cursor.map_or(0, |(_, c)| c);
            self.anchor = Some(0);
            self.cursor = Some((last, column));
        }
    }

    /// The row open in the item view (an index into `rows`).
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Open the row at view position `position` in the item view.
    pub fn open_at(&mut self, position: usize) {
        self.selected = self.row_at(position);
    }

    /// Open row `row` (an index into `rows`) in the item view.
    pub fn open_row(&mut self, row: usize) {
        self.selected = Some(row).filter(|&r| r < self.rows.len());
    }

    /// Close the item view.
    pub fn close_item(&mut self) {
        self.selected = None;
    }

    /// Sorted by this column, if any.
    pub fn sort(&self) -> Option<&Sort> {
        self.sort.as_ref()
    }

    /// Find within the rows.
    pub fn find(&self) -> &Find {
        &self.find
    }

    /// Open the find bar, its text field taking the keyboard.
    pub fn open_find(&mut self) {
        self.find.open = true;
        self.find.focus = true;
    }

    /// Whether the find bar's field should take the keyboard now (once).
    pub fn take_find_focus(&mut self) -> bool {
        std::mem::take(&mut self.find.focus)
    }

    /// Where to scroll the grid this frame (once).
    pub fn take_scroll(&mut self) -> Option<usize> {
        self.scroll_to.take()
    }
}
