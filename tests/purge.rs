//! Deleting many items on the embedded engine: a dry run that counts and shows the first keys
//! and deletes nothing; truncate and a partition's delete whose reports add up; counted children
//! refused without a choice and their tallies repaired with one; the confirmed count never
//! exceeded; selected keys; a read-only connection sending nothing; every fault of the proxy,
//! the report matching what the table holds.

use crate::common;
use crate::common::LIKES_RULE;

use std::collections::HashMap;

use common::files::{dynoscope, scan};
use common::through::{engine_with_table, proxied};
use common::{Engine, Fault, n, s};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::ending::Ending;
use dynoscope_core::purge::{self, PurgeSource};
use dynoscope_core::spec::ReadSpec;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::Item;

fn item(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

/// `posts` posts, each with a `META` parent whose `likeTally` is right and `likes` likes.
async fn seeded(engine: &Engine, info: &TableInfo, posts: usize, likes: usize) {
    let mut items = Vec::new();
    for p in 0..posts {
        let pk = format!("POST#{p:03}");
        let mut meta = item(&pk, "META");
        meta.insert("likeTally".into(), n(&likes.to_string()));
        items.push(meta);
        for l in 0..likes {
            items.push(item(&pk, &format!("LIKE#USER#{l:03}")));
        }
    }
    common::put_all(&engine.client, &info.name, items).await;
}

fn scan_all(info: &TableInfo) -> PurgeSource {
    PurgeSource::Read(Box::new(
        ReadSpec::scan(info.name.clone()).plan(info).unwrap(),
    ))
}

#[tokio::test]
async fn a_truncate_counts_first_then_deletes_every_item_and_adds_up() {
    let (engine, info) = engine_with_table().await;
    seeded(&engine, &info, 6, 40).await;
    let stop = CancelToken::default();
    let source = scan_all(&info);
    let counted = purge::count(&engine.connection, &info, &source, &[], &stop, |_| {})
        .await
        .unwrap();
    assert_eq!(counted.items, 246);
    assert_eq!(counted.first.len(), purge::FIRST_KEYS);
    assert!(counted.rcu > 0.0);
    assert!(
        counted.lines(&info.name, &info.key_names())[0].starts_with("246 items in"),
        "{:?}",
        counted.lines(&info.name, &info.key_names())
    );
    assert_eq!(
        scan(&engine, &info.name).await.len(),
        246,
        "a count deletes nothing"
    );

    let report = purge::purge(
        &engine.connection,
        &info,
        &source,
        counted.items,
        false,
        &stop,
        |_| {},
    )
    .await;
    assert_eq!(
        report.ending(),
        Ending::Done,
        "{:?}",
        report.lines(&info.name, &engine.connection.pricing(&info))
    );
    assert_eq!(
        (
            report.read,
            report.deleted,
            report.not_deleted,
            report.unknown
        ),
        (246, 246, 0, 0)
    );
    // 246 keys in batches of 25: 10 requests.
    assert_eq!(report.requests, 10);
    assert!(scan(&engine, &info.name).await.is_empty());
    // The table is kept.
    dynoscope_core::read::describe_table(&engine.reader(), &info.name)
        .await
        .unwrap();
}

#[tokio::test]
async fn never_more_than_the_confirmed_count_is_deleted() {
    let (engine, info) = engine_with_table().await;
    seeded(&engine, &info, 1, 59).await;
    // 60 items, but 50 confirmed (as when a second writer added 10 after the count): the 50
    // are deleted and the pass says why it stopped.
    let report = purge::purge(
        &engine.connection,
        &info,
        &scan_all(&info),
        50,
        false,
        &CancelToken::default(),
        |_| {},
    )
    .await;
    assert_eq!(report.deleted, 50);
    assert_eq!(report.ending(), Ending::Refused);
    assert!(
        report
            .stopped
            .as_deref()
            .unwrap()
            .contains("more are there now than were counted")
    );
    assert_eq!(scan(&engine, &info.name).await.len(), 10);

    // A cancel before the first batch deletes nothing.
    let stop = CancelToken::default();
    stop.cancel();
    let report = purge::purge(
        &engine.connection,
        &info,
        &scan_all(&info),
        10,
        false,
        &stop,
        |_| {},
    )
    .await;
    assert_eq!((report.deleted, report.cancelled), (0, true));
    assert_eq!(scan(&engine, &info.name).await.len(), 10);
}

#[tokio::test]
async fn selected_keys_are_read_again_and_only_those_still_there_count() {
    let (engine, info) = engine_with_table().await;
    seeded(&engine, &info, 1, 5).await;
    let keys = vec![
        item("POST#000", "LIKE#USER#001"),
        item("POST#000", "LIKE#USER#002"),
        item("POST#000", "LIKE#USER#999"),
    ];
    let source = PurgeSource::Keys(keys);
    let counted = purge::count(
        &engine.connection,
        &info,
        &source,
        &[],
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!(counted.items, 2, "the third key holds no item");
    let report = purge::purge(
        &engine.connection,
        &info,
        &source,
        3,
        false,
        &CancelToken::default(),
        |_| {},
    )
    .await;
    assert_eq!(report.ending(), Ending::Done);
    assert_eq!(scan(&engine, &info.name).await.len(), 4);
}

#[tokio::test]
async fn the_cli_refuses_counted_children_without_a_choice_and_repairs_with_one() {
    let (engine, info) = engine_with_table().await;
    seeded(&engine, &info, 2, 30).await;
    let url = engine.sandbox.endpoint().to_owned();
    let counters = LIKES_RULE;
    let query = |extra: &[&'static str]| {
        let mut args = vec![
            "delete",
            "--table",
            &info.name,
            "--from-query",
            "--pk",
            "POST#000",
        ];
        args.extend(["--sk-begins-with", "LIKE#USER#00"]);
        args.extend(counters);
        args.extend(extra);
        args.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| {
        let url = url.clone();
        async move {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &refs).await
        }
    };
    let (code, out, _) = run(query(&["--dry-run"])).await;
    assert_eq!(code, 0);
    let said = [
        "10 items in",
        "10 `LIKE#` children of 1 parent deleted",
        "POST#000 / META: -10",
    ];
    assert!(said.iter().all(|s| out.contains(s)), "{out}");
    let (code, _, err) = run(query(&["--yes"])).await;
    assert_eq!(code, 2, "{err}");
    let asked = "choose what becomes of their parents' tallies, repair";
    assert!(
        err.contains(asked) && err.contains("--tallies repair or --tallies leave"),
        "{err}"
    );
    // Without --yes, even on this machine, nothing is deleted.
    let (code, _, err) = run(query(&["--tallies", "repair"])).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--yes"), "{err}");
    // One message, the true one: the way to confirm said once, nothing about another machine.
    assert_eq!(err.matches("add --yes").count(), 1, "{err}");
    assert!(!err.contains("not on this machine"), "{err}");
    assert_eq!(scan(&engine, &info.name).await.len(), 62);

    let (code, out, err) = run(query(&["--tallies", "repair", "--yes", "--json"])).await;
    assert_eq!(code, 0, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["deleted"], 10);
    assert_eq!(report["ending"], "done");
    let meta = dynoscope_core::read::read_number(
        &engine.reader(),
        &info.name,
        &item("POST#000", "META"),
        "likeTally",
    )
    .await
    .unwrap();
    assert_eq!(
        meta.as_deref(),
        Some("20"),
        "the tally follows its 20 children left"
    );

    truncate_deletes_the_rest(&engine, &info.name, &url).await;
}

/// Truncate: the whole table, 52 items left.
async fn truncate_deletes_the_rest(engine: &Engine, table: &str, url: &str) {
    let (code, out, err) = dynoscope(url, &["truncate", "--table", table, "--yes"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("52 items deleted"), "{out}");
    assert!(scan(engine, table).await.is_empty());
}

#[tokio::test]
async fn a_read_only_connection_deletes_nothing_and_sends_nothing() {
    let (engine, info) = engine_with_table().await;
    seeded(&engine, &info, 1, 30).await;
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::HtmlAfterApply,
    )
    .await;
    let read_only = dynoscope_core::connection::connect_with(
        dynoscope_core::connection::ConnectionSpec::Endpoint {
            url: proxy.url.clone(),
            profile: None,
            region: None,
        },
        dynoscope_core::connection::ConnectOptions {
            timeout: std::time::Duration::from_secs(5),
            read_only: true,
        },
    )
    .await
    .unwrap();
    let report = purge::purge(
        &read_only,
        &info,
        &scan_all(&info),
        31,
        true,
        &CancelToken::default(),
        |_| {},
    )
    .await;
    assert_eq!(report.ending(), Ending::BadInput);
    assert!(
        report
            .error
            .unwrap()
            .to_string()
            .to_lowercase()
            .contains("read-only")
    );
    assert_eq!(proxy.arrived(), 0);
    assert_eq!(scan(&engine, &info.name).await.len(), 31);
}

/// Every fault of the proxy on the batch deletes: the deleted count said is what left the table.
#[tokio::test]
async fn through_every_fault_the_report_matches_the_table() {
    for fault in common::through::faults() {
        let (engine, info) = engine_with_table().await;
        seeded(&engine, &info, 2, 29).await;
        let (proxy, connection) = proxied(&engine, &["BatchWriteItem"], fault).await;
        let report = purge::purge(
            &connection,
            &info,
            &scan_all(&info),
            60,
            false,
            &CancelToken::default(),
            |_| {},
        )
        .await;
        let left = scan(&engine, &info.name).await.len() as u64;
        assert_eq!(
            60 - report.deleted,
            left,
            "{fault:?}: {:?}",
            report.lines(&info.name, &engine.connection.pricing(&info))
        );
        assert_eq!(
            report.deleted + report.not_deleted + report.unknown,
            report.read,
            "{fault:?}"
        );
        if let Fault::Throttle(_) = fault {
            // Throttled twice, then sent again: everything deleted.
            assert_eq!((report.ending(), left), (Ending::Done, 0), "{fault:?}");
        } else {
            // Every answer lost after the server applied it: each batch's keys read again are
            // gone, so they are counted deleted, not unknown; deletes are repeatable, so a lost
            // answer is sent again and the pass goes on.
            assert_eq!(
                report.unknown,
                0,
                "{fault:?}: {:?}",
                report.lines(&info.name, &engine.connection.pricing(&info))
            );
            assert_eq!(left, 0, "{fault:?}");
        }
        assert!(proxy.arrived() >= 3, "{fault:?}");
    }
}
