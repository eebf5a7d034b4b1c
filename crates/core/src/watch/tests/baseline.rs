//! The fold on a parent already apart when the watch starts: the start's gap is the baseline;
//! likes and a storm (their records in any order) are never named; a bare ADD is, and only it;
//! a write that narrows the gap is named, one that ends it closes it.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use super::{child, fold, item, record, tally};
use crate::stream::{EventKind, SequenceNumber, StreamRecord};
use crate::watch::WatchEvent;

/// A META record that sets the tally from `from` to `to`, with `extra` on both images (an
/// attribute an earlier write left) and `own` on the new one only (what this write set).
fn tally_with(
    seq: u64,
    at_ms: i64,
    from: &str,
    to: &str,
    extra: (&str, &str),
    own: Option<(&str, &str)>,
) -> StreamRecord {
    let mut old = item("POST#1", "META", Some(from));
    old.insert(extra.0.into(), AttributeValue::S(extra.1.into()));
    let mut new = item("POST#1", "META", Some(to));
    new.insert(extra.0.into(), AttributeValue::S(extra.1.into()));
    if let Some((name, value)) = own {
        new.insert(name.into(), AttributeValue::S(value.into()));
    }
    record(seq, at_ms, EventKind::Modify, Some(old), Some(new))
}

fn named(events: &[WatchEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            WatchEvent::Diverged(d) | WatchEvent::Closed(d) => Some(d.headline("likeTally")),
            WatchEvent::Change(_) => None,
        })
        .collect()
}

/// A storm of 150 likes on a parent at `tally`: its records interleaved, children running ahead
/// of tallies by up to 40.
fn storm_order(tally: u32) -> Vec<StreamRecord> {
    let mut storm = Vec::new();
    for i in 0..150u32 {
        storm.push(child(
            1_000 + u64::from(i),
            0,
            &format!("s{i}"),
            EventKind::Insert,
        ));
    }
    let mut order = Vec::new();
    for i in 0..150u32 {
        order.push(storm[i as usize].clone());
        if i >= 40 {
            let t = tally + (i - 40);
            order.push(tally_with(
                0,
                0,
                &t.to_string(),
                &(t + 1).to_string(),
                ("x", "y"),
                None,
            ));
        }
    }
    for i in 110..150u32 {
        let t = tally + i;
        order.push(tally_with(
            0,
            0,
            &t.to_string(),
            &(t + 1).to_string(),
            ("x", "y"),
            None,
        ));
    }
    order
}

#[test]
fn on_a_parent_already_at_plus_7_only_the_bare_add_is_named() {
    let mut fold = fold(5_000);
    let start = fold.start_checked("POST#1", "POST#1", Some(BigDecimal::from(268)), 261, 0);
    assert_eq!(named(&start).len(), 1, "the baseline, said once");
    let mut events = Vec::new();
    let mut seq = 0;
    let mut next = || {
        seq += 1;
        seq
    };
    let mut tally = 268u32;
    // Three likes, each its tally first, then its child (the order a transaction's records
    // can take).
    for (i, user) in ["a", "b", "c"].iter().enumerate() {
        let at = 1_000 + i64::try_from(i).unwrap() * 2_000;
        let (from, to) = (tally.to_string(), (tally + 1).to_string());
        events.extend(fold.apply(&tally_with(next(), at, &from, &to, ("x", "y"), None)));
        events.extend(fold.apply(&child(next(), at + 3, user, EventKind::Insert)));
        tally += 1;
    }
    // A storm of 150: its records interleave, children running ahead of tallies by up to 40.
    let order = storm_order(tally);
    tally += 150;
    for (i, mut record) in order.into_iter().enumerate() {
        record.at_ms = 10_000 + i64::try_from(i).unwrap() * 2;
        record.sequence = SequenceNumber(format!("{}", 200_000 + next()));
        events.extend(fold.apply(&record));
    }
    // Then one bare ADD, a minute later, that sets its own request id.
    let (from, to) = (tally.to_string(), (tally + 1).to_string());
    events.extend(fold.apply(&tally_with(
        next(),
        60_000,
        &from,
        &to,
        ("lastRequestId", "req-old"),
        Some(("writer", "cron-7")),
    )));
    events.extend(fold.finish(120_000));
    let named = named(&events);
    assert_eq!(named.len(), 1, "{named:#?}");
    assert!(
        named[0].starts_with(&format!(
            "POST#1 drift +8: likeTally {from} → {to} at 00:01:00.000 UTC"
        )),
        "{}",
        named[0]
    );
    assert!(
        named[0].contains("(the item says writer = cron-7)"),
        "{}",
        named[0]
    );
    assert!(
        !named[0].contains("req-old"),
        "an earlier write's: {}",
        named[0]
    );
    let open = fold.open();
    assert_eq!(open[0].gap, Some(BigDecimal::from(8)));
    let lines = open[0].lines("likeTally");
    assert!(
        lines[1].contains("already apart by +7 when the watch started"),
        "{lines:?}"
    );
    assert_eq!(fold.parent("POST#1").unwrap().settled, 153);
}

#[test]
fn likes_on_a_parent_at_minus_1_are_never_named() {
    // From the start check, and from a bare child the watch saw.
    let mut checked = fold(5_000);
    checked.start_checked("POST#1", "POST#1", Some(BigDecimal::from(2)), 3, 0);
    let mut seen = fold(5_000);
    seen.apply(&child(1, 0, "bare", EventKind::Insert));
    for fold in [&mut checked, &mut seen] {
        let mut events = fold.advance(6_000);
        for (i, user) in ["w1", "w2", "w3"].iter().enumerate() {
            let at = 10_000 + i64::try_from(i).unwrap() * 10_000;
            let base = 2 + u32::try_from(i).unwrap();
            let (from, to) = (base.to_string(), (base + 1).to_string());
            events.extend(fold.apply(&child(10 + 2 * i as u64, at, user, EventKind::Insert)));
            events.extend(fold.apply(&tally(11 + 2 * i as u64, at + 4_000, &from, Some(&to))));
        }
        events.extend(fold.finish(100_000));
        let names: Vec<String> = named(&events)
            .into_iter()
            .filter(|n| !n.contains("LIKE#USER#bare"))
            .collect();
        assert!(names.is_empty(), "{names:#?}");
        assert_eq!(fold.open()[0].gap, Some(BigDecimal::from(-1)));
    }
}

#[test]
fn a_write_that_narrows_the_gap_is_named_and_one_that_ends_it_closes_it() {
    let mut fold = fold(1_000);
    fold.start_checked("POST#1", "POST#1", Some(BigDecimal::from(5)), 3, 0);
    let narrowed = fold.apply(&tally(1, 1_000, "5", Some("4")));
    assert!(named(&narrowed).is_empty(), "not yet settled");
    let events = fold.advance(2_001);
    let said = named(&events);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("POST#1 drift +1: likeTally 5 → 4"),
        "{}",
        said[0]
    );
    fold.apply(&tally(2, 3_000, "4", Some("3")));
    let events = fold.finish(5_000);
    assert!(matches!(events[..], [WatchEvent::Closed(_)]), "{events:?}");
    assert!(fold.open().is_empty());
}

/// A stream read behind a busy writer: a storm's records arrive late by this machine's clock
/// (their stream time seconds old), its two halves in consecutive batches. Measured from when
/// they were read, nothing is named; a lone write read then is, a settle window later.
#[test]
fn records_read_late_are_matched_from_when_they_were_read() {
    let mut fold = fold(1_000);
    fold.note_wall(100_000);
    fold.apply(&child(1, 6_000, "a", EventKind::Insert));
    // Caught up for a moment, 0.5 s later by the clock (the stream time is 94 s behind).
    assert!(
        named(&fold.tick(100_500)).is_empty(),
        "not yet a settle window since read"
    );
    fold.note_wall(100_700);
    fold.apply(&tally(2, 6_000, "3", Some("4")));
    fold.apply(&tally(3, 6_000, "4", Some("5")));
    assert!(
        named(&fold.tick(101_000)).is_empty(),
        "the ADD read 0.3 s ago"
    );
    let said = named(&fold.tick(101_701));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("likeTally 4 → 5"), "{}", said[0]);
}
