//! What a connection holds besides its clients: the embedded sandbox, when it is one.

use crate::connection::Connection;

impl Connection {
    /// A CloudWatch client of the connection's configuration (its region, credentials and
    /// endpoint: an endpoint given for DynamoDB is used for CloudWatch too).
    pub fn cloudwatch(&self) -> aws_sdk_cloudwatch::Client {
        aws_sdk_cloudwatch::Client::new(&self.sdk)
    }

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
    pub(crate) fn has_sandbox(&self) -> bool {
        #[cfg(feature = "sandbox")]
        return self.sandbox.is_some();
        #[cfg(not(feature = "sandbox"))]
        return false;
    }
}
