//! Whole programs for the AWS CLI (`--as cli --program`, `like --program cli`), bash scripts
//! run by bash with the real `aws` (v1 from PyPI) against the sandbox, under an empty
//! environment and home: the counter write moves the value by exactly its delta and prints
//! the server's value, a failed condition exits 1 with the item read again, a lost answer is
//! unknown (exit 3) and counted once; a like with one token counts once, a second like is
//! cancelled with its reasons, a lost answer is sent again with the same token; a read prints
//! every page merged; hostile text stays inside its quotes (the reconcile is run beside the
//! other runtimes' in `programs_runs.rs` and `programs_outcomes.rs`).

use serde_json::Value;

use crate::common::runtimes::{bash_runtime, like_tally, printed_like, text};
use crate::common::{self, Fault, served::Served, served::succeeded};
use crate::programs::printed;

fn play_count(served: &Served) -> i64 {
    common::served::play_count(served).parse().unwrap()
}

/// `text` without white space: the CLI prints JSON indented.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

#[test]
fn the_cli_counter_write_prints_the_value_says_a_failed_condition_and_a_lost_answer() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let bash = bash_runtime();
    let before = play_count(&served);
    let program = printed("cli", ("5", "1000000"), &url, true);
    assert!(program.contains("export AWS_MAX_ATTEMPTS=1"), "{program}");
    let out = bash.run("prints", &program, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        play_count(&served),
        before + 5,
        "moved by exactly its delta"
    );
    assert_eq!(said["play_count"]["N"], (before + 5).to_string());
    // The condition fails: exit 1, the item as read again, nothing written.
    let out = bash.run("fails", &printed("cli", ("5", "10"), &url, true), &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("condition failed, nothing written"),
        "{stderr}"
    );
    let shown = format!(r#""play_count":{{"N":"{}"}}"#, before + 5);
    assert!(squeezed(&stderr).contains(&shown), "{stderr}");
    assert_eq!(play_count(&served), before + 5, "nothing written");
    // The answer lost after the write applied, the environment asking for three attempts.
    let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
    let url = proxy.url.replace("127.0.0.1", "localhost");
    let program = printed("cli", ("5", "1000000"), &url, true);
    let out = bash.run("lost", &program, &[("AWS_MAX_ATTEMPTS", "3")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("outcome unknown"), "{stderr}");
    assert_eq!(proxy.arrived(), 1, "sent once");
    assert_eq!(play_count(&served), before + 10, "counted once");
}

#[test]
fn the_cli_like_counts_once_per_token_says_its_reasons_and_resends_a_lost_answer() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let bash = bash_runtime();
    let before = like_tally(&served);
    let program = printed_like("cli", "USER#cli", &url, Some("tok \"cli\" $(x)"));
    for _ in 0..2 {
        let out = bash.run("like-token", &program, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(said["token"], "tok \"cli\" $(x)");
        assert_eq!(said["sends"], 1);
    }
    assert_eq!(like_tally(&served), before + 1, "counted once");
    let out = bash.run(
        "like-fresh",
        &printed_like("cli", "USER#cli", &url, None),
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            r#"already liked; nothing was written; reasons: ["ConditionalCheckFailed","None"]"#
        ),
        "{stderr}"
    );
    // The first answer lost after the like applied: sent again with its token, counted once.
    let proxy = served.fault(&["TransactWriteItems"], Fault::HtmlAfterApplyOnce);
    let url = proxy.url.replace("127.0.0.1", "localhost");
    let out = bash.run(
        "like-lost",
        &printed_like("cli", "USER#cli-lost", &url, None),
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("sending again with the same token"),
        "{stderr}"
    );
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["sends"], 2);
    assert_eq!(proxy.arrived(), 2);
    assert_eq!(
        like_tally(&served),
        before + 2,
        "the second user's like, once"
    );
}

#[test]
fn the_cli_read_prints_every_page() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let bash = bash_runtime();
    let program = succeeded(&[
        "expr",
        "scan",
        "",
        "--table",
        "Social",
        "--as",
        "cli",
        "--program",
        "--endpoint-url",
        &url,
    ])
    .0;
    let out = bash.run("scan", &program, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        read["Items"].as_array().unwrap().len(),
        26_524,
        "every item"
    );
    assert_eq!(read["Count"], 26_524);
}

#[test]
fn the_cli_program_keeps_hostile_keys_and_names_inside_their_quotes() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let bash = bash_runtime();
    let canary = bash.dir.join("touched");
    let _ = std::fs::remove_file(&canary);
    let c = canary.display();
    let pk = format!("K'\"\\\" $(touch {c}) `touch {c}` ${{x}} #{{}}\u{2028}\\n\n'; touch {c}; '");
    let name = format!("n'$(touch {c})");
    let names = serde_json::json!({ "#h": name }).to_string();
    let key = format!("PK={pk}");
    let program = succeeded(&[
        "expr",
        "update",
        "ADD #h :d",
        "--names",
        &names,
        "--values",
        r#"{":d":{"N":"7"}}"#,
        "--table",
        "Videos",
        "--key",
        &key,
        "--key",
        "SK=x",
        "--as",
        "cli",
        "--program",
        "--endpoint-url",
        &url,
    ])
    .0;
    let out = bash.run("hostile", &program, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{program}\n{}",
        text(&out.stderr)
    );
    assert!(!canary.exists(), "the canary was touched");
    let get = common::served::dynoscope(&[
        "--endpoint-url",
        &url,
        "get",
        "--table",
        "Videos",
        "--key",
        &key,
        "--key",
        "SK=x",
        "--json",
    ]);
    let item: Value = serde_json::from_slice(&get.stdout).unwrap();
    assert_eq!(item["PK"]["S"], pk.as_str());
    assert_eq!(item[&name]["N"], "7");
}

/// The CLI's reconcile reads the scan as text, an item a line: a key holding a tab (or a new
/// line) cannot be read from it, and the script says so instead of miscounting.
#[test]
fn the_cli_reconcile_refuses_a_key_it_cannot_read_from_the_clis_text() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let item = r#"{"PK":{"S":"POST#a91f"},"SK":{"S":"LIKE#USER#tab\there"}}"#;
    succeeded(&[
        "--endpoint-url",
        &url,
        "put",
        "--table",
        "Social",
        "--item",
        item,
    ]);
    let mut args = vec!["--endpoint-url", &url, "check", "--table", "Social"];
    args.extend(common::LIKES_RULE);
    args.extend(["--all", "--program", "cli"]);
    let program = succeeded(&args).0;
    let out = bash_runtime().run("reconcile-tab", &program, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a key holds a tab or a new line"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing printed as a drift");
}
