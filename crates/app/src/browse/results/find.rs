//! Find within the loaded rows, as you type: the text, highlight or filter, the matches found so
//! far (a bounded slice of rows a frame, narrowed from the last text when it only grew), the
//! match the cursor is on, and the first match put under the cursor and scrolled to, sideways
//! too, as soon as it is found.

use crate::browse::results::Results;
use dynoscope_core::rows::{FindScan, Finder};

/// Rows looked at between two looks at the clock.
const ROWS_PER_STEP: usize = 10_000;

/// The time a frame spends looking through rows, so that a keystroke is painted at once even
/// at a million rows; what is left is looked at in the next frames.
pub const FIND_TIME_PER_FRAME: std::time::Duration = std::time::Duration::from_millis(20);

/// Find within the loaded rows.
#[derive(Debug, Default)]
pub struct Find {
    /// Whether the find bar is open.
    pub open: bool,
    /// The text looked for.
    pub text: String,
    /// Show only matching rows (otherwise matching cells are highlighted).
    pub filter: bool,
    /// The match the cursor is on (an index into the matches).
    pub current: usize,
    /// The bar's text field should take the keyboard.
    pub focus: bool,
    /// The search under way or done, for the text.
    pub(super) scan: Option<FindScan>,
    /// Put the cursor on the first match once it is found (the text changed).
    pub(super) jump: bool,
}

impl Find {
    /// The prepared text, when the bar is open and there is any.
    pub fn finder(&self) -> Option<&Finder> {
        self.scan
            .as_ref()
            .filter(|_| self.open)
            .map(FindScan::finder)
    }

    /// The matches found so far, in view order.
    pub fn matches(&self) -> &[u32] {
        match &self.scan {
            Some(scan) if self.open => scan.matches(),
            _ => &[],
        }
    }

    /// The same text and switches for a new run of the tab, searched again from the start.
    pub(super) fn restarted(self) -> Self {
        Self {
            open: self.open,
            scan: self.scan.map(|s| FindScan::new(s.finder().clone(), None)),
            text: self.text,
            filter: self.filter,
            ..Self::default()
        }
    }

    /// Rows were appended to the order (unsorted).
    pub(super) fn appended(&mut self, added: &[u32]) {
        if let Some(scan) = &mut self.scan {
            scan.appended(added);
        }
    }

    /// The order changed (a sort, a page merged into it): searched again from the start.
    pub(super) fn order_changed(&mut self) {
        if let Some(scan) = &mut self.scan {
            *scan = FindScan::new(scan.finder().clone(), None);
        }
        self.current = 0;
    }
}

impl Results {
    /// Whether the rows shown are the find's matches only.
    pub fn filtering(&self) -> bool {
        self.find.filter && self.find.finder().is_some()
    }

    /// The rows shown, in the order shown (indexes into `rows`).
    pub fn view(&self) -> &[u32] {
        if self.filtering() {
            self.find.matches()
        } else {
            &self.order
        }
    }

    /// Set the find text or the filter switch. A new text is searched for from the start of
    /// the order (among the last text's matches when it only grew), and its first match taken
    /// to as soon as it is found; the cursor stays on its item when only the filter changed.
    pub fn set_find(&mut self, text: &str, filter: bool) {
        if self.find.text != text || self.find.scan.is_none() {
            let earlier = self
                .find
                .scan
                .take()
                .filter(|_| self.find.text != text)
                .map(|scan| (scan, self.order.as_slice()));
            let scan = Finder::new(text).map(|finder| FindScan::new(finder, earlier));
            text.clone_into(&mut self.find.text);
            self.find.scan = scan;
            self.find.current = 0;
            self.find.jump = true;
        }
        if self.find.filter != filter {
            self.find.filter = filter;
            self.scroll_to_cursor();
        }
    }

    /// A frame's share of the find: rows looked at for up to [`FIND_TIME_PER_FRAME`]; whether
    /// it is still searching (the caller asks for another frame).
    pub fn find_frame(&mut self) -> bool {
        let started = std::time::Instant::now();
        while self.advance_find(ROWS_PER_STEP) {
            if started.elapsed() >= FIND_TIME_PER_FRAME {
                return true;
            }
        }
        false
    }

    /// Look at up to `budget` more rows for the find; whether it is still searching (the
    /// caller asks for another frame). The first match found after the text changed becomes
    /// the cursor and is scrolled to.
    pub fn advance_find(&mut self, budget: usize) -> bool {
        if !self.find.open {
            return false;
        }
        let Some(scan) = &mut self.find.scan else {
            return false;
        };
        let done = scan.step(&self.rows, &self.order, budget);
        if self.find.jump && !self.find.matches().is_empty() {
            self.find.jump = false;
            self.jump_to_match();
        }
        if done {
            self.find.jump = false;
        }
        !done
    }

    /// Whether the find is still looking through the rows.
    pub fn searching(&self) -> bool {
        self.find.open
            && self
                .find
                .scan
                .as_ref()
                .is_some_and(|s| !s.done(self.order.len()))
    }

    /// Close the find bar: every row again, nothing highlighted; the cursor stays on its item.
    pub fn close_find(&mut self) {
        self.find.open = false;
        self.scroll_to_cursor();
    }

    /// Move to the next (or previous) match: it becomes the cursor and is scrolled to.
    pub fn step_match(&mut self, forward: bool) {
        let count = self.find.matches().len();
        if count == 0 {
            return;
        }
        self.find.current = if forward {
            (self.find.current + 1) % count
        } else {
            (self.find.current + count - 1) % count
        };
        self.jump_to_match();
    }

    /// Put the cursor on the current match, on its first matching column shown, open it, and
    /// scroll there (down and sideways).
    pub fn jump_to_match(&mut self) {
        let Some(&row) = self.find.matches().get(self.find.current) else {
            return;
        };
        let Some(position) = self.position_of(row) else {
            return;
        };
        let column = match self.find.finder() {
            Some(finder) => self
                .shown_columns()
                .iter()
                .position(|name| finder.cell_matches(&self.rows, row as usize, name)),
            None => None,
        };
        let column = column.or(self.cursor.map(|(_, c)| c)).unwrap_or(0);
        self.move_cursor(position, column, false);
        self.scroll_to = Some((position, Some(column)));
    }
}
