//! A clone's destination told by what the servers say, not by the URLs' text: the source
//! reached through another spelling of its endpoint (or a pass-through proxy) is refused with
//! nothing written; two tables alike in ARN and creation time (a database file copied) are told
//! apart by a probe that leaves nothing behind; a destination that holds items is asked about,
//! even on this machine, and nothing is replaced until it is confirmed.

use crate::common::Sdk as _;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use super::clones::{item, plain_spec, run, run_confirmed, source, whole};
use super::common::files::scan;
use super::common::{Fault, connect_to, empty_engine, fault_proxy, n};
use crate::common::Said;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::Error;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::schema::read_spec;

fn no_probe_left(items: &[dynoscope_core::value::Item]) -> bool {
    !items
        .iter()
        .any(|i| format!("{:?}", i["PK"]).contains("dynoscope-clone-probe"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_source_reached_another_way_is_never_written_over() {
    let a = empty_engine().await;
    let from = source(&a, plain_spec, 300).await;
    let port = a.sandbox.addr().port();
    let here = connect_to(&format!("http://127.0.0.1:{port}"), Duration::from_secs(10)).await;
    // A proxy that forwards everything untouched: the same table behind another port.
    let proxy = fault_proxy(a.sandbox.addr(), &[], Fault::Hold).await;
    let spellings = [
        format!("http://localhost:{port}"),
        format!("http://127.0.0.1:{port}/"),
        format!("http://LOCALHOST:{port}"),
        proxy.url.clone(),
    ];
    for url in &spellings {
        let there = connect_to(url, Duration::from_secs(10)).await;
        let plan = whole(&from, &from, 2);
        // Asked first, since the destination holds items; nothing written meanwhile.
        let asked = run(&here, &there, &plan, &CancelToken::default(), |_| {}).await;
        assert!(
            matches!(&asked, Err(Error::NotConfirmed { question })
                if question.contains("already holds items")
                    && question.contains("so it may be the source itself")),
            "{url}: {asked:?}"
        );
        let refused = run_confirmed(&here, &there, &plan, |_| {}).await;
        let error = refused.expect_err(url).to_string();
        assert!(error.contains("is the source table"), "{url}: {error}");
        assert!(error.contains("nothing was copied"), "{url}: {error}");
    }
    let stored = scan(&a, &from).await;
    assert_eq!(stored.len(), 300, "the source kept its items, and no probe");
    assert!(no_probe_left(&stored));
}

/// Start a sandbox in the file `path` (seeded when new).
async fn sandbox_at(path: &std::path::Path) -> (Sandbox, dynoscope_core::connection::Connection) {
    let sandbox = Sandbox::start(Some(path), 0).await.unwrap();
    let connection = connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    (sandbox, connection)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_alike_in_arn_and_creation_time_are_told_apart_by_a_probe() {
    let dir = super::common::files::scratch("clone-alike");
    let (path_a, path_b) = (dir.join("a.db"), dir.join("b.db"));
    let (_a, here) = sandbox_at(&path_a).await;
    // The database copied whole, as it is at rest: the same tables, ARNs and creation times.
    for suffix in ["", "-wal"] {
        let from = std::path::PathBuf::from(format!("{}{suffix}", path_a.display()));
        if from.exists() {
            std::fs::copy(&from, format!("{}{suffix}", path_b.display())).unwrap();
        }
    }
    let (_b, there) = sandbox_at(&path_b).await;
    let (one, other) = (
        read_spec(&here.reader(), "Videos").await.unwrap(),
        read_spec(&there.reader(), "Videos").await.unwrap(),
    );
    assert_eq!((&one.arn, &one.created), (&other.arn, &other.created));
    assert!(one.created.is_some());
    let count = |c: &dynoscope_core::connection::Connection| {
        let client = c.sdk().clone();
        async move {
            let out = client.scan().table_name("Videos").send().await.unwrap();
            out.items().to_vec()
        }
    };
    let before = count(&there).await.len();

    let report = run_confirmed(&here, &there, &whole("Videos", "Videos", 1), |_| {})
        .await
        .unwrap();
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    let (source_now, destination_now) = (count(&here).await, count(&there).await);
    assert_eq!(
        destination_now.len(),
        before,
        "the same items put again, no probe left"
    );
    assert!(no_probe_left(&source_now) && no_probe_left(&destination_now));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destination_that_holds_items_is_asked_about_even_here() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, plain_spec, 50).await;
    // The destination: the source's keys, one item of the same key with another value.
    let to = source(&b, plain_spec, 0).await;
    let mut hand_fixed = item(0);
    hand_fixed.insert("rank".into(), n("999999"));
    b.client
        .put_item()
        .table_name(&to)
        .set_item(Some(hand_fixed))
        .send()
        .await
        .unwrap();
    let plan = whole(&from, &to, 2);
    let asked = run(
        &a.connection,
        &b.connection,
        &plan,
        &CancelToken::default(),
        |_| {},
    )
    .await;
    let Err(Error::NotConfirmed { question }) = asked else {
        panic!("not asked: {asked:?}");
    };
    assert!(
        question.contains(&format!("Table {to} already holds items")),
        "{question}"
    );
    assert!(
        question.contains("replaces the item with its key"),
        "{question}"
    );
    // Another table (its own creation time): no probe is spoken of.
    assert!(!question.contains("may be the source itself"), "{question}");
    let stored = scan(&b, &to).await;
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0]["rank"],
        AttributeValue::N("999999".into()),
        "nothing replaced"
    );

    let report = run_confirmed(&a.connection, &b.connection, &plan, |_| {})
        .await
        .unwrap();
    assert_eq!(
        report.ended().unwrap(),
        Ending::Done,
        "{:?}",
        report.texts()
    );
    let stored = scan(&b, &to).await;
    assert_eq!(stored.len(), 50);
    assert!(no_probe_left(&stored));
}
