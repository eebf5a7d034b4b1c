//! Whole programs run as they are (`dynoscope expr update … --program`), with boto3 under
//! Python, the AWS SDK for JavaScript v3 under Node.js and the AWS SDK for Go v2 (Debian's,
//! built offline in GOPATH mode), against the sandbox over HTTP, with
//! an empty environment and an empty home: the counter write moves the value by exactly its
//! delta and prints the server's value; a failed condition exits 1 with the item as it is
//! (ALL_OLD) and writes nothing; an answer lost after the write applied is said unknown
//! (exit 3) and the write counted once, where the single request, retried by its SDK, counts
//! it every time it is sent.

use serde_json::Value;

use crate::common::runtimes::{Runtime, runtimes, text};
use crate::common::{self, Fault, served::Served, served::succeeded};

/// `expr update 'ADD play_count :d'` on the seeded `VID#9f3a` under the condition
/// `play_count < :max`, printed `--as target` for `url` (a whole program with `program`).
pub(crate) fn printed(
    target: &str,
    (delta, max): (&str, &str),
    url: &str,
    program: bool,
) -> String {
    let values = format!(r#"{{":d": {{"N": "{delta}"}}, ":max": {{"N": "{max}"}}}}"#);
    let mut args = vec![
        "expr",
        "update",
        "ADD play_count :d",
        "--condition",
        "play_count < :max",
        "--values",
        &values,
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--as",
        target,
        "--endpoint-url",
        url,
    ];
    if program {
        args.push("--program");
    }
    succeeded(&args).0
}

fn play_count(served: &Served) -> i64 {
    common::served::play_count(served).parse().unwrap()
}

#[test]
fn the_counter_write_prints_the_servers_value_and_a_failed_condition_the_item() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in runtimes() {
        let before = play_count(&served);
        let program = printed(runtime.target, ("5", "1000000"), &url, true);
        let out = runtime.run("prints", &program, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{program}\n{}",
            text(&out.stderr)
        );
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        let after = play_count(&served);
        assert_eq!(
            after,
            before + 5,
            "{}: moved by exactly its delta",
            runtime.target
        );
        assert_eq!(
            said["play_count"]["N"],
            after.to_string(),
            "the server's value"
        );
        // The condition fails: exit 1, the item as it is, nothing written.
        let program = printed(runtime.target, ("5", "10"), &url, true);
        let out = runtime.run("prints", &program, &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("condition failed, nothing written"),
            "{stderr}"
        );
        let shown = format!(r#""play_count": {{"N": "{after}"}}"#).replace(": ", ":");
        assert!(
            stderr.replace(": ", ":").contains(&shown),
            "ALL_OLD: {stderr}"
        );
        assert_eq!(play_count(&served), after, "nothing written");
    }
}

#[test]
fn a_lost_answer_is_unknown_and_counted_once_where_the_sdks_retry_counts_it_again() {
    let served = Served::new();
    // Even where the environment asks an SDK for three attempts.
    let three = [("AWS_MAX_ATTEMPTS", "3")];
    // Rust's single request is a fragment to paste into a function (no `main`): not run alone.
    for runtime in runtimes().into_iter().filter(|r| r.target != "rust") {
        let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
        let url = proxy.url.replace("127.0.0.1", "localhost");
        let before = play_count(&served);
        let program = printed(runtime.target, ("5", "1000000"), &url, true);
        let out = runtime.run("lost", &program, &three);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{}: {stderr}", runtime.target);
        assert!(stderr.contains("outcome unknown"), "{stderr}");
        assert_eq!(proxy.arrived(), 1, "{}: sent once", runtime.target);
        assert_eq!(play_count(&served), before + 5, "counted once");
        // The single request, as copied, is retried by its SDK: each attempt applied.
        let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
        let url = proxy.url.replace("127.0.0.1", "localhost");
        let before = play_count(&served);
        let snippet = printed(runtime.target, ("5", "1000000"), &url, false);
        let out = runtime.run("snippet", &snippet, &three);
        assert!(!out.status.success());
        assert_eq!(
            proxy.arrived(),
            3,
            "{}: {}",
            runtime.target,
            text(&out.stderr)
        );
        assert_eq!(play_count(&served), before + 15, "counted three times");
    }
}

#[test]
fn a_program_is_written_for_an_update_or_a_read_in_a_language_that_runs_here() {
    let out = common::served::dynoscope(&[
        "expr",
        "delete",
        "attribute_exists(PK)",
        "--key",
        "PK=x",
        "--as",
        "boto3",
        "--program",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a whole program is written for a counter write"));
    let out = common::served::dynoscope(&[
        "expr",
        "update",
        "ADD c :d",
        "--values",
        r#"{":d":{"N":"1"}}"#,
        "--as",
        "java",
        "--program",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("written in boto3, js, js-doc, ts, go, rust, cli or toolbox"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_failed_condition_shows_binary_values_in_base64() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in runtimes() {
        let args = [
            "expr",
            "update",
            "ADD likeTally :d",
            "--condition",
            "attribute_not_exists(PK)",
            "--values",
            r#"{":d":{"N":"1"}}"#,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
            "--as",
            runtime.target,
            "--program",
            "--endpoint-url",
            &url,
        ];
        let program = succeeded(&args).0;
        let out = runtime.run("binary", &program, &[]);
        let stderr = text(&out.stderr).replace(": ", ":");
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(r#""thumbnail":{"B":"iVBORw=="}"#),
            "{}: {stderr}",
            runtime.target
        );
    }
}

/// The DocumentClient's counter write keeps a 20-digit delta and the new value exact, where a
/// JavaScript number would round them.
#[test]
fn the_document_client_program_keeps_numbers_exact() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let dir = common::npm::installed(
        "expr-node",
        &["@aws-sdk/client-dynamodb@3", "@aws-sdk/lib-dynamodb@3"],
    );
    let runtime = Runtime {
        target: "js-doc",
        dir,
        file: "counter_write_doc.mjs",
        command: &["node"],
        env: &[],
    };
    let before = play_count(&served);
    let program = printed("js-doc", ("12345678901234567890", "1e30"), &url, true);
    assert!(
        program.contains("NumberValue") && program.contains("maxAttempts: 1"),
        "{program}"
    );
    let out = runtime.run("doc", &program, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{program}\n{}",
        text(&out.stderr)
    );
    let expected = (12_345_678_901_234_567_890_i128 + i128::from(before)).to_string();
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["play_count"], expected.as_str(), "printed exactly");
    let stored = common::served::play_count(&served);
    assert_eq!(stored, expected, "stored exactly");
}

/// `expr … --endpoint-url url --program` printed.
fn expr_program(url: &str, args: &[&str]) -> String {
    let tail = ["--endpoint-url", url, "--program"];
    let all: Vec<&str> = ["expr"]
        .into_iter()
        .chain(args.iter().copied())
        .chain(tail)
        .collect();
    succeeded(&all).0
}

const STATS_KEY: [&str; 6] = [
    "--table",
    "Videos",
    "--key",
    "PK=VID#9f3a",
    "--key",
    "SK=STATS#TOTAL",
];

/// Binary values, one and a set, reach the server as the bytes they stand for, in every
/// runtime (an SDK would encode base64 text once more).
#[test]
fn binary_values_reach_the_server_as_their_bytes() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in runtimes() {
        let mut args = vec![
            "update",
            "SET bin = :b, bset = :s REMOVE gone",
            "--values",
            r#"{":b":{"B":"aGVsbG8="},":s":{"BS":["aGVsbG8=","AA=="]}}"#,
        ];
        args.extend(STATS_KEY);
        args.extend(["--as", runtime.target]);
        let program = expr_program(&url, &args);
        let out = runtime.run("binary-set", &program, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{program}\n{}",
            text(&out.stderr)
        );
        let mut get = vec!["--endpoint-url", &url, "get"];
        get.extend(STATS_KEY);
        get.push("--json");
        let item: Value = serde_json::from_slice(&common::served::dynoscope(&get).stdout).unwrap();
        assert_eq!(
            item["bin"]["B"], "aGVsbG8=",
            "{}: the bytes of `hello`, not its base64 encoded again",
            runtime.target
        );
        let mut set: Vec<String> = (item["bset"]["BS"].as_array().unwrap().iter())
            .map(|b| b.as_str().unwrap().to_owned())
            .collect();
        set.sort();
        assert_eq!(
            set,
            ["AA==", "aGVsbG8="],
            "{}: a binary set too",
            runtime.target
        );
    }
}

/// A conditional write is sent once (resent after a lost answer, its own change would fail its
/// condition); the user's text is never rewritten by the program's own template (a value
/// holding `COMMAND`).
#[test]
fn conditional_writes_are_sent_once_and_template_words_are_kept() {
    let url = "http://localhost:8000";
    let mut args = vec![
        "update",
        "SET title = :t",
        "--condition",
        "attribute_exists(PK)",
    ];
    args.extend(["--values", r#"{":t":{"S":"x"}}"#]);
    args.extend(STATS_KEY);
    for target in ["boto3", "js", "ts", "go", "rust", "cli"] {
        let mut with = args.clone();
        with.extend(["--as", target]);
        let program = expr_program(url, &with);
        assert!(
            [
                "total_max_attempts",
                "maxAttempts: 1",
                "WithRetryMaxAttempts(1)",
                "with_max_attempts(1)",
                "AWS_MAX_ATTEMPTS=1",
            ]
            .iter()
            .any(|once| program.contains(once)),
            "{target}: {program}"
        );
    }
    for target in ["boto3", "js", "ts", "go", "rust"] {
        let values = r#"{":p":{"S":"COMMAND client.OPERATION"}}"#;
        let program = expr_program(
            url,
            &[
                "query", "PK = :p", "--values", values, "--table", "Things", "--as", target,
            ],
        );
        assert!(program.contains("COMMAND client.OPERATION"), "{program}");
    }
}
