//! Staged changes committed through the write gateway against an embedded engine: a
//! concurrent change refuses only its item (shown with the server's value), a transaction
//! writes all or nothing, nested values are conditions too, read-only refuses, and a lost
//! answer is reported as what the server stored.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue as V;
use common::{Fault, create_table, empty_engine, n, put_all, s, table_name};
use dynoscope_core::connection::Connection;
use dynoscope_core::items::{
    Change, CommitMode, CommitReport, ItemOutcome, Staging, commit, plan_commit,
};
use dynoscope_core::read;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::Item;

fn post(pk: &str, tally: &str) -> Item {
    HashMap::from([
        ("PK".to_owned(), s(pk)),
        ("SK".to_owned(), s("META")),
        ("likeTally".to_owned(), n(tally)),
        (
            "meta".to_owned(),
            V::M(HashMap::from([(
                "tags".to_owned(),
                V::L(vec![s("rust"), V::Ss(vec!["a".into(), "b".into()])]),
            )])),
        ),
    ])
}

async fn table(engine: &common::Engine, items: Vec<Item>) -> TableInfo {
    let name = table_name("items");
    create_table(&engine.client, &name).await;
    put_all(&engine.client, &name, items).await;
    read::describe_table(&engine.reader(), &name).await.unwrap()
}

async fn stored(
    client: &dynoscope_core::connection::Reader,
    info: &TableInfo,
    pk: &str,
) -> Option<Item> {
    let key = HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s("META"))]);
    read::get_item(client, &info.name, key).await.unwrap()
}

/// Stage: each post's tally set to 10, and its nested list changed.
fn staged(info: &TableInfo, read: &[Item]) -> Staging {
    let mut staging = Staging::default();
    for item in read {
        let mut after = item.clone();
        after.insert("likeTally".into(), n("10"));
        after.insert(
            "meta".into(),
            V::M(HashMap::from([(
                "tags".to_owned(),
                V::L(vec![s("edited")]),
            )])),
        );
        staging.stage(Change::edit(info, item.clone(), after).unwrap());
    }
    staging
}

async fn commit_all(
    connection: &Connection,
    info: &TableInfo,
    staging: &Staging,
    mode: CommitMode,
) -> CommitReport {
    let plan = plan_commit(connection, info, staging.changes(), mode).unwrap();
    commit(connection, info, &plan, false).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_concurrent_change_refuses_only_its_item_item_by_item() {
    let engine = empty_engine().await;
    let read = vec![
        post("POST#1", "1"),
        post("POST#2", "2"),
        post("POST#3", "3"),
    ];
    let info = table(&engine, read.clone()).await;
    let mut staging = staged(&info, &read);
    // Someone likes POST#2 meanwhile.
    put_all(&engine.client, &info.name, vec![post("POST#2", "3")]).await;
    let report = commit_all(&engine.connection, &info, &staging, CommitMode::EachItem).await;
    assert_eq!(report.written(), 2);
    match &report.items[1].outcome {
        ItemOutcome::Conflict {
            server: Some(server),
        } => assert_eq!(server["likeTally"], n("3")),
        other => panic!("{other:?}"),
    }
    let lines: Vec<String> = report
        .lines(&info.key_names(), &engine.connection.pricing(&info))
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert!(
        lines[0].starts_with("Committed 2 of 3 items item by item"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("PK = POST#2 · SK = META: changed since it was read"),
        "{lines:?}"
    );
    let c = &engine.reader();
    assert_eq!(
        stored(c, &info, "POST#1").await.unwrap()["likeTally"],
        n("10")
    );
    assert_eq!(
        stored(c, &info, "POST#2").await.unwrap()["likeTally"],
        n("3"),
        "not overwritten"
    );
    assert_eq!(
        stored(c, &info, "POST#3").await.unwrap()["meta"],
        staging.changes()[2].after.as_ref().unwrap()["meta"]
    );
    let sent = staging.changes().to_vec();
    staging.apply(&report, &sent);
    assert_eq!(
        staging.changes().len(),
        1,
        "only the conflicting item stays staged"
    );
    // Committed again as it is: it conflicts again. Rebased on the server's item: written.
    let again = commit_all(&engine.connection, &info, &staging, CommitMode::EachItem).await;
    assert_eq!(again.written(), 0);
    let server = stored(c, &info, "POST#2").await;
    let key = staging.changes()[0].key.clone();
    staging.rebase(&key, server);
    let last = commit_all(&engine.connection, &info, &staging, CommitMode::EachItem).await;
    assert_eq!(last.written(), 1);
    assert_eq!(
        stored(c, &info, "POST#2").await.unwrap()["likeTally"],
        n("10")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_writes_all_or_nothing_and_names_the_conflict() {
    let engine = empty_engine().await;
    let read = vec![post("POST#1", "1"), post("POST#2", "2")];
    let info = table(&engine, read.clone()).await;
    let mut staging = staged(&info, &read);
    // A new item and a delete in the same commit.
    let mut copy = post("POST#9", "0");
    copy.insert("note".into(), s(""));
    staging.stage(Change::create(&info, copy.clone()).unwrap());
    put_all(&engine.client, &info.name, vec![post("POST#2", "7")]).await;
    let report = commit_all(&engine.connection, &info, &staging, CommitMode::Transaction).await;
    assert_eq!(report.written(), 0);
    assert!(
        matches!(&report.items[0].outcome, ItemOutcome::NotWritten { reason } if reason.contains("cancelled by another item"))
    );
    assert!(
        matches!(&report.items[1].outcome, ItemOutcome::Conflict { server: Some(s) } if s["likeTally"] == n("7"))
    );
    let c = &engine.reader();
    assert_eq!(
        stored(c, &info, "POST#1").await.unwrap()["likeTally"],
        n("1"),
        "nothing written"
    );
    assert!(stored(c, &info, "POST#9").await.is_none());
    let sent = staging.changes().to_vec();
    staging.apply(&report, &sent);
    assert_eq!(staging.changes().len(), 3, "nothing is lost");
    let key = staging.changes()[1].key.clone();
    staging.rebase(&key, stored(c, &info, "POST#2").await);
    let report = commit_all(&engine.connection, &info, &staging, CommitMode::Transaction).await;
    assert_eq!(report.written(), 3, "{report:?}");
    assert_eq!(
        stored(c, &info, "POST#9").await.unwrap(),
        copy,
        "an empty string kept"
    );
    // A create of a key that exists is refused.
    let mut again = Staging::default();
    again.stage(Change::create(&info, copy.clone()).unwrap());
    again.stage(Change::delete(&info, stored(c, &info, "POST#1").await.unwrap()).unwrap());
    let report = commit_all(&engine.connection, &info, &again, CommitMode::EachItem).await;
    assert!(matches!(
        report.items[0].outcome,
        ItemOutcome::Conflict { .. }
    ));
    assert!(matches!(
        report.items[1].outcome,
        ItemOutcome::Written { item: None }
    ));
    assert!(stored(c, &info, "POST#1").await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_refuses_every_item_and_writes_nothing() {
    let engine = empty_engine().await;
    let read = vec![post("POST#1", "1")];
    let info = table(&engine, read.clone()).await;
    let staging = staged(&info, &read);
    engine.connection.set_read_only(true);
    for mode in [CommitMode::Transaction, CommitMode::EachItem] {
        let report = commit_all(&engine.connection, &info, &staging, mode).await;
        match &report.items[0].outcome {
            ItemOutcome::NotWritten { reason } => assert!(reason.contains("read-only"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        stored(&engine.reader(), &info, "POST#1").await.unwrap()["likeTally"],
        n("1")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_answer_is_reported_as_what_the_server_stored() {
    for fault in Fault::AFTER_APPLY {
        for mode in [CommitMode::EachItem, CommitMode::Transaction] {
            let engine = empty_engine().await;
            let read = vec![post("POST#1", "1"), post("POST#2", "2")];
            let info = table(&engine, read.clone()).await;
            let staging = staged(&info, &read);
            let targets: &'static [&'static str] = &["UpdateItem", "TransactWriteItems"];
            let proxy = common::fault_proxy(engine.sandbox.addr(), targets, fault).await;
            let through = common::connect_to(&proxy.url, Duration::from_secs(2)).await;
            let report = commit_all(&through, &info, &staging, mode).await;
            let now = stored(&engine.reader(), &info, "POST#1").await.unwrap();
            assert_eq!(
                now["likeTally"],
                n("10"),
                "{fault:?} {mode:?}: the first write arrived"
            );
            match (mode, &report.items[0].outcome) {
                // One request per item, sent once: unknown, with what is stored now.
                (
                    CommitMode::EachItem,
                    ItemOutcome::Unknown {
                        stored_now: Some(item),
                        ..
                    },
                ) => {
                    assert_eq!(item["likeTally"], n("10"));
                    assert_eq!(report.items[1].outcome, ItemOutcome::NotSent, "{fault:?}");
                    assert_eq!(proxy.forwarded(), 1, "{fault:?}: never sent twice");
                }
                // A transaction with a token is sent again, and the server answers it once.
                (CommitMode::Transaction, ItemOutcome::Written { .. }) => {
                    assert_eq!(report.written(), 2, "{fault:?}");
                    assert_eq!(proxy.forwarded(), 2, "{fault:?}: the same token twice");
                }
                // Every answer lost, the re-sends' too: unknown, with every item as stored.
                (CommitMode::Transaction, ItemOutcome::Unknown { .. }) => {
                    for r in &report.items {
                        match &r.outcome {
                            ItemOutcome::Unknown {
                                stored_now: Some(item),
                                ..
                            } => {
                                assert_eq!(item["likeTally"], n("10"), "{fault:?}");
                            }
                            other => panic!("{fault:?}: {other:?}"),
                        }
                    }
                }
                (mode, other) => panic!("{fault:?} {mode:?}: {other:?}"),
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_whose_first_answer_is_lost_is_sent_again_with_its_token_and_applies_once() {
    let engine = empty_engine().await;
    let read = vec![post("POST#1", "1"), post("POST#2", "2")];
    let info = table(&engine, read.clone()).await;
    let staging = staged(&info, &read);
    let targets: &'static [&'static str] = &["TransactWriteItems"];
    let proxy =
        common::fault_proxy(engine.sandbox.addr(), targets, Fault::HtmlAfterApplyOnce).await;
    let through = common::connect_to(&proxy.url, Duration::from_secs(2)).await;
    let report = commit_all(&through, &info, &staging, CommitMode::Transaction).await;
    assert_eq!(report.written(), 2, "{report:?}");
    assert_eq!(proxy.forwarded(), 2);
    let bodies = proxy.bodies();
    assert_eq!(bodies[0], bodies[1], "the same request, token and all");
    assert!(bodies[0].contains("ClientRequestToken"));
}
