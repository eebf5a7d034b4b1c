//! `dynoscope mcp`: the third front end, a Model Context Protocol server over stdio, so a coding
//! agent reads tables, checks tallies and reconciles through core with its guarantees. Its tools
//! take core's specs as arguments (the same checks and words as the CLI and the app), read
//! through the one reader with bounds, and write — only with `--allow-writes` — through the one
//! write gateway. The connection is fixed when the server starts; every call is audited.
//!
//! - [`server`]: the server, its connection and settings, and how every call is answered.
//! - [`reads`]: the tools that only read. [`writes`]: the tools that write.
//! - [`audit`]: the JSON-lines log of every call.
//! - [`relay`]: stdin and stdout, each line read bounded and checked strictly before rmcp.
//! - [`sql`]: the `sql` tool's run, off the server's loop and bounded.

pub mod audit;
mod audit_entry;
mod reads;
mod relay;
mod relay_audit;
mod server;
mod sql;
mod writes;

pub use audit::Audit;
pub use server::{Server, Writes};

use rmcp::ServiceExt as _;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};

/// Serve `connection` over stdin and stdout until the client leaves or `stop` is cancelled;
/// either way the calls under way are waited for first.
pub async fn serve(
    connection: Connection,
    writes: Writes,
    audit: Audit,
    stop: &CancelToken,
    exports: Option<std::path::PathBuf>,
) -> Result<()> {
    let audit = std::sync::Arc::new(audit);
    let (pipes, relay) = relay::Relay::start(std::sync::Arc::clone(&audit));
    let gone_audit = std::sync::Arc::clone(&audit);
    let server = Server::new(connection, writes, audit, stop.clone(), exports);
    let running = server
        .clone()
        .serve(pipes)
        .await
        .map_err(|e| Error::Mcp(format!("the client did not start a session: {e}")))?;
    let cancel = running.cancellation_token();
    // A client that left (its end of stdout closed) is not waited for: what it asked stops.
    let gone = tokio::spawn(relay::when_client_gone(stop.clone(), gone_audit));
    let ended = tokio::select! {
        ended = running.waiting() => {
            ended.map(|_| ()).map_err(|e| Error::Mcp(format!("the server stopped: {e}")))
        }
        () = stop.cancelled() => Ok(()),
    };
    // Stopped (or the client left: rmcp ends the session once its calls under way answered,
    // or after 5 s): no new write is sent, reads and SQL under way stop, and the calls in
    // flight are waited for, so a write on the wire is answered and audited before the
    // process ends.
    stop.cancel();
    server.drained().await;
    // The last answers are handed to rmcp's writer when their calls end: wait until it has
    // written an answer to every request it was handed (bounded) before closing the transport.
    relay.answered(std::time::Duration::from_secs(2)).await;
    cancel.cancel();
    relay.finish(std::time::Duration::from_secs(2)).await;
    gone.abort();
    ended
}
