//! Reading big tables: throttled pages waited out and reported, `Limit` sent for a few items,
//! parallel segments streamed, and a read stopped early going on exactly where it stopped —
//! against an embedded engine behind a proxy that refuses page requests as a provisioned table
//! does (HTTP 400 ProvisionedThroughputExceededException).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{BTreeSet, HashMap};
use std::process::{Command, Output};
use std::time::Duration;

use common::{Engine, Fault, FaultProxy, create_table, empty_engine, put_all, s, table_name};
use dynoscope::core::cancel::CancelToken;
use dynoscope::core::condition::{FilterClause, FilterOp, SortOp};
use dynoscope::core::read::{
    self, Backoff, BrowseRequest, ReadEvent, SegmentEvent, SegmentStarts, Stopped, Until,
};
use dynoscope::core::table::TableInfo;
use dynoscope::core::value::{self, Item};

/// Waits short enough for tests, the same schedule otherwise.
const QUICK: Backoff = Backoff {
    first: Duration::from_millis(1),
    longest: Duration::from_millis(4),
    throttled_for: Duration::from_secs(5),
    resends: 2,
};

/// A table of `count` items in 8 partitions (`SK` = `I#00000`…), each padded with `pad_bytes`,
/// every fourth one of a partition with `kind = keep`.
async fn table_of(count: usize, pad_bytes: usize) -> (Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("reads");
    create_table(&engine.client, &name).await;
    let pad = "x".repeat(pad_bytes);
    let items = (0..count)
        .map(|i| {
            // Every fourth item of each partition, so that any stretch of a scan keeps 1 in 4.
            let kind = if (i / 8) % 4 == 0 { "keep" } else { "skip" };
            HashMap::from([
                ("PK".to_owned(), s(&format!("P#{}", i % 8))),
                ("SK".to_owned(), s(&format!("I#{i:05}"))),
                ("kind".to_owned(), s(kind)),
                ("pad".to_owned(), s(&pad)),
            ])
        })
        .collect();
    put_all(&engine.client, &name, items).await;
    let info = read::describe_table(&engine.client, &name).await.unwrap();
    (engine, info)
}

async fn proxy(engine: &Engine, fault: Fault) -> (FaultProxy, aws_sdk_dynamodb::Client) {
    let proxy = common::fault_proxy(engine.sandbox.addr(), &["Scan", "Query"], fault).await;
    let connection = common::connect_to(&proxy.url, Duration::from_secs(10)).await;
    (proxy, connection.client)
}

fn sk(item: &Item) -> String {
    value::cell_text(&item["SK"])
}

/// Each key once: a key read twice fails the test.
fn once(keys: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for key in keys {
        assert!(seen.insert(key.clone()), "{key} read twice");
    }
    seen
}

/// A future that may run in a spawned task.
fn sendable<F: std::future::Future + Send>(future: F) -> F {
    future
}

fn every(count: usize) -> BTreeSet<String> {
    (0..count).map(|i| format!("I#{i:05}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttled_pages_are_waited_out_and_reported() {
    let (engine, info) = table_of(300, 10).await;
    let (proxy, client) = proxy(&engine, Fault::ThrottleReads { pass: 2, refuse: 3 }).await;
    let mut request = BrowseRequest::scan(&info, None).unwrap();
    request.page_size = Some(50);
    let (mut keys, mut waits) = (Vec::new(), Vec::new());
    let cancel = CancelToken::default();
    let stopped = sendable(read::read_events(
        &client,
        &request,
        None,
        Until::LastPage,
        &QUICK,
        &cancel,
        |e| {
            if let Some(note) = e.note() {
                waits.push(note);
            }
            match e {
                ReadEvent::Page(page) => keys.extend(page.items.iter().map(sk)),
                ReadEvent::Throttled { .. } => {}
                ReadEvent::Resending { error, .. } => panic!("not throttled: {error}"),
            }
        },
    ))
    .await
    .expect("throttling is waited out");
    assert_eq!(stopped, Stopped::LastPage);
    assert_eq!(once(keys), every(300), "every item, none twice");
    assert_eq!(
        waits,
        [
            "throttled, waiting 1 ms before attempt 2",
            "throttled, waiting 2 ms before attempt 3",
            "throttled, waiting 4 ms before attempt 4",
        ]
    );
    assert_eq!(
        proxy.arrived(),
        7 + 3,
        "7 pages and 3 refusals: the SDK did not retry too"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_few_items_send_limit_and_page_on_past_a_filter() {
    let (engine, info) = table_of(200, 10).await;
    let (proxy, client) = proxy(&engine, Fault::ThrottleReads { pass: 0, refuse: 0 }).await;
    let mut request = BrowseRequest::scan(&info, None).unwrap();
    request.filter = vec![FilterClause {
        attribute: "kind".into(),
        op: FilterOp::Sort(SortOp::Eq),
        values: vec![s("keep")],
    }];
    let mut kept = Vec::new();
    let cancel = CancelToken::default();
    let stopped = read::read_pages(&client, &request, None, Until::Items(10), &cancel, |page| {
        kept.extend(page.items)
    })
    .await
    .unwrap();
    assert_eq!(stopped, Stopped::Reached);
    assert!(kept.len() >= 10, "{} kept", kept.len());
    assert!(kept.iter().all(|i| value::cell_text(&i["kind"]) == "keep"));
    let bodies = proxy.bodies();
    assert!(bodies[0].contains(r#""Limit":10"#), "{}", bodies[0]);
    assert!(
        (2..=4).contains(&bodies.len()),
        "the filter keeps 1 in 4, so the next Limit asks for more: {bodies:?}"
    );
}

async fn cli(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(&args)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env_remove("AWS_PROFILE")
            .output()
            .expect("runs")
    })
    .await
    .unwrap()
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The sort keys of the items a `--json` run printed.
fn printed(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .map(|l| sk(&value::item_from_dynamodb_json(l).expect("DynamoDB JSON")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_10_of_5000_is_one_small_request() {
    let (engine, info) = table_of(5000, 10).await;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 0, refuse: 0 }).await;
    let out = cli(args(&[
        "--endpoint-url",
        &proxy.url,
        "scan",
        "--table",
        &info.name,
        "--limit",
        "10",
        "--json",
    ]))
    .await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(printed(&out).len(), 10);
    let bodies = proxy.bodies();
    assert_eq!(bodies.len(), 1, "one request: {bodies:?}");
    assert!(bodies[0].contains(r#""Limit":10"#), "{}", bodies[0]);
    // Consumed capacity as the server reports it: 10 small items, not a 1 MB page (128 RCU).
    let rcu: f64 = err
        .split(" · ")
        .find_map(|part| part.trim().strip_suffix(" RCU"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no RCU in {err}"));
    assert!(rcu <= 2.0, "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttled_out_keeps_its_items_and_start_key_goes_on_exactly() {
    // 36 items of 100 KB: four 1 MB pages.
    let (engine, info) = table_of(36, 100_000).await;
    let refuse = usize::MAX;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 2, refuse }).await;
    let scan = |url: &str| {
        args(&[
            "--endpoint-url",
            url,
            "scan",
            "--table",
            &info.name,
            "--json",
        ])
    };
    let mut first = scan(&proxy.url);
    first.extend(args(&["--max-throttle-wait", "0.2"]));
    let out = cli(first).await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    // Throttled beyond the retries: the server refused, nothing is wrong with the input.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("throttled, waiting 50 ms before attempt 2"),
        "{err}"
    );
    assert!(
        err.contains("ProvisionedThroughputExceededException"),
        "{err}"
    );
    let before = printed(&out);
    assert!(
        !before.is_empty() && before.len() < 36,
        "two pages kept: {}",
        before.len()
    );
    let resume: serde_json::Value = err
        .lines()
        .find_map(|l| {
            serde_json::from_str(l)
                .ok()
                .filter(|v: &serde_json::Value| v.get("resume").is_some())
        })
        .unwrap_or_else(|| panic!("no resume in {err}"));
    let resume: Vec<String> = serde_json::from_value(resume["resume"].clone()).unwrap();
    assert_eq!(resume[0], "--start-key", "{resume:?}");
    let mut again = scan(engine.sandbox.endpoint());
    again.extend(resume);
    let out = cli(again).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let after = printed(&out);
    assert_eq!(once(before.into_iter().chain(after)), every(36));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parallel_scan_throttled_out_goes_on_with_its_unfinished_segments() {
    let (engine, info) = table_of(36, 100_000).await;
    let refuse = usize::MAX;
    let (proxy, _) = proxy(&engine, Fault::ThrottleReads { pass: 1, refuse }).await;
    // Plain output this time: the resume line is text, quoted for a shell.
    let scan = |url: &str| args(&["--endpoint-url", url, "scan", "--table", &info.name]);
    let plain_keys = |out: &Output| -> Vec<String> {
        let lines = text(&out.stdout);
        let items = lines
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap());
        items
            .map(|item| item["SK"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut first = scan(&proxy.url);
    first.extend(args(&["--segments", "4", "--max-throttle-wait", "0.1"]));
    let out = cli(first).await;
    let err = text(&out.stderr);
    eprintln!("{err}");
    // Throttled beyond the retries: the server refused, nothing is wrong with the input.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(": throttled, waiting 50 ms"), "{err}");
    assert!(err.contains(" · 4 segments"), "{err}");
    let before = plain_keys(&out);
    let words = err
        .lines()
        .find_map(|l| {
            l.split_once("run it again with: ")
                .map(|(_, w)| w.to_owned())
        })
        .unwrap_or_else(|| panic!("no resume in {err}"));
    // The keys here hold no spaces or quotes: each word is plain or wrapped in '…'.
    let resume: Vec<String> = words
        .split(' ')
        .map(|w| w.trim_matches('\'').to_owned())
        .collect();
    assert_eq!(resume[..2], ["--segments", "4"], "{resume:?}");
    let mut again = scan(engine.sandbox.endpoint());
    again.extend(resume);
    let out = cli(again).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(once(before.into_iter().chain(plain_keys(&out))), every(36));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn segments_stream_every_item_once_and_resume_where_they_stopped() {
    let (engine, info) = table_of(400, 10).await;
    let client = engine.client.clone();
    let mut request = BrowseRequest::scan(&info, None).unwrap();
    request.page_size = Some(20);
    let cancel = CancelToken::default();
    let (mut keys, mut pages_before_the_end) = (Vec::new(), 0);
    let starts = SegmentStarts::all(4).unwrap();
    // Cancelled at the first page: that page was handed over while every segment still ran.
    let scan = read::scan_segments(
        &client,
        &request,
        starts,
        Until::LastPage,
        &QUICK,
        &cancel,
        |e| {
            if let SegmentEvent::Read {
                event: ReadEvent::Page(page),
                ..
            } = e
            {
                pages_before_the_end += 1;
                keys.extend(page.items.iter().map(sk));
                cancel.cancel();
            }
        },
    );
    // The app runs it in a spawned job.
    let scan = sendable(scan);
    let stopped = scan.await;
    assert_eq!(stopped.result, Ok(Stopped::Cancelled));
    assert!(pages_before_the_end >= 1);
    assert!(!stopped.left.finished());
    let (mut done, cancel) = (BTreeSet::new(), CancelToken::default());
    let rest = read::scan_segments(
        &client,
        &request,
        stopped.left,
        Until::LastPage,
        &QUICK,
        &cancel,
        |e| match e {
            SegmentEvent::Read {
                event: ReadEvent::Page(page),
                ..
            } => keys.extend(page.items.iter().map(sk)),
            SegmentEvent::Done { segment } => assert!(done.insert(segment), "{segment} done twice"),
            SegmentEvent::Read { .. } => {}
        },
    )
    .await;
    assert_eq!(rest.result, Ok(Stopped::LastPage));
    assert!(rest.left.finished());
    assert_eq!(once(keys), every(400));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_during_a_backoff_returns_at_once() {
    let (engine, info) = table_of(10, 10).await;
    let refuse = usize::MAX;
    let (_proxy, client) = proxy(&engine, Fault::ThrottleReads { pass: 0, refuse }).await;
    let request = BrowseRequest::scan(&info, None).unwrap();
    // Waits no test run outlasts: only the cancel can end them (a clock is never asked).
    let slow = Backoff {
        first: Duration::from_secs(86_400),
        longest: Duration::from_secs(86_400),
        throttled_for: Duration::from_secs(10 * 86_400),
        resends: 0,
    };
    let cancel = CancelToken::default();
    // Cancelled when the first wait is announced, before it begins: no race.
    let stopped = read::read_events(
        &client,
        &request,
        None,
        Until::LastPage,
        &slow,
        &cancel,
        |e| {
            assert!(
                matches!(e, ReadEvent::Throttled { attempt: 2, .. }),
                "{e:?}"
            );
            cancel.cancel();
        },
    )
    .await;
    assert_eq!(stopped, Ok(Stopped::Cancelled));
    let cancel = CancelToken::default();
    let starts = SegmentStarts::all(3).unwrap();
    let stopped = read::scan_segments(
        &client,
        &request,
        starts,
        Until::LastPage,
        &slow,
        &cancel,
        |e| {
            assert!(
                e.note().is_some_and(|n| n.contains("throttled, waiting")),
                "{e:?}"
            );
            cancel.cancel();
        },
    )
    .await;
    assert_eq!(stopped.result, Ok(Stopped::Cancelled));
    assert_eq!(
        stopped.left,
        SegmentStarts::all(3).unwrap(),
        "nothing read, all to do"
    );
}
