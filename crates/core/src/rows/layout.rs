//! How a table's columns are laid out in a grid: the order asked for, the columns hidden, and
//! the number columns shown with their dates beside them. Remembered per table, so a reconnect
//! or a restart shows the grid as it was left; key attributes always come first and are never
//! hidden.

use std::collections::BTreeSet;

/// A table's column layout.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ColumnLayout {
    /// Attributes in the order asked for; names not listed follow in the grid's own order.
    pub order: Vec<String>,
    /// Attributes hidden.
    pub hidden: BTreeSet<String>,
    /// Number attributes shown with the date they hold, when they look like a time.
    pub dates: BTreeSet<String>,
}

impl ColumnLayout {
    /// `columns` (keys first, then the other names in the grid's order) in this layout's
    /// order: the keys, then the names `order` lists that are there, then the rest as they
    /// came. Hidden ones are left in; [`ColumnLayout::shown`] leaves them out.
    pub fn arrange<'a>(&self, columns: &'a [String], keys: usize) -> Vec<&'a str> {
        let keys = keys.min(columns.len());
        let (key_columns, rest) = columns.split_at(keys);
        let mut arranged: Vec<&str> = key_columns.iter().map(String::as_str).collect();
        let listed = |name: &str| self.order.iter().any(|o| o == name);
        arranged.extend(
            self.order
                .iter()
                .filter_map(|o| rest.iter().find(|c| *c == o))
                .map(String::as_str),
        );
        arranged.extend(rest.iter().map(String::as_str).filter(|c| !listed(c)));
        arranged
    }

    /// The columns shown: arranged, without the hidden ones (keys are always shown).
    pub fn shown<'a>(&self, columns: &'a [String], keys: usize) -> Vec<&'a str> {
        let mut shown = self.arrange(columns, keys);
        let keys = keys.min(shown.len());
        let mut i = 0;
        shown.retain(|c| {
            i += 1;
            i <= keys || !self.hidden.contains(*c)
        });
        shown
    }

    /// Move `name` by `by` places among the non-key columns of `columns` as now arranged
    /// (hidden ones counted, so a move is the same whatever is shown); the whole order is kept
    /// from then on. Nothing moves past either end, and a key does not move.
    pub fn move_column(&mut self, columns: &[String], keys: usize, name: &str, by: isize) {
        let arranged = self.arrange(columns, keys);
        let keys = keys.min(arranged.len());
        let mut rest: Vec<String> = arranged[keys..].iter().map(|c| (*c).to_owned()).collect();
        let Some(from) = rest.iter().position(|c| c == name) else {
            return;
        };
        let to = from.saturating_add_signed(by).min(rest.len() - 1);
        let moved = rest.remove(from);
        rest.insert(to, moved);
        // Names asked for before that this grid has not seen stay, after those it has.
        let unseen: Vec<String> = self
            .order
            .iter()
            .filter(|o| !rest.contains(o))
            .cloned()
            .collect();
        rest.extend(unseen);
        self.order = rest;
    }

    /// Move `name` to where `target` is among the non-key columns of `columns` as now
    /// arranged (a header dropped on another); a key neither moves nor is a target.
    pub fn move_to(&mut self, columns: &[String], keys: usize, name: &str, target: &str) {
        let arranged = self.arrange(columns, keys);
        let place = |n: &str| arranged.iter().skip(keys).position(|c| *c == n);
        if let (Some(from), Some(to)) = (place(name), place(target)) {
            let by = isize::try_from(to).unwrap_or(0) - isize::try_from(from).unwrap_or(0);
            self.move_column(columns, keys, name, by);
        }
    }

    /// The counted attributes — tallies and shard counts a counter rule names — first after
    /// the keys, for a table whose layout was never changed; `true` when that changed it.
    pub fn counted_first(&mut self, counted: &[String]) -> bool {
        if !self.order.is_empty() || counted.is_empty() {
            return false;
        }
        self.order = counted.to_vec();
        true
    }

    /// Whether `name` is shown with its date.
    pub fn shows_date(&self, name: &str) -> bool {
        self.dates.contains(name)
    }

    /// Show `name` with its date, or not.
    pub fn show_date(&mut self, name: &str, shown: bool) {
        if shown {
            self.dates.insert(name.to_owned());
        } else {
            self.dates.remove(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_order_asked_for_comes_after_the_keys_and_new_names_after_it() {
        let columns = names(&["PK", "SK", "author", "likeTally", "title"]);
        let mut layout = ColumnLayout::default();
        assert_eq!(
            layout.arrange(&columns, 2),
            ["PK", "SK", "author", "likeTally", "title"]
        );
        layout.move_column(&columns, 2, "title", -2);
        assert_eq!(
            layout.arrange(&columns, 2),
            ["PK", "SK", "title", "author", "likeTally"]
        );
        // Past the end it stops at the end; a key does not move.
        layout.move_column(&columns, 2, "title", 9);
        assert_eq!(layout.order, ["author", "likeTally", "title"]);
        layout.move_column(&columns, 2, "PK", 1);
        assert_eq!(layout.order, ["author", "likeTally", "title"]);
        // Another read with other names: those listed in order, the others after; a name not
        // seen this time keeps its place for when it comes back.
        let other = names(&["PK", "SK", "likedAt", "title"]);
        assert_eq!(layout.arrange(&other, 2), ["PK", "SK", "title", "likedAt"]);
        layout.move_column(&other, 2, "likedAt", -1);
        assert_eq!(layout.order, ["likedAt", "title", "author", "likeTally"]);
    }

    #[test]
    fn hidden_columns_are_left_out_but_never_a_key() {
        let columns = names(&["PK", "SK", "a", "b"]);
        let layout = ColumnLayout {
            hidden: ["a", "SK"].into_iter().map(str::to_owned).collect(),
            ..ColumnLayout::default()
        };
        assert_eq!(layout.shown(&columns, 2), ["PK", "SK", "b"]);
        let mut dates = ColumnLayout::default();
        dates.show_date("likedAt", true);
        assert!(dates.shows_date("likedAt") && !dates.shows_date("a"));
        dates.show_date("likedAt", false);
        assert_eq!(dates, ColumnLayout::default());
    }
}
