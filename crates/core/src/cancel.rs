//! Stopping a long run: a token the run asks between steps, and waits on while a request is in
//! flight. What finished before the cancel is kept by whoever collected it.

use std::sync::Arc;

use tokio::sync::watch;

/// Asks a run to stop. Clones share the one flag.
#[derive(Debug, Clone)]
pub struct CancelToken {
    tx: Arc<watch::Sender<bool>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        Self {
            tx: Arc::new(watch::channel(false).0),
        }
    }
}

impl CancelToken {
    /// Ask the run to stop.
    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    /// Whether the run was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        *self.tx.borrow()
    }

    /// Wait until the run is asked to stop.
    pub async fn cancelled(&self) {
        let mut rx = self.tx.subscribe();
        // The sender lives in `self`, so waiting ends only with a cancel.
        let _closed = rx.wait_for(|c| *c).await;
    }
}

/// `read`, given up on when the run is stopped: a read changes nothing, so it need not be waited
/// for.
pub async fn unless_stopped<T>(
    stop: &CancelToken,
    op: &'static str,
    read: impl std::future::Future<Output = crate::error::Result<T>>,
) -> crate::error::Result<T> {
    tokio::select! {
        done = read => done,
        () = stop.cancelled() => Err(crate::error::Error::Cancelled { op }),
    }
}

/// Refuse to send a write once the run was stopped: nothing of it has left.
pub fn not_stopped(stop: &CancelToken, op: &'static str) -> crate::error::Result<()> {
    if stop.is_cancelled() {
        Err(crate::error::Error::Cancelled { op })
    } else {
        Ok(())
    }
}
