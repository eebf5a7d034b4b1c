//! The grid view's state, behind methods: the order shown, the columns (shown and hidden), the
//! keyboard cursor and the selected range, the row open in the item view, the sort, and where
//! to scroll. Its fields are private to the results, so that every change keeps them together
//! (a hidden column moves no cursor onto it, a click sets the anchor and the cursor at once).

use crate::browse::results::{Find, GridId, Results, RowChange, Sort};
use dynoscope_core::rows::{ColumnLayout, RowChanges};

impl Results {
    /// The key attribute names of the table or index.
    pub fn key_names(&self) -> &[String] {
        &self.key_names
    }

    /// Whether `name` is a key attribute.
    pub fn is_key(&self, name: &str) -> bool {
        self.key_names.iter().any(|k| k == name)
    }

    /// Every column in the layout's order (hidden ones too): key attributes first.
    pub fn columns(&self) -> Vec<&str> {
        self.layout.arrange(&self.columns, self.key_count())
    }

    /// The column layout (order, hidden, dates), as remembered for the table.
    pub fn layout(&self) -> &ColumnLayout {
        &self.layout
    }

    /// Lay the columns out as `layout` says (the table's, remembered); the cursor leaves the
    /// grid when the columns shown change.
    pub fn set_layout(&mut self, layout: &ColumnLayout) {
        if self.layout != *layout {
            let shown = self.layout.shown(&self.columns, self.key_count()).len();
            self.layout.clone_from(layout);
            if shown != self.shown_columns().len() || self.layout.order != layout.order {
                self.cursor = None;
            }
        }
    }

    /// How many columns seen here the user hid.
    pub fn hidden_count(&self) -> usize {
        self.columns
            .iter()
            .filter(|c| self.layout.hidden.contains(*c) && !self.is_key(c))
            .count()
    }

    /// Whether the user hid `name`.
    pub fn is_hidden(&self, name: &str) -> bool {
        self.layout.hidden.contains(name)
    }

    /// Show or hide one column (key attributes are always shown); the cursor leaves the grid,
    /// whose columns moved.
    pub fn show_column(&mut self, name: &str, shown: bool) {
        if shown {
            self.layout.hidden.remove(name);
        } else if !self.is_key(name) {
            self.layout.hidden.insert(name.to_owned());
        }
        self.cursor = None;
    }

    /// Show every column (`true`) or only the key attributes.
    pub fn show_all_columns(&mut self, all: bool) {
        if all {
            self.layout.hidden.clear();
        } else {
            let others = self.columns.iter().filter(|c| !self.key_names.contains(c));
            self.layout.hidden.extend(others.cloned());
        }
        self.cursor = None;
    }

    /// Move `name` by `by` places among the other columns (keys stay first); the cursor
    /// leaves the grid, whose columns moved.
    pub fn move_column_to(&mut self, name: &str, target: &str) {
        let keys = self.key_count();
        self.layout.move_to(&self.columns, keys, name, target);
        self.cursor = None;
    }

    /// The counted attributes first after the keys, when this layout was never changed.
    pub fn counted_first(&mut self, counted: &[String]) {
        self.layout.counted_first(counted);
    }

    /// Move column `name` by `by` places (see [`ColumnLayout::move_column`]).
    pub fn move_column(&mut self, name: &str, by: isize) {
        let keys = self.key_count();
        self.layout.move_column(&self.columns, keys, name, by);
        self.cursor = None;
    }

    /// Back to the grid's own order (keys, then names sorted).
    pub fn reset_order(&mut self) {
        self.layout.order.clear();
        self.cursor = None;
    }

    /// Whether `name` is shown with its dates.
    pub fn shows_date(&self, name: &str) -> bool {
        self.layout.shows_date(name)
    }

    /// Show `name` with its dates, or not.
    pub fn show_date(&mut self, name: &str, shown: bool) {
        self.layout.show_date(name, shown);
    }

    /// The keyboard cursor: a row (an index into `rows`) and a column among those shown.
    pub fn cursor(&self) -> Option<(u32, usize)> {
        self.cursor
    }

    /// Where the cursor is shown: its position in the view and its column, when its row is
    /// shown.
    pub fn cursor_position(&self) -> Option<(usize, usize)> {
        let (row, column) = self.cursor?;
        Some((self.position_of(row)?, column))
    }

    /// Whether the other end of a range is set.
    #[cfg(test)]
    pub fn has_anchor(&self) -> bool {
        self.anchor.is_some()
    }

    /// Move the cursor to view position `to`, column `column`, and open its row; `extend`
    /// selects every row from the anchor's to it (Shift), else that one row, which becomes
    /// the anchor. The grid scrolls there.
    pub fn move_cursor(&mut self, to: usize, column: usize, extend: bool) {
        let Some(last) = self.view().len().checked_sub(1) else {
            return;
        };
        let to = to.min(last);
        let row = self.view()[to];
        let from = self
            .anchor
            .filter(|_| extend)
            .and_then(|anchor| self.position_of(anchor));
        self.chosen.clear();
        if let Some(from) = from {
            let range: Vec<u32> = self.view()[from.min(to)..=from.max(to)].to_vec();
            for r in range {
                self.chosen.insert(r);
            }
        } else {
            self.anchor = Some(row);
            self.chosen.insert(row);
        }
        self.cursor = Some((row, column));
        self.selected = Some(row as usize);
        self.scroll_to = Some((to, None));
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
        let Some(&last) = self.view().last() else {
            return;
        };
        let column = self.cursor.map_or(0, |(_, c)| c);
        self.chosen.clear();
        let rows: Vec<u32> = self.view().to_vec();
        for row in rows {
            self.chosen.insert(row);
        }
        self.anchor = self.view().first().copied();
        self.cursor = Some((last, column));
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

    /// Where to scroll the grid this frame (once): a view position, and a column among those
    /// shown when it should come into view sideways.
    pub fn take_scroll(&mut self) -> Option<(usize, Option<usize>)> {
        self.scroll_to.take()
    }

    /// Which grid shows these rows (its scroll and widths are its own).
    pub fn grid_id(&self) -> GridId {
        self.grid
    }

    /// What a refresh found changed, shown on the rows.
    pub fn set_changes(&mut self, changes: Option<RowChanges>) {
        self.changes = changes;
    }

    /// How row `row` differs from the read before, when a refresh compared them.
    pub fn change_of(&self, row: u32) -> Option<RowChange> {
        let changes = self.changes.as_ref()?;
        if changes.added.contains(row) {
            Some(RowChange::Added)
        } else if changes.changed.contains(row) {
            Some(RowChange::Changed)
        } else {
            None
        }
    }

    /// Sort by `sort` as the rows arrive (a refresh keeps the sort of the read before).
    pub fn restore_sort(&mut self, sort: Option<Sort>) {
        self.sort = sort;
    }

    /// How many rows are selected (among those shown, when a find filters).
    pub fn selected_count(&self) -> usize {
        if self.filtering() {
            self.selected_rows().len()
        } else {
            self.chosen.len()
        }
    }
}
