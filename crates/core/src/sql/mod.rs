//! SQL over loaded rows: an in-memory SQLite session where each set of loaded items becomes a
//! table (key attributes, every top-level scalar attribute, and the whole item as JSON), so that
//! a `GROUP BY` or a join — a reconciliation of tallies with their children — runs on this
//! machine over rows already read.
//!
//! Numbers stay exact (see [`cells`]): a plain 64-bit integer is stored as an INTEGER, every
//! other number as its exact text, and both come back out of a `SELECT` as the same `N`.

mod cells;
mod examples;
mod guard;
mod item_json;
mod json_batches;
mod limits;
mod rows;
mod schema;

use std::collections::HashMap;

use rusqlite::Connection;

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::rows::Rows;
use crate::rows::encode::Fields;
use crate::value::Item;

pub use examples::SqlExample;
pub use examples::{RECONCILE_LIKES, examples};
pub use limits::SqlLimits;
pub use rows::SqlRows;
pub use schema::ColumnKind;
pub use schema::SqlColumn;
pub(crate) use schema::check_table_name;
pub use schema::quoted;

use json_batches::{JsonBatch, write_json_batches};
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
    #[cfg(test)]
    /// The whole-item JSON column's name (`item`, unless an attribute took it).
    pub(crate) fn item_column(&self) -> &str {
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

/// A set of loaded rows to become an SQL table (a result tab's rows).
#[derive(Debug, Clone)]
pub struct SqlSource {
    /// The table's name in SQL (the tab's name).
    pub name: String,
    /// Its key attributes (the first columns).
    pub key_names: Vec<String>,
    /// Its rows (a clone shares the store's chunks).
    pub rows: Rows,
}

/// Where a run over loaded rows is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SqlStep {
    /// Loading table `name` (`at` of `of`, counting from 1), `rows` rows.
    Loading {
        /// The SQL table.
        name: String,
        /// Which table this is.
        at: usize,
        /// How many there are.
        of: usize,
        /// Its rows.
        rows: usize,
    },
    /// Every table is loaded; the SQL runs.
    Running,
}

impl std::fmt::Display for SqlStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Loading { name, at, of, rows } => {
                write!(
                    f,
                    "Loading {name} ({rows} rows) into SQLite, table {at} of {of}…"
                )
            }
            Self::Running => write!(f, "Running the SQL…"),
        }
    }
}

/// What a run over loaded rows gave: the tables loaded and the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SqlRun {
    /// Each table loaded, in order.
    pub loaded: Vec<Loaded>,
    /// What the SQL returned.
    pub rows: SqlRows,
}

/// Load every source into a new session and run `sql` over them, telling `step` where it is;
/// [`Error::Cancelled`] once `cancel` is cancelled, loading or running.
pub fn run_over(
    sources: &[SqlSource],
    sql: &str,
    cancel: &CancelToken,
    step: impl Fn(SqlStep),
) -> Result<SqlRun> {
    let mut session = SqlSession::new()?;
    session.stop_on(cancel.clone());
    let mut loaded = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        step(SqlStep::Loading {
            name: source.name.clone(),
            at: i + 1,
            of: sources.len(),
            rows: source.rows.len(),
        });
        loaded.push(session.load_rows(&source.name, &source.key_names, &source.rows)?);
    }
    step(SqlStep::Running);
    let rows = session.query(sql)?;
    Ok(SqlRun { loaded, rows })
}

/// An in-memory SQLite database holding loaded tables. Loading replaces a table of the same
/// name; queries may also create tables of their own.
pub struct SqlSession {
    conn: Connection,
    /// What stops a statement: the cancels and the deadline (SQLite's progress handler).
    watch: std::sync::Arc<limits::Watch>,
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
        guard::only_this_session(&conn);
        let watch = limits::Watch::install(&conn).map_err(|e| sql_error("open", "", e))?;
        Ok(Self {
            conn,
            watch,
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
        self.load_rows(name, key_names, &Rows::from_items(items))
    }

    /// [`load`](Self::load) from the compact row store (a result tab's rows), reading each
    /// stored row twice (once for the columns' types, once to insert) without decoding it:
    /// strings, numbers and binary go to SQLite as the stored bytes.
    pub fn load_rows(&mut self, name: &str, key_names: &[String], rows: &Rows) -> Result<Loaded> {
        check_table_name(name)?;
        let plan = schema::plan(key_names, rows);
        let columns = plan.columns;
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
            let item_param = columns.len();
            // Which row last bound each column: the others get NULL.
            let mut bound_by = vec![usize::MAX; columns.len()];
            let mut bind_row = |row: usize, json: &str| -> Result<()> {
                for (id, body) in Fields::new(rows.bytes(row)) {
                    if let Some(&Some(column)) = plan.column_of.get(id) {
                        insert
                            .raw_bind_parameter(column + 1, cells::to_sql(body))
                            .map_err(err)?;
                        bound_by[column] = row;
                    }
                }
                for (column, by) in bound_by.iter().enumerate().take(item_param - 1) {
                    if *by != row {
                        insert
                            .raw_bind_parameter(column + 1, rusqlite::types::Null)
                            .map_err(err)?;
                    }
                }
                insert.raw_bind_parameter(item_param, json).map_err(err)?;
                insert.raw_execute().map_err(err)?;
                Ok(())
            };
            // Two cores' worth: one thread writes the items' JSON while this one inserts.
            std::thread::scope(|scope| {
                let (batches, received) = std::sync::mpsc::sync_channel::<JsonBatch>(4);
                scope.spawn(|| write_json_batches(rows, &plan.place_of, batches));
                for batch in received {
                    for (i, json) in batch.texts().enumerate() {
                        bind_row(batch.first + i, json)?;
                    }
                }
                Ok::<_, Error>(())
            })?;
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
            rows: rows.len(),
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
    pub(crate) fn query_bounded(&self, sql: &str, max_rows: usize) -> Result<SqlRows> {
        self.query_limited(sql, &SqlLimits::rows(max_rows))
    }

    /// [`query`](Self::query) within `limits`: rows and bytes kept, and the time it may run
    /// (past it, an [`Error::Timeout`] that says the limit).
    pub fn query_limited(&self, sql: &str, limits: &SqlLimits) -> Result<SqlRows> {
        let run = || rows::run(&self.conn, &self.loaded, sql, limits);
        self.watch.timed(limits.timeout, run)
    }

    /// Stop whatever runs in this session (a load, a query) once `cancel` is cancelled: it then
    /// fails with [`Error::Cancelled`], and a load leaves nothing behind.
    pub fn stop_on(&self, cancel: CancelToken) {
        self.watch.stop_on(cancel);
    }
}

#[cfg(test)]
mod load_tests;
#[cfg(test)]
mod tests;
