//! What one SQL run may take: time (a deadline and cancels, asked by SQLite's progress handler),
//! the size of one value (SQLite's length limit, per connection), and the rows and bytes a
//! result keeps.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use rusqlite::limits::Limit;

use crate::cancel::CancelToken;
use crate::error::Error;

/// The largest string, blob or row SQLite may make in a session. A DynamoDB item is at most
/// 400 KB, so its whole-item JSON fits many times over; `randomblob(1000000000)` or a
/// `group_concat` of a whole table is refused before SQLite allocates it. Per connection: the
/// embedded engine's own SQLite connections keep their limits.
pub(crate) const MAX_VALUE_BYTES: usize = 32 << 20;

/// The bytes a result keeps (its cells' text and blobs, 8 per number) unless told otherwise:
/// the rows stop there, said as a note, as they do at the row bound.
pub(crate) const MAX_RESULT_BYTES: usize = 256 << 20;

/// SQLite's virtual-machine steps between two looks at the deadline and the cancels: a few
/// milliseconds at most.
const STEPS_PER_LOOK: i32 = 4_096;

/// What one query may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqlLimits {
    /// Rows kept of the last statement that returns rows.
    pub max_rows: usize,
    /// Bytes kept of those rows.
    pub max_bytes: usize,
    /// How long the whole text may run; `None`: until it ends or is cancelled.
    pub timeout: Option<Duration>,
}

impl SqlLimits {
    /// At most `max_rows` rows and [`MAX_RESULT_BYTES`], no time limit.
    pub fn rows(max_rows: usize) -> Self {
        Self {
            max_rows,
            max_bytes: MAX_RESULT_BYTES,
            timeout: None,
        }
    }

    /// These limits, the run stopped after `timeout` (when there is one).
    #[must_use]
    pub fn within(self, timeout: Option<Duration>) -> Self {
        Self { timeout, ..self }
    }

    /// These limits, keeping at most `max_bytes`.
    #[must_use]
    pub fn bytes(self, max_bytes: usize) -> Self {
        Self { max_bytes, ..self }
    }
}

/// What SQLite's progress handler looks at: the cancels of the session and the deadline of the
/// query under way.
#[derive(Debug, Default)]
pub(super) struct Watch {
    cancels: Mutex<Vec<CancelToken>>,
    deadline: Mutex<Option<Instant>>,
    timed_out: AtomicBool,
}

impl Watch {
    /// Set `conn`'s length limit and its progress handler, which stops a statement (SQLite's
    /// "interrupted") once a cancel is cancelled or the deadline has passed.
    pub(super) fn install(conn: &Connection) -> rusqlite::Result<Arc<Self>> {
        let bytes = i32::try_from(MAX_VALUE_BYTES).unwrap_or(i32::MAX);
        conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, bytes)?;
        let watch = Arc::new(Self::default());
        let looked = Arc::clone(&watch);
        conn.progress_handler(STEPS_PER_LOOK, Some(move || looked.should_stop()));
        Ok(watch)
    }

    /// Stop whatever runs once `cancel` is cancelled (too).
    pub(super) fn stop_on(&self, cancel: CancelToken) {
        if let Ok(mut cancels) = self.cancels.lock() {
            cancels.push(cancel);
        }
    }

    fn should_stop(&self) -> bool {
        let cancelled = self
            .cancels
            .lock()
            .map_or(true, |c| c.iter().any(CancelToken::is_cancelled));
        let late = self
            .deadline
            .lock()
            .map_or(true, |d| d.is_some_and(|d| Instant::now() >= d));
        if late && !cancelled {
            self.timed_out.store(true, Ordering::SeqCst);
        }
        cancelled || late
    }

    /// Run `query` within `timeout`; a query stopped by the deadline is an [`Error::Timeout`]
    /// that says the limit.
    pub(super) fn timed<T>(
        &self,
        timeout: Option<Duration>,
        query: impl FnOnce() -> crate::error::Result<T>,
    ) -> crate::error::Result<T> {
        self.set_deadline(timeout.map(|t| Instant::now() + t));
        self.timed_out.store(false, Ordering::SeqCst);
        let result = query();
        self.set_deadline(None);
        match (result, timeout) {
            (Err(Error::Cancelled { .. }), Some(timeout))
                if self.timed_out.load(Ordering::SeqCst) =>
            {
                Err(Error::Timeout {
                    op: "SQL",
                    detail: format!(
                        "the SQL ran longer than {}, the time it is given (--timeout); it was stopped and nothing of it is kept",
                        words(timeout)
                    ),
                })
            }
            (result, _) => result,
        }
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        if let Ok(mut d) = self.deadline.lock() {
            *d = deadline;
        }
    }
}

/// `2 s`, `1.5 s`, `250 ms`.
fn words(duration: Duration) -> String {
    let ms = duration.as_millis();
    match ms {
        ms if ms < 1000 => format!("{ms} ms"),
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => {
            let fraction = format!("{:03}", ms % 1000);
            format!("{}.{} s", ms / 1000, fraction.trim_end_matches('0'))
        }
    }
}

/// The words of SQLite's "string or blob too big": the limit, in MiB.
pub(super) fn too_big() -> String {
    format!(
        "a value (a string, a blob or a row) would be larger than {} MiB, the most one SQL value may hold here; nothing was made",
        MAX_VALUE_BYTES >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::SqlSession;

    const FOREVER: &str =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

    #[test]
    fn a_query_without_end_stops_at_the_timeout_and_says_it() {
        let session = SqlSession::new().unwrap();
        let limits = SqlLimits::rows(10).within(Some(Duration::from_millis(200)));
        let error = session.query_limited(FOREVER, &limits).unwrap_err();
        assert!(matches!(error, Error::Timeout { op: "SQL", .. }), "{error}");
        let text = error.to_string();
        assert!(text.contains("longer than 200 ms"), "{text}");
        // The session is still usable, and a cancel is still a cancel.
        assert!(session.query_limited("SELECT 1", &limits).is_ok());
        let cancel = CancelToken::default();
        session.stop_on(cancel.clone());
        cancel.cancel();
        let error = session.query_bounded(FOREVER, 10).unwrap_err();
        assert!(matches!(error, Error::Cancelled { .. }), "{error}");
        assert_eq!(words(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(words(Duration::from_secs(2)), "2 s");
    }

    #[test]
    fn a_huge_value_is_refused_before_it_is_made() {
        let session = SqlSession::new().unwrap();
        let error = session
            .query_bounded("SELECT length(randomblob(1000000000)) AS n", 10)
            .unwrap_err()
            .to_string();
        assert!(error.contains("larger than 32 MiB"), "{error}");
        let error = session
            .query_bounded("SELECT length(zeroblob(40000000)) AS n", 10)
            .unwrap_err()
            .to_string();
        assert!(error.contains("larger than 32 MiB"), "{error}");
        // A large value within the limit is fine.
        assert!(
            session
                .query_bounded("SELECT length(randomblob(1000000)) AS n", 10)
                .is_ok()
        );
    }

    #[test]
    fn a_result_keeps_at_most_its_bytes() {
        let session = SqlSession::new().unwrap();
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 100) \
                   SELECT x, randomblob(1000) AS b FROM c";
        let rows = session
            .query_limited(sql, &SqlLimits::rows(1000).bytes(10_000))
            .unwrap();
        assert!(rows.truncated);
        assert!(rows.rows.len() <= 10, "{}", rows.rows.len());
        assert!(
            rows.notes.iter().any(|n| n.contains("10000 bytes")),
            "{:?}",
            rows.notes
        );
    }
}
