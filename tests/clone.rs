//! Cloning a table from one embedded engine to another (two ports) through the core: the whole
//! table equal item by item and schema by schema, one partition alone, a clone cancelled then
//! gone on with from where its writes stopped, a read-only destination that is sent nothing, an
//! existing table with other keys refused. `clone_cli.rs` has the CLI as a process and the
//! faults.

use crate::common;
use crate::common::clones;
mod identity;

use std::time::Duration;

use crate::common::Said;
use clones::{
    PER_PARTITION, fill, plain_spec, run, run_confirmed, same_items, source, source_spec, whole,
};
use common::files::scan;
use common::{Fault, empty_engine, table_name};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::clone::Check;
use dynoscope_core::clone::{CloneEvent, PAGE_ITEMS, PartAsked, SchemaStep};
use dynoscope_core::connection::{self, ConnectOptions, ConnectionSpec};
use dynoscope_core::ending::Ending;
use dynoscope_core::error::Error;
use dynoscope_core::schema::read_spec;

/// Items in the whole-table clone: 20,000 keeps a debug test within a minute on two cores
/// (`cargo bench --bench clone` clones 100,000).
fn items() -> usize {
    std::env::var("CLONE_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_table_is_cloned_equal_item_by_item() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let total = items();
    let from = source(&a, plain_spec, total).await;
    let to = table_name("clone-dst");
    let mut progress = 0;
    let report = run(
        &a.connection,
        &b.connection,
        &whole(&from, &to, 4),
        &CancelToken::default(),
        |e| progress += usize::from(matches!(e, CloneEvent::Progress(_))),
    )
    .await
    .unwrap();
    let lines = report.texts().join("\n");
    assert_eq!(report.ended().unwrap(), Ending::Done, "{lines}");
    assert!(progress > 0);
    let copy = report.copy.as_ref().unwrap();
    assert_eq!((copy.items.read, copy.items.written), (total, total));
    let Check::Sampled(verified) = report.verified.clone().unwrap().unwrap() else {
        panic!("the sampled check: {lines}");
    };
    assert!(verified.agrees(), "{lines}");
    assert_eq!(verified.items, (total as u64, total as u64));
    assert_eq!(verified.partitions, total.div_ceil(PER_PARTITION));
    assert_eq!(verified.sampled, 100);
    assert_eq!(same_items(&a, &from, &b, &to).await, total);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_schema_is_cloned_and_a_partition_alone_or_again_into_the_same_keys() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, source_spec, 600).await;
    let to = table_name("clone-schema");
    let report = run(
        &a.connection,
        &b.connection,
        &whole(&from, &to, 2),
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap();
    let lines = report.texts().join("\n");
    assert_eq!(report.ended().unwrap(), Ending::Done, "{lines}");
    // What the engine keeps no continuous backups of is said, not guessed.
    assert!(lines.contains("not read from the source"), "{lines}");
    // The stream comes on once the items are in, so the copy's own puts are not in it.
    assert!(
        lines.contains("is turned on once every item is copied")
            && lines.contains("stream: applied: ")
            && lines.contains("NEW_AND_OLD_IMAGES turned on"),
        "{lines}"
    );
    // The schema: keys, both indexes, billing, stream, TTL, tags — the source's, renamed.
    let (mut there, here) = (
        read_spec(&a.connection.reader(), &from).await.unwrap().spec,
        read_spec(&b.connection.reader(), &to).await.unwrap().spec,
    );
    there.name = to.clone();
    assert_eq!(here, there);
    assert_eq!(same_items(&a, &from, &b, &to).await, 600);

    // Cloned again into the table now there: its keys are the source's, so it is used, said
    // (confirmed, since it holds items).
    let again = run_confirmed(&a.connection, &b.connection, &whole(&from, &to, 1), |_| {})
        .await
        .unwrap();
    assert!(matches!(again.schema, SchemaStep::Existing { .. }));
    assert!(again.texts().join("\n").contains("already exists"));
    assert_eq!(again.ended().unwrap(), Ending::Done);

    // One partition alone: a Query, checked by its own counts.
    let part = table_name("clone-pk");
    let mut plan = whole(&from, &part, 1);
    plan.part = PartAsked::Partition("P#00003".into(), None);
    let report = run(
        &a.connection,
        &b.connection,
        &plan,
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap();
    let lines = report.texts().join("\n");
    assert_eq!(report.ended().unwrap(), Ending::Done, "{lines}");
    let Check::Sampled(verified) = report.verified.clone().unwrap().unwrap() else {
        panic!("the sampled check: {lines}");
    };
    assert_eq!(verified.items, (100, 100));
    assert_eq!(verified.partitions, 1);
    let copied = scan(&b, &part).await;
    assert_eq!(copied.len(), PER_PARTITION);
    assert!(copied.iter().all(|i| i["PK"].as_s().unwrap() == "P#00003"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_clone_goes_on_from_where_its_writes_stopped() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let total = 8_000;
    let from = source(&a, plain_spec, total).await;
    let to = table_name("clone-resume");
    let stop = CancelToken::default();
    let first = run(
        &a.connection,
        &b.connection,
        &whole(&from, &to, 4),
        &stop,
        {
            let stop = stop.clone();
            move |e| {
                if let CloneEvent::Progress(p) = e
                    && p.written >= total / 4
                {
                    stop.cancel();
                }
            }
        },
    )
    .await
    .unwrap();
    let lines = first.texts().join("\n");
    assert_eq!(first.ended().unwrap(), Ending::Refused, "{lines}");
    assert!(lines.contains("stopped: cancelled"), "{lines}");
    assert!(lines.contains("check: not made"), "{lines}");
    let copy = first.copy.clone().unwrap();
    assert!(!copy.left.finished());
    assert!(copy.items.written >= total / 4 && copy.items.written < total);
    // What was written is what is stored: whole items, nothing half done.
    assert_eq!(scan(&b, &to).await.len(), copy.items.written);

    let mut plan = whole(&from, &to, 4);
    plan.part = PartAsked::Table(copy.left.clone());
    let second = run_confirmed(&a.connection, &b.connection, &plan, |_| {})
        .await
        .unwrap();
    assert_eq!(
        second.ended().unwrap(),
        Ending::Done,
        "{:?}",
        second.texts()
    );
    let read_again = second.copy.as_ref().unwrap().items.read;
    assert!(read_again < total, "only what was left: {read_again}");
    // Put again: at most the pages that were on their way when it stopped (each segment's
    // pages in the scan's channel, one taken by the cutter, a few batches in flight).
    let overlap = copy.items.written + read_again - total;
    let bound = (2 * 4 + 3) * PAGE_ITEMS as usize;
    assert!(overlap <= bound, "{overlap} items put twice, over {bound}");
    assert_eq!(same_items(&a, &from, &b, &to).await, total);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_destination_is_sent_nothing() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, plain_spec, 50).await;
    let writes: &'static [&'static str] = &[
        "CreateTable",
        "UpdateTable",
        "UpdateTimeToLive",
        "TagResource",
        "BatchWriteItem",
        "PutItem",
    ];
    let proxy = common::fault_proxy(b.sandbox.addr(), writes, Fault::HtmlAfterApply).await;
    let read_only = connection::connect_with(
        ConnectionSpec::Endpoint {
            url: proxy.url.clone(),
            profile: None,
            region: None,
        },
        ConnectOptions {
            timeout: Duration::from_secs(5),
            read_only: true,
        },
    )
    .await
    .unwrap();
    let to = table_name("clone-ro");
    let plan = whole(&from, &to, 1);
    let refused = run(
        &a.connection,
        &read_only,
        &plan,
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap_err();
    assert!(matches!(refused, Error::ReadOnly { .. }), "{refused}");
    assert_eq!(proxy.arrived(), 0, "nothing sent");
    assert!(
        dynoscope_core::read::list_tables(&b.connection.reader())
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_existing_table_with_other_keys_is_refused() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, plain_spec, 10).await;
    let to = table_name("clone-other");
    let spec = dynoscope_core::schema::TableSpec::new(
        &to,
        dynoscope_core::schema::parse_key("id:S").unwrap(),
        None,
    );
    let plan = dynoscope_core::admin::create_plan(&b.connection, &spec).unwrap();
    dynoscope_core::admin::run(
        &b.connection,
        &plan,
        false,
        &CancelToken::default(),
        &mut |_| {},
    )
    .await;
    fill(&a, &from, 10..20).await;
    let error = run(
        &a.connection,
        &b.connection,
        &whole(&from, &to, 1),
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("already exists")
            && error.contains("id (S)")
            && error.contains("PK (S) / SK (S)"),
        "{error}"
    );
    assert!(scan(&b, &to).await.is_empty(), "nothing copied");

    // Onto itself: refused before anything is read.
    let error = run(
        &a.connection,
        &a.connection,
        &whole(&from, &from, 1),
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(error.contains("over itself"), "{error}");
}
