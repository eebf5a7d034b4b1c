//! Like/unlike transactions, replays, tokens, a storm and the counter lab, against the sandbox;
//! and conflict cancellations, which the engine never produces, injected by a local proxy.

use crate::common;

use std::sync::atomic::Ordering;

use std::time::Duration;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::lab::{self, LabMethod};
use dynoscope_core::likes::{self, LikeOp, LikeOutcome, LikeTarget, StormPlan};
use dynoscope_core::read as ops;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::table::TableInfo;
use dynoscope_core::write::{CancelReason, Destination};

struct Lab {
    sandbox: Sandbox,
    connection: Connection,
    client: dynoscope_core::connection::Reader,
    info: TableInfo,
    target: LikeTarget,
}

async fn lab() -> Lab {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = common::connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let client = connection.reader();
    let info = ops::describe_table(&client, "Social").await.unwrap();
    let target = LikeTarget {
        table: "Social".into(),
        pk_name: "PK".into(),
        sk_name: "SK".into(),
        parent: "POST#a91f".into(),
        parent_sk: "META".into(),
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        create_parent: false,
    };
    Lab {
        sandbox,
        connection,
        client,
        info,
        target,
    }
}

async fn state(lab: &Lab) -> (Option<String>, u64) {
    let s = likes::snapshot(&lab.client, &lab.info, &lab.target)
        .await
        .unwrap();
    (s.tally, s.children)
}

fn request(lab: &Lab, op: LikeOp, user: &str, token: Option<&str>) -> likes::LikeRequest {
    likes::like_request(
        &Destination::of(&lab.connection),
        op,
        &lab.target,
        user,
        token.map(str::to_owned),
        1_750_636_900,
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn like_duplicate_unlike_and_double_unlike() {
    let lab = lab().await;
    assert_eq!(state(&lab).await, (Some("3".into()), 3));
    let like = request(&lab, LikeOp::Like, "USER#new1", None);
    let report = likes::like_and_observe(
        &lab.connection,
        &lab.info,
        like.clone(),
        false,
        &dynoscope_core::cancel::CancelToken::default(),
    )
    .await
    .expect("not cancelled");
    let wcu = match report.sent.outcome {
        LikeOutcome::Committed { consumed_wcu } => consumed_wcu,
        other => panic!("{other:?}"),
    };
    assert!((3.0..=6.0).contains(&wcu), "about 4 WCU for a like: {wcu}");
    assert_eq!(report.before.unwrap().tally.as_deref(), Some("3"));
    let after = report.after.unwrap();
    assert_eq!((after.tally.as_deref(), after.children), (Some("4"), 4));

    // Send again: the identical request, as a client retry would.
    let again = likes::send(&lab.connection, &like, false, &CancelToken::default()).await;
    assert_eq!(
        again.outcome,
        LikeOutcome::Cancelled {
            reasons: vec![CancelReason::ConditionalCheckFailed, CancelReason::Fine]
        }
    );
    assert_eq!(
        state(&lab).await,
        (Some("4".into()), 4),
        "the tally did not move"
    );

    let unlike = request(&lab, LikeOp::Unlike, "USER#new1", None);
    assert!(matches!(
        likes::send(&lab.connection, &unlike, false, &CancelToken::default())
            .await
            .outcome,
        LikeOutcome::Committed { .. }
    ));
    assert_eq!(state(&lab).await, (Some("3".into()), 3));
    let twice = likes::send(&lab.connection, &unlike, false, &CancelToken::default()).await;
    assert!(
        matches!(twice.outcome, LikeOutcome::Cancelled { ref reasons } if reasons[0] == CancelReason::ConditionalCheckFailed)
    );
    assert_eq!(state(&lab).await, (Some("3".into()), 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_makes_the_retry_idempotent_and_refuses_other_parameters() {
    let lab = lab().await;
    let like = request(&lab, LikeOp::Like, "USER#tok", Some("retry-token-1"));
    assert!(matches!(
        likes::send(&lab.connection, &like, false, &CancelToken::default())
            .await
            .outcome,
        LikeOutcome::Committed { .. }
    ));
    let replay = likes::send(&lab.connection, &like, false, &CancelToken::default()).await;
    assert!(
        matches!(replay.outcome, LikeOutcome::Committed { .. }),
        "the retry succeeds: {replay:?}"
    );
    assert_eq!(state(&lab).await, (Some("4".into()), 4), "and counts once");
    let other = request(
        &lab,
        LikeOp::Like,
        "USER#someone-else",
        Some("retry-token-1"),
    );
    match likes::send(&lab.connection, &other, false, &CancelToken::default())
        .await
        .outcome
    {
        LikeOutcome::Failed(e) => assert_eq!(
            e.code(),
            Some("IdempotentParameterMismatchException"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_operation_storm_keeps_the_tally_equal_to_the_children() {
    let lab = lab().await;
    let users = 745;
    let mut last = likes::StormStats::default();
    let plan = StormPlan::new(
        &Destination::of(&lab.connection),
        &lab.target,
        users,
        16,
        "t",
    )
    .unwrap();
    let stats = likes::storm(
        &lab.connection,
        &plan,
        false,
        &CancelToken::default(),
        |s| last = s.clone(),
    )
    .await
    .unwrap();
    assert!(stats.planned >= 1_000, "{}", stats.planned);
    assert_eq!(stats.done, stats.planned);
    assert_eq!(last.done, stats.done);
    let duplicates = (0..users).filter(|i| i.is_multiple_of(5)).count();
    assert_eq!(
        stats.cancelled.get("[ConditionalCheckFailed, None]"),
        Some(&duplicates)
    );
    assert_eq!((stats.failed, stats.unknown), (0, 0));
    let unlikes = (0..users).filter(|i| i.is_multiple_of(7)).count();
    let (tally, children) = state(&lab).await;
    assert_eq!(children, 3 + (users - unlikes) as u64);
    assert_eq!(
        tally,
        Some(children.to_string()),
        "tally = counted children"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_lab_loses_updates_only_with_the_naive_method() {
    let lab = lab().await;
    let (writers, increments) = (8, 25);
    let run = lab::run(&lab.connection, &lab.info, writers, increments, "t", false).await;
    assert!(run.problems().is_empty(), "{:?}", run.problems());
    let results = run.results;
    let by = |m: LabMethod| results.iter().find(|r| r.method == m).unwrap();
    // In rounds, every writer reads before any writes: the naive method keeps one increment a
    // round and loses the other K − 1, exactly — no race has to happen for this.
    let naive = by(LabMethod::Naive);
    assert_eq!(naive.final_value.as_deref(), Some("25"), "{naive:?}");
    assert_eq!(naive.lost, ((writers - 1) * increments) as i64);
    assert_eq!(by(LabMethod::AtomicAdd).lost, 0);
    assert_eq!(by(LabMethod::AtomicAdd).final_value.as_deref(), Some("200"));
    let conditional = by(LabMethod::ConditionalSet);
    assert_eq!(conditional.lost, 0);
    assert_eq!(conditional.final_value.as_deref(), Some("200"));
    // One writer a round gets through; the others fail their condition and go round again
    // until each has made the increment: K − 1, K − 2, … 0 failures, for every increment.
    let failures: usize = (1..=writers).map(|k| (k - 1) * increments).sum();
    assert_eq!(conditional.conditional_failures, failures as u64);
    // Scratch items are gone.
    let scan = ops::fetch_page(
        &lab.connection.reader(),
        &ops::BrowseRequest::scan(&lab.info, None).unwrap(),
        None,
    )
    .await
    .unwrap();
    assert!(
        scan.items
            .iter()
            .all(|i| !dynoscope_core::value::cell_text(&i["PK"]).starts_with("SCRATCH#"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conflict_cancellations_are_reported_and_retried() {
    let lab = lab().await;
    let (proxy, transactions) = common::conflicting_proxy(lab.sandbox.addr(), 2).await;
    let through = common::connect_to(&format!("http://{proxy}"), Duration::from_secs(10)).await;
    let like = likes::like_request(
        &Destination::of(&through),
        LikeOp::Like,
        &lab.target,
        "USER#contended",
        None,
        1_750_636_900,
    )
    .unwrap();
    let sent = likes::send(&through, &like, false, &CancelToken::default()).await;
    assert!(
        matches!(sent.outcome, LikeOutcome::Committed { .. }),
        "{sent:?}"
    );
    assert_eq!(
        sent.attempts, 3,
        "two TransactionConflict cancellations, sent again"
    );
    assert_eq!(transactions.load(Ordering::SeqCst), 3);
    assert_eq!(
        state(&lab).await,
        (Some("4".into()), 4),
        "applied exactly once"
    );
}
