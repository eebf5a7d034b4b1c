//! `dynoscope mcp` as an agent meets it: rmcp's own client starts the server as a child process
//! on the seeded sandbox, lists the tools and calls each; writes are refused without
//! `--allow-writes` (nothing reaches the server), sent once with it (also through faults), and a
//! bad input gets the words the CLI prints.

use crate::common;

mod limits;
mod probe;
mod reads;
mod received;
mod same;
mod words;
mod writes;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

/// `dynoscope --endpoint-url URL mcp --audit AUDIT ARGS`, with test credentials and no profile.
pub(crate) fn mcp_command(url: &str, args: &[&str], audit: &Path) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .arg("--endpoint-url")
        .arg(url)
        .arg("mcp")
        .arg("--audit")
        .arg(audit)
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env_remove("AWS_PROFILE");
    command
}

/// A client talking to `dynoscope --endpoint-url URL mcp ARGS`, its audit log in `audit`.
pub(crate) struct Agent {
    pub client: RunningService<RoleClient, ()>,
}

impl Agent {
    pub(crate) async fn start(url: &str, args: &[&str], audit: &Path) -> Self {
        let (transport, _stderr) = TokioChildProcess::builder(mcp_command(url, args, audit))
            .stderr(Stdio::null())
            .spawn()
            .expect("dynoscope mcp starts");
        let client = ().serve(transport).await.expect("the session starts");
        Self { client }
    }

    /// Call `tool` with `arguments` (a JSON object).
    pub(crate) async fn call(&self, tool: &'static str, arguments: Value) -> CallToolResult {
        let Value::Object(arguments) = arguments else {
            panic!("arguments are an object");
        };
        self.client
            .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("{tool} answers: {e}"))
    }

    /// Call `tool`, which must succeed; its structured result.
    pub(crate) async fn ok(&self, tool: &'static str, arguments: Value) -> Value {
        let answer = self.call(tool, arguments).await;
        assert_ne!(answer.is_error, Some(true), "{tool}: {}", text(&answer));
        answer.structured_content.expect("structured content")
    }

    /// Call `tool`, which must fail; the error's text.
    pub(crate) async fn refused(&self, tool: &'static str, arguments: Value) -> String {
        let answer = self.call(tool, arguments).await;
        assert_eq!(
            answer.is_error,
            Some(true),
            "{tool} fails: {}",
            text(&answer)
        );
        text(&answer)
    }
}

/// The text of an answer's first content block.
pub(crate) fn text(answer: &CallToolResult) -> String {
    answer
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// A fresh audit log path.
pub(crate) fn audit_path(name: &str) -> PathBuf {
    common::files::scratch(name).join("audit.jsonl")
}

/// The audit log's lines as JSON, but those of messages that were not tool calls (received:
/// `initialize`, notifications, what rmcp answers by itself).
pub(crate) fn audit_lines(path: &Path) -> Vec<Value> {
    every_audit_line(path)
        .into_iter()
        .filter(|l| l["event"] != "received")
        .collect()
}

/// Every line of the audit log as JSON.
pub(crate) fn every_audit_line(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
