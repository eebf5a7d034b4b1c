//! The rows of the current run, as loaded page by page: the items, the columns seen, what
//! loading cost, and the row open in the item view.

use std::collections::HashSet;
use std::sync::Arc;

use crate::core::error::Error;
use crate::core::read::{BrowseRequest, Page};
use crate::core::value::Item;

/// The rows of the current browse run and how they were loaded.
#[derive(Debug, Default)]
pub struct Results {
    /// Counts the runs, so that what is derived from the rows knows when they changed.
    pub run: u64,
    /// The request being paged through.
    pub request: Option<BrowseRequest>,
    /// Loaded items, in server order. Shared so that an export can take them without a copy.
    pub items: Arc<Vec<Item>>,
    /// Column names: key attributes first, then every other name seen, sorted.
    pub columns: Vec<String>,
    known: HashSet<String>,
    /// The key attribute names of the table or index.
    pub key_names: Vec<String>,
    /// Pages loaded.
    pub pages: usize,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
    /// Items the server evaluated (before the filter).
    pub scanned: i64,
    /// Where the next page starts; `None` when the last page is loaded.
    pub last_key: Option<Item>,
    /// The run was cancelled (what loaded is kept).
    pub cancelled: bool,
    /// Why the run stopped.
    pub error: Option<Error>,
    /// The row opened in the item view.
    pub selected: Option<usize>,
    /// The table's item count, for a Scan's progress estimate.
    pub estimate: Option<i64>,
    /// The first non-key column shown (columns scroll sideways, keys stay).
    pub first_column: usize,
}

impl Results {
    /// Start a new run: clear the rows.
    pub fn start(&mut self, request: BrowseRequest, key_names: Vec<String>, estimate: Option<i64>) {
        *self = Self {
            run: self.run + 1,
            request: Some(request),
            columns: key_names.clone(),
            known: key_names.iter().cloned().collect(),
            key_names,
            estimate,
            ..Self::default()
        };
    }

    /// Append a page, adding any new attribute names as columns.
    pub fn add_page(&mut self, page: Page) {
        self.pages += 1;
        self.consumed_rcu += page.consumed_rcu;
        self.scanned += page.scanned_count;
        self.last_key = page.last_key;
        let mut new_names: Vec<String> = Vec::new();
        for item in &page.items {
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
        Arc::make_mut(&mut self.items).extend(page.items);
    }

    /// Whether there is a next page.
    pub fn has_more(&self) -> bool {
        self.last_key.is_some()
    }

    /// The item open in the item view.
    pub fn selected_item(&self) -> Option<&Item> {
        self.selected.and_then(|i| self.items.get(i))
    }

    /// The loaded row whose key is `key` (rows may have been reloaded since it was asked for).
    pub fn row_with_key(&mut self, key: &Item) -> Option<&mut Item> {
        Arc::make_mut(&mut self.items)
            .iter_mut()
            .find(|item| key.iter().all(|(k, v)| item.get(k) == Some(v)))
    }
}
