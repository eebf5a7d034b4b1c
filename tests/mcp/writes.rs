//! The write tools: refused with nothing sent without `--allow-writes`; with it, sent once
//! through the gateway, also when the answer is lost; never off this machine without `--yes`,
//! nor on a read-only connection.

use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::seed::{DRIFTED, SAMPLE_POST};
use serde_json::{Value, json};

use super::{Agent, audit_lines, audit_path};
use crate::common::{self, Fault};

const WRITE_TARGETS: &[&str] = &[
    "UpdateItem",
    "PutItem",
    "DeleteItem",
    "TransactWriteItems",
    "ExecuteStatement",
    "BatchWriteItem",
];

fn calls() -> Vec<(&'static str, Value)> {
    let key = json!({"PK": "VID#9f3a", "SK": "STATS#TOTAL"});
    let rule = json!({"tally": "likeTally", "child_prefix": "LIKE#"});
    vec![
        (
            "add",
            json!({"table": "Videos", "key": key, "attribute": "play_count", "delta": "1"}),
        ),
        (
            "like",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#mcp"}),
        ),
        (
            "unlike",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#7c20"}),
        ),
        (
            "repair",
            json!({"table": "Social", "pk": DRIFTED[0].0, "rule": rule}),
        ),
        (
            "put_item",
            json!({"table": "Videos", "item": r#"{"PK":{"S":"VID#new"},"SK":{"S":"META"}}"#}),
        ),
        (
            "delete_item",
            json!({"table": "Videos", "key": {"PK": "VID#b2b2", "SK": "STATS#TOTAL"}}),
        ),
        (
            "partiql_write",
            json!({"statement": "UPDATE \"Videos\" SET play_count = play_count + 1 WHERE PK = 'VID#9f3a' AND SK = 'STATS#TOTAL'"}),
        ),
    ]
}

async fn play_count(client: &dynoscope_core::connection::Reader) -> String {
    let key = common::through::key("VID#9f3a", "STATS#TOTAL");
    let item = dynoscope_core::read::get_item(client, "Videos", key)
        .await
        .unwrap()
        .unwrap();
    dynoscope_core::value::cell_text(&item["play_count"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_allow_writes_every_write_tool_is_refused_and_nothing_is_sent() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let proxy = common::fault_proxy(sandbox.addr(), WRITE_TARGETS, Fault::Throttle(0)).await;
    let audit = audit_path("writes-off");
    let agent = Agent::start(&proxy.url, &[], &audit).await;
    for (tool, arguments) in calls() {
        let error = agent.refused(tool, arguments).await;
        assert!(error.contains("without --allow-writes"), "{tool}: {error}");
    }
    assert_eq!(proxy.arrived(), 0, "no write reached the server");
    let lines = audit_lines(&audit);
    assert_eq!(lines.len(), 1 + calls().len());
    assert!(lines[1..].iter().all(|l| l["ending"] == "error"));
    agent.client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_allow_writes_each_write_applies_once() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection =
        common::connect_to(sandbox.endpoint(), std::time::Duration::from_secs(10)).await;
    let client = &connection.reader();
    let audit = audit_path("writes-on");
    let agent = Agent::start(sandbox.endpoint(), &["--allow-writes"], &audit).await;
    let before = play_count(client).await;
    for (tool, arguments) in calls() {
        let answer = agent.ok(tool, arguments).await;
        assert_eq!(answer["ending"], "done", "{tool}: {answer}");
    }
    // `add` and the PartiQL UPDATE each added 1, once.
    let after = play_count(client).await;
    assert_eq!(
        after.parse::<i64>().unwrap(),
        before.parse::<i64>().unwrap() + 2
    );
    // The repaired parent matches its children now; liking twice is refused by the data.
    let rule = json!({"tally": "likeTally", "child_prefix": "LIKE#"});
    let check = agent
        .ok(
            "check_tally",
            json!({"table": "Social", "pk": DRIFTED[0].0, "rule": rule}),
        )
        .await;
    assert_eq!(check["drift"], "0");
    let twice = agent
        .ok(
            "like",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#mcp"}),
        )
        .await;
    assert_eq!(twice["ending"], "refused");
    assert_eq!(twice["outcome"], "cancelled");
    agent.client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_lost_after_the_add_applied_is_unknown_and_not_sent_again() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection =
        common::connect_to(sandbox.endpoint(), std::time::Duration::from_secs(10)).await;
    for fault in [
        Fault::ResetAfterApply,
        Fault::GarbageAfterApply,
        Fault::HtmlAfterApply,
    ] {
        let proxy = common::fault_proxy(sandbox.addr(), &["UpdateItem"], fault).await;
        let agent = Agent::start(&proxy.url, &["--allow-writes"], &audit_path("lost")).await;
        let before = play_count(&connection.reader()).await;
        let (tool, arguments) = calls().remove(0);
        let answer = agent.ok(tool, arguments).await;
        assert_eq!(answer["ending"], "unknown", "{answer}");
        let after = play_count(&connection.reader()).await;
        assert_eq!(
            after.parse::<i64>().unwrap(),
            before.parse::<i64>().unwrap() + 1,
            "applied once, as the server stored it"
        );
        assert_eq!(proxy.arrived(), 1, "an ADD is never sent again");
        agent.client.cancel().await.unwrap();
    }
}

#[test]
fn writes_off_this_machine_need_yes_and_never_go_to_a_read_only_connection() {
    let served = common::served::Served::new();
    let audit = audit_path("refused-start");
    let audit = audit.to_str().unwrap();
    let remote = served.remote_url();
    let out = common::served::dynoscope(&[
        "--endpoint-url",
        &remote,
        "mcp",
        "--allow-writes",
        "--audit",
        audit,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::served::text(&out.stderr);
    assert!(err.contains("need --allow-writes --yes"), "{err}");
    let out = common::served::dynoscope(&[
        "--endpoint-url",
        served.url(),
        "--read-only",
        "mcp",
        "--allow-writes",
        "--audit",
        audit,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::served::text(&out.stderr).contains("read-only connection writes nothing"));
}

async fn tally(client: &dynoscope_core::connection::Reader, post: &str) -> i64 {
    let key = common::through::key(post, "META");
    let item = dynoscope_core::read::get_item(client, "Social", key)
        .await
        .unwrap()
        .unwrap();
    dynoscope_core::value::cell_text(&item["likeTally"])
        .parse()
        .unwrap()
}

/// One write tool called through a proxy that garbles the first answer, after it applied; the
/// answer, and how many requests reached the server.
async fn garbled_once(
    sandbox: &Sandbox,
    targets: &'static [&'static str],
    tool: &'static str,
    arguments: Value,
) -> (Value, usize) {
    let proxy = common::fault_proxy(sandbox.addr(), targets, Fault::HtmlAfterApplyOnce).await;
    let agent = Agent::start(&proxy.url, &["--allow-writes"], &audit_path("garbled")).await;
    let answer = agent.ok(tool, arguments).await;
    agent.client.cancel().await.unwrap();
    (answer, proxy.arrived())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_like_or_a_put_whose_answer_is_garbled_is_said_as_the_server_stored_it() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection =
        common::connect_to(sandbox.endpoint(), std::time::Duration::from_secs(10)).await;
    let client = &connection.reader();

    // Without a token a like is sent once: its outcome is unknown, and it applied once.
    let before = tally(client, SAMPLE_POST).await;
    let like = json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#lost"});
    let (answer, arrived) = garbled_once(&sandbox, &["TransactWriteItems"], "like", like).await;
    assert_eq!(answer["ending"], "unknown", "{answer}");
    assert_eq!((arrived, tally(client, SAMPLE_POST).await), (1, before + 1));

    // With a token it is sent again, and the same token applies once.
    let like = json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#token", "token": "mcp-token-0001"});
    let (answer, arrived) = garbled_once(&sandbox, &["TransactWriteItems"], "like", like).await;
    assert_eq!(answer["ending"], "done", "{answer}");
    assert_eq!((arrived, tally(client, SAMPLE_POST).await), (2, before + 2));

    // A whole put is safe to send again.
    let item = r#"{"PK":{"S":"VID#resent"},"SK":{"S":"META"},"n":{"N":"1"}}"#;
    let put = json!({"table": "Videos", "item": item});
    let (answer, arrived) = garbled_once(&sandbox, &["PutItem"], "put_item", put).await;
    assert_eq!(
        (answer["ending"].as_str(), arrived),
        (Some("done"), 2),
        "{answer}"
    );
    let key = common::through::key("VID#resent", "META");
    let stored = dynoscope_core::read::get_item(client, "Videos", key)
        .await
        .unwrap()
        .expect("the put is stored");
    assert_eq!(dynoscope_core::value::cell_text(&stored["n"]), "1");
}
