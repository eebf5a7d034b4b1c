//! dynamodb-toolbox's whole programs run by Node.js against the sandbox: the counter write
//! (a 20-digit delta too), the like, a query's paging loop.

use std::str::FromStr as _;

use bigdecimal::BigDecimal;
use serde_json::Value;

use super::written;
use crate::common::Fault;
use crate::common::runtimes::{like_tally, printed_like, text, toolbox_runtime};
use crate::common::served::{Served, dynoscope, play_count};
use crate::programs::printed;

/// `play_count` as an exact number.
fn count(served: &Served) -> BigDecimal {
    BigDecimal::from_str(&play_count(served)).unwrap()
}

#[test]
fn the_toolbox_counter_program_moves_the_value_exactly_and_says_each_outcome() {
    let runtime = toolbox_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for delta in ["5", "12345678901234567890"] {
        let before = count(&served);
        let program = printed("toolbox", (delta, "1e30"), &url, true);
        let out = runtime.run("counter", &program, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{program}\n{}",
            text(&out.stderr)
        );
        let after = count(&served);
        assert_eq!(
            after,
            before + BigDecimal::from_str(delta).unwrap(),
            "moved by exactly {delta}"
        );
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            said["play_count"].to_string().trim_matches('"'),
            after.to_string(),
            "the server's value"
        );
    }
    // The condition fails: exit 1, the item as it is, nothing written.
    let before = count(&served);
    let out = runtime.run("counter", &printed("toolbox", ("5", "10"), &url, true), &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("condition failed, nothing written")
            && stderr.contains(&before.to_string()),
        "{stderr}"
    );
    assert_eq!(count(&served), before);
    // An answer lost after the write applied: unknown, sent once, counted once.
    let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
    let lost = proxy.url.replace("127.0.0.1", "localhost");
    let program = printed("toolbox", ("5", "1e30"), &lost, true);
    let out = runtime.run("counter", &program, &[("AWS_MAX_ATTEMPTS", "3")]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!((proxy.arrived(), count(&served)), (1, before.clone() + 5));
    // Its reader gone before it prints: applied once, exit 0.
    let out = runtime.run_unread("counter", &printed("toolbox", ("1", "1e30"), &url, true));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(count(&served), before + 6);
    // Nothing listens: nothing was sent.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dead = format!("http://localhost:{port}");
    let out = runtime.run(
        "counter",
        &printed("toolbox", ("1", "1e30"), &dead, true),
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("not sent"));
}

#[test]
fn the_toolbox_like_counts_once_per_token_says_its_reasons_and_resends_a_lost_answer() {
    let runtime = toolbox_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let before = like_tally(&served);
    let program = printed_like("toolbox", "USER#tb", &url, Some("token-tb"));
    assert!(program.contains("$add(1)") && program.contains("executeTransactWrite"));
    for _ in 0..2 {
        let out = runtime.run("like", &program, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(said["token"], "token-tb");
    }
    assert_eq!(like_tally(&served), before + 1, "one token, counted once");
    let out = runtime.run("like", &printed_like("toolbox", "USER#tb", &url, None), &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            r#"already liked; nothing was written; reasons: ["ConditionalCheckFailed","None"]"#
        ),
        "{stderr}"
    );
    // A fresh token, its first answer lost after it applied: sent again, counted once, and
    // likedAt the moment the program started.
    let proxy = served.fault(&["TransactWriteItems"], Fault::HtmlAfterApplyOnce);
    let lost = proxy.url.replace("127.0.0.1", "localhost");
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let program = printed_like("toolbox", "USER#tb-lost", &lost, None);
    let out = runtime.run("like", &program, &[("AWS_MAX_ATTEMPTS", "5")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("sending again with the same token"),
        "{stderr}"
    );
    assert_eq!((proxy.arrived(), like_tally(&served)), (2, before + 2));
    let child: Value = serde_json::from_str(
        served
            .item("Social", "POST#a91f", "LIKE#USER#tb-lost")
            .trim(),
    )
    .unwrap();
    let liked_at: u64 = child["likedAt"].to_string().parse().unwrap();
    assert!(
        liked_at >= started && liked_at < started + 600,
        "{liked_at} vs {started}"
    );
}

/// A query program prints the collection `dynoscope items` reads, item for item (numbers
/// exact; the reconcile's scan, in `programs_runs.rs`, follows pages past the first).
#[test]
fn the_toolbox_query_program_prints_the_collection() {
    let runtime = toolbox_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let values = r#"{":p":{"S":"POST#a91f"}}"#;
    let args = [
        "query",
        "PK = :p",
        "--values",
        values,
        "--table",
        "Social",
        "--program",
    ];
    let program = written("toolbox", &url, &args);
    let out = runtime.run("query", &program, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = |bytes: &[u8]| -> Vec<Value> {
        let mut items: Vec<Value> = (text(bytes).lines())
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        items.sort_by_key(|item| item["SK"].to_string());
        items
    };
    let collection = dynoscope(&[
        "--endpoint-url",
        served.url(),
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
    ]);
    let items = read(&collection.stdout);
    assert_eq!(read(&out.stdout), items);
    let counted = format!("{} items in 1 pages", items.len());
    assert!(
        text(&out.stderr).contains(&counted),
        "{}",
        text(&out.stderr)
    );
}
