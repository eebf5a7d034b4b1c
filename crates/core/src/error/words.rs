//! An error in words for people: its headline (the operation and the cause at the end of its
//! chain) and, for a write that applied nothing, what became of the write.

use crate::error::Error;

impl Error {
    /// The error in a few words, for a status line: which operation, and the cause at the end
    /// of the chain (`ListTables failed: timed out after 10s`). The whole chain is
    /// [`to_string`](ToString::to_string).
    pub fn headline(&self) -> String {
        let last = |detail: &str| detail.rsplit(": ").next().unwrap_or(detail).to_owned();
        match self {
            Self::Timeout { op, detail } => {
                let after = detail
                    .find("after ")
                    .map(|at| {
                        let rest = &detail[at..];
                        let end = rest.find([':', ',', ')']).unwrap_or(rest.len());
                        format!(" {}", rest[..end].trim_end())
                    })
                    .unwrap_or_default();
                format!("{op} failed: timed out{after}")
            }
            Self::Unreachable { op, detail, .. } => {
                format!(
                    "{op} failed: could not reach the endpoint: {}",
                    last(detail)
                )
            }
            Self::Credentials { op, detail } => {
                format!("{op} failed: no usable credentials: {}", last(detail))
            }
            _ => self.to_string(),
        }
    }

    /// This error as the end of a write that applied nothing, in words: its headline (never
    /// the SDK's chain of causes), then what became of the write — not sent, refused by the
    /// server, or sent with its outcome unknown — unless the error already says so.
    pub fn write_words(&self) -> String {
        let head = self.headline();
        let what = match self {
            Self::ReadOnly { .. }
            | Self::NotConfirmed { .. }
            | Self::ConnectionChanged { .. }
            | Self::OutcomeUnknown(_)
            | Self::Missing { .. } => return head,
            Self::Unreachable {
                never_sent: true, ..
            }
            | Self::Credentials { .. }
            | Self::Request { .. }
            | Self::NotConnected { .. }
            | Self::Invalid(_)
            | Self::Cancelled { .. }
            | Self::File { .. }
            | Self::Connect(_)
            | Self::Sandbox(_)
            | Self::Mcp(_)
            | Self::Sql { .. } => "nothing was sent",
            Self::Service { .. } | Self::NotFound { .. } => {
                "the server refused it: nothing was written"
            }
            Self::Unreachable { .. }
            | Self::Garbled { .. }
            | Self::Timeout { .. }
            | Self::ServerFault { .. }
            | Self::TaskDied { .. } => "it may have reached the server: its outcome is unknown",
        };
        if head.contains("nothing was") {
            head
        } else {
            format!("{head}; {what}")
        }
    }
}
