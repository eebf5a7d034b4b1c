//! The server: one connection fixed when it starts, the tools (reads in [`reads`](super::reads),
//! writes in [`writes`](super::writes)), and the one way every call is answered and audited.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::Notify;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use serde::Serialize;
use serde_json::Value;

use crate::audit::{Audit, CallEntry};
use dynoscope_core::cancel::{CancelToken, unless_stopped};
use dynoscope_core::connection::Connection;
use dynoscope_core::document::Document as _;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::document::ErrorDocument;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::read;
use dynoscope_core::report::{self, Answered, Report};
use dynoscope_core::table::TableInfo;

/// Whether the write tools may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Every write tool is refused, nothing sent (the default).
    Off,
    /// Writes go through the gateway; `confirmed` when the server was started with `--yes`
    /// (what an endpoint not on this machine needs).
    On {
        /// Writes off this machine were confirmed at start.
        confirmed: bool,
    },
}

/// What a tool answered: a JSON object, and how the call ended.
pub(super) struct Answer {
    /// The result: the report's document, its `ending` included ([`Answer::of`]).
    pub value: Value,
    /// Done, refused (a drift, a failed condition) or unknown.
    pub ending: Ending,
}

impl Answer {
    /// The answer of a finished run: its report's JSON object and ending, the same object the
    /// CLI prints with `--json`; a run that failed before anything applied is the error.
    pub(crate) fn of(report: &(impl Report + ?Sized)) -> Result<Self> {
        if let Some(error) = report.failure() {
            return Err(error.clone());
        }
        Ok(Self {
            value: report::document(report),
            ending: report.ending(),
        })
    }
}

/// What every call shares: the connection, the write setting, the audit log.
pub(super) struct Shared {
    pub connection: Connection,
    pub writes: Writes,
    pub audit: Arc<Audit>,
    /// Stopped when the server is asked to stop: reads give up, no new write is sent, and the
    /// calls in flight are waited for ([`Server::drained`]).
    pub stop: CancelToken,
    /// The folder whose exports `check_window` may read (`--exports`); none without it.
    pub exports: Option<std::path::PathBuf>,
    /// Calls under way, and a wake-up when one ends.
    in_flight: AtomicUsize,
    ended: Notify,
    /// Tables described, kept for the server's life: described again when `describe_table`
    /// asks, or after an answer that says the table or its keys are not what was described.
    described: std::sync::Mutex<HashMap<String, TableInfo>>,
}

/// Tables whose descriptions are kept at most (then all are read again as needed).
const MAX_DESCRIBED: usize = 256;

/// Counts a call while it runs.
struct Running<'a>(&'a Shared);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.0.ended.notify_waiters();
    }
}

/// The MCP server.
#[derive(Clone)]
pub struct Server {
    pub(super) shared: Arc<Shared>,
    tool_router: ToolRouter<Self>,
}

impl Server {
    /// A server over `connection`, fixed for its life.
    pub fn new(
        connection: Connection,
        writes: Writes,
        audit: Arc<Audit>,
        stop: CancelToken,
        exports: Option<std::path::PathBuf>,
    ) -> Self {
        Self {
            shared: Arc::new(Shared {
                connection,
                writes,
                audit,
                stop,
                exports,
                in_flight: AtomicUsize::new(0),
                ended: Notify::new(),
                described: std::sync::Mutex::new(HashMap::new()),
            }),
            tool_router: Self::read_tools() + Self::write_tools(),
        }
    }

    /// Run one call of `tool` with `arguments`, append it and its outcome to the audit log, and
    /// answer: the result as structured content, or the error in the words the CLI prints.
    pub(super) async fn answer<A: Serialize>(
        &self,
        tool: &'static str,
        arguments: &A,
        call: impl Future<Output = Result<Answer>>,
    ) -> CallToolResult {
        self.shared.in_flight.fetch_add(1, Ordering::SeqCst);
        let _running = Running(&self.shared);
        // This call is audited here: the refusal of its arguments need not be (`call_tool`).
        let _in_a_call = AUDITED.try_with(|audited| audited.store(true, Ordering::SeqCst));
        let result = call.await;
        let arguments = serde_json::to_value(arguments).unwrap_or_else(|error| {
            Value::String(format!("the arguments could not be written: {error}"))
        });
        let (answer, entry) = match result {
            // The report's document holds its ending already (`report::document`).
            Ok(Answer { value, ending }) => {
                let entry = CallEntry {
                    tool: tool.to_owned(),
                    arguments,
                    ending,
                    error: None,
                };
                (CallToolResult::structured(value), entry)
            }
            Err(error) => {
                if matches!(
                    error.code(),
                    Some("ResourceNotFoundException" | "ValidationException")
                ) {
                    // The table may be gone or its keys other than described: read it again.
                    self.forget_descriptions();
                }
                let ending = Ending::of_error(&error);
                let document = Answered {
                    report: ErrorDocument::from(&error),
                    ending,
                };
                let mut answer = CallToolResult::error(vec![ContentBlock::text(error.to_string())]);
                answer.structured_content = Some(document.to_json());
                let entry = CallEntry {
                    tool: tool.to_owned(),
                    arguments,
                    ending,
                    error: Some(error.to_string()),
                };
                (answer, entry)
            }
        };
        // The answer stands whatever the log does: a write that applied is said as applied.
        if let Err(error) = self.shared.audit.append(entry) {
            dynoscope_core::terminal::say(format_args!("dynoscope: {error}"));
        }
        answer
    }

    /// Wait until no call is under way: a write in flight has its answer, said and audited,
    /// before the server stops (each ends within the connection's timeout).
    pub(crate) async fn drained(&self) {
        loop {
            let ended = self.shared.ended.notified();
            if self.shared.in_flight.load(Ordering::SeqCst) == 0 {
                return;
            }
            ended.await;
        }
    }

    /// The connection, for a read.
    pub(super) fn connection(&self) -> &Connection {
        &self.shared.connection
    }

    /// The connection and the confirmation, for a write; refused (nothing sent) when the server
    /// was started without `--allow-writes`.
    pub(super) fn writer(&self) -> Result<(&Connection, bool)> {
        match self.shared.writes {
            Writes::Off => Err(Error::Invalid(
                "this MCP server was started without --allow-writes, so it writes nothing; nothing was sent".into(),
            )),
            Writes::On { confirmed } => Ok((&self.shared.connection, confirmed)),
        }
    }
}

tokio::task_local! {
    /// Set once a call reaches [`Server::answer`] (which audits it); a call that never does
    /// was refused by rmcp while decoding its arguments, and is audited by `call_tool`.
    static AUDITED: Arc<AtomicBool>;
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let tool = request.name.to_string();
        let arguments = request.arguments.clone().map(Value::Object);
        let audited = Arc::new(AtomicBool::new(false));
        let call = ToolCallContext::new(self, request, context);
        let answered = AUDITED
            .scope(Arc::clone(&audited), self.tool_router.call(call))
            .await;
        if !audited.load(Ordering::SeqCst) {
            let error = match &answered {
                Err(error) => error.message.to_string(),
                Ok(CallToolResponse::Complete(answer)) => answer
                    .content
                    .first()
                    .and_then(|c| c.as_text())
                    .map(|t| t.text.clone())
                    .unwrap_or_default(),
                Ok(_) => String::new(),
            };
            let entry = CallEntry {
                tool,
                arguments: arguments.unwrap_or(Value::Null),
                ending: Ending::BadInput,
                error: Some(error),
            };
            if let Err(error) = self.shared.audit.append(entry) {
                dynoscope_core::terminal::say(format_args!("dynoscope: {error}"));
            }
        }
        answered
    }

    fn get_info(&self) -> ServerConfig {
        let connection = &self.shared.connection;
        let writes = match self.shared.writes {
            Writes::Off => {
                "Write tools are refused: the server was started without --allow-writes."
            }
            Writes::On { .. } => {
                "Write tools send through dynoscope's write gateway: once, with an idempotency token where the operation takes one; an answer lost on the way is reported as unknown, never sent again."
            }
        };
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("dynoscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "dynoscope reads DynamoDB tables and verifies counters (a parent's tally beside its counted children, sharded counters) on one connection fixed at start: {} ({}). Numbers are DynamoDB's, exact, as text. {writes}",
                connection.target, connection.region
            ))
    }
}

impl Server {
    /// The connection's reader, for a read.
    pub(super) fn reader(&self) -> dynoscope_core::connection::Reader {
        self.connection().reader()
    }

    /// `read`, given up on when the server is stopped.
    pub(super) async fn read<T>(
        &self,
        op: &'static str,
        read: impl std::future::Future<Output = Result<T>>,
    ) -> Result<T> {
        unless_stopped(&self.shared.stop, op, read).await
    }

    /// The table's description: the one kept, else read (DescribeTable and its TTL) and kept.
    pub(super) async fn describe(&self, table: &str) -> Result<TableInfo> {
        let kept = self
            .shared
            .described
            .lock()
            .ok()
            .and_then(|d| d.get(table).cloned());
        match kept {
            Some(info) => Ok(info),
            None => self.describe_again(table).await,
        }
    }

    /// The table's description read now, and kept in place of the one before.
    pub(super) async fn describe_again(&self, table: &str) -> Result<TableInfo> {
        let info = read::describe_unless_stopped(&self.reader(), table, &self.shared.stop).await?;
        if let Ok(mut described) = self.shared.described.lock() {
            if described.len() >= MAX_DESCRIBED {
                described.clear();
            }
            described.insert(table.to_owned(), info.clone());
        }
        Ok(info)
    }

    /// Drop every kept description.
    fn forget_descriptions(&self) {
        if let Ok(mut described) = self.shared.described.lock() {
            described.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Server;

    /// Every tool as a client lists it: its name, description, hints and the JSON Schema of
    /// its arguments. A change to any of them is a reviewed diff of
    /// `snapshots/dynoscope_mcp__server__tests__mcp_tools.snap` (`cargo insta review`).
    #[test]
    fn mcp_tools() {
        let mut tools = (Server::read_tools() + Server::write_tools()).list_all();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        assert!(tools.len() > 10, "the tools were listed: {}", tools.len());
        let listed = serde_json::to_string_pretty(&tools).unwrap_or_default();
        insta::assert_snapshot!("mcp_tools", listed);
    }
}
