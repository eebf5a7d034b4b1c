//! The CLI twin, run as a real process against its own sandbox.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use dynoscope::core::value;

fn dynoscope(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    (stdout, stderr)
}

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

const STATS_KEY: [&str; 4] = ["--key", "PK=VID#9f3a", "--key", "SK=STATS#TOTAL"];

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
    assert!(report["consumedWCU"].as_f64().unwrap() > 0.0);

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
        let sandbox = dynoscope::core::sandbox::Sandbox::start(None, 0)
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

fn check_command(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--sandbox", "check"])
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap()
}

#[test]
fn check_one_parent_all_parents_and_shards() {
    let out = check_command(&[
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--pk",
        "POST#a91f",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "POST#a91f\tstored 3\tcounted 3\tdrift 0\n"
    );

    let out = check_command(&[
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
        "--all",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "drift found");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let top: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l["pk"].as_str().unwrap())
        .collect();
    assert_eq!(
        top,
        ["POST#77f1", "POST#3b0c", "POST#d71e"],
        "missing first, then by |drift|"
    );
    assert!(lines[3..lines.len() - 1].iter().all(|l| l["drift"] == "0"));
    let summary = &lines[lines.len() - 1]["summary"];
    assert_eq!(summary["parents"], 45);
    assert_eq!(summary["drifted"], 3);

    let out = check_command(&[
        "--table",
        "Videos",
        "--tally",
        "play_count",
        "--pk",
        "VID#c0de",
        "--shards",
        "STATS#TOTAL#",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("STATS#TOTAL#3\t9876  <- hot"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("total 18312 over 8 shards"));

    let out = check_command(&[
        "--table",
        "Nope",
        "--tally",
        "t",
        "--child-prefix",
        "A#",
        "--pk",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2), "errors are 2");
}

/// pk, stored, counted and drift of each parent line of `check --json`.
fn verdict_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l.get("pk").is_some())
        .map(|l| {
            format!(
                "{} {} {} {}",
                l["pk"], l["stored"], l["counted"], l["drift"]
            )
        })
        .collect()
}

#[test]
fn check_all_estimates_first_and_reconciles_from_an_export_alike() {
    let rule = [
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
        "--json",
    ];
    let live = check_command(&[&rule[..], &["--all"]].concat());
    assert_eq!(live.status.code(), Some(1), "drift found");
    let err = String::from_utf8_lossy(&live.stderr);
    assert!(
        err.starts_with("One pass: a parallel scan of Social ("),
        "{err}"
    );
    assert!(
        err.contains("Plan: one pass: a parallel scan in 8 segments."),
        "{err}"
    );
    let per = check_command(&[&rule[..], &["--all", "--plan", "per-parent"]].concat());
    assert_eq!(verdict_lines(&per), verdict_lines(&live));
    let rcu = |out: &std::process::Output| {
        let text = String::from_utf8_lossy(&out.stdout);
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        last["summary"]["rcu"].as_f64().unwrap()
    };
    assert!(rcu(&live) > 0.0);
    assert!(
        rcu(&per) > rcu(&live),
        "a scan plus the queries costs more than one pass"
    );

    let dir = std::env::temp_dir().join(format!("dynoscope-cli-export-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let file = dir.join("data").join("part-0.json.gz");
    let export = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--sandbox",
            "export",
            "--table",
            "Social",
            "--format",
            "s3-export",
            "--gzip",
        ])
        .arg("--out")
        .arg(&file)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    assert_eq!(export.status.code(), Some(0), "{export:?}");
    let path = dir.to_string_lossy().to_string();
    let offline = check_command(&[&rule[..], &["--from-export", &path]].concat());
    assert_eq!(offline.status.code(), Some(1));
    assert_eq!(verdict_lines(&offline), verdict_lines(&live));
    assert!(
        String::from_utf8_lossy(&offline.stderr)
            .contains("from the export; no item read from the table")
    );
    assert_eq!(rcu(&offline), 0.0);
    std::fs::remove_dir_all(&dir).unwrap();

    let sql = check_command(&[&rule[..], &["--athena", "s3://b/AWSDynamoDB/x/data/"]].concat());
    assert_eq!(sql.status.code(), Some(0));
    let text = String::from_utf8_lossy(&sql.stdout);
    assert!(
        text.contains("CREATE EXTERNAL TABLE `social_export`"),
        "{text}"
    );
    assert!(text.contains("GROUP BY item.\"PK\".\"S\""), "{text}");
}

#[test]
fn like_twice_then_storm() {
    let dir = std::env::temp_dir().join(format!("dynoscope-cli-like-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("sandbox.db");
    let _ = std::fs::remove_file(&db);
    let db_arg = db.display().to_string();
    let like = || {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args([
                "--sandbox-db",
                &db_arg,
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#cli",
            ])
            .output()
            .unwrap()
    };
    let first = like();
    let text = String::from_utf8_lossy(&first.stdout);
    assert_eq!(first.status.code(), Some(0), "{text}");
    assert!(text.contains("Committed · 4 WCU"), "{text}");
    assert!(text.contains("tally 3 → 4 · children 3 → 4"), "{text}");
    let again = like();
    let text = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(1), "cancelled: {text}");
    assert!(
        text.contains("Cancelled: [ConditionalCheckFailed, None]"),
        "{text}"
    );
    assert!(text.contains("tally 4 → 4 · children 4 → 4"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);

    let storm = |pk: &str| {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args([
                "--sandbox",
                "storm",
                "--table",
                "Social",
                "--pk",
                pk,
                "--users",
                "100",
                "--concurrency",
                "8",
                "--json",
            ])
            .output()
            .unwrap()
    };
    let out = storm("POST#a91f");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(report["equal"], true);
    assert_eq!(report["operations"], 100 + 20 + 15);
    // On a post whose tally had already drifted, the storm's own change is consistent: exit 0,
    // with the earlier drift reported apart.
    let out = storm("POST#d71e");
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["stormConsistent"].clone(), report["equal"].clone()),
        (true.into(), false.into())
    );
}

#[test]
fn expr_prints_the_request_and_points_at_errors() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .arg("expr")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "update",
        "ADD likeTally 1",
        "--condition",
        "attribute_exists(PK)",
        "--as",
        "json",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["UpdateExpression"], "ADD #n0 :v0");
    assert_eq!(json["ConditionExpression"], "attribute_exists(#n1)");
    assert_eq!(json["ExpressionAttributeNames"]["#n0"], "likeTally");
    assert_eq!(json["ExpressionAttributeValues"][":v0"]["N"], "1");
    for target in ["cli", "boto3", "js", "js-doc", "rust"] {
        let out = run(&["update", "ADD likeTally 1", "--as", target]);
        assert!(out.status.success(), "{target}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("ADD #n0 :v0"),
            "{target}"
        );
    }
    let out = run(&["update", "ADD count 1"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["UpdateExpression"], "ADD #n0 :v0");
    assert_eq!(json["ExpressionAttributeNames"]["#n0"], "count");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "note: `count` is a DynamoDB reserved word: sent as #n0\n"
    );
    let out = run(&["update", "ADD likeTally 1 SET n = :x"]);
    assert_eq!(out.status.code(), Some(2), "bad input");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":x is not in the expression attribute values"),
        "{err}"
    );
    assert!(
        err.contains("  ADD likeTally 1 SET n = :x\n                          ^"),
        "{err}"
    );
    let out = run(&[
        "query",
        "PK = 'POST#a91f' AND begins_with(SK, 'LIKE#')",
        "--as",
        "cli",
        "--table",
        "Social",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("--key-condition-expression '#n0 = :v0 AND begins_with(#n1, :v1)'"),
        "{text}"
    );
}

#[test]
fn expr_refuses_a_5000_deep_expression_with_exit_2() {
    let deep = format!("{}a = 1{}", "(".repeat(5000), ")".repeat(5000));
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["expr", "scan", &deep])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.starts_with("dynoscope: FilterExpression: the expression is 10005 bytes long; DynamoDB takes at most 4096"),
        "{err}"
    );
    // Shown around the place, with the caret under the token at byte 4096.
    assert!(
        err.contains(&format!("\n  …{}…\n  {}^", "(".repeat(60), " ".repeat(31))),
        "{err}"
    );
    // Under 4 KB but 2,000 deep: refused at the 33rd parenthesis.
    let deep = format!("{}a = 1{}", "(".repeat(2000), ")".repeat(2000));
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["expr", "scan", &deep])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("nested more than 32 levels"), "{err}");
    assert!(
        err.contains(&format!("\n  …{}…\n  {}^", "(".repeat(60), " ".repeat(31))),
        "{err}"
    );
}

#[test]
fn expr_code_carries_the_connection_flags() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let flags = [
        "--endpoint-url",
        "http://127.0.0.1:8000",
        "--region",
        "eu-west-2",
    ];
    // Before or after `expr`, as for every command.
    let after = run(&[
        &["expr", "update", "ADD likeTally 1", "--as", "cli"][..],
        &flags,
    ]
    .concat());
    let before = run(&[
        &flags[..],
        &["expr", "update", "ADD likeTally 1", "--as", "cli"],
    ]
    .concat());
    assert_eq!(after, before);
    assert!(
        after.starts_with("aws dynamodb update-item \\\n  --endpoint-url http://127.0.0.1:8000 \\\n  --region eu-west-2 \\\n"),
        "{after}"
    );
    let boto3 = run(&[
        &["expr", "scan", "a = 1", "--as", "boto3", "--profile", "dev"][..],
        &flags,
    ]
    .concat());
    assert!(
        boto3.contains(r#"session = boto3.Session(profile_name="dev")"#),
        "{boto3}"
    );
    // The JSON request body has no place for a connection.
    let json = run(&[&["expr", "scan", "a = 1"][..], &flags].concat());
    assert!(
        !json.contains("8000") && !json.contains("eu-west-2"),
        "{json}"
    );
}
