//! Output can't change an outcome: every subcommand run with its stdout already closed (a
//! script's `| true`). A write that applied is said on stderr as applied, never turned into a
//! panic (101) or another status. (Signals: `interrupts.rs`.)

use crate::common;

use std::process::{Output, Stdio};

use common::served::{Served, command, play_count, text};

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

/// Writes run with nobody reading (besides `add`, an import and an export): each keeps the
/// status of its outcome, 0.
const WRITES: [&[&str]; 6] = [
    &[
        "like",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--user",
        "USER#closed",
    ],
    &[
        "unlike",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--user",
        "USER#closed",
    ],
    &[
        "put",
        "--table",
        "Social",
        "--item",
        r#"{"PK":{"S":"CL#2"},"SK":{"S":"A"}}"#,
    ],
    &[
        "delete", "--table", "Social", "--key", "PK=CL#2", "--key", "SK=A",
    ],
    &[
        "partiql",
        r#"INSERT INTO "Social" VALUE {'PK': 'CL#3', 'SK': 'A'}"#,
    ],
    &[
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "5",
    ],
];

/// Checks that find a drift, with nobody reading: 1.
const CHECKS: [&[&str]; 2] = [
    &[
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
    &[
        "check",
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--all",
    ],
];

/// Reads, whose output is all they do, with nobody reading: they fail, 2.
const READS: [&[&str]; 8] = [
    &["tables"],
    &["describe", "--table", "Videos"],
    &["items", "--table", "Social", "--pk", "POST#a91f"],
    &["scan", "--table", "Social"],
    &["scan", "--table", "Social", "--segments", "4"],
    &["partiql", r#"SELECT * FROM "Social""#],
    &["sql", "--load", "v=Videos", "SELECT * FROM v"],
    &[
        "expr",
        "update",
        "ADD n :one",
        "--values",
        r#"{":one":{"N":"1"}}"#,
    ],
];

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
    let mut cases: Vec<(Vec<&str>, i32)> =
        vec![(add.to_vec(), 0), ([&add[..], &["--json"]].concat(), 0)];
    cases.extend(WRITES.iter().map(|args| (args.to_vec(), 0)));
    cases.extend(CHECKS.iter().map(|args| (args.to_vec(), 1)));
    cases.push((
        vec![
            "import", "--table", "Social", "--format", "ddb-json", &import,
        ],
        0,
    ));
    cases.push((vec!["export", "--table", "Videos", "--out", &export], 0));
    cases.extend(READS.iter().map(|args| (args.to_vec(), 2)));
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
