//! The `sql` tool's run: each load read through the one reader, then the SQL on a blocking
//! thread off the server's loop (other calls are answered meanwhile), bounded by the
//! connection's timeout, SQLite's length limit per value and the bytes of the answer, and
//! stopped by the client's cancel of the call or by the server stopping.

use std::future::Future;

use serde_json::{Value, json};

use crate::server::{Answer, Server};
use dynoscope_core::cancel::{CancelToken, unless_stopped};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::spec::SqlSpec;
use dynoscope_core::sql::{SqlLimits, SqlSession};
use dynoscope_core::value::{self, Style};

/// The bytes of rows one answer holds (the cells' text and blobs): an answer is one line of
/// JSON the client reads whole, so it is kept far below the rows the app's grid may hold.
pub(crate) const MAX_SQL_BYTES: usize = 16 << 20;

/// Aborts a task when dropped: the watch over a call's cancels ends with the call.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Server {
    /// Load what `spec` names and run its SQL; given up on once `cancelled` ends (the client
    /// cancelled the call) or the server stops.
    pub(super) async fn run_sql(
        &self,
        spec: &SqlSpec,
        cancelled: impl Future<Output = ()> + Send + 'static,
    ) -> Result<Answer> {
        let loads = spec.plan()?;
        let stop = CancelToken::default();
        let _watch = {
            let (stop, server) = (stop.clone(), self.shared.stop.clone());
            AbortOnDrop(tokio::spawn(async move {
                tokio::select! {
                    () = cancelled => {}
                    () = server.cancelled() => {}
                }
                stop.cancel();
            }))
        };
        let mut session = SqlSession::new()?;
        session.stop_on(stop.clone());
        let mut notes = Vec::new();
        for load in &loads {
            let op = if load.partition.is_some() {
                "Query"
            } else {
                "Scan"
            };
            let note = load.load_into(self.connection(), &mut session);
            notes.push(unless_stopped(&stop, op, note).await?);
        }
        let limits = SqlLimits::rows(spec.max_rows)
            .bytes(MAX_SQL_BYTES)
            .within(Some(self.connection().timeout));
        let sql = spec.sql.clone();
        let rows = tokio::task::spawn_blocking(move || session.query_limited(&sql, &limits))
            .await
            .map_err(|e| Error::TaskDied {
                op: "SQL",
                detail: e.to_string(),
            })??;
        let out: Vec<Value> = rows
            .rows
            .iter()
            .map(|row| value::json::item_to_json(row, &rows.columns, Style::Plain))
            .collect();
        notes.extend(rows.notes.iter().map(|n| format!("note: {n}")));
        Ok(Answer::done(json!({
            "columns": rows.columns, "rows": out, "loaded": notes, "summary": rows.summary(),
        })))
    }
}
