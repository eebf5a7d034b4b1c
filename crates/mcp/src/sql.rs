//! The `sql` tool's run: each load read through the one reader, then the SQL on a blocking
//! thread off the server's loop (other calls are answered meanwhile), bounded by the
//! connection's timeout, SQLite's length limit per value and the bytes of the answer, and
//! stopped by the client's cancel of the call or by the server stopping.

use std::future::Future;

use crate::server::{Answer, Server};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::error::Result;
use dynoscope_core::spec::SqlSpec;

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
        let report = spec.run(self.connection(), MAX_SQL_BYTES, &stop).await?;
        Answer::of(&report)
    }
}
