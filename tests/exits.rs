//! One exit-code table for every subcommand (0 done, 1 refused or disagreeing data, 2 bad input
//! or error before anything applied, 3 outcome unknown), errors on stderr once, `--yes` for
//! every write to an endpoint not on this machine, and bounds that hold however much is asked.

use crate::common;

use std::process::Output;

use common::Fault;
use common::served::{Served, dynoscope, text};

const STATS: [&str; 4] = ["--key", "PK=VID#9f3a", "--key", "SK=STATS#TOTAL"];

fn add(url: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--endpoint-url", url, "add", "--table", "Videos"];
    args.extend(["--attr", "play_count"]);
    args.extend(extra);
    dynoscope(&args)
}

/// `add` on an item that does not exist: 1 and nothing created, or created with `--create`.
fn add_missing(served: &Served, url: &str) {
    // 1: the item does not exist; nothing is created.
    let nope = [
        "--key",
        "PK=VID#nope",
        "--key",
        "SK=STATS#TOTAL",
        "--delta",
        "1",
    ];
    let out = add(url, &nope);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("does not exist"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(served.item("Videos", "VID#nope", "STATS#TOTAL"), "");
    // --create makes it.
    let out = add(url, &[&nope[..], &["--create"]].concat());
    assert_eq!(out.status.code(), Some(0));
    assert!(
        served
            .item("Videos", "VID#nope", "STATS#TOTAL")
            .contains(r#""play_count":1"#)
    );
}

/// `add` with bad input: 2, said once on stderr only, or as JSON with `--json`.
fn add_bad_input(url: &str) {
    // 2: bad input, on stderr only, once; as JSON with --json.
    let mut bad = STATS.to_vec();
    bad.extend(["--delta", "NaN"]);
    let out = add(url, &bad);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    bad.push("--json");
    let out = add(url, &bad);
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert!(
        error["error"].as_str().unwrap().contains("delta"),
        "{error}"
    );
    assert_eq!(error["exit"], 2);
}

#[test]
fn add_exit_codes() {
    let served = Served::new();
    let url = served.url().to_owned();
    let mut keyed = STATS.to_vec();
    keyed.extend(["--delta", "1"]);
    // 0: applied.
    let out = add(&url, &keyed);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    add_missing(&served, &url);
    add_bad_input(&url);
    // 2: a write to an endpoint not on this machine needs --yes; nothing is sent without it.
    let remote = served.remote_url();
    let out = add(&remote, &keyed);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--yes"), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("table Videos"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        served
            .item("Videos", "VID#9f3a", "STATS#TOTAL")
            .contains(r#""play_count":42"#)
    );
    let mut yes = keyed.clone();
    yes.push("--yes");
    let out = add(&remote, &yes);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        served
            .item("Videos", "VID#9f3a", "STATS#TOTAL")
            .contains(r#""play_count":43"#)
    );
    // 2: a read-only connection refuses, nothing sent.
    let mut read_only = keyed.clone();
    read_only.push("--read-only");
    let out = add(&url, &read_only);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("read-only"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        served
            .item("Videos", "VID#9f3a", "STATS#TOTAL")
            .contains(r#""play_count":43"#)
    );
    // 3: applied, then an HTML 500: outcome unknown, sent once, the stored value shown.
    let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
    let out = add(&proxy.url, &keyed);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("Stored now: 44"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(proxy.forwarded(), 1);
}

fn like(url: &str, op: &str, pk: &str, user: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--endpoint-url", url, op, "--table", "Social"];
    args.extend(["--pk", pk, "--user", user]);
    args.extend(extra);
    dynoscope(&args)
}

#[test]
fn like_and_unlike_exit_codes() {
    let served = Served::new();
    let url = served.url().to_owned();
    // 0: committed — also on a post whose tally had drifted before (its drift is not ours).
    let out = like(&url, "like", "POST#d71e", "USER#cli", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // 1: the same like again is cancelled.
    let out = like(&url, "like", "POST#d71e", "USER#cli", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("USER#cli already likes POST#d71e; nothing was written"),
        "{}",
        text(&out.stdout)
    );
    // 1: unliking a user who never liked.
    let out = like(&url, "unlike", "POST#a91f", "USER#never", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    // 1: a missing parent; nothing is written anywhere.
    let out = like(&url, "like", "POST#nope", "USER#cli", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("does not exist"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(served.item("Social", "POST#nope", "META"), "");
    assert_eq!(served.item("Social", "POST#nope", "LIKE#USER#cli"), "");
    // 2: not confirmed for an endpoint not on this machine.
    let out = like(&served.remote_url(), "like", "POST#a91f", "USER#far", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(served.item("Social", "POST#a91f", "LIKE#USER#far"), "");
    // 2: bad input, said once.
    let out = like(&url, "like", "POST#a91f", " ", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    // 3: committed, then the answer garbled: unknown, sent once.
    let proxy = served.fault(&["TransactWriteItems"], Fault::GarbageAfterApply);
    let out = like(&proxy.url, "like", "POST#a91f", "USER#lost", &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert_eq!(proxy.forwarded(), 1);
    assert!(
        served
            .item("Social", "POST#a91f", "LIKE#USER#lost")
            .contains("likedAt")
    );
}

fn storm(url: &str, pk: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--endpoint-url", url, "storm", "--table", "Social"];
    args.extend(["--pk", pk, "--users", "40", "--json"]);
    args.extend(extra);
    dynoscope(&args)
}

#[test]
fn storm_exit_codes_and_its_own_change_apart_from_earlier_drift() {
    let served = Served::new();
    let url = served.url().to_owned();
    // 0 on a post that had drifted before: the storm's own change is consistent.
    let out = storm(&url, "POST#d71e", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["storm_consistent"], true);
    assert_eq!(report["equal"], false, "the earlier drift is still there");
    assert_eq!(
        report["storm_tally_change"],
        report["storm_children_change"]
    );
    // Words: the storm's change first (10 likes, 2 repeats cancelled, 2 unlikes: +8), then
    // the drift it found and left.
    let mut args = vec!["--endpoint-url", url.as_str(), "storm", "--table", "Social"];
    args.extend(["--pk", "POST#d71e", "--users", "10"]);
    let words = text(&dynoscope(&args).stdout);
    assert!(
        words.contains("The storm: tally +8 · children +8 · consistent"),
        "{words}"
    );
    assert!(words.contains("before the storm"), "{words}");
    // 1: a missing parent, nothing written.
    let out = storm(&url, "POST#nope", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(served.item("Social", "POST#nope", "META"), "");
    // 2: no concurrency at all.
    let out = storm(&url, "POST#a91f", &["--concurrency", "0"]);
    assert_eq!(out.status.code(), Some(2));
    // A concurrency past the limit runs, at most 64 at a time, and says so.
    let out = storm(&url, "POST#a91f", &["--concurrency", "100000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("at most 64 run at a time"),
        "{}",
        text(&out.stderr)
    );
    // 3: answers lost after applying.
    let proxy = served.fault(&["TransactWriteItems"], Fault::HtmlAfterApply);
    let out = storm(&proxy.url, "POST#a91f", &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["unknown"], report["operations"],
        "every answer was lost"
    );
    assert_eq!(proxy.forwarded(), 40 + 8 + 6, "each transaction sent once");
}

#[test]
fn reads_and_checks_exit_codes() {
    let served = Served::new();
    let url = served.url().to_owned();
    let out = dynoscope(&[
        "--endpoint-url",
        &url,
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = dynoscope(&[
        "--endpoint-url",
        &url,
        "items",
        "--table",
        "Nope",
        "--pk",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("ResourceNotFoundException"),
        "{}",
        text(&out.stderr)
    );
    let check = |pk: &str| {
        dynoscope(&[
            "--endpoint-url",
            &url,
            "check",
            "--table",
            "Social",
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--pk",
            pk,
            "--json",
        ])
    };
    let out = check("POST#a91f");
    assert_eq!(out.status.code(), Some(0));
    // Exact numbers are strings in every line, the summary included.
    for line in text(&out.stdout).lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let row = value.get("totals").unwrap_or(&value);
        for field in ["stored", "counted"] {
            assert!(row[field].is_string(), "{field} in {line}");
        }
    }
    assert_eq!(check("POST#d71e").status.code(), Some(1), "drift found");
}
