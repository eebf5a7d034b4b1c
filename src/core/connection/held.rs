//! What a connection holds besides its clients: the embedded sandbox, when it is one.

use crate::core::connection::Connection;

impl Connection {
    /// For a sandbox seeded when it started: how many items, how fast.
    pub fn seeded_note(&self) -> Option<String> {
        #[cfg(feature = "sandbox")]
        if let Some(report) = self.sandbox.as_ref().and_then(|s| s.seeded()) {
            return Some(format!(
                "Sandbox seeded with {} items in {} ms",
                report.items, report.elapsed_ms
            ));
        }
        None
    }

    /// Whether this connection holds an embedded sandbox.
    pub fn has_sandbox(&self) -> bool {
        #[cfg(feature = "sandbox")]
        return self.sandbox.is_some();
        #[cfg(not(feature = "sandbox"))]
        return false;
    }
}
