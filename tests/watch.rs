//! Watching counters move, against the embedded engine through the real SDK clients: the
//! stream turned on through the write gateway, likes, unlikes, a storm and a staged commit read
//! back as consistent; a bare child, an ADD alone and a child removed twice each named; the
//! sandbox's seeded drifts found from the start of its stream; a watch from now.

use crate::common;
use crate::common::Sdk as _;

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::items::{self, CommitMode};
use dynoscope_core::likes::LikeOp;
use dynoscope_core::read;
use dynoscope_core::report::Report;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::seed;
use dynoscope_core::spec::WatchFrom;
use dynoscope_core::stream::Until;
use dynoscope_core::table::TableInfo;
use dynoscope_core::watch::{self, WatchEvent, WatchProgress, Watched};

use common::watching::{like, spec, stream_table};
use common::{connect_to, n, s};

/// The history of `info`'s stream folded, to what it holds now, with no settle window.
async fn history(connection: &Connection, info: &TableInfo, pk: Option<&str>) -> Watched {
    // Settled at once: the writes were made a moment ago, and none is still in flight.
    let mut spec = spec(&info.name, pk, WatchFrom::TrimHorizon);
    spec.settle_seconds = 0.0;
    let plan = spec.plan(info).unwrap();
    watch::watch(
        connection,
        info,
        &plan,
        Until::CaughtUp,
        None,
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn likes_unlikes_a_storm_and_a_staged_commit_stay_consistent() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let info = stream_table(connection).await;
    like(connection, &info.name, "USER#a", LikeOp::Like).await;
    like(connection, &info.name, "USER#b", LikeOp::Like).await;
    like(connection, &info.name, "USER#a", LikeOp::Unlike).await;
    // A staged commit: a child and the tally's +1 in one transaction.
    let meta = read::get_item(
        &connection.reader(),
        &info.name,
        [("PK".to_owned(), s("POST#1")), ("SK".to_owned(), s("META"))].into(),
    )
    .await
    .unwrap()
    .unwrap();
    let mut after = meta.clone();
    after.insert("likeTally".into(), n("2"));
    let child = [
        ("PK".to_owned(), s("POST#1")),
        ("SK".to_owned(), s("LIKE#USER#staged")),
    ]
    .into();
    let changes = [
        items::Change::edit(&info, meta, after).unwrap(),
        items::Change::create(&info, child).unwrap(),
    ];
    let plan = items::plan_commit(connection, &info, &changes, CommitMode::Transaction).unwrap();
    let report = items::commit(connection, &info, &plan, false).await;
    assert_eq!(report.items.len(), 2);

    let watched = history(connection, &info, Some("POST#1")).await;
    let parent = watched.fold.parent("POST#1").unwrap();
    assert!(watched.fold.open().is_empty(), "{:?}", watched.fold.open());
    assert_eq!(parent.tally().unwrap().to_string(), "2");
    assert!(
        parent.records >= 8,
        "every child and tally record: {}",
        parent.records
    );
    assert_eq!(watched.ending(), dynoscope_core::ending::Ending::Done);
}

#[tokio::test]
async fn a_bare_child_an_add_alone_and_a_child_removed_twice_are_each_named() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let info = stream_table(connection).await;
    let put = |sk: &'static str| {
        connection
            .sdk()
            .put_item()
            .table_name(&info.name)
            .item("PK", s("POST#1"))
            .item("SK", s(sk))
            .send()
    };
    let delete = |sk: &'static str| {
        connection
            .sdk()
            .delete_item()
            .table_name(&info.name)
            .key("PK", s("POST#1"))
            .key("SK", s(sk))
            .send()
    };
    // A child put without its tally.
    put("LIKE#USER#bare").await.unwrap();
    let watched = history(connection, &info, None).await;
    let open = watched.fold.open();
    assert_eq!(open.len(), 1);
    let line = open[0].headline("likeTally");
    assert!(
        line.starts_with("POST#1 drift -1: LIKE#USER#bare inserted at "),
        "{line}"
    );
    assert!(
        line.contains("with no likeTally change: drift -1 since"),
        "{line}"
    );
    let sequence = &open[0].causes[0].sequence;
    assert!(line.contains(&format!("(sequence {sequence})")), "{line}");
    assert_eq!(watched.ending(), dynoscope_core::ending::Ending::Refused);

    // The tally ADDed alone: the gap closes (-1 + 1), long after it opened? Not here: same
    // second, so it is a gap that closed; then another ADD alone opens +1.
    for _ in 0..2 {
        connection
            .sdk()
            .update_item()
            .table_name(&info.name)
            .key("PK", s("POST#1"))
            .key("SK", s("META"))
            .update_expression("ADD likeTally :one")
            .expression_attribute_values(":one", n("1"))
            .send()
            .await
            .unwrap();
    }
    let watched = history(connection, &info, None).await;
    let open = watched.fold.open();
    assert_eq!(open.len(), 1);
    let line = open[0].headline("likeTally");
    assert!(
        line.starts_with("POST#1 drift +1: likeTally 1 → 2 at "),
        "{line}"
    );
    assert!(
        line.contains("with no child inserted: drift +1 since"),
        "{line}"
    );

    // A child removed, put back bare, removed again: removed twice, the tally never moved.
    delete("LIKE#USER#bare").await.unwrap();
    put("LIKE#USER#bare").await.unwrap();
    delete("LIKE#USER#bare").await.unwrap();
    let watched = history(connection, &info, Some("POST#1")).await;
    let changes: Vec<String> = watched
        .fold
        .parent("POST#1")
        .unwrap()
        .recent
        .iter()
        .map(|c| c.what("likeTally"))
        .collect();
    assert!(
        changes.contains(&"LIKE#USER#bare removed twice".to_owned()),
        "{changes:?}"
    );
    let open = watched.fold.open();
    assert_eq!(open[0].gap.as_ref().unwrap().to_string(), "2");
}

#[tokio::test]
async fn the_seeded_drifts_are_found_from_the_start_of_the_stream() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let info = read::describe_table(&connection.reader(), seed::SOCIAL)
        .await
        .unwrap();
    assert_eq!(info.stream.as_deref(), Some("NEW_AND_OLD_IMAGES"));
    let watched = history(&connection, &info, None).await;
    let open = watched.fold.open();
    let parents: Vec<&str> = open.iter().map(|d| d.parent.as_str()).collect();
    // Worst first: the missing tally, then by size.
    assert_eq!(parents, ["POST#77f1", "POST#3b0c", "POST#d71e"]);
    let line = |d: &watch::Divergence| d.headline("likeTally");
    assert!(line(open[0]).contains("→ missing at"), "{}", line(open[0]));
    assert!(
        line(open[0]).contains("its children still there"),
        "{}",
        line(open[0])
    );
    // Led by the newest write that moved the gap, then the one before it.
    assert!(
        line(open[1]).starts_with("POST#3b0c drift -2: LIKE#USER#bare2 inserted"),
        "{}",
        line(open[1])
    );
    assert!(open[1].lines("likeTally")[1].contains("before it: LIKE#USER#bare1 inserted"));
    let d71e = line(open[2]);
    assert!(d71e.starts_with("POST#d71e drift +1: likeTally "), "{d71e}");
    assert!(d71e.contains("with no child inserted"), "{d71e}");
    // The retry wrote the request id the like had already written: not its own evidence.
    assert!(!d71e.contains("the item says"), "{d71e}");
    // The like whose ADD was retried settled: its two records arrived together.
    assert_eq!(watched.fold.parent("POST#d71e").unwrap().settled, 1);
}

#[tokio::test]
async fn a_watch_from_now_starts_from_one_check_and_sees_a_like_land() {
    let engine = common::empty_engine().await;
    let connection = engine.connection.clone();
    let info = stream_table(&connection).await;
    like(&connection, &info.name, "USER#before", LikeOp::Like).await;
    let plan = spec(&info.name, Some("POST#1"), WatchFrom::Latest)
        .plan(&info)
        .unwrap();
    let cancel = CancelToken::default();
    #[expect(clippy::disallowed_methods, reason = "a test watch of a few records")]
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let task = {
        let (connection, info, cancel) = (connection.clone(), info.clone(), cancel.clone());
        tokio::spawn(async move {
            watch::watch(
                &connection,
                &info,
                &plan,
                Until::Cancelled,
                None,
                &cancel,
                |p| {
                    let _ = tx.send(p);
                },
            )
            .await
        })
    };
    // Started: the check made, the stream positioned.
    let started = loop {
        if let Some(WatchProgress::Started(lines)) = rx.recv().await {
            break lines;
        }
    };
    assert!(
        started
            .iter()
            .any(|l| l == "likeTally 1 and 1 children counted when the watch started"),
        "{started:?}"
    );
    like(&connection, &info.name, "USER#now", LikeOp::Like).await;
    let mut seen = Vec::new();
    while seen.len() < 2 {
        if let Some(WatchProgress::Event(WatchEvent::Change(change))) = rx.recv().await {
            seen.push(change.what("likeTally"));
        }
    }
    cancel.cancel();
    let watched = task.await.unwrap().unwrap();
    assert!(
        seen.contains(&"LIKE#USER#now inserted".to_owned()),
        "{seen:?}"
    );
    assert!(seen.contains(&"likeTally 1 → 2".to_owned()), "{seen:?}");
    assert!(watched.fold.open().is_empty());
    let parent = watched.fold.parent("POST#1").unwrap();
    assert_eq!(parent.children().unwrap().to_string(), "2");
    let _ = AttributeValue::Null(true);
}
