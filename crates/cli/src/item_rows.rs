//! Items on stdout in the output asked for, for every subcommand that prints items (`items`,
//! `scan`, `get`, `partiql`'s SELECT, `sql`): a JSON line each (plain JSON; DynamoDB JSON with
//! `--output json` or `--json`), or rows of `table` or `text` a block at a time.
//!
//! Items have no fixed columns: a block's columns are the key attributes, then every other
//! name in the order it was first seen, and a name seen later is added at the end, so a
//! column keeps its place for the whole read. `table` heads each block and aligns it on its
//! own; `text` heads its first block, and again only when a block brings a new column.

use dynoscope_core::value::{self, Item};

use crate::output::Output;
use crate::style::Form;

/// Prints items in the output asked for.
#[derive(Debug)]
pub(crate) struct ItemRows {
    /// The key attributes, first in every row and JSON object.
    keys: Vec<String>,
    /// Every column seen so far, in its place.
    columns: Vec<String>,
    /// How many columns the last header named (`text` heads again when more are seen).
    headed: usize,
    /// Whether `json` prints DynamoDB JSON (a table's items; SQL's rows are plain JSON in
    /// both).
    typed: bool,
}

impl ItemRows {
    /// A printer of items keyed by `keys` (none for a statement's).
    pub(crate) fn new(keys: Vec<String>) -> Self {
        Self {
            columns: keys.clone(),
            keys,
            headed: 0,
            typed: true,
        }
    }

    /// A printer of SQL's rows, under its `columns`: plain JSON in either JSON output.
    pub(crate) fn sql(columns: Vec<String>) -> Self {
        Self {
            typed: false,
            ..Self::new(columns)
        }
    }

    /// Print `items` as one block; false when stdout stopped taking them (some may be out).
    pub(crate) fn block(&mut self, out: &mut Output, items: &[Item]) -> bool {
        match out.form() {
            Some(Form::Table | Form::Text) => return self.rows(out, items),
            form => {
                let dynamodb = self.typed && form == Some(Form::Json);
                for item in items {
                    if !out.open() {
                        return false;
                    }
                    // Data, not words: each item exactly as a program reading JSON lines takes it.
                    out.data(if dynamodb {
                        value::item_to_dynamodb_json(item, &self.keys, false)
                    } else {
                        value::item_to_plain_json(item, &self.keys, false)
                    });
                }
            }
        }
        out.open()
    }

    /// `items` as rows of a table or tab-separated text, headed as the module says.
    fn rows(&mut self, out: &mut Output, items: &[Item]) -> bool {
        if items.is_empty() {
            return out.open();
        }
        for item in items {
            let mut names: Vec<&String> =
                item.keys().filter(|n| !self.columns.contains(n)).collect();
            names.sort();
            self.columns.extend(names.into_iter().cloned());
        }
        let text = out.form() == Some(Form::Text);
        let cells = |item: &Item| -> Vec<String> {
            (self.columns.iter())
                .map(|name| {
                    item.get(name).map_or_else(String::new, |v| {
                        if text {
                            value::whole_text(v)
                        } else {
                            value::cell_text(v)
                        }
                    })
                })
                .collect()
        };
        let rows: Vec<Vec<String>> = items.iter().map(cells).collect();
        let head = !out.style().quiet && (!text || self.columns.len() > self.headed);
        if head {
            self.headed = self.columns.len();
        }
        out.rows(&self.columns, &rows, head);
        out.open()
    }
}
