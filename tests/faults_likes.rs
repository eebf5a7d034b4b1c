//! Likes, unlikes, storms and the lab through a fault-injecting proxy (answers lost after the
//! write was applied, throttling): the outcome reported matches what the server stored, and a
//! like that is not idempotent is sent exactly once.

use crate::common;

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::lab;
use dynoscope_core::likes::{self, LikeOp, LikeOutcome, LikeTarget, StormPlan};
use dynoscope_core::table::TableInfo;
use dynoscope_core::write::Destination;

use common::through::{engine_with_table, faults, key, proxied};
use common::{Fault, n, put_all};

fn like_target(info: &TableInfo, parent: &str) -> LikeTarget {
    LikeTarget::new(info, parent, "META", "likeTally", "LIKE#").unwrap()
}

/// A like (or unlike, or a like with a token) through every fault.
async fn likes_through_faults(op: LikeOp, token: bool) {
    let (engine, info) = engine_with_table().await;
    for fault in faults() {
        let pk = format!("POST#{op:?}{token}{fault:?}");
        let mut parent = key(&pk, "META");
        parent.insert("likeTally".into(), n("1"));
        put_all(
            &engine.client,
            &info.name,
            vec![parent, key(&pk, "LIKE#USER#old")],
        )
        .await;
        let target = like_target(&info, &pk);
        let (proxy, through) = proxied(&engine, &["TransactWriteItems"], fault).await;
        let user = if op == LikeOp::Like {
            "USER#new"
        } else {
            "USER#old"
        };
        let request = likes::like_request(
            &Destination::of(&through),
            op,
            &target,
            user,
            token.then(|| format!("tok-{}", pk.len())),
            1_750_636_900,
        )
        .unwrap();
        let report = likes::like_and_observe(
            &through,
            &info,
            request,
            false,
            &dynoscope_core::cancel::CancelToken::default(),
        )
        .await
        .expect("not cancelled");
        let after = likes::snapshot(&engine.reader(), &info, &target)
            .await
            .unwrap();
        let expected = if op == LikeOp::Like { 2 } else { 0 };
        assert_eq!(
            (after.tally.as_deref(), after.children),
            (Some(expected.to_string().as_str()), expected),
            "{op:?} token={token} {fault:?}: applied once"
        );
        if let Fault::Throttle(refused) = fault {
            assert!(
                matches!(report.sent.outcome, LikeOutcome::Committed { .. }),
                "{fault:?}: {:?}",
                report.sent
            );
            assert_eq!(report.sent.attempts, refused as u32 + 1);
            assert_eq!(proxy.forwarded(), 1);
        } else {
            assert!(
                matches!(report.sent.outcome, LikeOutcome::Unknown(_)),
                "{op:?} {fault:?}: {:?}",
                report.sent.outcome
            );
            if token {
                assert!((1..=3).contains(&proxy.forwarded()));
            } else {
                assert_eq!(proxy.forwarded(), 1, "{op:?} {fault:?}: never sent twice");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn likes_through_faults_are_sent_once() {
    likes_through_faults(LikeOp::Like, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unlikes_through_faults_are_sent_once() {
    likes_through_faults(LikeOp::Unlike, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokened_likes_through_faults_count_once() {
    likes_through_faults(LikeOp::Like, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storms_through_faults() {
    let (engine, info) = engine_with_table().await;
    for fault in faults() {
        let pk = format!("POST#storm{fault:?}");
        let mut parent = key(&pk, "META");
        parent.insert("likeTally".into(), n("0"));
        put_all(&engine.client, &info.name, vec![parent]).await;
        let (proxy, through) = proxied(&engine, &["TransactWriteItems"], fault).await;
        // Three users, one at a time: user 0 likes, likes again and unlikes; 1 and 2 like.
        let plan = StormPlan::new(
            &Destination::of(&through),
            &like_target(&info, &pk),
            3,
            1,
            "f",
        )
        .unwrap();
        let report = likes::run_storm(
            &through,
            &info,
            &plan,
            false,
            &CancelToken::default(),
            |_| {},
        )
        .await
        .unwrap();
        let stats = &report.stats;
        assert_eq!(stats.done, 5);
        assert!(
            report.storm_consistent(),
            "{fault:?}: {:?}",
            report.verdict()
        );
        let after = report.after.as_ref().expect("read again after the storm");
        assert_eq!(
            (after.tally.as_deref(), after.children),
            (Some("2"), 2),
            "{fault:?}"
        );
        assert_eq!(
            proxy.forwarded(),
            5,
            "{fault:?}: each transaction sent once"
        );
        match fault {
            Fault::Throttle(refused) => {
                assert_eq!((stats.committed, stats.unknown), (4, 0), "{stats:?}");
                assert_eq!(stats.resent, refused as u32);
            }
            // The repeated like is cancelled by the server (HTTP 400). Cut short, that answer
            // still has its status, which says nothing was applied: refused, not unknown.
            Fault::CutAfterApply => {
                assert_eq!(
                    (stats.unknown, stats.failed),
                    (4, 1),
                    "{fault:?}: {stats:?}"
                );
            }
            _ => assert_eq!(stats.unknown, 5, "{fault:?}: {stats:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lab_through_faults_stops_at_an_unknown_add() {
    let (engine, info) = engine_with_table().await;
    for fault in faults() {
        let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
        let run = lab::run(&through, &info, 1, 1, &format!("{fault:?}"), false).await;
        if let Fault::Throttle(_) = fault {
            assert!(run.problems().is_empty(), "{:?}", run.problems());
            assert!(
                run.results
                    .iter()
                    .all(|r| r.lost == 0 || r.method == lab::LabMethod::Naive)
            );
            // One ADD and one conditional SET reached the server.
            assert_eq!(proxy.forwarded(), 2);
        } else {
            let error = run.error.as_ref().expect("the run stopped").to_string();
            assert!(error.starts_with("outcome unknown"), "{fault:?}: {error}");
            assert_eq!(
                run.results.len(),
                1,
                "the naive method ran, then ADD stopped it"
            );
            assert_eq!(proxy.forwarded(), 1, "{fault:?}: the ADD was sent once");
            assert!(run.left_behind.is_empty(), "{:?}", run.left_behind);
        }
    }
}
