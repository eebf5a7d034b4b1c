//! Watching counters, measured (run with `cargo bench --bench watch`):
//!
//! 1. The fold over a recorded stream of 1,000,000 records (`RECORDS=…` to change): likes of
//!    1,000 posts, each a child INSERT and its parent's MODIFY (every 97th ADD without a child),
//!    folded under the likeTally rule as a watch of every parent folds them: records per second
//!    (goal ≥ 200,000).
//! 2. Memory per watched parent: 100,000 parents (`PARENTS=…`) each given 10 records, the
//!    resident memory before and after, divided, as a watch of every parent keeps them (its
//!    counters and divergences; the front ends keep their own bounded record lists).
//! 3. The delay from a like sent through the like path to its record reaching the fold, on the
//!    sandbox (a watch from now on POST#a91f; goal ≤ 1.5 s), over 10 likes.

#![expect(
    clippy::unwrap_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::condition::ScalarType;
use dynoscope_core::connection::{self, ConnectOptions, ConnectionSpec};
use dynoscope_core::likes::LikeOp;
use dynoscope_core::read;
use dynoscope_core::spec::{LikeSpec, RuleSpec, WatchFrom, WatchSpec};
use dynoscope_core::stream::{EventKind, SequenceNumber, StreamRecord, Until};
use dynoscope_core::table::{KeyAttr, TableInfo};
use dynoscope_core::tally::{ChildSource, ParentMatch, TallyRule};
use dynoscope_core::value::Item;
use dynoscope_core::watch::{self, CounterFold, FoldConfig, WatchEvent, WatchPlan, WatchProgress};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn fold() -> CounterFold {
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
    CounterFold::new(FoldConfig::new(&info, &rule, 5_000).unwrap())
}

fn item(pk: &str, sk: &str, tally: Option<u64>) -> Item {
    let mut item = Item::from([
        ("PK".to_owned(), AttributeValue::S(pk.into())),
        ("SK".to_owned(), AttributeValue::S(sk.into())),
    ]);
    if let Some(t) = tally {
        item.insert("likeTally".into(), AttributeValue::N(t.to_string()));
        item.insert("updatedAt".into(), AttributeValue::N("1750636800".into()));
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
    let keys = new
        .as_ref()
        .or(old.as_ref())
        .map(|i| {
            i.iter()
                .filter(|(k, _)| *k == "PK" || *k == "SK")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    StreamRecord {
        sequence: SequenceNumber(format!(
            "{}",
            100_000_000_000_000_000_000u128 + u128::from(seq)
        )),
        shard: "shardId-1".into(),
        kind,
        keys,
        old,
        new,
        at_ms,
    }
}

/// `count` records of likes spread over `posts` posts.
fn recorded(count: usize, posts: usize) -> Vec<StreamRecord> {
    let mut tallies = vec![0u64; posts];
    let mut out = Vec::with_capacity(count);
    let mut seq = 0u64;
    while out.len() < count {
        let p = (seq as usize / 2) % posts;
        let pk = format!("POST#{p:05}");
        let at = i64::try_from(seq).unwrap();
        if !seq.is_multiple_of(97) {
            out.push(record(
                seq,
                at,
                EventKind::Insert,
                None,
                Some(item(&pk, &format!("LIKE#USER#{seq:08}"), None)),
            ));
            seq += 1;
        }
        let before = tallies[p];
        tallies[p] += 1;
        out.push(record(
            seq,
            at,
            EventKind::Modify,
            Some(item(&pk, "META", Some(before))),
            Some(item(&pk, "META", Some(before + 1))),
        ));
        seq += 1;
    }
    out.truncate(count);
    out
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn folded_per_second() {
    let count = env("RECORDS", 1_000_000);
    let records = recorded(count, 1_000);
    let mut fold = fold();
    // As a watch of every parent runs it (`dynoscope watch` without --pk).
    fold.config_keep_changes(0);
    let started = Instant::now();
    let mut events = 0usize;
    for r in &records {
        events += fold.apply(r).len();
    }
    // Read to past the settle window after the last record: every gap is settled.
    let end = fold.now_ms() + 5_001;
    events += fold.finish(end).len();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "fold: {count} records in {:.2} s = {:.0} records/s (goal ≥ 200,000); {} parents, {} open divergences, {events} events",
        secs,
        count as f64 / secs,
        fold.parents().count(),
        fold.open().len()
    );
}

fn memory_per_parent() {
    let parents = env("PARENTS", 100_000);
    let records = recorded(parents * 10, parents);
    let before = resident_bytes();
    let mut fold = fold();
    // As a watch of every parent runs it: the fold keeps counters, not changes.
    fold.config_keep_changes(0);
    for r in &records {
        fold.apply(r);
    }
    let after = resident_bytes();
    println!(
        "memory: {parents} parents watched, 10 records each: {} bytes resident more, {} bytes a parent",
        after.saturating_sub(before),
        after.saturating_sub(before) / parents as u64
    );
    drop(fold);
}

/// A watch of POST#a91f's likes on Social from now, settling for 5 s.
fn post_likes_plan(info: &TableInfo) -> WatchPlan {
    WatchSpec {
        table: "Social".into(),
        pk: Some("POST#a91f".into()),
        rule: RuleSpec {
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            ..RuleSpec::default()
        },
        from: WatchFrom::Latest,
        settle_seconds: 5.0,
        poll_seconds: None,
    }
    .plan(info)
    .unwrap()
}

fn like_to_fold_delay() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let opened = connection::open(
            ConnectionSpec::Sandbox { db_path: None },
            ConnectOptions::default(),
            None,
        )
        .await
        .unwrap();
        let connection = opened.connection;
        let info = read::describe_table(&connection.reader(), "Social")
            .await
            .unwrap();
        let plan = post_likes_plan(&info);
        let cancel = CancelToken::default();
        #[expect(
            clippy::disallowed_methods,
            reason = "the bench drains as fast as it can"
        )]
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
                        let _ = tx.send((Instant::now(), p));
                    },
                )
                .await
            })
        };
        while !matches!(rx.recv().await, Some((_, WatchProgress::Started(_)))) {}
        let mut delays = Vec::new();
        for i in 0..10 {
            let spec = LikeSpec {
                table: "Social".into(),
                pk: "POST#a91f".into(),
                parent_sk: "META".into(),
                tally: "likeTally".into(),
                child_prefix: "LIKE#".into(),
                user: format!("USER#bench{i}"),
                token: None,
                create: false,
            };
            let sent = Instant::now();
            spec.run(&connection, LikeOp::Like, false, &CancelToken::default())
                .await
                .unwrap();
            // The like path reads the tally and children back; the delay counts from the send.
            loop {
                let (at, progress) = rx.recv().await.unwrap();
                if let WatchProgress::Event(WatchEvent::Change(c)) = progress
                    && c.item == format!("LIKE#USER#bench{i}")
                {
                    delays.push(at - sent);
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(137)).await;
        }
        cancel.cancel();
        let _ = task.await;
        delays.sort();
        println!(
            "like → fold on the sandbox: median {} ms, worst {} ms over {} likes (goal ≤ 1,500 ms)",
            delays[delays.len() / 2].as_millis(),
            delays.last().unwrap().as_millis(),
            delays.len()
        );
    });
}

fn main() {
    folded_per_second();
    memory_per_parent();
    like_to_fold_delay();
}
