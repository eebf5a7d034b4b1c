//! The CLI's repairs and single reads as a real process against a sandbox served over HTTP:
//! `check --all` lists a parent it cannot check and goes on; `--repair` sets every drifted
//! tally once, through the fault proxy too; `get` opens one item by its key; a token reused for
//! another request is said in words.

use crate::common;

fn check_all(url: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--endpoint-url", url, "check", "--table", "Social"];
    args.extend(["--tally", "likeTally", "--child-prefix", "LIKE#"]);
    args.extend(["--parent-prefix", "POST#", "--all"]);
    args.extend(extra);
    common::served::dynoscope(&args)
}

#[test]
fn check_all_lists_a_bad_parent_and_goes_on_then_repairs_every_drifted_parent() {
    use common::served::{Served, succeeded, text};
    let served = Served::new();
    let url = served.url().to_owned();
    // A parent whose tally is text: it cannot be checked, and the other 45 still are.
    let bad = r#"{"PK":{"S":"POST#c5v4"},"SK":{"S":"META"},"likeTally":{"S":"08001"}}"#;
    succeeded(&[
        "--endpoint-url",
        &url,
        "put",
        "--table",
        "Social",
        "--item",
        bad,
    ]);
    let out = check_all(&url, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "the data disagrees: {stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("POST#")).count(),
        45,
        "{stdout}"
    );
    assert!(
        stdout.contains("error\tPOST#c5v4: the tally `likeTally` is S, not a number"),
        "{stdout}"
    );
    // The summary is the report's figure, its last line.
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("45 parents checked · 3 drifted (1 missing a tally)"),
        "{stdout}"
    );
    assert!(last.ends_with("1 parent not checked"), "{stdout}");

    // Repair all: every drifted parent set to its count, each checked again; the bad parent
    // stays listed (exit 1), and a second check finds only it.
    let out = check_all(&url, &["--repair", "--json"]);
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let repairs = document["repair"]["repairs"].as_array().unwrap();
    assert_eq!(repairs.len(), 3, "{document}");
    assert!(repairs.iter().all(|r| r["ending"] == "done"), "{repairs:?}");
    assert!(
        repairs.iter().all(|r| r["after"]["drift"] == "0"),
        "{repairs:?}"
    );
    assert_eq!(document["repair"]["summary"], "3 parents repaired");
    // The parents as checked after the repairs: none drifted, the bad one still unchecked.
    assert_eq!(document["totals"]["drifted"], 0, "{document}");
    assert_eq!(document["not_checked"].as_array().unwrap().len(), 1);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the bad parent is still unchecked"
    );
    let out = check_all(&url, &["--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["totals"]["drifted"], 0);
    assert_eq!(summary["totals"]["not_checked"], 1);
}

#[test]
fn repair_all_stops_at_an_unknown_outcome_and_asks_once_off_this_machine() {
    use common::Fault;
    use common::served::{Served, text};
    let served = Served::new();
    // Off this machine without --yes: nothing is sent, and it says how to confirm.
    let remote = served.remote_url();
    let out = check_all(&remote, &["--repair"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("add --yes"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("3 drifted parents"),
        "{}",
        text(&out.stderr)
    );
    // The first repair applied, its answers lost: unknown (the guarded SET may be sent again,
    // being repeatable), and no other parent's repair sent.
    let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
    let out = check_all(&proxy.url, &["--repair", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    let bodies = proxy.bodies();
    assert!(!bodies.is_empty());
    assert!(
        bodies.iter().all(|b| *b == bodies[0]),
        "one parent: {bodies:?}"
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["repair"]["not_sent"], 2, "{document}");
    assert!(
        (document["repair"]["summary"].as_str().unwrap())
            .contains("2 not sent (stopped after an unknown outcome)"),
        "{document}"
    );
    // What the server holds: exactly one parent repaired.
    let out = check_all(served.url(), &["--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["totals"]["drifted"], 2);
}

#[test]
fn get_opens_one_item_by_its_key_with_its_numbers_exact() {
    use common::served::{Served, dynoscope, succeeded, text};
    let served = Served::new();
    let url = served.url().to_owned();
    let big = r#"{"PK":{"S":"POST#big"},"SK":{"S":"META"},"likeTally":{"N":"12345678901234567890123456789.000000001"}}"#;
    succeeded(&[
        "--endpoint-url",
        &url,
        "put",
        "--table",
        "Social",
        "--item",
        big,
    ]);
    let get = |extra: &[&str]| {
        let mut args = vec!["--endpoint-url", url.as_str(), "get", "--table", "Social"];
        args.extend(extra);
        dynoscope(&args)
    };
    let out = get(&["--key", "PK=POST#big", "--key", "SK=META", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim_end(), big, "exact, as stored");
    let out = get(&["--key", "PK=POST#big", "--key", "SK=META"]);
    assert!(
        text(&out.stdout).contains(r#""likeTally":12345678901234567890123456789.000000001"#),
        "{}",
        text(&out.stdout)
    );
    // Missing: the data disagrees (1), and says which key.
    let out = get(&["--key", "PK=POST#nope", "--key", "SK=META"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"");
    assert!(
        text(&out.stderr).contains("there is no item PK = POST#nope · SK = META in table Social"),
        "{}",
        text(&out.stderr)
    );
    // Half a key is bad input (2), nothing read.
    let out = get(&["--key", "PK=POST#big"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs `SK` too"));
}

#[test]
fn a_token_reused_for_another_request_is_said_in_words() {
    use common::served::{Served, dynoscope, text};
    let served = Served::new();
    let url = served.url().to_owned();
    let like = |op: &str| {
        dynoscope(&[
            "--endpoint-url",
            &url,
            op,
            "--table",
            "Social",
            "--pk",
            "POST#a91f",
            "--user",
            "USER#tok",
            "--token",
            "same-token-1",
        ])
    };
    assert_eq!(like("like").status.code(), Some(0));
    let out = like("unlike");
    assert_eq!(
        out.status.code(),
        Some(2),
        "nothing applied: {}",
        text(&out.stdout)
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("IdempotentParameterMismatchException: this ClientRequestToken was used for a different request in the last 10 minutes; nothing was written"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("IdempotentParameterMismatch").count(),
        1,
        "said once: {stderr}"
    );
}
