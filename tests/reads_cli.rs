//! Reads through the CLI as a process: a limit of 10 of 5,000 is one small request; throttled
//! out, a read keeps its items and its start key goes on exactly; a parallel scan throttled out
//! goes on with its unfinished segments.

use crate::common;

use std::process::{Command, Output};

use dynoscope_core::value::{self};

use common::Fault;
use common::tables::{every, once, proxy, sk, table_of};

async fn cli(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(&args)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env_remove("AWS_PROFILE")
            .output()
            .expect("runs")
    })
    .await
    .unwrap()
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The sort keys of the items a `--json` run printed.
fn printed(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .map(|l| sk(&value::item_from_dynamodb_json(l).expect("DynamoDB JSON")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_10_of_5000_is_one_small_request() {
    let (engine, info) = table_of(5000, 10).await;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 0, refuse: 0 }).await;
    let out = cli(args(&[
        "--endpoint-url",
        &proxy.url,
        "scan",
        "--table",
        &info.name,
        "--limit",
        "10",
        "--json",
    ]))
    .await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(printed(&out).len(), 10);
    let bodies = proxy.bodies();
    assert_eq!(bodies.len(), 1, "one request: {bodies:?}");
    assert!(bodies[0].contains(r#""Limit":10"#), "{}", bodies[0]);
    // Consumed capacity as the server reports it: 10 small items, not a 1 MB page (128 RCU).
    let rcu: f64 = err
        .split(" · ")
        .find_map(|part| part.trim().split_once(" RCU ≈ $").map(|(units, _)| units))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no RCU in {err}"));
    assert!(rcu <= 2.0, "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttled_out_keeps_its_items_and_start_key_goes_on_exactly() {
    // 36 items of 100 KB: four 1 MB pages.
    let (engine, info) = table_of(36, 100_000).await;
    let refuse = usize::MAX;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 2, refuse }).await;
    let scan = |url: &str| {
        args(&[
            "--endpoint-url",
            url,
            "scan",
            "--table",
            &info.name,
            "--json",
        ])
    };
    let mut first = scan(&proxy.url);
    first.extend(args(&["--max-throttle-wait", "0.2"]));
    let out = cli(first).await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    // Throttled beyond the retries: the read could not finish (2), never "the data disagrees".
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("throttled, waiting 50 ms before attempt 2"),
        "{err}"
    );
    assert!(
        err.contains("ProvisionedThroughputExceededException"),
        "{err}"
    );
    let before = printed(&out);
    assert!(
        !before.is_empty() && before.len() < 36,
        "two pages kept: {}",
        before.len()
    );
    let resume: serde_json::Value = err
        .lines()
        .find_map(|l| {
            serde_json::from_str(l)
                .ok()
                .filter(|v: &serde_json::Value| v.get("resume").is_some())
        })
        .unwrap_or_else(|| panic!("no resume in {err}"));
    let resume: Vec<String> = serde_json::from_value(resume["resume"].clone()).unwrap();
    assert_eq!(resume[0], "--start-key", "{resume:?}");
    let mut again = scan(engine.sandbox.endpoint());
    again.extend(resume);
    let out = cli(again).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let after = printed(&out);
    assert_eq!(once(before.into_iter().chain(after)), every(36));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parallel_scan_throttled_out_goes_on_with_its_unfinished_segments() {
    let (engine, info) = table_of(36, 100_000).await;
    let refuse = usize::MAX;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 1, refuse }).await;
    // Plain output this time: the resume line is text, quoted for a shell.
    let scan = |url: &str| args(&["--endpoint-url", url, "scan", "--table", &info.name]);
    let plain_keys = |out: &Output| -> Vec<String> {
        let lines = text(&out.stdout);
        let items = lines
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap());
        items
            .map(|item| item["SK"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut first = scan(&proxy.url);
    first.extend(args(&["--segments", "4", "--max-throttle-wait", "0.1"]));
    let out = cli(first).await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    // Throttled beyond the retries: the read could not finish (2), never "the data disagrees".
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(": throttled, waiting 50 ms"), "{err}");
    assert!(err.contains(" · 4 segments"), "{err}");
    let before = plain_keys(&out);
    let words = err
        .lines()
        .find_map(|l| {
            l.split_once("run it again with: ")
                .map(|(_, w)| w.to_owned())
        })
        .unwrap_or_else(|| panic!("no resume in {err}"));
    // The keys here hold no spaces or quotes: each word is plain or wrapped in '…'.
    let resume: Vec<String> = words
        .split(' ')
        .map(|w| w.trim_matches('\'').to_owned())
        .collect();
    assert_eq!(resume[..2], ["--segments", "4"], "{resume:?}");
    let mut again = scan(engine.sandbox.endpoint());
    again.extend(resume);
    let out = cli(again).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(once(before.into_iter().chain(plain_keys(&out))), every(36));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_reading_subcommand_takes_the_throttling_budget() {
    let (engine, info) = table_of(16, 10).await;
    let (proxy, _) = proxy(
        &engine,
        Fault::ThrottleReads {
            pass: 0,
            refuse: usize::MAX,
        },
    )
    .await;
    let table = info.name.as_str();
    for (what, words) in [
        (
            "check",
            &[
                "check",
                "--table",
                table,
                "--tally",
                "n",
                "--child-prefix",
                "I#",
                "--parent-prefix",
                "P#",
                "--all",
            ][..],
        ),
        (
            "diff",
            &["diff", "--table", table, "--to-table", table, "--all"][..],
        ),
    ] {
        let mut line = args(&["--endpoint-url", &proxy.url]);
        line.extend(args(words));
        line.extend(args(&["--max-throttle-wait", "0.2"]));
        let child = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(&line)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env_remove("AWS_PROFILE")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Given up after its 0.2 s of throttling: it ends long before the standard 120 s
        // budget would, and could not finish (2), saying why.
        let deadline = std::time::Duration::from_mins(1);
        let out =
            tokio::task::spawn_blocking(move || common::served::ended_within(child, deadline))
                .await
                .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("ProvisionedThroughputExceededException"),
            "{what}: {err}"
        );
    }
}
