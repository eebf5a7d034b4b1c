//! The fold over synthetic records: the settle window, divergences opened, named, closed, a
//! drift found by the start check, a missing tally, polling.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::condition::ScalarType;
use crate::stream::{EventKind, SequenceNumber, StreamRecord};
use crate::table::{KeyAttr, TableInfo};
use crate::tally::{ChildSource, ParentMatch, TallyRule};
use crate::value::Item;
use crate::watch::{CounterFold, FoldConfig, WatchEvent};

mod baseline;

fn fold(settle_ms: i64) -> CounterFold {
    let info = TableInfo::with_keys(
        "Social",
        KeyAttr::new("PK", ScalarType::S),
        Some(KeyAttr::new("SK", ScalarType::S)),
    );
    let rule = TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        },
        tally: "likeTally".into(),
        children: ChildSource::SortKeyPrefix("LIKE#".into()),
    };
    CounterFold::new(FoldConfig::new(&info, &rule, settle_ms).unwrap())
}

fn item(pk: &str, sk: &str, tally: Option<&str>) -> Item {
    let mut item = Item::from([
        ("PK".to_owned(), AttributeValue::S(pk.into())),
        ("SK".to_owned(), AttributeValue::S(sk.into())),
    ]);
    if let Some(t) = tally {
        item.insert("likeTally".into(), AttributeValue::N(t.into()));
    }
    item
}

fn record(
    seq: u64,
    at_ms: i64,
    kind: EventKind,
    old: Option<Item>,
    new: Option<Item>,
) -> StreamRecord {
    let any = new.clone().or(old.clone()).unwrap_or_default();
    StreamRecord {
        sequence: SequenceNumber(format!(
            "{}",
            100_000_000_000_000_000_000u128 + u128::from(seq)
        )),
        shard: "s".into(),
        kind,
        keys: any
            .into_iter()
            .filter(|(k, _)| k == "PK" || k == "SK")
            .collect(),
        old,
        new,
        at_ms,
    }
}

fn child(seq: u64, at_ms: i64, user: &str, kind: EventKind) -> StreamRecord {
    let it = item("POST#1", &format!("LIKE#USER#{user}"), None);
    match kind {
        EventKind::Remove => record(seq, at_ms, kind, Some(it), None),
        _ => record(seq, at_ms, kind, None, Some(it)),
    }
}

fn tally(seq: u64, at_ms: i64, from: &str, to: Option<&str>) -> StreamRecord {
    record(
        seq,
        at_ms,
        EventKind::Modify,
        Some(item("POST#1", "META", Some(from))),
        Some(item("POST#1", "META", to)),
    )
}

fn diverged(events: &[WatchEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, WatchEvent::Diverged(_)))
        .count()
}

#[test]
fn the_two_records_of_one_like_arriving_apart_settle() {
    let mut fold = fold(5_000);
    let mut events = fold.apply(&child(1, 1_000, "a", EventKind::Insert));
    events.extend(fold.apply(&tally(2, 4_000, "3", Some("4"))));
    events.extend(fold.advance(60_000));
    events.extend(fold.finish(60_000));
    assert_eq!(diverged(&events), 0, "{events:?}");
    let parent = fold.parent("POST#1").unwrap();
    assert_eq!(parent.settled, 1);
    assert_eq!(parent.gap(), Some(BigDecimal::from(0)));
    assert_eq!(parent.tally(), Some(BigDecimal::from(4)));
    assert_eq!(
        parent.children(),
        Some(BigDecimal::from(4)),
        "3 before, 1 since"
    );
}

#[test]
fn a_gap_past_the_settle_window_is_named_and_kept_when_it_closes() {
    let mut fold = fold(5_000);
    fold.apply(&child(1, 1_000, "a", EventKind::Insert));
    // Still within the window: nothing said.
    assert_eq!(diverged(&fold.advance(6_000)), 0);
    let named = fold.advance(6_001);
    assert_eq!(diverged(&named), 1);
    let WatchEvent::Diverged(d) = &named[0] else {
        panic!()
    };
    let line = d.headline("likeTally");
    assert!(
        line.starts_with("POST#1 drift -1: LIKE#USER#a inserted at 00:00:01.000 UTC (sequence 100000000000000000001) with no likeTally change: drift -1 since"),
        "{line}"
    );
    // A writer that fixes its tally ten seconds later closes it once it stays closed for the
    // settle window: kept, with how long it was open.
    assert!(
        fold.apply(&tally(2, 11_000, "3", Some("4"))).len() == 1,
        "the change alone"
    );
    let events = fold.advance(16_001);
    let closed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            WatchEvent::Closed(d) => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0].open_for_ms(), Some(10_000));
    assert!(fold.open().is_empty());
    assert_eq!(fold.parent("POST#1").unwrap().closed.len(), 1);
}

#[test]
fn an_add_alone_a_missing_tally_and_a_child_removed_twice() {
    let mut fold = fold(0);
    fold.apply(&tally(1, 1_000, "226", Some("227")));
    let open = fold.finish(1_001);
    let WatchEvent::Diverged(d) = &open[0] else {
        panic!()
    };
    assert!(
        d.headline("likeTally")
            .contains("likeTally 226 → 227 at 00:00:01.000 UTC (sequence 100000000000000000001) with no child inserted: drift +1 since"),
        "{}",
        d.headline("likeTally")
    );

    let mut fold = fold_at(0);
    fold.apply(&tally(1, 1_000, "5", None));
    fold.finish(1_001);
    let line = fold.open()[0].headline("likeTally");
    assert!(line.contains("drift missing tally"), "{line}");
    assert!(line.contains("likeTally 5 → missing"), "{line}");

    let mut fold = fold_at(0);
    fold.apply(&child(1, 1_000, "y", EventKind::Remove));
    fold.apply(&child(2, 1_000, "y", EventKind::Insert));
    let events = fold.apply(&child(3, 1_000, "y", EventKind::Remove));
    fold.finish(1_001);
    let WatchEvent::Change(change) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(change.what("likeTally"), "LIKE#USER#y removed twice");
    assert_eq!(
        fold.open()[0].gap,
        Some(BigDecimal::from(1)),
        "removed, put back, removed"
    );
}

fn fold_at(settle_ms: i64) -> CounterFold {
    fold(settle_ms)
}

#[test]
fn a_gap_cut_by_the_end_of_the_watch_is_unsettled_not_a_divergence() {
    let mut fold = fold(5_000);
    fold.apply(&child(1, 10_000, "a", EventKind::Insert));
    // The watch ends 1 s after: the like's tally record may still be on its way.
    assert_eq!(diverged(&fold.finish(11_000)), 0);
    assert!(fold.open().is_empty());
    assert_eq!(fold.unsettled().len(), 1);
    // Read to 6 s after it, it is one.
    assert_eq!(diverged(&fold.finish(15_001)), 1);
    assert_eq!(fold.open().len(), 1);
}

#[test]
fn a_drift_found_by_the_start_check_is_said_at_once() {
    let mut fold = fold(5_000);
    let events = fold.start_checked("POST#1", "POST#1", Some(BigDecimal::from(227)), 226, 0);
    assert_eq!(diverged(&events), 1);
    let line = fold.open()[0].headline("likeTally");
    assert!(
        line.contains("already apart by +1 when the watch started"),
        "{line}"
    );
    // A consistent like after it (its child first: the gap is 0 for a moment) leaves the same
    // divergence open: the start's gap is the baseline, and names no cause for it.
    fold.apply(&child(1, 1_000, "z", EventKind::Insert));
    fold.apply(&tally(2, 1_000, "227", Some("228")));
    fold.finish(10_000);
    assert_eq!(fold.open().len(), 1);
    assert_eq!(fold.open()[0].gap, Some(BigDecimal::from(1)));
    assert!(
        fold.open()[0].causes.is_empty(),
        "{:?}",
        fold.open()[0].causes
    );
    assert!(fold.open()[0].before_watch);
}

#[test]
fn records_of_other_parents_and_other_items_are_left_out() {
    let mut fold = fold(5_000);
    fold.config_only("POST#1");
    let other = record(
        1,
        0,
        EventKind::Insert,
        None,
        Some(item("POST#2", "LIKE#x", None)),
    );
    let comment = record(
        2,
        0,
        EventKind::Insert,
        None,
        Some(item("COMMENT#1", "META", None)),
    );
    assert!(fold.apply(&other).is_empty());
    assert!(fold.apply(&comment).is_empty());
    assert_eq!(fold.ignored, 2);
    assert_eq!(fold.folded, 0);
}

#[test]
fn polls_open_a_divergence_that_names_no_write() {
    let mut fold = fold(5_000);
    fold.sample("POST#1", "POST#1", Some(BigDecimal::from(3)), 3, 0, 1);
    fold.sample("POST#1", "POST#1", Some(BigDecimal::from(4)), 3, 2_000, 2);
    assert!(diverged(&fold.advance(6_000)).eq(&0));
    let named = fold.sample("POST#1", "POST#1", Some(BigDecimal::from(4)), 3, 8_000, 3);
    assert_eq!(diverged(&named), 1, "{named:?}");
    let line = fold.open()[0].headline("likeTally");
    assert!(line.contains("polling cannot name the write"), "{line}");
}

#[test]
fn a_thousand_records_keep_bounded_memory_per_parent() {
    let mut fold = fold(5_000);
    for i in 0..10_000u64 {
        let at = i64::try_from(i).unwrap() * 10;
        fold.apply(&child(2 * i, at, &format!("{i}"), EventKind::Insert));
        fold.apply(&tally(
            2 * i + 1,
            at,
            &i.to_string(),
            Some(&(i + 1).to_string()),
        ));
    }
    let parent = fold.parent("POST#1").unwrap();
    assert!(parent.recent.len() <= 20, "bounded, whatever the records");
    assert!(fold.open().is_empty());
    assert_eq!(parent.settled, 10_000);
}

#[test]
fn a_parents_busiest_second_is_kept() {
    let mut load = crate::watch::parent::Load::default();
    load.add(1_000_100, 2);
    load.add(1_000_900, 2);
    load.add(1_001_000, 1);
    load.add(1_002_500, 3);
    assert_eq!((load.peak_ms, load.peak_units), (1_000_000, 4));
    assert_eq!(
        load.peak("POST#a91f").line().text,
        "POST#a91f: 4 WCU in 1 s = 4 WCU/s, 0% of one partition's 1,000 WCU/s"
    );
}
