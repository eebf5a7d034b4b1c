//! dynamodb-toolbox v2 (`--as toolbox`), run by Node.js with `dynamodb-toolbox`,
//! `@aws-sdk/lib-dynamodb` and `@aws-sdk/client-dynamodb` from npm against the sandbox over
//! HTTP, with an empty environment and home: a request written for it leaves the item exactly
//! as the same request sent by the low-level client does; a query reads the same items; what it
//! cannot say is refused in words before anything; the counter program moves the value by its
//! delta, a 20-digit one too, and says each outcome as the other programs do.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::str::FromStr as _;

use bigdecimal::BigDecimal;
use serde_json::Value;

use crate::common::Fault;
use crate::common::runtimes::{Runtime, like_tally, printed_like, runtimes, text, toolbox_runtime};
use crate::common::served::{Served, dynoscope, play_count, succeeded};
use crate::programs::printed;

/// `dynoscope expr ARGS --as target` for `url`.
pub(crate) fn written(target: &str, url: &str, args: &[&str]) -> String {
    let mut all = vec!["--endpoint-url", url, "expr"];
    all.extend(args);
    all.extend(["--as", target]);
    succeeded(&all).0
}

/// The low-level JavaScript client, whose requests the toolbox's are held to.
pub(crate) fn js() -> Runtime {
    runtimes().into_iter().find(|r| r.target == "js").unwrap()
}

/// A hostile attribute name: quotes, `$(…)`, backquotes, `${x}`, `#{}`, a new line, U+2028.
const HOSTILE: &str = "we\"ird $(touch CANARY) `touch CANARY` ${x} #{y}\n\u{2028}'";

/// The updates, each sent by the toolbox's code to one sandbox and by the low-level client's
/// to another: `ADD` of a number and of a set, `SET` of a value, of `if_not_exists(x, 0) + d`,
/// of `x - d`, of another attribute, `REMOVE`, a set's `DELETE`, under conditions of every kind.
fn updates() -> Vec<Vec<String>> {
    let names = serde_json::json!({ "#w": HOSTILE }).to_string();
    let update = |expression: &str, condition: &str, values: &str| {
        [
            "update",
            expression,
            "--condition",
            condition,
            "--values",
            values,
            "--names",
            &names,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    vec![
        update(
            "ADD likeTally :one, labels :ss, fresh :one SET #w = :t, c2 = if_not_exists(c2, :z) + :d",
            "attribute_exists(PK) AND likeTally BETWEEN :lo AND :hi AND attribute_type(likeTally, :N)",
            r#"{":one":{"N":"1"},":ss":{"SS":["a","b","c"]},":t":{"S":"a \"quoted\" $(x)"},":z":{"N":"0"},":d":{"N":"0.25"},":lo":{"N":"0"},":hi":{"N":"100"},":N":{"S":"N"}}"#,
        ),
        update(
            "SET c2 = c2 - :d, copied = likeTally, big = :big REMOVE pinned DELETE labels :b",
            "(size(title) > :zero OR NOT contains(labels, :x)) AND pinned IN (:yes, :no)",
            r#"{":d":{"N":"0.5"},":big":{"N":"12345678901234567890123"},":b":{"SS":["b"]},":zero":{"N":"0"},":x":{"S":"zed"},":yes":{"BOOL":true},":no":{"BOOL":false}}"#,
        ),
    ]
}

#[test]
fn a_request_written_for_dynamodb_toolbox_leaves_the_item_as_the_request_does() {
    let (toolbox, js) = (toolbox_runtime(), js());
    let (ours, theirs) = (Served::new(), Served::new());
    for args in updates() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for (runtime, served) in [(&toolbox, &ours), (&js, &theirs)] {
            let url = served.url().replace("127.0.0.1", "localhost");
            let code = written(runtime.target, &url, &args);
            let out = runtime.run("update", &code, &[]);
            assert!(out.status.success(), "{code}\n{}", text(&out.stderr));
        }
        let item = |served: &Served| served.item("Social", "POST#a91f", "META");
        assert_eq!(item(&ours), item(&theirs), "{args:?}");
    }
    let item: Value =
        serde_json::from_str(ours.item("Social", "POST#a91f", "META").trim()).unwrap();
    assert_eq!(item["likeTally"].to_string(), "4");
    assert_eq!(
        item["fresh"].to_string(),
        "1",
        "an ADD starts a missing number at 0"
    );
    assert_eq!(item["c2"].to_string(), "-0.25");
    assert_eq!(item["big"].to_string(), "12345678901234567890123");
    assert_eq!(item["labels"], serde_json::json!(["a", "c"]));
    assert_eq!(item[HOSTILE], "a \"quoted\" $(x)");
    assert!(!toolbox.dir.join("CANARY").exists() && !js.dir.join("CANARY").exists());
    // A failed condition is DynamoDB's answer, not the toolbox's: nothing written.
    let url = ours.url().replace("127.0.0.1", "localhost");
    let code = written(
        "toolbox",
        &url,
        &[
            "update",
            "ADD likeTally :one",
            "--condition",
            "likeTally > :big",
            "--values",
            r#"{":one":{"N":"1"},":big":{"N":"1000"}}"#,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ],
    );
    let out = toolbox.run("update", &code, &[]);
    assert!(text(&out.stderr).contains("ConditionalCheckFailedException"));
    let after: Value =
        serde_json::from_str(ours.item("Social", "POST#a91f", "META").trim()).unwrap();
    assert_eq!(after["likeTally"].to_string(), "4");
}

#[test]
fn a_query_and_a_conditional_delete_do_what_the_low_level_requests_do() {
    let (toolbox, js) = (toolbox_runtime(), js());
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let query = [
        "query",
        "PK = :p AND begins_with(SK, :s)",
        "--filter",
        "attribute_exists(GSI1PK) AND likedAt > :t",
        "--values",
        r#"{":p":{"S":"POST#a91f"},":s":{"S":"LIKE#"},":t":{"N":"1750640000"}}"#,
        "--table",
        "Social",
    ];
    let toolbox_code = written("toolbox", &url, &query)
        + "console.log(JSON.stringify(response.Items.map((item) => item.SK)));\n";
    let js_code = written("js", &url, &query)
        + "console.log(JSON.stringify(response.Items.map((item) => item.SK.S)));\n";
    let read = |runtime: &Runtime, code: &str| {
        let out = runtime.run("query", code, &[]);
        assert!(out.status.success(), "{code}\n{}", text(&out.stderr));
        text(&out.stdout)
    };
    let keys = read(&toolbox, &toolbox_code);
    assert_eq!(keys, read(&js, &js_code));
    assert_eq!(keys.trim(), r#"["LIKE#USER#19be","LIKE#USER#e4d2"]"#);
    let delete = [
        "delete",
        "attribute_exists(likedAt)",
        "--table",
        "Social",
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=LIKE#USER#7c20",
    ];
    let out = toolbox.run("delete", &written("toolbox", &url, &delete), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        served.item("Social", "POST#a91f", "LIKE#USER#7c20").trim(),
        ""
    );
}

/// Requests dynamodb-toolbox cannot say (after `expr`), and the words that say why.
const REFUSED: [(&[&str], &str); 7] = [
    (
        &[
            "update",
            "SET stats.words = :n",
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "nested path",
    ),
    (
        &[
            "update",
            "SET tags = list_append(tags, :l)",
            "--values",
            r#"{":l":{"L":[]}}"#,
        ],
        "list_append",
    ),
    (
        &[
            "update",
            "SET a = :n",
            "--values",
            r#"{":n":{"N":"0.12345678901234567891"}}"#,
        ],
        "would be rounded",
    ),
    (
        &[
            "update",
            "SET a = :n",
            "--condition",
            "attribute_exists(#w)",
            "--names",
            r##"{"#w":"a b"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "attribute path",
    ),
    (
        &[
            "update",
            "SET #p = :n",
            "--names",
            r##"{"#p":"__proto__"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "__proto__",
    ),
    (
        &[
            "update",
            "SET a = :n, b = :s",
            "--condition",
            "a = :s",
            "--values",
            r#"{":n":{"N":"1"},":s":{"S":"x"}}"#,
        ],
        "one type",
    ),
    (&["scan", "attribute_exists(PK)"], "a scan"),
];

#[test]
fn what_dynamodb_toolbox_cannot_say_is_refused_in_words_before_anything() {
    let key = [
        "--table",
        "Social",
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=META",
    ];
    for (args, words) in REFUSED {
        let mut all = vec!["expr"];
        all.extend(args);
        all.extend(if args[0] == "scan" {
            &key[..2]
        } else {
            &key[..]
        });
        all.extend(["--as", "toolbox"]);
        let out = dynoscope(&all);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(
            stderr.contains("dynamodb-toolbox cannot say this request") && stderr.contains(words),
            "{all:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

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
