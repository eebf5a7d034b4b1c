//! The `sql` tool bounded: by the server's --timeout, by SQLite's length limit per value, off
//! the server's loop (other calls are answered while it runs), and stopped by the client's
//! cancel or by the client leaving.

use dynoscope_core::sandbox::Sandbox;
use serde_json::json;

use super::probe::{DEADLINE, Raw};
use super::{Agent, audit_lines, audit_path};

const FOREVER: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

/// The audit lines of `sql` calls that ended cancelled.
fn cancelled_sql(audit: &std::path::Path) -> usize {
    audit_lines(audit)
        .iter()
        .filter(|l| l["tool"] == "sql" && l["error"] == "SQL cancelled")
        .count()
}

/// Wait (at most the deadline) until `audit` holds `n` cancelled `sql` calls.
async fn until_cancelled(audit: &std::path::Path, n: usize) {
    let waited = tokio::time::timeout(DEADLINE, async {
        while cancelled_sql(audit) < n {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    });
    waited
        .await
        .unwrap_or_else(|_| panic!("{n} cancelled sql calls audited: {:?}", audit_lines(audit)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_stops_at_the_timeout_and_a_huge_value_is_refused() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("mcp-sql-timeout");
    let agent = Agent::start(sandbox.endpoint(), &["--timeout", "1"], &audit).await;
    let forever = agent.refused("sql", json!({"loads": [], "sql": FOREVER}));
    let error = tokio::time::timeout(DEADLINE, forever).await.expect("ends");
    assert!(
        error.contains("SQL failed: timed out: the SQL ran longer than 1 s"),
        "{error}"
    );
    let huge = json!({"loads": [], "sql": "SELECT length(randomblob(1000000000)) AS n"});
    let error = agent.refused("sql", huge).await;
    assert!(error.contains("larger than 32 MiB"), "{error}");
    let fine = agent
        .ok("sql", json!({"loads": [], "sql": "SELECT 1 AS one"}))
        .await;
    assert_eq!(fine["rows"], json!([{"one": 1}]));
    agent.client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_calls_are_answered_while_sql_runs_and_a_cancel_stops_it() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("mcp-sql-cancel");
    let agent = Agent::start(sandbox.endpoint(), &["--timeout", "600"], &audit).await;
    let forever = || agent.call("sql", json!({"loads": [], "sql": FOREVER}));
    // Two queries that never end, as many as the server has cores: each would hold one.
    let (mut first, mut second) = (Box::pin(forever()), Box::pin(forever()));
    let tables = async {
        tokio::select! {
            biased;
            _ = &mut first => panic!("the query never ends"),
            _ = &mut second => panic!("the query never ends"),
            tables = agent.ok("list_tables", json!({})) => tables,
        }
    };
    let tables = tokio::time::timeout(DEADLINE, tables).await;
    assert_eq!(
        tables.expect("answered")["tables"],
        json!(["Social", "Videos"])
    );
    // Dropping a call sends notifications/cancelled: the server stops each query.
    drop((first, second));
    until_cancelled(&audit, 2).await;
    let fine = agent
        .ok("sql", json!({"loads": [], "sql": "SELECT 2 AS two"}))
        .await;
    assert_eq!(fine["rows"], json!([{"two": 2}]));
    agent.client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_under_way_stops_when_the_client_leaves() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("mcp-sql-leave");
    let mut raw = Raw::start(sandbox.endpoint(), &["--timeout", "600"], &audit).await;
    let sql = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sql", "arguments": {"loads": [], "sql": FOREVER}}});
    raw.send(sql.to_string().as_bytes()).await;
    // Read after the query: answered while it runs.
    raw.send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(raw.answer().await["id"], 2);
    drop(raw.stdin.take());
    let exited = tokio::time::timeout(DEADLINE, raw.child.wait()).await;
    assert!(exited.expect("the server ends").unwrap().success());
    assert_eq!(cancelled_sql(&audit), 1, "{:?}", audit_lines(&audit));
}

/// A client whose process ended closes the server's stdout too: the query stops then, even
/// with stdin still open (so not the end of input that a script's last request makes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_under_way_stops_when_the_client_stops_reading() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("mcp-sql-gone");
    let mut raw = Raw::start(sandbox.endpoint(), &["--timeout", "600"], &audit).await;
    let sql = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sql", "arguments": {"loads": [], "sql": FOREVER}}});
    raw.send(sql.to_string().as_bytes()).await;
    raw.send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(raw.answer().await["id"], 2, "the query is under way");
    let (mut child, _stdin) = raw.stop_reading();
    let exited = tokio::time::timeout(DEADLINE, child.wait()).await;
    assert!(exited.expect("the server ends").unwrap().success());
    assert_eq!(cancelled_sql(&audit), 1, "{:?}", audit_lines(&audit));
    let gone = super::every_audit_line(&audit);
    assert!(gone.iter().any(|l| l["event"] == "client-gone"), "{gone:?}");
}
