//! The audit log's entries, typed: a tool call and how it ended, or an event of the server (it
//! started, a line was received or refused, the client left). Each is written by serde, its
//! keys in the order they are declared here, with the time it was appended last.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use dynoscope_core::ending::Ending;

/// One line of the audit log, before its time is added.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AuditEntry {
    /// A tool call and how it ended.
    Call(CallEntry),
    /// Something else that happened, named by its `event` key (boxed: an event holds a
    /// message's parts and is the larger).
    Event(Box<Event>),
}

/// A tool call and how it ended: answered by the server, or refused before it ran.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CallEntry {
    /// The tool's name.
    pub tool: String,
    /// The tool's arguments as they were given (null when there were none).
    pub arguments: Value,
    /// How the call ended.
    pub ending: Ending,
    /// The error in words, when the call failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// An event of the server, its name the first key (`event`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The server started.
    Start {
        /// The connection's target, fixed for the server's life.
        connection: String,
        /// The connection's region.
        region: String,
        /// Whether the write tools may write.
        writes: bool,
    },
    /// A clean line handed to rmcp that is not a tool call.
    Received {
        /// The line's length in bytes.
        bytes: usize,
        /// The message's `id`, when it has one (of any JSON type).
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        /// The message's `method`, when it has one (of any JSON type).
        #[serde(skip_serializing_if = "Option::is_none")]
        method: Option<Value>,
        /// The message's `params`, when it has some.
        #[serde(skip_serializing_if = "Option::is_none")]
        params: Option<Value>,
        /// How many messages a batch held, when the line is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        batch: Option<usize>,
    },
    /// A line refused before rmcp saw it.
    Refused(RefusedLine),
    /// The client left: its end of stdout closed.
    ClientGone,
}

/// A line refused before rmcp saw it, and what of it could be read.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RefusedLine {
    /// The JSON-RPC error code it was answered with.
    pub code: i64,
    /// The error message it was answered with.
    pub error: String,
    /// The message's id as answered: a string or a number, else null.
    pub id: Value,
    /// The line's length in bytes.
    pub bytes: usize,
    /// The message's `method`, when it has one (of any JSON type).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Value>,
    /// The tool call it was, when its method is `tools/call`.
    #[serde(flatten)]
    pub call: Option<RefusedCall>,
}

/// The tool call a refused line asked for, as far as it could be read.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RefusedCall {
    /// The tool's name as given (null when missing).
    pub tool: Value,
    /// The tool's arguments as given (null when missing).
    pub arguments: Value,
    /// How the call ended: always an error, as nothing of it ran.
    pub ending: Ending,
}

/// An entry as the log writes it: its keys, then when it was appended.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Stamped {
    /// The entry.
    #[serde(flatten)]
    pub(crate) entry: AuditEntry,
    /// Milliseconds since the Unix epoch, as text.
    pub(crate) at_ms: String,
}

impl From<CallEntry> for AuditEntry {
    fn from(entry: CallEntry) -> Self {
        Self::Call(entry)
    }
}

impl From<Event> for AuditEntry {
    fn from(event: Event) -> Self {
        Self::Event(Box::new(event))
    }
}
