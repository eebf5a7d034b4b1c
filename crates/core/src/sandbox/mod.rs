//! The embedded sandbox: dynoxide in this process, served over real HTTP on loopback, so the
//! app talks to it through the same SDK code path as to AWS.
//!
//! dynoxide runs each request behind one lock on the runtime that hosts it, so the server gets
//! a runtime thread of its own: a long scan there never stalls the app's worker.

use std::net::SocketAddr;
use std::path::Path;

use tokio::sync::oneshot;

use crate::error::{Error, Result};
use crate::seed;

mod file;

pub use file::lock_path;
use file::{index_memory_stream, open_db};

/// A running embedded DynamoDB engine. Dropping it stops the server.
pub struct Sandbox {
    endpoint: String,
    addr: SocketAddr,
    db: dynoxide::Database,
    seeded: Option<seed::SeedReport>,
    shutdown: Option<oneshot::Sender<()>>,
    /// Disconnected once the server's thread has ended (and let go of the database).
    stopped: Option<std::sync::Mutex<std::sync::mpsc::Receiver<()>>>,
    /// A file sandbox's hold on its file ([`hold`]): let go of last, after the server.
    _held: Option<std::fs::File>,
}

/// How long dropping a sandbox waits for its server to let go of the database.
const STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Start an engine on `127.0.0.1:port` (`0` picks a free port), in memory or in the file at
    /// `db_path`, and seed it with the sample data when it is new.
    pub async fn start(db_path: Option<&Path>, port: u16) -> Result<Self> {
        let (db, fresh, held) = open_db(db_path)?;
        if db_path.is_some() {
            // `synchronous = NORMAL` (what the engine calls the end of bulk loading) instead of
            // FULL: in the engine's WAL mode a commit no longer waits for the disk, so a file
            // sandbox takes writes about twice as fast; the file stays whole after a crash, and
            // only the last commits before a power cut can be lost.
            db.disable_bulk_loading()
                .map_err(|e| Error::Sandbox(format!("cannot set up the database file: {e}")))?;
        }
        // The port is taken first (a port in use is said before any seeding), but requests are
        // answered only once the seed, its history included, is whole: a client that waits
        // for the port never sees a half-seeded engine; its requests wait until then.
        let (open_tx, open_rx) = oneshot::channel::<()>();
        let mut sandbox = Self::serve(db, port, open_rx, held).await?;
        if db_path.is_none() {
            // Nothing to let go of: an in-memory sandbox's drop never waits (it may be the UI
            // thread's, on a switch of connection).
            sandbox.stopped = None;
        }
        if fresh {
            let db = sandbox.db.clone();
            let report = tokio::task::spawn_blocking(move || seed::seed(&db))
                .await
                .map_err(|e| Error::Sandbox(format!("seeding stopped: {e}")))??;
            sandbox.seeded = Some(report);
        }
        let _ = open_tx.send(());
        Ok(sandbox)
    }

    /// Start an empty in-memory engine (tests create their own tables).
    pub async fn start_empty() -> Result<Self> {
        let db = dynoxide::Database::memory().map_err(|e| Error::Sandbox(e.to_string()))?;
        index_memory_stream(&db)?;
        let (open_tx, open_rx) = oneshot::channel::<()>();
        let _ = open_tx.send(());
        Self::serve(db, 0, open_rx, None).await
    }

    /// Listen on `port` in a thread of its own; answer requests once `open` fires (never, when
    /// it is dropped: seeding failed). `held`: a file sandbox's hold on its file, kept.
    async fn serve(
        db: dynoxide::Database,
        port: u16,
        open: oneshot::Receiver<()>,
        held: Option<std::fs::File>,
    ) -> Result<Self> {
        let (ready_tx, ready_rx) = oneshot::channel::<Result<SocketAddr>>();
        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        // One message, once: room for it, so the server thread never waits to say it stopped.
        let (stopped_tx, stopped_rx) = std::sync::mpsc::sync_channel::<()>(1);
        let server_db = db.clone();
        std::thread::Builder::new()
            .name("dynoscope-sandbox".into())
            .spawn(move || {
                // Dropped when the thread ends, the database with it: the sandbox's drop waits.
                let _stopped = stopped_tx;
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("dynoscope-sandbox-rt")
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(Error::Sandbox(e.to_string())));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
                        Ok(l) => l,
                        Err(e) => {
                            let _ = ready_tx.send(Err(Error::Sandbox(format!(
                                "cannot listen on 127.0.0.1:{port}: {e}"
                            ))));
                            return;
                        }
                    };
                    let addr = listener.local_addr();
                    let _ = ready_tx.send(addr.map_err(|e| Error::Sandbox(e.to_string())));
                    let mut shutdown_rx = shutdown_rx;
                    tokio::select! {
                        opened = open => if opened.is_err() { return },
                        _ = &mut shutdown_rx => return,
                    }
                    let shutdown = async {
                        let _ = shutdown_rx.await;
                    };
                    let _ =
                        dynoxide::server::serve_with_shutdown(listener, server_db, shutdown).await;
                });
            })
            .map_err(|e| Error::Sandbox(format!("cannot start the sandbox thread: {e}")))?;
        let addr = ready_rx
            .await
            .map_err(|_| Error::Sandbox("the sandbox thread stopped before listening".into()))??;
        Ok(Self {
            endpoint: format!("http://{addr}"),
            addr,
            db,
            seeded: None,
            shutdown: Some(shutdown_tx),
            stopped: Some(std::sync::Mutex::new(stopped_rx)),
            _held: held,
        })
    }

    /// The endpoint URL, e.g. `http://127.0.0.1:41234`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The address the engine listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// What seeding wrote, when this start seeded.
    pub fn seeded(&self) -> Option<&seed::SeedReport> {
        self.seeded.as_ref()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        // A file sandbox is stopped when its thread has ended and let go of the file (a bounded
        // wait: a client holding a connection open cannot hold this up for long).
        if let Some(Ok(stopped)) = self.stopped.take().map(std::sync::Mutex::into_inner) {
            let _ = stopped.recv_timeout(STOP_WAIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sandbox file holds the stream's index once the engine has let go of it, and a second
    /// start on it keeps it (and its data).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sandbox_files_stream_is_indexed() {
        let dir =
            std::env::temp_dir().join(format!("dynoscope-sandbox-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sandbox.db");
        for _ in 0..2 {
            let sandbox = Sandbox::start(Some(&path), 0).await.unwrap();
            drop(sandbox);
            let conn = rusqlite::Connection::open(&path).unwrap();
            let indexed: bool = conn
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'dynoscope_stream_sequence')",
                    [],
                    |row| row.get(0),
                )
                .unwrap();
            assert!(indexed);
            let plan: String = conn
                .query_row(
                    "EXPLAIN QUERY PLAN SELECT COALESCE(MAX(CAST(sequence_number AS INTEGER)), 0) + 1 \
                     FROM _stream_records WHERE table_name = 'Social'",
                    [],
                    |row| row.get(3),
                )
                .unwrap();
            assert!(plan.contains("dynoscope_stream_sequence"), "{plan}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
