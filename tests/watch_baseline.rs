//! The watch on a parent already drifted when it starts, against the embedded engine through
//! the real SDK clients: the start's gap is the baseline, said once; likes and a storm are never
//! named, whatever the baseline; a bare ADD is, and only it.

use crate::common;
use crate::common::Sdk as _;

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::likes::{self, LikeOp};
use dynoscope_core::read;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::seed;
use dynoscope_core::spec::{LikeSpec, WatchFrom};
use dynoscope_core::stream::Until;
use dynoscope_core::table::TableInfo;
use dynoscope_core::watch::{self, WatchEvent, WatchProgress, Watched};

use common::watching::{like, spec, stream_table};
use common::{connect_to, n, s};

/// Parent `pk`'s stored tally and its children counted, as the table holds them now.
async fn stored(connection: &Connection, table: &str, pk: &str) -> (String, usize) {
    let meta = read::get_item(
        &connection.reader(),
        table,
        [("PK".to_owned(), s(pk)), ("SK".to_owned(), s("META"))].into(),
    )
    .await
    .unwrap()
    .unwrap();
    let Some(AttributeValue::N(tally)) = meta.get("likeTally") else {
        panic!("{meta:?}")
    };
    let children = connection
        .sdk()
        .query()
        .table_name(table)
        .key_condition_expression("PK = :p AND begins_with(SK, :c)")
        .expression_attribute_values(":p", s(pk))
        .expression_attribute_values(":c", s("LIKE#"))
        .send()
        .await
        .unwrap()
        .count;
    (tally.clone(), usize::try_from(children).unwrap())
}

/// Watch parent `pk` of `info` from now, with a settle window of 1 s, while `writes` run; stop
/// once the fold holds what the table holds after them and a settle window has passed.
/// Returns every event the watch made.
async fn watch_around(
    connection: &Connection,
    info: &TableInfo,
    pk: &str,
    writes: impl std::future::Future<Output = ()>,
) -> (Vec<WatchEvent>, Watched) {
    let mut spec = spec(&info.name, Some(pk), WatchFrom::Latest);
    spec.settle_seconds = 1.0;
    let plan = spec.plan(info).unwrap();
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
    let deadline = Duration::from_mins(1);
    let mut events = Vec::new();
    loop {
        match tokio::time::timeout(deadline, rx.recv()).await.unwrap() {
            Some(WatchProgress::Started(_)) => break,
            Some(WatchProgress::Event(event)) => events.push(event),
            Some(_) => {}
            None => panic!("the watch ended before it started: {:?}", task.await),
        }
    }
    writes.await;
    let (tally, children) = stored(connection, &info.name, pk).await;
    // The sentinel: the fold's tally and children are the table's.
    loop {
        let progress = tokio::time::timeout(deadline, rx.recv()).await.unwrap();
        let Some(WatchProgress::Event(event)) = progress else {
            continue;
        };
        let done = matches!(&event, WatchEvent::Change(c)
            if c.tally_after.as_deref() == Some(tally.as_str())
                && c.children_after.as_ref().map(ToString::to_string) == Some(children.to_string()));
        events.push(event);
        if done {
            break;
        }
    }
    // Every record is older than the settle window once it has passed on this clock.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    cancel.cancel();
    let watched = tokio::time::timeout(deadline, task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    while let Ok(progress) = rx.try_recv() {
        if let WatchProgress::Event(event) = progress {
            events.push(event);
        }
    }
    (events, watched)
}

/// The headlines of the divergences the events said, in order.
fn said(events: &[WatchEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            WatchEvent::Diverged(d) | WatchEvent::Closed(d) => Some(d.headline("likeTally")),
            WatchEvent::Change(_) => None,
        })
        .collect()
}

async fn set_meta(connection: &Connection, table: &str, tally: &str, children: usize) {
    connection
        .sdk()
        .put_item()
        .table_name(table)
        .item("PK", s("POST#1"))
        .item("SK", s("META"))
        .item("likeTally", n(tally))
        .item("lastRequestId", s("req-earlier"))
        .send()
        .await
        .unwrap();
    for i in 0..children {
        connection
            .sdk()
            .put_item()
            .table_name(table)
            .item("PK", s("POST#1"))
            .item("SK", s(&format!("LIKE#USER#old{i}")))
            .send()
            .await
            .unwrap();
    }
}

async fn storm_on(connection: &Connection, info: &TableInfo, pk: &str, users: usize) {
    let plan = dynoscope_core::spec::StormSpec {
        target: LikeSpec {
            table: info.name.clone(),
            pk: pk.to_owned(),
            parent_sk: "META".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            user: String::new(),
            token: None,
            create: false,
        },
        users,
        concurrency: 16,
    }
    .plan(
        info,
        &dynoscope_core::write::Destination::of(connection),
        "w",
    )
    .unwrap();
    let stats = likes::storm(connection, &plan, false, &CancelToken::default(), |_| {})
        .await
        .unwrap();
    assert_eq!((stats.failed, stats.unknown), (0, 0), "{stats:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_parent_already_at_plus_7_likes_and_a_storm_are_not_named_and_a_bare_add_is() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let info = stream_table(connection).await;
    set_meta(connection, &info.name, "10", 3).await;
    let writes = async {
        for user in ["USER#a", "USER#b", "USER#c"] {
            like(connection, &info.name, user, LikeOp::Like).await;
        }
        storm_on(connection, &info, "POST#1", 150).await;
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
    };
    let (events, watched) = watch_around(connection, &info, "POST#1", writes).await;
    let said = said(&events);
    assert_eq!(said.len(), 2, "the start, then the ADD: {said:#?}");
    assert!(
        said[0].starts_with("POST#1 drift +7: likeTally and children already apart by +7"),
        "{}",
        said[0]
    );
    let (tally, _) = stored(connection, &info.name, "POST#1").await;
    let before = tally.parse::<u64>().unwrap() - 1;
    assert!(
        said[1].starts_with(&format!(
            "POST#1 drift +8: likeTally {before} → {tally} at "
        )),
        "{}",
        said[1]
    );
    assert!(!said[1].contains("req-earlier"), "{}", said[1]);
    let open = watched.fold.open();
    assert_eq!(open[0].gap.as_ref().unwrap().to_string(), "8");
    assert_eq!(open[0].causes.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_parent_at_minus_1_likes_are_never_named() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let info = stream_table(connection).await;
    set_meta(connection, &info.name, "2", 3).await;
    let writes = async {
        for user in ["USER#w1", "USER#w2", "USER#w3"] {
            like(connection, &info.name, user, LikeOp::Like).await;
        }
    };
    let (events, watched) = watch_around(connection, &info, "POST#1", writes).await;
    let said = said(&events);
    assert_eq!(said.len(), 1, "the start only: {said:#?}");
    assert!(said[0].contains("already apart by -1"), "{}", said[0]);
    assert_eq!(
        watched.fold.open()[0].gap.as_ref().unwrap().to_string(),
        "-1"
    );
    assert!(watched.fold.open()[0].causes.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeded_drifted_post_then_a_storm_names_nothing() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let info = read::describe_table(&connection.reader(), seed::SOCIAL)
        .await
        .unwrap();
    let (events, watched) = watch_around(
        &connection,
        &info,
        "POST#d71e",
        storm_on(&connection, &info, "POST#d71e", 50),
    )
    .await;
    let said = said(&events);
    assert_eq!(said.len(), 1, "the start only: {said:#?}");
    assert!(said[0].starts_with("POST#d71e drift +1: "), "{}", said[0]);
    assert!(
        !said.iter().any(|l| l.contains(seed::RETRIED_REQUEST)),
        "{said:#?}"
    );
    assert_eq!(
        watched.fold.open()[0].gap.as_ref().unwrap().to_string(),
        "1"
    );
}
