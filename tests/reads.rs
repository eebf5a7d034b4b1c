//! Reading big tables: throttled pages waited out and reported, `Limit` sent for a few items,
//! parallel segments streamed, and a read stopped early going on exactly where it stopped —
//! against an embedded engine behind a proxy that refuses page requests as a provisioned table
//! does (HTTP 400 ProvisionedThroughputExceededException).

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::condition::{FilterClause, FilterOp, SortOp};
use dynoscope_core::read::{
    self, Backoff, BrowseRequest, ReadEvent, SegmentEvent, SegmentStarts, Stopped, Until,
};
use dynoscope_core::value::{self};

use common::tables::{every, once, proxy, sk, table_of};
use common::{Fault, s};

/// Waits short enough for tests, the same schedule otherwise.
const QUICK: Backoff = Backoff {
    first: Duration::from_millis(1),
    longest: Duration::from_millis(4),
    throttled_for: Duration::from_secs(5),
    resends: 2,
};

/// A future that may run in a spawned task.
fn sendable<F: std::future::Future + Send>(future: F) -> F {
    future
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
        kept.extend(page.items);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn segments_stream_every_item_once_and_resume_where_they_stopped() {
    let (engine, info) = table_of(400, 10).await;
    let client = engine.reader();
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
        first: Duration::from_hours(24),
        longest: Duration::from_hours(24),
        throttled_for: Duration::from_hours(240),
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
