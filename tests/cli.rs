//! The CLI twin, run as a real process against its own sandbox.

use crate::common;
mod dry_runs;
mod marks;
mod profiles;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use dynoscope_core::value;

use common::served::succeeded as dynoscope;

#[test]
fn items_prints_the_collection_as_dynamodb_json() {
    let (out, err) = dynoscope(&[
        "--sandbox",
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--json",
    ]);
    let items: Vec<_> = out
        .lines()
        .map(|l| value::item_from_dynamodb_json(l).expect("DynamoDB JSON"))
        .collect();
    assert_eq!(items.len(), 4);
    let meta = items
        .iter()
        .find(|i| value::cell_text(&i["SK"]) == "META")
        .expect("META");
    assert_eq!(value::cell_text(&meta["likeTally"]), "3");
    assert!(err.contains("4 items · 1 page · "), "{err}");
}

#[test]
fn items_with_a_sort_key_condition_an_index_and_a_limit() {
    let (out, _) = dynoscope(&[
        "--sandbox",
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#f00d",
        "--sk-begins-with",
        "LIKE#",
        "--limit",
        "5",
    ]);
    assert_eq!(out.lines().count(), 5);
    let (out, _) = dynoscope(&[
        "--sandbox",
        "items",
        "--table",
        "Social",
        "--index",
        "GSI1",
        "--pk",
        "USER#7c20",
    ]);
    assert!(out.contains(r#""SK":"LIKE#USER#7c20""#), "{out}");
    let (out, _) = dynoscope(&[
        "--sandbox",
        "items",
        "--table",
        "Videos",
        "--pk",
        "VID#9f3a",
        "--sk-between",
        "A",
        "N",
    ]);
    assert!(
        out.contains("98765432109876543210987654321098765432"),
        "38 digits, exact: {out}"
    );
}

#[test]
fn parallel_scan_reads_every_item_once() {
    let (out, err) = dynoscope(&[
        "--sandbox",
        "scan",
        "--table",
        "Videos",
        "--segments",
        "4",
        "--json",
    ]);
    let mut keys: Vec<String> = out
        .lines()
        .map(|l| {
            let item = value::item_from_dynamodb_json(l).unwrap();
            format!(
                "{}|{}",
                value::cell_text(&item["PK"]),
                value::cell_text(&item["SK"])
            )
        })
        .collect();
    let total = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), total, "no item twice");
    assert_eq!(total, 12);
    assert!(err.contains("4 segments"), "{err}");
}

#[test]
fn describe_and_tables() {
    let (out, _) = dynoscope(&["--sandbox", "describe", "--table", "Social"]);
    assert!(out.contains("Partition key  PK (S)"), "{out}");
    assert!(out.contains("GSI1: GSI1PK (S) / GSI1SK (S)"), "{out}");
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--sandbox", "describe", "--table", "Nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DescribeTable failed: ResourceNotFoundException"),
        "{err}"
    );
}

#[test]
fn sandbox_serves_other_clients_until_stopped() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["sandbox", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let url = url.trim().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let result = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--endpoint-url", &url, "tables"])
        .output();
    let _ = child.kill();
    let _ = child.wait();
    let out = result.unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Social\nVideos\n");
}

pub(crate) const STATS_KEY: [&str; 4] = ["--key", "PK=VID#9f3a", "--key", "SK=STATS#TOTAL"];

fn add_command(connection: &[&str], extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(connection)
        .args(["add", "--table", "Videos", "--attr", "play_count"])
        .args(STATS_KEY)
        .args(extra)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap()
}

#[test]
fn add_reports_old_new_expected_and_capacity() {
    let out = add_command(&["--sandbox"], &["--delta", "1", "--json"]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["outcome"], "applied");
    assert_eq!(report["old"], "41");
    assert_eq!(report["new"], "42");
    assert_eq!(report["expected"], "42");
    assert_eq!(report["request"]["UpdateExpression"], "ADD #a :d");
    assert!(report["consumed_wcu"].as_f64().unwrap() > 0.0);

    let out = add_command(&["--sandbox"], &["--delta", "-0.5", "--mode", "exact"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("41 → 40.5\nexpected 40.5 · "), "{text}");
}

#[test]
fn add_refuses_bad_input_before_sending() {
    for bad in [
        "NaN",
        "abc",
        "1e400",
        "123456789012345678901234567890123456789",
        "",
    ] {
        let out = add_command(&["--sandbox"], &["--delta", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "nothing was sent for {bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("delta"),
            "{bad:?}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--sandbox",
            "add",
            "--table",
            "Videos",
            "--attr",
            "SK",
            "--delta",
            "1",
        ])
        .args(STATS_KEY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("part of the key"));
}

#[test]
fn add_exits_3_when_the_outcome_is_unknown_and_does_not_resend() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (sandbox, proxy) = runtime.block_on(async {
        let sandbox = dynoscope_core::sandbox::Sandbox::start(None, 0)
            .await
            .unwrap();
        let proxy = common::response_dropping_proxy(sandbox.addr(), "UpdateItem").await;
        (sandbox, proxy)
    });
    let url = format!("http://{proxy}");
    let out = add_command(&["--endpoint-url", &url], &["--delta", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("Outcome unknown"), "{text}");
    assert!(text.contains("Not re-sent. Stored now: 42"), "{text}");
    // Straight to the engine: it went up once.
    let direct = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--endpoint-url",
            sandbox.endpoint(),
            "items",
            "--table",
            "Videos",
        ])
        .args(["--pk", "VID#9f3a", "--sk-eq", "STATS#TOTAL"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&direct.stdout).contains(r#""play_count":42"#));
}

#[test]
fn a_protected_connection_writes_only_when_its_name_is_given() {
    let served = common::served::Served::new();
    let connection = ["--endpoint-url", served.url(), "--protected", "prod"];
    // --yes is not enough: refused before anything is sent, saying what to give.
    let out = add_command(&connection, &["--delta", "1", "--yes"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("prod is protected"), "{said}");
    assert!(said.contains("add --confirm-name prod"), "{said}");
    // Nor is another name.
    let out = add_command(&connection, &["--delta", "1", "--confirm-name", "prd"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::served::play_count(&served),
        "41",
        "nothing was sent"
    );
    // Its name is.
    let out = add_command(&connection, &["--delta", "1", "--confirm-name", "prod"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("prod · "));
    assert_eq!(common::served::play_count(&served), "42");
    // --confirm-name alone names no connection.
    let out = add_command(
        &["--endpoint-url", served.url()],
        &["--delta", "1", "--confirm-name", "prod"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --protected NAME too"));
}
