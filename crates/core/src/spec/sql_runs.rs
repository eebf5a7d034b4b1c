//! SQL over rows read, run from its spec and said the same way wherever it is asked (the MCP
//! server's `sql`): each load read through the one reader, then the SQL on a blocking thread
//! (the caller's loop is free meanwhile), bounded by the connection's timeout, SQLite's length
//! limit per value, the rows asked for and the bytes given, and stopped by `stop`.

use serde::Serialize;

use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Listing, Report, Tone};
use crate::spec::SqlSpec;
use crate::sql::{SqlLimits, SqlSession};
use crate::value::{Style, json::item_to_json};

/// What an SQL text over rows read returned: a typed report, its document made by serde alone.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SqlAnswer {
    /// The columns of the last statement that returns rows, in its order; a repeated name gets
    /// ` (2)`, ` (3)`… so that every cell of a row has its own key.
    pub columns: Vec<String>,
    /// The rows, each an object keyed by `columns` (numbers exact), at most the rows and bytes
    /// the run was bounded by.
    pub rows: Vec<serde_json::Value>,
    /// What each load read and made, in words, then what to know about the rows (`note: …`).
    pub loaded: Vec<String>,
    /// The rows and columns returned, in words, e.g. `3 rows · 2 columns`.
    pub summary: String,
}

impl SqlSpec {
    /// Read each load into an SQL table, then run the SQL over them: at most `max_rows` rows
    /// and `max_bytes` of them, within the connection's timeout; given up on once `stop` is
    /// cancelled.
    pub async fn run(
        &self,
        connection: &Connection,
        max_bytes: usize,
        stop: &CancelToken,
    ) -> Result<SqlAnswer> {
        let loads = self.plan()?;
        let mut session = SqlSession::new()?;
        session.stop_on(stop.clone());
        let mut loaded = Vec::new();
        for load in &loads {
            let op = if load.partition.is_some() {
                "Query"
            } else {
                "Scan"
            };
            let note = load.load_into(connection, &mut session);
            loaded.push(unless_stopped(stop, op, note).await?);
        }
        let limits = SqlLimits::rows(self.max_rows)
            .bytes(max_bytes)
            .within(Some(connection.timeout));
        let sql = self.sql.clone();
        let rows = tokio::task::spawn_blocking(move || session.query_limited(&sql, &limits))
            .await
            .map_err(|e| Error::TaskDied {
                op: "SQL",
                detail: e.to_string(),
            })??;
        loaded.extend(rows.notes.iter().map(|n| format!("note: {n}")));
        Ok(SqlAnswer {
            rows: (rows.rows.iter())
                .map(|row| item_to_json(row, &rows.columns, Style::Plain))
                .collect(),
            summary: rows.summary(),
            columns: rows.columns,
            loaded,
        })
    }
}

impl Report for SqlAnswer {
    fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = (self.loaded.iter())
            .map(|text| Line::new(Tone::Quiet, text.clone()))
            .collect();
        lines.push(Line::new(Tone::Figure, self.summary.clone()));
        lines
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    fn listing(&self) -> Option<Listing> {
        let columns: Vec<&str> = self.columns.iter().map(String::as_str).collect();
        Some(Listing::of_objects(
            self.rows.clone(),
            &columns,
            self.lines(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Replay;

    #[tokio::test]
    async fn sql_without_loads_says_its_rows_columns_and_summary() {
        let replay = Replay::new(&[]);
        let connection = replay.connection().await;
        let spec = SqlSpec {
            loads: vec![],
            sql: "SELECT 1 AS one, 'a' AS two UNION ALL SELECT 2, 'b'".into(),
            max_rows: 1,
        };
        let answer = spec
            .run(&connection, 1 << 20, &CancelToken::default())
            .await
            .unwrap();
        let document = crate::document::Document::to_json(&answer);
        let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["columns", "rows", "loaded", "summary"]);
        assert_eq!(document["columns"].to_string(), r#"["one","two"]"#);
        assert_eq!(document["rows"].to_string(), r#"[{"one":1,"two":"a"}]"#);
        assert_eq!(answer.ending(), Ending::Done);
        let listing = answer.listing().unwrap();
        assert_eq!(listing.rows, [["1", "a"]]);
        assert_eq!(answer.lines().last().unwrap().text, answer.summary);
        assert!(replay.operations().is_empty());
    }
}
