//! Output can't change an outcome: every subcommand run with its stdout already closed (a
//! script's `| true`), and every write interrupted by a signal while it is in flight. A write
//! that applied is said on stderr as applied, never turned into a panic (101) or another
//! status; an interrupt stops what was not yet sent and waits for what was.

mod common;

use std::process::{Child, Command, Output, Stdio};

use common::Fault;
use common::served::{Served, text};

fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE");
    command
}

/// Run with stdout a pipe whose reading end is closed before the process starts: every write
/// to it fails (EPIPE), deterministically.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    command(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("runs")
}

fn play_count(served: &Served) -> String {
    let item = served.item("Videos", "VID#9f3a", "STATS#TOTAL");
    let json: serde_json::Value = serde_json::from_str(item.trim()).expect("one item");
    json["play_count"].to_string()
}

#[test]
fn a_closed_stdout_never_changes_what_happened() {
    let served = Served::new();
    let url = served.url().to_owned();
    let dir = std::env::temp_dir().join(format!("dynoscope-closed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let import = dir.join("import.jsonl");
    std::fs::write(&import, "{\"PK\":{\"S\":\"CL#1\"},\"SK\":{\"S\":\"A\"}}\n").unwrap();
    let import = import.display().to_string();
    let export = dir.join("export.jsonl").display().to_string();
    let add = [
        "add",
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--attr",
        "play_count",
        "--delta",
        "1",
    ];
    let before = play_count(&served);
    // What each subcommand does with nobody reading: a write keeps the status of its outcome;
    // a read, whose output is all it does, fails (2) and says why.
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (add.to_vec(), 0),
        ([&add[..], &["--json"]].concat(), 0),
        (
            vec![
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#closed",
            ],
            0,
        ),
        (
            vec![
                "unlike",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#closed",
            ],
            0,
        ),
        (
            vec![
                "put",
                "--table",
                "Social",
                "--item",
                r#"{"PK":{"S":"CL#2"},"SK":{"S":"A"}}"#,
            ],
            0,
        ),
        (
            vec![
                "delete", "--table", "Social", "--key", "PK=CL#2", "--key", "SK=A",
            ],
            0,
        ),
        (
            vec![
                "partiql",
                r#"INSERT INTO "Social" VALUE {'PK': 'CL#3', 'SK': 'A'}"#,
            ],
            0,
        ),
        (
            vec![
                "storm",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--users",
                "5",
            ],
            0,
        ),
        (
            vec![
                "check",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--child-prefix",
                "LIKE#",
                "--pk",
                "POST#d71e",
            ],
            1,
        ),
        (
            vec![
                "check",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--child-prefix",
                "LIKE#",
                "--all",
            ],
            1,
        ),
        (
            vec![
                "import", "--table", "Social", "--format", "ddb-json", &import,
            ],
            0,
        ),
        (vec!["export", "--table", "Videos", "--out", &export], 0),
        (vec!["tables"], 2),
        (vec!["describe", "--table", "Videos"], 2),
        (vec!["items", "--table", "Social", "--pk", "POST#a91f"], 2),
        (vec!["scan", "--table", "Social"], 2),
        (vec!["scan", "--table", "Social", "--segments", "4"], 2),
        (vec!["partiql", r#"SELECT * FROM "Social""#], 2),
        (vec!["sql", "--load", "v=Videos", "SELECT * FROM v"], 2),
        (
            vec![
                "expr",
                "update",
                "ADD n :one",
                "--values",
                r#"{":one":{"N":"1"}}"#,
            ],
            2,
        ),
    ];
    let mut failures = Vec::new();
    for (args, expected) in cases {
        let mut full = vec!["--endpoint-url", url.as_str()];
        full.extend(&args);
        let out = with_closed_stdout(&full);
        let err = text(&out.stderr);
        let said = err.contains("cannot write output");
        let export_only = args[0] == "export";
        if out.status.code() != Some(expected) || !(said || export_only) {
            failures.push(format!(
                "{}: exit {:?} (expected {expected}), stderr: {err}",
                args.join(" "),
                out.status.code()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both adds applied, once each, although nobody read what they printed.
    let after: i64 = play_count(&served).parse().unwrap();
    assert_eq!(after, before.parse::<i64>().unwrap() + 2);
    assert!(
        served.item("Social", "CL#1", "A").contains("CL#1"),
        "imported"
    );
    assert!(
        served.item("Social", "CL#3", "A").contains("CL#3"),
        "inserted"
    );
    assert_eq!(
        served.item("Social", "POST#a91f", "LIKE#USER#closed"),
        "",
        "liked, unliked"
    );
}

/// Send SIGINT to `child`.
fn interrupt(child: &Child) {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) with a valid pid and signal has no memory effects on this process.
    let sent = unsafe { libc::kill(pid, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
}

/// Wait until `n` writes reached `proxy` (a count, not a time); a child that ended first is a
/// failure with what it said.
fn wait_for(proxy: &common::FaultProxy, n: usize, child: &mut Child) {
    while proxy.arrived() < n {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
            }
            panic!("ended with {status} before {n} writes arrived: {err}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

fn spawn(args: &[&str]) -> Child {
    command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

#[test]
fn an_interrupt_mid_write_waits_for_the_answer_and_says_it() {
    let served = Served::new();
    let writes: [(&'static str, Vec<&str>); 5] = [
        (
            "UpdateItem",
            vec![
                "add",
                "--table",
                "Videos",
                "--key",
                "PK=VID#9f3a",
                "--key",
                "SK=STATS#TOTAL",
                "--attr",
                "play_count",
                "--delta",
                "1",
            ],
        ),
        (
            "TransactWriteItems",
            vec![
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#sig",
            ],
        ),
        (
            "PutItem",
            vec![
                "put",
                "--table",
                "Social",
                "--item",
                r#"{"PK":{"S":"SIG#1"},"SK":{"S":"A"}}"#,
            ],
        ),
        (
            "DeleteItem",
            vec![
                "delete",
                "--table",
                "Social",
                "--key",
                "PK=POST#a91f",
                "--key",
                "SK=LIKE#USER#sig",
            ],
        ),
        (
            "ExecuteStatement",
            vec![
                "partiql",
                r#"INSERT INTO "Social" VALUE {'PK': 'SIG#2', 'SK': 'A'}"#,
            ],
        ),
    ];
    let before = play_count(&served);
    for (target, args) in writes {
        let targets: &'static [&'static str] = Box::leak(Box::new([target]));
        let proxy = served.fault(targets, Fault::Hold);
        let mut full = vec!["--endpoint-url", proxy.url.as_str()];
        full.extend(&args);
        let mut child = spawn(&full);
        // The write is in flight, its answer held: now the signal.
        wait_for(&proxy, 1, &mut child);
        interrupt(&child);
        proxy.release();
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{target}: {stdout}{stderr}");
        assert!(stderr.contains("interrupted"), "{target}: {stderr}");
        assert!(!stdout.is_empty(), "{target}: the outcome is said");
        assert_eq!(proxy.forwarded(), 1, "{target}: sent once");
    }
    let after: i64 = play_count(&served).parse().unwrap();
    assert_eq!(after, before.parse::<i64>().unwrap() + 1, "applied once");
    assert!(served.item("Social", "SIG#1", "A").contains("SIG#1"));
    assert!(served.item("Social", "SIG#2", "A").contains("SIG#2"));
    assert_eq!(
        served.item("Social", "POST#a91f", "LIKE#USER#sig"),
        "",
        "liked, then deleted"
    );
}

#[test]
fn an_interrupt_before_a_write_leaves_sends_nothing() {
    let served = Served::new();
    let before = play_count(&served);
    // The table's description is held: the signal comes before anything is written.
    let proxy = served.fault(&["DescribeTable"], Fault::Hold);
    let mut child = spawn(&[
        "--endpoint-url",
        &proxy.url,
        "add",
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--attr",
        "play_count",
        "--delta",
        "1",
    ]);
    wait_for(&proxy, 1, &mut child);
    interrupt(&child);
    proxy.release();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cancelled"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(play_count(&served), before, "nothing was sent");
}

#[test]
fn an_interrupt_without_an_answer_is_an_unknown_outcome() {
    let served = Served::new();
    let proxy = served.fault(&["UpdateItem"], Fault::SilentAfterApply);
    let mut child = spawn(&[
        "--endpoint-url",
        &proxy.url,
        "--timeout",
        "2",
        "add",
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--attr",
        "play_count",
        "--delta",
        "1",
    ]);
    wait_for(&proxy, 1, &mut child);
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Outcome unknown"), "{stdout}");
    assert_eq!(proxy.arrived(), 1, "not sent again");
}

#[test]
fn an_interrupted_storm_starts_no_one_more_and_counts_what_it_sent() {
    let served = Served::new();
    let proxy = served.fault(&["TransactWriteItems"], Fault::Hold);
    let mut child = spawn(&[
        "--endpoint-url",
        &proxy.url,
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "40",
        "--concurrency",
        "4",
        "--json",
    ]);
    // Four users in flight, each with its first like held.
    wait_for(&proxy, 4, &mut child);
    interrupt(&child);
    proxy.release();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(1),
        "not every like was sent: {stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("the report");
    // Users 0–3 finish what they started: user 0 likes, likes again and unlikes (3 writes),
    // users 1–3 like once.
    assert_eq!(report["operations"], 6, "{report}");
    assert_eq!(proxy.forwarded(), 6);
    assert_eq!(report["stormConsistent"], true, "{report}");
    assert!(stderr.contains("operations were not sent"), "{stderr}");
}
