//! Input that would silently mean something else is refused before anything is sent: two
//! connections at once, `-` as a file, a rule that matches nothing, a flag given twice, an empty
//! partition value.

use crate::common;
mod hostile;

use std::process::Output;

use common::served::{Served, dynoscope, text};

fn on(url: &str, args: &[&str]) -> Output {
    let mut all = vec!["--endpoint-url", url];
    all.extend(args);
    dynoscope(&all)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dynoscope-refused-it-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn refused_with(out: &Output, code: i32, words: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(said.contains(words), "wanted `{words}` in: {said}");
}

#[test]
fn flags_that_choose_two_connections_are_refused() {
    let served = Served::new();
    let out = dynoscope(&["--sandbox", "--endpoint-url", served.url(), "tables"]);
    refused_with(
        &out,
        2,
        "--sandbox and --endpoint-url choose different connections",
    );
    assert!(out.stdout.is_empty());
    let out = dynoscope(&["--sandbox", "--region", "eu-west-1", "tables"]);
    refused_with(&out, 2, "--sandbox and --region");
    // One of them alone is fine.
    let out = on(served.url(), &["tables"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_dash_is_not_standard_input_or_output() {
    let served = Served::new();
    let dir = scratch("dash");
    let out = on(served.url(), &["export", "--table", "Videos", "--out", "-"]);
    refused_with(&out, 2, "`-` is a file name here, not standard output");
    let out = on(
        served.url(),
        &["import", "--table", "Videos", "--format", "jsonl", "-"],
    );
    refused_with(&out, 2, "not standard input");
    // A link to something that is not a regular file is not replaced, even with --force.
    let link = dir.join("out.jsonl");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let out = on(
        served.url(),
        &[
            "export",
            "--table",
            "Videos",
            "--out",
            link.to_str().unwrap(),
            "--force",
        ],
    );
    refused_with(&out, 2, "not a regular file");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
}

#[test]
fn a_check_that_matches_nothing_is_not_a_match() {
    let served = Served::new();
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--table", "Social", "--tally", "likeTally"];
        args.extend(["--child-prefix", "LIKE#"]);
        args.extend(extra);
        on(served.url(), &args)
    };
    // A typo in the parent prefix: nothing checked, which is not "no drift".
    let out = check(&["--parent-prefix", "PSOT#", "--all"]);
    refused_with(
        &out,
        1,
        "no parent matched the rule, so nothing was checked",
    );
    // Shards: a prefix no item has, and an attribute none holds.
    let shards = |prefix: &str, tally: &str| {
        on(
            served.url(),
            &[
                "check", "--table", "Videos", "--tally", tally, "--pk", "VID#c0de", "--shards",
                prefix,
            ],
        )
    };
    let out = shards("STATS#TOTAL#", "play_count");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = shards("STATZ#", "play_count");
    refused_with(
        &out,
        1,
        "no item of VID#c0de has a sort key beginning with `STATZ#`",
    );
    let out = shards("STATS#TOTAL#", "plays");
    refused_with(&out, 1, "holds `plays` as a number");
}

#[test]
fn a_flag_given_twice_or_an_empty_key_is_refused_before_sending() {
    let served = Served::new();
    let dir = scratch("twice");
    let csv = dir.join("in.csv");
    std::fs::write(&csv, "PK,SK,zip\nZ#1,A,08001\n").unwrap();
    let out = on(
        served.url(),
        &[
            "import",
            "--table",
            "Videos",
            "--format",
            "csv",
            "--type",
            "zip=S",
            "--type",
            "zip=N",
            csv.to_str().unwrap(),
        ],
    );
    refused_with(&out, 2, "zip");
    assert_eq!(served.item("Videos", "Z#1", "A"), "");
    // An empty partition value: DynamoDB refuses it, so it is refused here, named.
    let out = on(served.url(), &["items", "--table", "Social", "--pk", ""]);
    refused_with(&out, 2, "PK");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_value_dynamodb_would_refuse_is_named_not_the_expression_using_it() {
    for (value, words) in [
        (r#"{":v":{"SS":[]}}"#, "a string set cannot be empty"),
        (
            r#"{":v":{"SS":["a","a"]}}"#,
            "`a` repeats an earlier element",
        ),
    ] {
        let out = dynoscope(&["expr", "update", "SET a = :v", "--values", value]);
        refused_with(&out, 2, words);
        refused_with(&out, 2, "--values");
        assert!(
            out.stdout.is_empty(),
            "nothing printed: {}",
            text(&out.stdout)
        );
        assert!(
            !text(&out.stderr).contains("not in the expression attribute values"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// The tally-rule flags are declared once for check, watch, a delete of many items and an
/// import: a rule without its tally is the rule spec's refusal, and a rule flag a run cannot use
/// is refused in words, never ignored — all before anything is read.
#[test]
fn a_rule_flag_without_its_tally_or_where_it_cannot_count_is_refused() {
    let served = Served::new();
    let url = served.url();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "check",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--child-prefix",
                "LIKE#",
            ],
            "a rule needs the tally attribute",
        ),
        (
            &[
                "delete",
                "--table",
                "Social",
                "--from-query",
                "--pk",
                "POST#a91f",
                "--parent-sk",
                "X",
                "--dry-run",
            ],
            "--parent-sk goes with --tally",
        ),
        (
            &[
                "truncate",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--index",
                "GSI1",
                "--dry-run",
            ],
            "--index is for check and watch",
        ),
        (
            &[
                "delete",
                "--table",
                "Social",
                "--key",
                "PK=x",
                "--key",
                "SK=y",
                "--child-prefix",
                "LIKE#",
            ],
            "--child-prefix belongs to a delete of many items",
        ),
    ];
    for (args, words) in cases {
        refused_with(&on(url, args), 2, words);
    }
}
