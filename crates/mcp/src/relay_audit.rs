//! What the relay writes to the audit log for the lines it reads: a line refused before rmcp saw
//! it (its JSON-RPC error answer and its audit line), and every clean line that is not a tool
//! call (the server audits those with their outcome), so that whatever rmcp answers by itself
//! is in the log too.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::audit::{Audit, Event, RefusedCall, RefusedLine};
use dynoscope_core::document::Document as _;
use dynoscope_core::ending::Ending;

/// The longest line (one JSON-RPC message) read: a request's arguments are specs, keys and an
/// item's text (DynamoDB items are at most 400 KB), so 4 MiB is room to spare, while a 50 MB
/// line is answered as refused without being held (the rest of it is read and dropped).
pub(crate) const MAX_LINE_BYTES: usize = 4 << 20;

/// JSON-RPC's "The JSON sent is not a valid Request object".
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// Audit a clean line handed to rmcp, unless it is a tool call, which the server audits with its
/// outcome: whatever rmcp answers by itself (an unknown method, a `tools/call` whose `params`
/// are not an object naming a tool, a batch, a notification, `initialize`) is in the log too,
/// with its id when it has one.
pub(crate) fn received(text: &[u8], audit: &Audit) {
    let message = serde_json::from_slice::<Value>(text).ok();
    let field = |name: &str| message.as_ref().and_then(|m| m.get(name));
    let tool_call = field("method").and_then(Value::as_str) == Some("tools/call")
        && field("params")
            .and_then(|p| p.get("name"))
            .is_some_and(Value::is_string);
    if tool_call {
        return;
    }
    let batch = match &message {
        Some(Value::Array(batch)) => Some(batch.len()),
        _ => None,
    };
    let entry = Event::Received {
        bytes: text.len(),
        id: field("id").cloned(),
        method: field("method").cloned(),
        params: field("params").cloned(),
        batch,
    };
    if let Err(error) = audit.append(entry) {
        dynoscope_core::terminal::say(format_args!("dynoscope: {error}"));
    }
}

/// A JSON-RPC error answer: a protocol message, its keys JSON-RPC's.
#[derive(Debug, Serialize, JsonSchema)]
struct RpcError {
    /// Always `2.0`.
    jsonrpc: &'static str,
    /// The request's id: a string or a number, else null.
    id: Value,
    /// What went wrong.
    error: RpcErrorBody,
}

/// The `error` of a JSON-RPC error answer.
#[derive(Debug, Serialize, JsonSchema)]
struct RpcErrorBody {
    /// JSON-RPC's error code.
    code: i64,
    /// The error in words.
    message: String,
}

/// A line refused before rmcp saw it: its answer and its audit line.
pub(crate) struct Refused {
    pub(crate) code: i64,
    pub(crate) why: String,
    bytes: usize,
    /// The line as far as it can be read (serde_json's, the last of two members kept): for
    /// its id, and for the audit log's method, tool and arguments.
    message: Option<Value>,
}

impl Refused {
    pub(crate) fn new(code: i64, why: String) -> Self {
        Self {
            code,
            why,
            bytes: 0,
            message: None,
        }
    }

    pub(crate) fn too_long(bytes: usize) -> Self {
        Self {
            bytes,
            ..Self::new(
                INVALID_REQUEST,
                format!(
                    "the line is {bytes} bytes, longer than the {MAX_LINE_BYTES} bytes a message may have here"
                ),
            )
        }
    }

    pub(crate) fn of_line(self, text: &[u8]) -> Self {
        let message = serde_json::from_slice::<Value>(text).ok();
        Self {
            bytes: text.len(),
            message,
            ..self
        }
    }

    /// Answer the line with a JSON-RPC error and append it to the audit log.
    pub(crate) async fn say(self, answers: &mpsc::Sender<Vec<u8>>, audit: &Audit) {
        let field = |name: &str| self.message.as_ref().and_then(|m| m.get(name));
        let id = field("id")
            .filter(|id| id.is_string() || id.is_number())
            .cloned()
            .unwrap_or(Value::Null);
        let text = format!(
            "dynoscope refused this message before reading it: {}; nothing of it ran",
            self.why
        );
        let answer = RpcError {
            jsonrpc: "2.0",
            id: id.clone(),
            error: RpcErrorBody {
                code: self.code,
                message: text.clone(),
            },
        };
        let mut line = answer.to_json().to_string().into_bytes();
        line.push(b'\n');
        let _sent = answers.send(line).await;
        let method = field("method").cloned();
        let call = (method.as_ref().and_then(Value::as_str) == Some("tools/call")).then(|| {
            let params = field("params");
            RefusedCall {
                tool: params.and_then(|p| p.get("name")).cloned().into(),
                arguments: params.and_then(|p| p.get("arguments")).cloned().into(),
                ending: Ending::BadInput,
            }
        });
        let entry = Event::Refused(RefusedLine {
            code: self.code,
            error: text,
            id,
            bytes: self.bytes,
            method,
            call,
        });
        if let Err(error) = audit.append(entry) {
            dynoscope_core::terminal::say(format_args!("dynoscope: {error}"));
        }
    }
}
