//! What a client may send that a well-behaved one would not: a member named twice, a line too
//! long or nested too deep, arguments of the wrong type, huge strings; and an audit log that
//! is a FIFO. Driven as raw JSON-RPC lines over the server's stdin and stdout.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use dynoscope_core::sandbox::Sandbox;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::{Agent, audit_lines, audit_path, mcp_command};

/// Every wait here ends within this.
pub(super) const DEADLINE: Duration = Duration::from_mins(1);

/// `dynoscope mcp` spoken to line by line.
pub(super) struct Raw {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Raw {
    /// Start the server and open a session (initialize, initialized).
    pub(super) async fn start(url: &str, args: &[&str], audit: &Path) -> Self {
        let mut child = mcp_command(url, args, audit)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut raw = Self {
            child,
            stdin,
            stdout,
        };
        let hello = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"},
        }});
        raw.send(hello.to_string().as_bytes()).await;
        assert!(raw.answer().await["result"].is_object());
        raw.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    /// Stop reading the answers (the client's end of stdout closed, as when its process
    /// ends), keeping stdin open; the server and its stdin.
    pub(super) fn stop_reading(self) -> (Child, Option<ChildStdin>) {
        (self.child, self.stdin)
    }

    /// Send `line` and its newline.
    pub(super) async fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// The next line the server writes, as JSON.
    pub(super) async fn answer(&mut self) -> Value {
        let mut line = String::new();
        let read = tokio::time::timeout(DEADLINE, self.stdout.read_line(&mut line)).await;
        assert!(
            read.expect("an answer within the deadline").unwrap() > 0,
            "an answer"
        );
        serde_json::from_str(&line).unwrap()
    }

    /// Call `tool` with `arguments` as request `id`; its answer.
    pub(super) async fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        self.send(request.to_string().as_bytes()).await;
        let answer = self.answer().await;
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }
}

/// The audit lines that say a message was refused before it was read.
fn refused_lines(audit: &Path) -> Vec<Value> {
    let lines = audit_lines(audit);
    lines
        .into_iter()
        .filter(|l| l["event"] == "refused")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_named_twice_is_refused_before_any_tool_and_nothing_is_written() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("probe-twice");
    let mut raw = Raw::start(sandbox.endpoint(), &["--allow-writes"], &audit).await;
    let key = json!({"table": "Videos", "key": {"PK": "VID#9f3a", "SK": "STATS#TOTAL"}});
    let before = raw.call(2, "get_item", key.clone()).await;
    let before = &before["result"]["structuredContent"]["item"]["play_count"];
    assert!(before.is_object(), "{before}");

    let add = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"table":"Videos","key":{"PK":"VID#9f3a","SK":"STATS#TOTAL"},"attribute":"play_count","delta":"1","delta":"1000"}}}"#;
    raw.send(add.as_bytes()).await;
    let answer = raw.answer().await;
    assert_eq!(answer["id"], 3, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("`delta` is given twice"), "{message}");
    assert!(message.contains("nothing of it ran"), "{message}");
    let delete = r#"{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"delete_item","arguments":{"table":"Videos","key":{"PK":"DUPA","PK":"DUPB","SK":"META"}}}}"#;
    raw.send(delete.as_bytes()).await;
    let answer = raw.answer().await;
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&json!("four"), &json!(-32600))
    );

    let after = raw.call(5, "get_item", key).await;
    let after = &after["result"]["structuredContent"]["item"]["play_count"];
    assert_eq!(after, before, "nothing was added");
    let refused = refused_lines(&audit);
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert_eq!(refused[0]["tool"], "add");
    assert_eq!(refused[0]["id"], 3);
    assert_eq!(refused[0]["ending"], "error");
    assert_eq!(refused[1]["tool"], "delete_item");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_too_long_too_deep_or_not_json_is_answered_and_audited() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("probe-lines");
    let mut raw = Raw::start(sandbox.endpoint(), &[], &audit).await;
    let long = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "describe_table", "arguments": {"table": "x".repeat(5 << 20)}}});
    raw.send(long.to_string().as_bytes()).await;
    let answer = raw.answer().await;
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&Value::Null, &json!(-32600))
    );
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("longer than the 4194304 bytes"),
        "{message}"
    );

    raw.send("[".repeat(200_000).as_bytes()).await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("deeper than 64 levels"), "{message}");

    raw.send(br#"{"jsonrpc":"2.0","id":10,"method":"#).await;
    let answer = raw.answer().await;
    assert_eq!(answer["error"]["code"], -32700, "{answer}");

    // The session goes on.
    raw.send(br#"{"jsonrpc":"2.0","id":11,"method":"ping"}"#)
        .await;
    assert_eq!(raw.answer().await["id"], 11);
    let refused = refused_lines(&audit);
    let codes: Vec<&Value> = refused.iter().map(|l| &l["code"]).collect();
    assert_eq!(codes, [&json!(-32600), &json!(-32700), &json!(-32700)]);
    assert!(refused[0]["bytes"].as_u64().unwrap() > 5 << 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_call_is_audited_also_when_its_arguments_are_refused_and_bounded() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("probe-audit");
    let agent = Agent::start(sandbox.endpoint(), &[], &audit).await;
    let wrong_type = agent.call("query", json!({"table": 5, "pk": "x"})).await;
    assert_eq!(wrong_type.is_error, Some(true));
    let unknown = agent
        .call("describe_table", json!({"table": "Social", "nope": 1}))
        .await;
    assert_eq!(unknown.is_error, Some(true));
    // Three 1 MiB strings: within the line limit, so the call reaches the tool.
    let big = "y".repeat(1 << 20);
    agent
        .call(
            "get_item",
            json!({"table": big, "key": {"PK": big, "SK": big}}),
        )
        .await;
    agent.client.cancel().await.unwrap();

    let text = std::fs::read_to_string(&audit).unwrap();
    assert!(
        text.len() < 256 << 10,
        "the log is bounded: {} bytes",
        text.len()
    );
    let lines = audit_lines(&audit);
    let tools: Vec<&Value> = lines[1..].iter().map(|l| &l["tool"]).collect();
    assert_eq!(
        tools,
        [
            &json!("query"),
            &json!("describe_table"),
            &json!("get_item")
        ]
    );
    assert!(
        lines[1..].iter().all(|l| l["ending"] == "error"),
        "{lines:?}"
    );
    assert_eq!(lines[1]["arguments"]["table"], 5);
    let logged = lines[3]["arguments"].to_string();
    assert!(logged.contains("more bytes left out"), "{logged}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_audit_log_that_is_a_fifo_or_a_symlink_is_refused_before_serving() {
    let dir = crate::common::files::scratch("probe-fifo");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(dir.join("real.jsonl"), &link).unwrap();
    for (path, words) in [(&fifo, "not a regular file"), (&link, "symlink")] {
        let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(["--sandbox", "mcp", "--audit"])
            .arg(path)
            .kill_on_drop(true)
            .output();
        let out = tokio::time::timeout(DEADLINE, run)
            .await
            .expect("ends")
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    assert!(
        !dir.join("real.jsonl").exists(),
        "nothing written through the link"
    );
}
