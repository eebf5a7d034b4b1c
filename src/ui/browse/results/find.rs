//! Find within the loaded rows: the text, highlight or filter, the matches in view order and
//! the one the cursor is on.

use crate::core::rows::{Finder, find_rows};
use crate::ui::browse::results::Results;

/// Find within the loaded rows.
#[derive(Debug, Default)]
pub struct Find {
    /// Whether the find bar is open.
    pub open: bool,
    /// The text looked for.
    pub text: String,
    /// Show only matching rows (otherwise matching cells are highlighted).
    pub filter: bool,
    /// Rows that match, in view order.
    pub matches: Vec<u32>,
    /// The match the cursor is on.
    pub current: usize,
    /// The bar's text field should take the keyboard.
    pub focus: bool,
    pub(super) finder: Option<Finder>,
}

impl Find {
    /// The prepared text, when there is any.
    pub fn finder(&self) -> Option<&Finder> {
        self.finder.as_ref().filter(|_| self.open)
    }
}

impl Results {
    /// Set the find text or the filter switch; the view and the matches follow.
    pub fn set_find(&mut self, text: &str, filter: bool) {
        if self.find.text != text || self.find.finder.is_none() {
            self.find.text = text.to_owned();
            self.find.finder = Finder::new(text);
            self.find.current = 0;
        }
        self.find.filter = filter;
        self.rebuild_view();
    }

    /// Close the find bar: every row again, nothing highlighted.
    pub fn close_find(&mut self) {
        self.find.open = false;
        self.rebuild_view();
    }

    pub(super) fn refresh_matches(&mut self) {
        self.find.matches = match self.find.finder() {
            Some(finder) => find_rows(&self.rows, &self.view, finder),
            None => Vec::new(),
        };
        if self.find.current >= self.find.matches.len() {
            self.find.current = 0;
        }
    }

    /// Move to the next (or previous) match: it becomes the cursor and is scrolled to.
    pub fn step_match(&mut self, forward: bool) {
        let count = self.find.matches.len();
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

    /// Put the cursor on the current match.
    pub fn jump_to_match(&mut self) {
        let Some(&row) = self.find.matches.get(self.find.current) else {
            return;
        };
        if let Some(position) = self.view.iter().position(|&r| r == row) {
            let column = self.cursor.map_or(0, |(_, c)| c);
            self.cursor = Some((position, column));
            self.anchor = Some(position);
            self.scroll_to = Some(position);
        }
    }
}
