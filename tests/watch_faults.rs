//! The stream reader through the fault proxy: GetRecords throttled, a connection reset
//! mid-read, an answer lost (an HTML 500 after the server answered), an expired iterator — each
//! read gives exactly the records a clean read gives, compared by sequence number, none twice
//! and none missed. And turning a stream on (a write of the table's settings) through the same
//! proxy: sent once, unknown when its answer is lost, sent again only after throttling, refused
//! when read-only.

use crate::common;
use crate::common::Sdk as _;

use std::time::Duration;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::read;
use dynoscope_core::stream::{self, StartAt, StreamEvent, Tuning, Until};
use dynoscope_core::write::{self, WriteOutcome};

use common::{Fault, connect_to, fault_proxy, n, s};

/// Every record of the stream of `table` read through `connection`: sequence numbers in order,
/// and what the reader said it recovered from or waited for.
async fn read_all(connection: &Connection, arn: &str) -> (Vec<String>, Vec<String>) {
    read_from(connection, arn, StartAt::TrimHorizon).await
}

/// [`read_all`] from `start`.
async fn read_from(
    connection: &Connection,
    arn: &str,
    start: StartAt,
) -> (Vec<String>, Vec<String>) {
    // Two records a call, so a recovery happens between pages, not only at the start.
    let tuning = Tuning {
        limit: 2,
        idle: Duration::from_millis(10),
        ..Tuning::default()
    };
    let mut sequences = Vec::new();
    let mut notes = Vec::new();
    stream::follow(
        &connection.streams,
        arn,
        start,
        Until::CaughtUp,
        &tuning,
        &CancelToken::default(),
        |event| match event {
            StreamEvent::Records(records) => {
                sequences.extend(records.into_iter().map(|r| r.sequence.0));
            }
            StreamEvent::Waited(note) | StreamEvent::Recovered(note) => notes.push(note),
            _ => {}
        },
    )
    .await
    .unwrap();
    (sequences, notes)
}

/// Each fault a stream read meets, and what the reader says of it.
const FAULTS: [(Fault, &str); 6] = [
    (Fault::ThrottleReads { pass: 1, refuse: 3 }, "throttled"),
    (
        Fault::ThrottleBecause {
            times: 2,
            reason: "TableReadKeyRangeThroughputExceeded",
        },
        "GetRecords: throttled by this key range's read limit (3,000 RCU/s per partition)",
    ),
    (Fault::ResetAfterApplySecond, "sending again"),
    (
        Fault::RefuseThese("LimitExceededException", &[0, 2]),
        "throttled",
    ),
    (Fault::HtmlAfterApplyOnce, "sending again"),
    (
        Fault::RefuseThese("ExpiredIteratorException", &[2]),
        "expired",
    ),
];

#[tokio::test]
async fn a_faulty_stream_read_gives_exactly_the_records_of_a_clean_one() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let table = common::table_name("faults");
    common::create_table(&connection.sdk(), &table).await;
    let info = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap();
    let enabled = write::send(connection, &stream::enable_plan(connection, &info), false).await;
    assert!(matches!(enabled, WriteOutcome::Applied { .. }));
    for i in 0..9 {
        connection
            .sdk()
            .put_item()
            .table_name(&table)
            .item("PK", s("POST#1"))
            .item("SK", s(&format!("LIKE#{i}")))
            .item("n", n(&i.to_string()))
            .send()
            .await
            .unwrap();
    }
    let info = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap();
    let arn = info.stream_arn.clone().unwrap();
    let (clean, notes) = read_all(connection, &arn).await;
    assert_eq!(clean.len(), 9);
    assert!(notes.is_empty(), "{notes:?}");

    for (fault, said) in FAULTS {
        let proxy = fault_proxy(engine.sandbox.addr(), &["GetRecords"], fault).await;
        let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
        let (sequences, notes) = read_all(&through, &arn).await;
        assert_eq!(
            sequences, clean,
            "{fault:?}: the same records, once each, in order"
        );
        assert!(
            notes.iter().any(|n| n.contains(said)),
            "{fault:?}: the reader says it {said}: {notes:?}"
        );
        assert!(
            proxy.arrived() > 5,
            "{fault:?}: every page went through the proxy"
        );
    }
    // Where a read was to go on (after the first record) was trimmed: it reads on from the
    // oldest record the shard holds, and says so.
    let proxy = fault_proxy(
        engine.sandbox.addr(),
        &["GetShardIterator"],
        Fault::RefuseThese("TrimmedDataAccessException", &[0]),
    )
    .await;
    let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
    let after = StartAt::After(dynoscope_core::stream::SequenceNumber(clean[0].clone()));
    let (sequences, notes) = read_from(&through, &arn, after).await;
    assert_eq!(sequences, clean, "from the oldest record");
    assert!(notes.iter().any(|n| n.contains("trimmed")), "{notes:?}");
    let (sequences, _) = read_from(
        connection,
        &arn,
        StartAt::After(dynoscope_core::stream::SequenceNumber(clean[0].clone())),
    )
    .await;
    assert_eq!(sequences, clean[1..], "after the first, untrimmed");
}

#[tokio::test]
async fn a_stream_that_keeps_resetting_is_waited_for_then_given_up_with_its_error() {
    let engine = common::empty_engine().await;
    let connection = &engine.connection;
    let table = common::table_name("reset");
    common::create_table(&connection.sdk(), &table).await;
    let info = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap();
    let _ = write::send(connection, &stream::enable_plan(connection, &info), false).await;
    for i in 0..4 {
        connection
            .sdk()
            .put_item()
            .table_name(&table)
            .item("PK", s("P"))
            .item("SK", s(&format!("C{i}")))
            .send()
            .await
            .unwrap();
    }
    let arn = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap()
        .stream_arn
        .unwrap();
    let (clean, _) = read_all(connection, &arn).await;
    // The first GetRecords answered by a reset after the server answered: read again.
    let proxy = fault_proxy(
        engine.sandbox.addr(),
        &["GetRecords"],
        Fault::ResetAfterApply,
    )
    .await;
    let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
    let tuning = Tuning {
        give_up_after: Duration::from_millis(700),
        ..Tuning::default()
    };
    let mut notes = Vec::new();
    let result = stream::follow(
        &through.streams,
        &arn,
        StartAt::TrimHorizon,
        Until::CaughtUp,
        &tuning,
        &CancelToken::default(),
        |event| {
            if let StreamEvent::Waited(note) = event {
                notes.push(note);
            }
        },
    )
    .await;
    // Every answer is reset: the reader waits it out within its budget, then says so.
    let error = result.unwrap_err();
    assert_eq!(error.op(), Some("GetRecords"), "{error}");
    assert!(notes.len() >= 2, "each wait said: {notes:?}");
    assert_eq!(clean.len(), 4);
}

#[tokio::test]
async fn turning_a_stream_on_is_sent_once_and_an_answer_lost_is_unknown() {
    let engine = common::empty_engine().await;
    let describe = |table: String| {
        let client = engine.reader();
        async move { read::describe_table(&client, &table).await.unwrap() }
    };
    // The answer lost after the server applied it: unknown, not sent again, and the stream is on.
    let table = common::table_name("enable-lost");
    common::create_table(&engine.client, &table).await;
    let info = describe(table.clone()).await;
    let proxy = fault_proxy(
        engine.sandbox.addr(),
        &["UpdateTable"],
        Fault::HtmlAfterApply,
    )
    .await;
    let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
    let outcome = write::send(&through, &stream::enable_plan(&through, &info), false).await;
    assert!(
        matches!(outcome, WriteOutcome::Unknown { .. }),
        "{outcome:?}"
    );
    assert_eq!(proxy.arrived(), 1, "sent once");
    assert!(
        describe(table).await.stream_arn.is_some(),
        "the server applied it"
    );

    // Throttled once: nothing applied, so sent again, and applied.
    let table = common::table_name("enable-throttled");
    common::create_table(&engine.client, &table).await;
    let info = describe(table.clone()).await;
    let proxy = fault_proxy(engine.sandbox.addr(), &["UpdateTable"], Fault::Throttle(1)).await;
    let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
    let outcome = write::send(&through, &stream::enable_plan(&through, &info), false).await;
    assert!(
        matches!(outcome, WriteOutcome::Applied { .. }),
        "{outcome:?}"
    );
    assert_eq!(proxy.arrived(), 2);
    assert!(describe(table).await.stream_arn.is_some());

    // Read-only: refused before anything is sent.
    let table = common::table_name("enable-readonly");
    common::create_table(&engine.client, &table).await;
    let info = describe(table.clone()).await;
    let proxy = fault_proxy(engine.sandbox.addr(), &["UpdateTable"], Fault::Throttle(0)).await;
    let through = connect_to(&proxy.url, Duration::from_secs(5)).await;
    through.set_read_only(true);
    let outcome = write::send(&through, &stream::enable_plan(&through, &info), false).await;
    assert!(
        matches!(outcome, WriteOutcome::Refused { .. }),
        "{outcome:?}"
    );
    assert_eq!(proxy.arrived(), 0);
    assert!(describe(table).await.stream_arn.is_none());
}
