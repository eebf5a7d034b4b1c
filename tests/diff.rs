//! Two tables compared by key (`core::diff`), on two embedded engines: planted differences found
//! exactly and nothing else — an item missing on each side, an attribute changed, a 38-digit
//! number off by one in its last digit — while a set given in another order and `1.0` against
//! `1` are the same; one partition alone; keys that differ refused before anything is read; and
//! the same differences through a proxy that throttles and resets the reads.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::document::Document;
use std::time::Duration;

use crate::common::{self, Engine, Fault, Said, n, s};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::diff::{DiffScope, TableDiff, diff};
use dynoscope_core::ending::Ending;
use dynoscope_core::read;
use dynoscope_core::report::Report;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::Item;

const TABLE: &str = "Diffed";
const ITEMS: usize = 120;

fn item(i: usize) -> Item {
    Item::from([
        ("PK".to_owned(), s(&format!("POST#{}", i % 4))),
        ("SK".to_owned(), s(&format!("LIKE#{i:03}"))),
        ("title".to_owned(), s(&format!("title {i}"))),
        ("n".to_owned(), n(&i.to_string())),
    ])
}

async fn put(client: &Client, item: Item) {
    client
        .put_item()
        .table_name(TABLE)
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
}

async fn delete(client: &Client, i: usize) {
    let key = item(i)
        .into_iter()
        .filter(|(k, _)| k == "PK" || k == "SK")
        .collect();
    client
        .delete_item()
        .table_name(TABLE)
        .set_key(Some(key))
        .send()
        .await
        .unwrap();
}

async fn filled() -> (Engine, TableInfo) {
    let engine = common::empty_engine().await;
    common::create_table(&engine.client, TABLE).await;
    for i in 0..ITEMS {
        put(&engine.client, item(i)).await;
    }
    let info = read::describe_table(&engine.reader(), TABLE).await.unwrap();
    (engine, info)
}

fn with(i: usize, name: &str, value: AttributeValue) -> Item {
    let mut it = item(i);
    it.insert(name.to_owned(), value);
    it
}

/// Two engines holding the same 120 items, then: item 7 only on B, item 9 only on A, item 20's
/// title changed on B, item 30's 38-digit number off by one on B; item 40's set in another
/// order and item 50's `1.0` against `1`, the same.
async fn planted() -> ((Engine, TableInfo), (Engine, TableInfo)) {
    let (a, b) = (filled().await, filled().await);
    let (ca, cb) = (&a.0.client, &b.0.client);
    delete(ca, 7).await;
    delete(cb, 9).await;
    put(cb, with(20, "title", s("changed"))).await;
    put(
        ca,
        with(30, "big", n("12345678901234567890123456789012345678")),
    )
    .await;
    put(
        cb,
        with(30, "big", n("12345678901234567890123456789012345679")),
    )
    .await;
    let set = |v: &[&str]| AttributeValue::Ss(v.iter().map(|x| (*x).to_owned()).collect());
    put(ca, with(40, "tags", set(&["a", "b", "c"]))).await;
    put(cb, with(40, "tags", set(&["c", "a", "b"]))).await;
    put(ca, with(50, "n", n("1"))).await;
    put(cb, with(50, "n", n("1.0"))).await;
    (a, b)
}

async fn compared(a: &(Engine, TableInfo), b: &(Engine, TableInfo), scope: DiffScope) -> TableDiff {
    let stop = CancelToken::default();
    diff(
        (&a.0.connection, &a.1),
        (&b.0.connection, &b.1),
        &scope,
        &stop,
    )
    .await
    .unwrap()
}

fn sks(keys: &[Item]) -> Vec<String> {
    keys.iter()
        .map(|k| dynoscope_core::value::cell_text(&k["SK"]))
        .collect()
}

fn check_planted(found: &TableDiff) {
    assert_eq!(sks(&found.only_a.keys), ["LIKE#009"], "{:?}", found.texts());
    assert_eq!(sks(&found.only_b.keys), ["LIKE#007"]);
    let changed: Vec<(String, Vec<String>)> = found
        .changed
        .iter()
        .map(|(k, attrs)| {
            let sk = dynoscope_core::value::cell_text(&k["SK"]);
            (sk, attrs.iter().map(|c| c.name.clone()).collect())
        })
        .collect();
    let mut changed = changed;
    changed.sort();
    assert_eq!(
        changed,
        [
            ("LIKE#020".to_owned(), vec!["title".to_owned()]),
            ("LIKE#030".to_owned(), vec!["big".to_owned()])
        ]
    );
    assert_eq!(found.changed_count, 2);
    assert_eq!(found.same, ITEMS as u64 - 4, "every other item the same");
    assert_eq!(found.ending(), Ending::Refused);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_differences_are_found_exactly_and_equal_values_are_the_same() {
    let (a, b) = planted().await;
    let found = compared(&a, &b, DiffScope::Table).await;
    check_planted(&found);
    let words = found.texts().join("\n");
    assert!(
        words.starts_with("every item: 1 only in A, 1 only in B, 2 different, 116 the same"),
        "{words}"
    );
    assert!(words.contains("  title: title 20 → changed"), "{words}");
    assert!(
        words.contains(
            "big: 12345678901234567890123456789012345678 → 12345678901234567890123456789012345679"
        ),
        "{words}"
    );
    let json = found.to_json();
    assert_eq!(json["different"]["count"], 2);
    assert_eq!(json["only_in_a"]["keys"][0]["SK"]["S"], "LIKE#009");
    // One partition: item 20 is in POST#0, with 29 others (7 and 9 are in POST#3 and POST#1).
    let part = compared(&a, &b, DiffScope::Partition("POST#0".into())).await;
    assert_eq!(
        (part.only_a.count, part.only_b.count, part.changed_count),
        (0, 0, 1)
    );
    assert_eq!(part.same, 29);
    assert_eq!(part.b.read, 30, "only the partition was read");
    // A table compared with itself agrees.
    let itself = compared(&a, &a, DiffScope::Table).await;
    assert!(itself.agrees());
    assert_eq!(itself.ending(), Ending::Done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_whose_keys_differ_are_refused_before_anything_is_read() {
    let a = filled().await;
    let mut other = a.1.clone();
    other.sort = None;
    let stop = CancelToken::default();
    let error = diff(
        (&a.0.connection, &a.1),
        (&a.0.connection, &other),
        &DiffScope::Table,
        &stop,
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(error.contains("the tables' keys differ"), "{error}");
    assert!(error.contains("PK (S) / SK (S)"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttled_and_reset_pages_find_the_same_differences() {
    let (a, b) = planted().await;
    for fault in [
        Fault::ThrottleReads { pass: 0, refuse: 2 },
        Fault::ResetAfterApplySecond,
    ] {
        let proxy = common::fault_proxy(b.0.sandbox.addr(), &["Scan"], fault).await;
        let through = common::connect_to(&proxy.url, Duration::from_secs(10)).await;
        let stop = CancelToken::default();
        let found = diff(
            (&a.0.connection, &a.1),
            (&through, &b.1),
            &DiffScope::Table,
            &stop,
        )
        .await
        .unwrap();
        check_planted(&found);
        assert!(proxy.arrived() >= 1);
    }
}

/// `dynoscope diff` from the shell: side B on another endpoint, read only; exit 1 with every
/// difference in the one JSON document, 0 for a table against itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_lists_the_differences_and_exits_by_them() {
    let (a, b) = planted().await;
    let (url_a, url_b) = (a.0.sandbox.endpoint(), b.0.sandbox.endpoint());
    let args = [
        "diff",
        "--table",
        TABLE,
        "--to-endpoint",
        url_b,
        "--all",
        "--json",
    ];
    let (code, out, err) = common::files::dynoscope(url_a, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["different"]["count"], 2, "{json}");
    assert_eq!(json["only_in_b"]["keys"][0]["SK"]["S"], "LIKE#007");
    assert_eq!(json["same"], ITEMS - 4);
    assert_eq!(json["ending"], "refused");
    let args = [
        "diff",
        "--table",
        TABLE,
        "--to-endpoint",
        url_b,
        "--pk",
        "POST#0",
    ];
    let (code, out, _) = common::files::dynoscope(url_a, &args).await;
    assert_eq!(code, 1);
    assert!(
        out.contains("partition POST#0: 0 only in A, 0 only in B, 1 different, 29 the same"),
        "{out}"
    );
    assert!(out.contains("  title: title 20 → changed"), "{out}");
    let args = ["diff", "--table", TABLE, "--to-table", TABLE, "--all"];
    let (code, out, err) = common::files::dynoscope(url_a, &args).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("0 only in A, 0 only in B, 0 different, 119 the same"),
        "{out}"
    );
    let (code, _, err) = common::files::dynoscope(url_a, &["diff", "--table", TABLE]).await;
    assert_eq!(code, 2, "one of --pk or --all: {err}");
}

/// A comparison stopped before a side is read whole is not made on part of it: it is cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_comparison_is_cancelled_not_partial() {
    let a = filled().await;
    let stop = CancelToken::default();
    stop.cancel();
    for scope in [DiffScope::Table, DiffScope::Partition("POST#0".into())] {
        let got = diff(
            (&a.0.connection, &a.1),
            (&a.0.connection, &a.1),
            &scope,
            &stop,
        )
        .await;
        assert!(
            matches!(got, Err(dynoscope_core::error::Error::Cancelled { .. })),
            "{scope:?}: {got:?}"
        );
    }
}

/// Two copies of the seeded Social table, B with POST#d71e's extra ADD taken back: compared
/// under the likes rule, POST#d71e differs (+1 on A, 0 on B) and the two other drifted posts are
/// named as drifted on both; from the shell, exit 1, and `--tally` needs `--all`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_counters_of_two_copies_are_compared_by_parent() {
    use dynoscope_core::diff::compare_tallies;
    use dynoscope_core::sandbox::Sandbox;
    use dynoscope_core::spec::{PlanChoice, RuleSpec, TallySpec};
    let (sa, sb) = (
        Sandbox::start(None, 0).await.unwrap(),
        Sandbox::start(None, 0).await.unwrap(),
    );
    let a = common::connect_to(sa.endpoint(), Duration::from_secs(10)).await;
    let b = common::connect_to(sb.endpoint(), Duration::from_secs(10)).await;
    common::sdk_client(sb.endpoint())
        .update_item()
        .table_name("Social")
        .set_key(Some(Item::from([
            ("PK".to_owned(), s("POST#d71e")),
            ("SK".to_owned(), s("META")),
        ])))
        .update_expression("ADD likeTally :d")
        .expression_attribute_values(":d", n("-1"))
        .send()
        .await
        .unwrap();
    let info_a = read::describe_table(&a.reader(), "Social").await.unwrap();
    let info_b = read::describe_table(&b.reader(), "Social").await.unwrap();
    let spec = TallySpec {
        table: "Social".into(),
        pk: None,
        rule: RuleSpec {
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            parent_prefix: "POST#".into(),
            ..RuleSpec::default()
        },
        plan: PlanChoice::Auto,
        concurrency: 8,
    };
    let rule = spec.rule.tally_rule().unwrap();
    let (_, plan) = spec.reconcile_plan(&info_a).unwrap();
    let stop = CancelToken::default();
    let found = compare_tallies((&a, &info_a), (&b, &info_b), &rule, plan, &stop)
        .await
        .unwrap();
    let parents: Vec<&str> = found.pairs.iter().map(|p| p.parent.as_str()).collect();
    assert_eq!(
        parents,
        ["POST#3b0c", "POST#77f1", "POST#d71e"],
        "{:?}",
        found.texts()
    );
    let words = found.texts().join("\n");
    assert!(
        words.starts_with("45 parents of `likeTally`: 1 differ between the sides, 3 drifted"),
        "{words}"
    );
    let d71e = words.lines().find(|l| l.starts_with("POST#d71e")).unwrap();
    assert!(
        d71e.contains("children (+1), B ") && d71e.ends_with("children (0) — A has an extra ADD"),
        "{d71e}"
    );
    assert_eq!(found.ending(), Ending::Refused);

    counters_from_the_shell(sa.endpoint(), sb.endpoint()).await;
}

/// `diff --tally … --all` between the two copies: exit 1 with the counts; `--tally` with `--pk`
/// refused.
async fn counters_from_the_shell(url_a: &str, url_b: &str) {
    let rule_flags = [
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
    ];
    let mut args = vec![
        "diff",
        "--table",
        "Social",
        "--to-endpoint",
        url_b,
        "--all",
        "--json",
    ];
    args.extend(rule_flags);
    let (code, out, err) = common::files::dynoscope(url_a, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (json["parents"].as_u64(), json["differ"].as_u64()),
        (Some(45), Some(1)),
        "{json}"
    );
    let mut args = vec!["diff", "--table", "Social", "--pk", "POST#d71e"];
    args.extend(rule_flags);
    let (code, _, err) = common::files::dynoscope(url_a, &args).await;
    assert_eq!(code, 2);
    assert!(
        err.contains("counters are compared over every parent"),
        "{err}"
    );
}
