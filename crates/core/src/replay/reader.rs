//! The one reader against a replayed server: pages followed by their `LastEvaluatedKey`, a
//! throttled page sent again after its wait, a page lost on the way sent at most twice more.

use std::time::Duration;

use crate::cancel::CancelToken;
use crate::condition::ScalarType;
use crate::read::{Backoff, BrowseRequest, ReadEvent, Until, read_events, read_pages};
use crate::replay::{LOST, Replay, THROTTLED};
use crate::table::{KeyAttr, TableInfo};

fn scan() -> BrowseRequest {
    let info = TableInfo::with_keys("T", KeyAttr::new("PK", ScalarType::S), None);
    BrowseRequest::scan(&info, None).unwrap()
}

/// Waits of a millisecond, so a test spends no time on them.
fn quick() -> Backoff {
    Backoff {
        first: Duration::from_millis(1),
        longest: Duration::from_millis(1),
        throttled_for: Duration::from_secs(5),
        resends: 2,
    }
}

fn page(items: &[&str], last: Option<&str>) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|k| format!(r#"{{"PK":{{"S":"{k}"}}}}"#))
        .collect();
    let last = last.map_or(String::new(), |k| {
        format!(r#","LastEvaluatedKey":{{"PK":{{"S":"{k}"}}}}"#)
    });
    format!(
        r#"{{"Items":[{}],"Count":{},"ScannedCount":{}{last}}}"#,
        items.join(","),
        items.len(),
        items.len()
    )
}

#[tokio::test]
async fn every_page_is_read_from_where_the_last_one_ended() {
    let (one, two, three) = (
        page(&["a"], Some("a")),
        page(&["b"], Some("b")),
        page(&["c"], None),
    );
    let replay = Replay::new(&[(200, &one), (200, &two), (200, &three)]);
    let connection = replay.connection().await;
    let mut keys = Vec::new();
    let stopped = read_pages(
        &connection.reader(),
        &scan(),
        None,
        Until::LastPage,
        &CancelToken::default(),
        |p| {
            keys.extend(p.items.iter().map(|i| crate::value::cell_text(&i["PK"])));
        },
    )
    .await
    .unwrap();
    assert_eq!(stopped, crate::read::Stopped::LastPage);
    assert_eq!(keys, ["a", "b", "c"]);
    let sent = replay.sent();
    assert_eq!(replay.operations(), ["Scan", "Scan", "Scan"]);
    assert!(!sent[0].1.contains("ExclusiveStartKey"), "{}", sent[0].1);
    assert!(
        sent[1]
            .1
            .contains(r#""ExclusiveStartKey":{"PK":{"S":"a"}}"#),
        "{}",
        sent[1].1
    );
    assert!(
        sent[2]
            .1
            .contains(r#""ExclusiveStartKey":{"PK":{"S":"b"}}"#),
        "{}",
        sent[2].1
    );
}

#[tokio::test]
async fn a_throttled_page_is_sent_again_the_same_after_its_wait() {
    let last = page(&["a"], None);
    let replay = Replay::new(&[THROTTLED, (200, &last)]);
    let connection = replay.connection().await;
    let mut events = Vec::new();
    read_events(
        &connection.reader(),
        &scan(),
        None,
        Until::LastPage,
        &quick(),
        &CancelToken::default(),
        |e| {
            events.push(e);
        },
    )
    .await
    .unwrap();
    assert!(
        matches!(events[0], ReadEvent::Throttled { attempt: 2, .. }),
        "{events:?}"
    );
    assert!(
        matches!(&events[1], ReadEvent::Page(p) if p.items.len() == 1),
        "{events:?}"
    );
    let sent = replay.sent();
    assert_eq!(sent.len(), 2, "the SDK sent nothing of its own");
    assert_eq!(sent[0], sent[1]);
}

#[tokio::test]
async fn a_page_lost_on_the_way_is_sent_twice_more_then_the_error_is_said() {
    let replay = Replay::new(&[LOST, LOST, LOST]);
    let connection = replay.connection().await;
    let mut resent = 0;
    let read = read_events(
        &connection.reader(),
        &scan(),
        None,
        Until::LastPage,
        &quick(),
        &CancelToken::default(),
        |e| {
            resent += usize::from(matches!(e, ReadEvent::Resending { .. }));
        },
    )
    .await;
    let error = read.unwrap_err();
    assert!(error.to_string().contains("oops"), "{error}");
    assert_eq!((replay.sent().len(), resent), (3, 2));
}
