//! Every read tool on the seeded sandbox: what it returns, bounded, and audited.

use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::seed::{DRIFTED, SAMPLE_POST};
use serde_json::json;

use super::{Agent, audit_lines, audit_path};

const READS: [&str; 14] = [
    "list_tables",
    "describe_table",
    "query",
    "scan",
    "get_item",
    "check_tally",
    "reconcile",
    "sum_shards",
    "diff",
    "compare_tallies",
    "check_window",
    "plan_routes",
    "sql",
    "partiql_select",
];

const WRITES: [&str; 7] = [
    "add",
    "like",
    "unlike",
    "repair",
    "put_item",
    "delete_item",
    "partiql_write",
];

fn likes_rule() -> serde_json::Value {
    json!({"tally": "likeTally", "child_prefix": "LIKE#", "parent_prefix": "POST#"})
}

/// An item is read exactly; a missing item is refused, as the CLI's `get` exits 1: the same
/// report (core's `Got`).
async fn get_item_answers_found_or_refused(agent: &Agent) {
    let get = |pk: &str| {
        let key = json!({"table": "Videos", "key": {"PK": pk, "SK": "META"}});
        agent.ok("get_item", key)
    };
    let item = get("VID#9f3a").await;
    assert_eq!(
        item["item"]["bytes_served"],
        json!({"N": dynoscope_core::seed::BIG_NUMBER}),
        "the number is the server's, exactly"
    );
    assert_eq!(
        (&item["found"], &item["ending"]),
        (&json!(true), &json!("done"))
    );
    let missing = get("VID#none").await;
    assert_eq!(
        (&missing["item"], &missing["found"], &missing["ending"]),
        (&json!(null), &json!(false), &json!("refused")),
        "{missing}"
    );
    // Both answers are what the tool's published output schema says, by a real validator; and
    // so is list_tables', the other typed report so far.
    let tools = agent.client.list_all_tools().await.unwrap();
    let schema = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        serde_json::Value::Object((*tool.output_schema.clone().unwrap()).clone())
    };
    for answer in [&item, &missing] {
        valid_by(&schema("get_item"), answer);
    }
    let tables = agent.ok("list_tables", json!({})).await;
    valid_by(&schema("list_tables"), &tables);
}

/// `document` is valid by `schema` (JSON Schema 2020-12) as Python's `jsonschema` judges it
/// (in target/test-tools, with cfn-lint).
pub(super) fn valid_by(schema: &serde_json::Value, document: &serde_json::Value) {
    use std::io::Write as _;
    let check = "import json, sys\nfrom jsonschema import Draft202012Validator as V\n\
                 s, d = json.load(sys.stdin)\nV.check_schema(s)\nV(s).validate(d)\n";
    let mut python = std::process::Command::new("python3")
        .args(["-c", check])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with jsonschema (scripts/test.sh installs it with cfn-lint)");
    let input = serde_json::to_vec(&json!([schema, document])).unwrap();
    python.stdin.take().unwrap().write_all(&input).unwrap();
    let out = python.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{document} is not valid by the schema: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every tool is listed, says what it costs, and is marked read-only when it only reads.
async fn every_tool_says_what_it_costs(agent: &Agent) {
    let tools = agent.client.list_all_tools().await.unwrap();
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    let mut expected: Vec<String> = READS
        .iter()
        .chain(&WRITES)
        .map(std::string::ToString::to_string)
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(
            description.contains("RCU")
                || description.contains("WCU")
                || description.contains("no read capacity"),
            "{} says what it costs: {description}",
            tool.name
        );
        let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        assert_eq!(
            read_only,
            Some(READS.contains(&tool.name.as_ref())),
            "{}",
            tool.name
        );
    }
}

/// A table against itself: one partition the same; its counters the same on both sides, the
/// seeded drifts named as drifted on each.
async fn diff_compares_a_table_with_itself(agent: &Agent) {
    let same = agent
        .ok(
            "diff",
            json!({"table": "Social", "to_table": "Social", "pk": SAMPLE_POST}),
        )
        .await;
    assert_eq!(
        (same["ending"].as_str(), same["different"]["count"].as_u64()),
        (Some("done"), Some(0)),
        "{same}"
    );
    let counters = agent
        .ok(
            "diff",
            json!({"table": "Social", "to_table": "Social", "rule": likes_rule()}),
        )
        .await;
    assert_eq!(
        (counters["differ"].as_u64(), counters["ending"].as_str()),
        (Some(0), Some("refused")),
        "{counters}"
    );
    assert_eq!(
        counters["pairs"].as_array().map(Vec::len),
        Some(DRIFTED.len())
    );
    // compare_tallies: the same comparison asked by its own tool, each pair with its verdict.
    let compared = agent
        .ok(
            "compare_tallies",
            json!({"table": "Social", "to_table": "Social", "rule": likes_rule()}),
        )
        .await;
    assert_eq!(compared["pairs"], counters["pairs"], "{compared}");
    assert_eq!(
        compared["pairs"][0]["verdict"], "both drifted",
        "{compared}"
    );
    // check_window: the CLI's window, the same keys and the same two drifts.
    let export = crate::window::export("mcp", &crate::window::the_window(), None);
    let rule = json!({"tally": "likeTally", "child_prefix": "LIKE#", "parent_prefix": "POST#"});
    let window = agent
        .ok(
            "check_window",
            json!({"table": "Social", "rule": rule, "export": export}),
        )
        .await;
    assert_eq!(window["ending"], "refused", "{window}");
    let gained: Vec<&str> = (window["drifted"].as_array().unwrap().iter())
        .map(|p| p["gained"].as_str().unwrap())
        .collect();
    assert_eq!(gained, ["-1", "1"], "{window}");
    // Nothing outside the folder the server was started with.
    let outside = agent
        .refused(
            "check_window",
            json!({"table": "Social", "rule": rule, "export": "/etc/passwd"}),
        )
        .await;
    assert!(outside.contains("is not under"), "{outside}");
    let in_s3 = agent
        .refused(
            "check_window",
            json!({"table": "Social", "rule": rule, "export": "s3://bucket/AWSDynamoDB/01/"}),
        )
        .await;
    assert!(
        in_s3.contains("reads exports on this machine only"),
        "{in_s3}"
    );
}

/// A query cut at 2 items says where to go on, and going on returns the next ones; a scan sends
/// no more page requests than its cap, and says where to go on.
async fn query_and_scan_go_on(agent: &Agent) {
    // A query cut at 2 items says where to go on; going on returns the next ones.
    let query =
        json!({"table": "Social", "pk": SAMPLE_POST, "sk_begins_with": "LIKE#", "limit": 2});
    let first = agent.ok("query", query.clone()).await;
    assert_eq!(first["count"], 2);
    let next = first["next_start_key"]
        .as_str()
        .expect("more to read")
        .to_owned();
    let mut again = query.clone();
    again["start_key"] = json!(next);
    let second = agent.ok("query", again).await;
    assert!(second["count"].as_u64().unwrap() >= 1, "{second}");
    assert_ne!(first["items"][0], second["items"][0]);
    assert!(first["consumed_rcu"].as_f64().unwrap() > 0.0);

    // A scan sends no more page requests than its cap, and says where to go on.
    let scan = agent
        .ok(
            "scan",
            json!({"table": "Social", "limit": 100_000, "page_size": 10, "max_pages": 3}),
        )
        .await;
    assert_eq!(scan["pages"], 3);
    assert_eq!(scan["count"], 30);
    assert!(scan["next_start_key"].is_string());
}

/// A reconcile names the seeded drifts, and only those.
async fn reconcile_names_the_seeded_drifts(agent: &Agent) {
    let reconciled = agent
        .ok(
            "reconcile",
            json!({"table": "Social", "rule": likes_rule(), "plan": "one-pass"}),
        )
        .await;
    assert_eq!(reconciled["ending"], "refused");
    let mut found: Vec<&str> = reconciled["drifted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["pk"].as_str().unwrap())
        .collect();
    found.sort_unstable();
    let mut seeded: Vec<&str> = DRIFTED.iter().map(|(post, _)| *post).collect();
    seeded.sort_unstable();
    assert_eq!(found, seeded, "the seeded drifts, and only those");
    assert_eq!(reconciled["totals"]["drifted"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_is_listed_with_what_it_costs_and_every_read_answers() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let audit = audit_path("reads");
    let exports = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).to_string_lossy();
    let agent = Agent::start(sandbox.endpoint(), &["--exports", &exports], &audit).await;

    every_tool_says_what_it_costs(&agent).await;

    let tables = agent.ok("list_tables", json!({})).await;
    assert_eq!(tables["tables"], json!(["Social", "Videos"]));
    let described = agent.ok("describe_table", json!({"table": "Social"})).await;
    assert_eq!(
        described["partition_key"],
        json!({"name": "PK", "type": "S"})
    );

    query_and_scan_go_on(&agent).await;

    get_item_answers_found_or_refused(&agent).await;

    let check = agent
        .ok(
            "check_tally",
            json!({"table": "Social", "pk": SAMPLE_POST, "rule": likes_rule()}),
        )
        .await;
    assert_eq!(check["ending"], "done");
    assert_eq!(check["drift"], "0");
    let drifted = agent
        .ok(
            "check_tally",
            json!({"table": "Social", "pk": DRIFTED[0].0, "rule": likes_rule()}),
        )
        .await;
    assert_eq!(drifted["ending"], "refused");

    reconcile_names_the_seeded_drifts(&agent).await;

    let shards = agent
        .ok(
            "sum_shards",
            json!({"table": "Videos", "pk": "VID#c0de", "rule": {"tally": "play_count", "shards": "STATS#TOTAL#"}}),
        )
        .await;
    assert_eq!(shards["total"], "18312");
    assert_eq!(shards["shards"][3]["hot"], true);

    diff_compares_a_table_with_itself(&agent).await;

    // plan_routes: the same plan, the same keys, as `dynoscope plan --json`.
    let plan = agent.ok("plan_routes", json!({"table": "Social"})).await;
    assert_eq!(plan["items"], 26_524, "{plan}");
    assert_eq!(plan["recommended"], "scan from here", "{plan}");
    assert_eq!(plan["routes"].as_array().unwrap().len(), 3);

    let sql = agent
        .ok(
            "sql",
            json!({"loads": ["likes=Social:POST#a91f"], "sql": "SELECT count(*) AS n FROM likes WHERE SK LIKE 'LIKE#%'"}),
        )
        .await;
    let stored = &check["stored"];
    assert_eq!(sql["rows"][0]["n"].to_string(), stored.as_str().unwrap());

    let selected = agent
        .ok(
            "partiql_select",
            json!({"statement": "SELECT * FROM \"Videos\" WHERE PK = ?", "params": [{"S": "VID#9f3a"}]}),
        )
        .await;
    assert_eq!(selected["count"], 2);

    // Every call is in the audit log, after the line of the start.
    let lines = audit_lines(&audit);
    assert_eq!(lines[0]["event"], "start");
    let tools_called: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l["tool"].as_str().unwrap())
        .collect();
    for read in READS {
        assert!(tools_called.contains(&read), "{read} audited");
    }
    assert_eq!(lines.len(), 1 + 21);
    agent.client.cancel().await.unwrap();
}

/// A table is described once for the server's life, counted at a proxy: twenty `get_item`s
/// send one DescribeTable (and one DescribeTimeToLive); `describe_table` reads it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_described_once_for_the_servers_life() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let proxy = crate::common::fault_proxy(
        sandbox.addr(),
        &["DescribeTable", "DescribeTimeToLive"],
        crate::common::Fault::Throttle(0),
    )
    .await;
    let audit = audit_path("described-once");
    let agent = Agent::start(&proxy.url, &[], &audit).await;
    for _ in 0..20 {
        let item = agent
            .ok(
                "get_item",
                json!({"table": "Videos", "key": {"PK": "VID#9f3a", "SK": "STATS#TOTAL"}}),
            )
            .await;
        assert_eq!(item["ending"], "done", "{item}");
    }
    assert_eq!(
        proxy.arrived(),
        2,
        "one DescribeTable and one DescribeTimeToLive"
    );
    agent.ok("describe_table", json!({"table": "Videos"})).await;
    assert_eq!(proxy.arrived(), 4, "asked: described again");
    agent.client.cancel().await.unwrap();
}
