//! SQL over loaded rows: an in-memory SQLite session where each set of loaded items becomes a
//! table (key attributes, every top-level scalar attribute, and the whole item as JSON), so that
//! a `GROUP BY` or a join — a reconciliation of tallies with their children — runs on this
//! machine over rows already read.
//!
//! Numbers stay exact (see [`cells`]): a plain 64-bit integer is stored as an INTEGER, every
//! other number as its exact text, and both come back out of a `SELECT` as the same `N`.

mod cells;
mod examples;
mod item_json;
mod rows;
mod schema;

use std::collections::HashMap;

use rusqlite::Connection;

use crate::core::error::{Error, Result};
use crate::core::rows::Rows;
use crate::core::value::Item;

pub use cells::plain_integer;
pub use examples::{RECONCILE_LIKES, SqlExample, examples};
pub use rows::SqlRows;
pub use schema::{ColumnKind, SqlColumn, check_table_name, quoted};

use rows::sql_error;

/// How many rows a query keeps unless told otherwise: enough for any grid, bounded so that a
/// cross join cannot take all the memory.
pub const MAX_ROWS: usize = 100_000;

/// What one load made: the table's name, its rows and its columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The SQL table's name.
    pub name: String,
    /// Rows loaded.
    pub rows: usize,
    /// Its columns, key attributes first, the whole-item JSON column last.
    pub columns: Vec<SqlColumn>,
}

impl Loaded {
    /// The whole-item JSON column's name (`item`, unless an attribute took it).
    pub fn item_column(&self) -> &str {
        self.columns
            .iter()
            .find(|c| c.kind == ColumnKind::ItemJson)
            .map_or("item", |c| c.name.as_str())
    }

    /// What was loaded, in words: `likes: 1,200 rows, 6 columns`, and every attribute whose
    /// column had to take another name.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{}: {} rows, {} columns",
            self.name,
            self.rows,
            self.columns.len()
        );
        for column in &self.columns {
            match &column.attribute {
                Some(attribute) if *attribute != column.name => {
                    line += &format!("; attribute `{attribute}` is column {}", column.name);
                }
                None if column.name != "item" => {
                    line += &format!("; the whole item is column {}", column.name);
                }
                _ => {}
            }
        }
        line
    }
}

/// Stops a query that is running on another thread (it then fails with
/// [`Error::Cancelled`]).
pub struct SqlCancel(rusqlite::InterruptHandle);

impl SqlCancel {
    /// Stop the statement running now, if any.
    pub fn cancel(&self) {
        self.0.interrupt();
    }
}

/// An in-memory SQLite database holding loaded tables. Loading replaces a table of the same
/// name; queries may also create tables of their own.
pub struct SqlSession {
    conn: Connection,
    /// Loaded tables by lower-case name (SQLite's names ignore case).
    loaded: HashMap<String, Loaded>,
}

impl std::fmt::Debug for SqlSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqlSession")
            .field("tables", &self.loaded.keys())
            .finish_non_exhaustive()
    }
}

impl SqlSession {
    /// A new, empty session.
    pub fn new() -> Result<Self> {
        let conn = Connection::open_in_memory().map_err(|e| sql_error("open", "", e))?;
        // Nothing here outlives the session: no journal, and room for a million rows' pages.
        conn.execute_batch(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; \
             PRAGMA temp_store = MEMORY;",
        )
        .map_err(|e| sql_error("open", "", e))?;
        Ok(Self {
            conn,
            loaded: HashMap::new(),
        })
    }

    /// Load `items` into the table `name`, replacing any table of that name: one column per key
    /// attribute (`key_names`, first), one per top-level scalar attribute seen in any item, and
    /// the whole item as plain JSON (exact numbers), in one transaction.
    pub fn load<'a>(
        &mut self,
        name: &str,
        key_names: &[String],
        items: impl IntoIterator<Item = &'a Item>,
    ) -> Result<Loaded> {
        let items: Vec<&Item> = items.into_iter().collect();
        self.load_from(name, key_names, || items.iter().copied())
    }

    /// [`load`](Self::load) from the compact row store (a result tab's rows), each row decoded
    /// as it is read, twice (once for the columns, once to insert), never all at once.
    pub fn load_rows(&mut self, name: &str, key_names: &[String], rows: &Rows) -> Result<Loaded> {
        self.load_from(name, key_names, || rows.items())
    }

    fn load_from<I, B>(
        &mut self,
        name: &str,
        key_names: &[String],
        pass: impl Fn() -> I,
    ) -> Result<Loaded>
    where
        I: Iterator<Item = B>,
        B: std::borrow::Borrow<Item>,
    {
        check_table_name(name)?;
        let columns = schema::plan_columns(key_names, pass());
        let mut count = 0;
        let err = |e| sql_error("load", "", e);
        let table = quoted(name);
        let tx = self.conn.transaction().map_err(err)?;
        tx.execute_batch(&format!("DROP TABLE IF EXISTS {table};"))
            .map_err(err)?;
        let definitions: Vec<String> = columns.iter().map(|c| quoted(&c.name)).collect();
        tx.execute_batch(&format!(
            "CREATE TABLE {table} ({});",
            definitions.join(", ")
        ))
        .map_err(err)?;
        // The name must also work bare in a query: SQLite's keywords (`select`) do not.
        if tx.prepare(&format!("SELECT * FROM {name}")).is_err() {
            return Err(Error::Invalid(format!(
                "`{name}` is an SQL keyword, so it cannot name a table written bare; pick another"
            )));
        }
        {
            let placeholders = vec!["?"; columns.len()].join(", ");
            let mut insert = tx
                .prepare(&format!("INSERT INTO {table} VALUES ({placeholders})"))
                .map_err(err)?;
            let order: Vec<(usize, &str)> = columns
                .iter()
                .filter_map(|c| c.attribute.as_deref())
                .map(|a| {
                    (
                        key_names.iter().position(|k| k == a).unwrap_or(usize::MAX),
                        a,
                    )
                })
                .collect();
            let mut json = String::new();
            for item in pass() {
                let item = item.borrow();
                count += 1;
                let mut entries = Vec::new();
                // One walk over the item's attributes, in the columns' order: no hashing.
                item_json::ordered_entries(&mut entries, item, key_names);
                let mut next = entries.iter().peekable();
                for (i, column) in order.iter().enumerate() {
                    while next.next_if(|e| (e.0, e.1) < *column).is_some() {}
                    let value = next.next_if(|e| (e.0, e.1) == *column).map(|e| e.2);
                    insert
                        .raw_bind_parameter(i + 1, cells::to_sql(value))
                        .map_err(err)?;
                }
                item_json::write_item(&mut json, &entries);
                insert
                    .raw_bind_parameter(order.len() + 1, json.as_str())
                    .map_err(err)?;
                insert.raw_execute().map_err(err)?;
            }
        }
        // The partition key column indexed: a join of parents to children (the
        // reconciliation) looks a parent's children up by partition instead of building a
        // throwaway index for every query. The sort key is left out: the index builds in
        // about half the time and a partition's children are few.
        let key_columns: Vec<String> = columns
            .iter()
            .filter(|c| c.attribute.as_ref().is_some_and(|a| key_names.contains(a)))
            .map(|c| quoted(&c.name))
            .take(1)
            .collect();
        if !key_columns.is_empty() {
            tx.execute_batch(&format!(
                "CREATE INDEX {} ON {table} ({});",
                quoted(&format!("{name} keys")),
                key_columns.join(", ")
            ))
            .map_err(err)?;
        }
        tx.commit().map_err(err)?;
        let loaded = Loaded {
            name: name.to_owned(),
            rows: count,
            columns,
        };
        self.loaded.insert(name.to_lowercase(), loaded.clone());
        Ok(loaded)
    }

    /// Drop the loaded table `name`; `false` when there was none.
    pub fn drop(&mut self, name: &str) -> Result<bool> {
        if self.loaded.remove(&name.to_lowercase()).is_none() {
            return Ok(false);
        }
        self.conn
            .execute_batch(&format!("DROP TABLE IF EXISTS {};", quoted(name)))
            .map_err(|e| sql_error("drop", "", e))?;
        Ok(true)
    }

    /// The loaded tables, by name.
    pub fn tables(&self) -> Vec<Loaded> {
        let mut tables: Vec<Loaded> = self.loaded.values().cloned().collect();
        tables.sort_by(|a, b| a.name.cmp(&b.name));
        tables
    }

    /// Run `sql` (every statement in order), keeping at most [`MAX_ROWS`] rows of the last
    /// statement that returns rows. A statement SQLite cannot run is an [`Error::Sql`] at its
    /// line and column.
    pub fn query(&self, sql: &str) -> Result<SqlRows> {
        self.query_bounded(sql, MAX_ROWS)
    }

    /// [`query`](Self::query), keeping at most `max_rows` rows.
    pub fn query_bounded(&self, sql: &str, max_rows: usize) -> Result<SqlRows> {
        rows::run(&self.conn, &self.loaded, sql, max_rows)
    }

    /// A handle that stops the query running now, from another thread.
    pub fn canceller(&self) -> SqlCancel {
        SqlCancel(self.conn.get_interrupt_handle())
    }
}

#[cfg(test)]
mod tests;
