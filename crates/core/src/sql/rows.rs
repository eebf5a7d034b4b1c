//! Running SQL text and turning what it returns into rows of DynamoDB values, bounded.

use std::collections::HashMap;

use rusqlite::fallible_iterator::FallibleIterator as _;
use rusqlite::{Batch, Connection, Statement};

use crate::error::{Error, Result, TextPosition};
use crate::sql::Loaded;
use crate::sql::cells::from_sql;
use crate::sql::limits::{SqlLimits, too_big};
use crate::sql::schema::ColumnKind;
use crate::value::Item;

/// What a query returned: the columns in order and one item per row, keyed by column name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SqlRows {
    /// Column names in the statement's order; a repeated name gets ` (2)`, ` (3)`… so that
    /// every cell of a row has its own key.
    pub columns: Vec<String>,
    /// The rows, at most the bound the query ran with.
    pub rows: Vec<Item>,
    /// More rows matched than were kept.
    pub truncated: bool,
    /// Rows inserted, updated or deleted by the statements, as SQLite counts them (a
    /// `CREATE TABLE … AS` is not counted).
    pub changed: u64,
    /// What to know about these rows: REAL columns, the bound, statements before the last.
    pub notes: Vec<String>,
}

impl SqlRows {
    /// One line for a status bar: `3 rows · 4 columns`.
    pub fn summary(&self) -> String {
        let rows = self.rows.len();
        let more = if self.truncated {
            " (more not kept)"
        } else {
            ""
        };
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let mut line = format!(
            "{}{more} · {}",
            plural(rows, "row"),
            plural(self.columns.len(), "column")
        );
        if self.changed > 0 {
            line += &format!(" · {} changed", plural(self.changed as usize, "row"));
        }
        line
    }
}

/// Run every statement of `sql` in order; the rows are those of the last statement that
/// returns rows, at most `limits.max_rows` of them and `limits.max_bytes`.
pub(super) fn run(
    conn: &Connection,
    loaded: &HashMap<String, Loaded>,
    sql: &str,
    limits: &SqlLimits,
) -> Result<SqlRows> {
    // Rows inserted, updated or deleted by the whole text (`changes()` also reports DDL).
    let changes_before = conn.total_changes();
    let mut result = SqlRows::default();
    let mut batch = Batch::new(conn, sql);
    let mut with_rows = 0usize;
    while let Some(mut statement) = batch.next().map_err(|e| sql_error("query", sql, e))? {
        if statement.column_count() == 0 {
            statement
                .raw_execute()
                .map_err(|e| sql_error("query", sql, e))?;
            continue;
        }
        result = rows_of(&mut statement, loaded, limits).map_err(|e| sql_error("query", sql, e))?;
        with_rows += 1;
    }
    result.changed = conn.total_changes().saturating_sub(changes_before);
    if with_rows > 1 {
        result.notes.push(format!(
            "{with_rows} statements returned rows; these are the last one's"
        ));
    }
    if result.truncated {
        let rows = result.rows.len();
        let bound = if rows < limits.max_rows {
            format!(
                " (at {} bytes, the most a result holds here)",
                limits.max_bytes
            )
        } else {
            String::new()
        };
        result.notes.push(format!(
            "only the first {rows} rows are kept{bound}; narrow the query (WHERE, LIMIT) to see the rest"
        ));
    }
    Ok(result)
}

/// The rows of one statement that returns rows.
fn rows_of(
    statement: &mut Statement<'_>,
    loaded: &HashMap<String, Loaded>,
    limits: &SqlLimits,
) -> rusqlite::Result<SqlRows> {
    let kinds = column_kinds(statement, loaded);
    let columns = unique_columns(statement);
    let mut real = vec![false; columns.len()];
    let mut rows = Vec::new();
    let mut truncated = false;
    let mut bytes = 0usize;
    let mut cursor = statement.raw_query();
    while let Some(row) = cursor.next()? {
        let row_bytes = (0..columns.len())
            .map(|i| row.get_ref(i).map(cell_bytes))
            .sum::<rusqlite::Result<usize>>()?;
        bytes = bytes.saturating_add(row_bytes);
        if rows.len() >= limits.max_rows || bytes > limits.max_bytes {
            truncated = true;
            break;
        }
        let mut item = Item::with_capacity(columns.len());
        for (i, name) in columns.iter().enumerate() {
            let (value, is_real) = from_sql(row.get_ref(i)?, kinds[i]);
            real[i] |= is_real;
            item.insert(name.clone(), value);
        }
        rows.push(item);
    }
    let computed: Vec<&str> = columns
        .iter()
        .zip(&real)
        .filter(|(_, r)| **r)
        .map(|(c, _)| c.as_str())
        .collect();
    let mut notes = Vec::new();
    if !computed.is_empty() {
        notes.push(format!(
            "{}: computed by SQLite in floating point (REAL), so it may not be exact (loaded numbers are)",
            computed.join(", ")
        ));
    }
    Ok(SqlRows {
        columns,
        rows,
        truncated,
        changed: 0,
        notes,
    })
}

/// What a cell counts toward a result's bytes: its text or blob, 8 for a number.
fn cell_bytes(cell: rusqlite::types::ValueRef<'_>) -> usize {
    use rusqlite::types::ValueRef;
    match cell {
        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => bytes.len(),
        ValueRef::Null | ValueRef::Integer(_) | ValueRef::Real(_) => 8,
    }
}

/// What each result column holds, when it is a loaded column itself (also through an alias or
/// a subquery); computed columns are `Other`.
fn column_kinds(statement: &Statement<'_>, loaded: &HashMap<String, Loaded>) -> Vec<ColumnKind> {
    statement
        .columns_with_metadata()
        .iter()
        .map(|meta| {
            let (Some(table), Some(origin)) = (meta.table_name(), meta.origin_name()) else {
                return ColumnKind::Other;
            };
            loaded
                .get(&table.to_lowercase())
                .and_then(|t| {
                    t.columns
                        .iter()
                        .find(|c| c.name.eq_ignore_ascii_case(origin))
                })
                .map_or(ColumnKind::Other, |c| c.kind)
        })
        .collect()
}

/// The statement's column names, a repeated one made distinct with ` (2)`, ` (3)`….
fn unique_columns(statement: &Statement<'_>) -> Vec<String> {
    let mut columns: Vec<String> = Vec::with_capacity(statement.column_count());
    for name in statement.column_names() {
        let mut unique = name.to_owned();
        let mut n = 2;
        while columns.contains(&unique) {
            unique = format!("{name} ({n})");
            n += 1;
        }
        columns.push(unique);
    }
    columns
}

/// A SQLite error while doing `op` on `sql`, with the position in `sql` when SQLite gives one.
/// An interrupted statement is a cancel.
pub(crate) fn sql_error(op: &'static str, sql: &str, error: rusqlite::Error) -> Error {
    if let rusqlite::Error::SqliteFailure(failure, _) = &error
        && failure.code == rusqlite::ErrorCode::OperationInterrupted
    {
        return Error::Cancelled { op: "SQL" };
    }
    if let rusqlite::Error::SqliteFailure(failure, _) = &error
        && failure.code == rusqlite::ErrorCode::TooBig
    {
        return Error::Sql {
            op,
            message: too_big(),
            at: None,
        };
    }
    if let rusqlite::Error::SqliteFailure(failure, _) = &error
        && failure.code == rusqlite::ErrorCode::AuthorizationForStatementDenied
    {
        return Error::Sql {
            op,
            message: "not authorized: SQL here reads the loaded tables only (ATTACH and DETACH are refused)".into(),
            at: None,
        };
    }
    match error {
        rusqlite::Error::SqlInputError {
            msg,
            sql: part,
            offset,
            ..
        } => {
            // A statement after the first is prepared from the rest of the text: its offset
            // counts from there.
            let base = if sql.ends_with(&part) {
                sql.len() - part.len()
            } else {
                0
            };
            Error::Sql {
                op,
                message: msg,
                at: usize::try_from(offset)
                    .ok()
                    .map(|o| TextPosition::in_text(sql, base + o)),
            }
        }
        rusqlite::Error::SqliteFailure(failure, message) => Error::Sql {
            op,
            message: message.unwrap_or_else(|| failure.to_string()),
            at: None,
        },
        other => Error::Sql {
            op,
            message: other.to_string(),
            at: None,
        },
    }
}
