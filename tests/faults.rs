//! Every write path through a fault-injecting proxy: answers lost after the write was applied
//! (an HTML 500, an unreadable 200, a cut body, a reset, silence) and throttling. Each path
//! must report the outcome that matches what the server stored, send a request that is not
//! idempotent exactly once, and move the stored value by exactly what the outcome says.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::{Engine, Fault, FaultProxy, create_table, empty_engine, n, put_all, s, table_name};
use dynoscope::core::cancel::CancelToken;
use dynoscope::core::connection::Connection;
use dynoscope::core::counter::{self, Change, EditMode, Outcome};
use dynoscope::core::lab;
use dynoscope::core::likes::{self, LikeOp, LikeOutcome, LikeTarget, StormPlan};
use dynoscope::core::read as ops;
use dynoscope::core::table::TableInfo;
use dynoscope::core::tally::{self, ChildSource, ParentMatch, TallyRule};
use dynoscope::core::value::Item;
use dynoscope::core::write::Destination;

/// Every fault each path is tried with.
fn faults() -> Vec<Fault> {
    let mut all = Fault::AFTER_APPLY.to_vec();
    all.push(Fault::Throttle(2));
    all
}

/// A proxy with `fault` on `writes`, and a connection through it that gives up after 1 s.
async fn proxied(
    engine: &Engine,
    writes: &'static [&'static str],
    fault: Fault,
) -> (FaultProxy, Connection) {
    let proxy = common::fault_proxy(engine.sandbox.addr(), writes, fault).await;
    let connection = common::connect_to(&proxy.url, Duration::from_secs(1)).await;
    (proxy, connection)
}

fn key(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

async fn number(engine: &Engine, table: &str, key: &Item, attr: &str) -> Option<String> {
    ops::read_number(&engine.client, table, key, attr)
        .await
        .unwrap()
}

async fn engine_with_table() -> (Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("faults");
    create_table(&engine.client, &name).await;
    let info = ops::describe_table(&engine.client, &name).await.unwrap();
    (engine, info)
}

/// A counter edit of +1 from 10 in `mode`, through every fault.
async fn counter_edits_through_faults(mode: EditMode) {
    let (engine, info) = engine_with_table().await;
    for fault in faults() {
        let key = key(&format!("VID#{fault:?}"), "STATS#TOTAL");
        let mut item = key.clone();
        item.insert("play_count".into(), n("10"));
        put_all(&engine.client, &info.name, vec![item.clone()]).await;
        let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
        let request = counter::EditRequest {
            attribute: "play_count".into(),
            change: Change::By("1".into()),
            from: None,
            create: false,
        };
        let plan =
            counter::plan_edit(&Destination::of(&through), &info, &item, &request, mode).unwrap();
        let outcome = counter::update_counter(&through, &plan, false).await;
        let now = number(&engine, &info.name, &key, "play_count").await;
        assert_eq!(
            now.as_deref(),
            Some("11"),
            "{mode:?} {fault:?}: applied once"
        );
        match fault {
            Fault::Throttle(refused) => {
                assert!(
                    matches!(&outcome, Outcome::Applied { new_value, attempts, .. }
                        if new_value.as_deref() == Some("11") && *attempts == refused as u32 + 1),
                    "{mode:?} {fault:?}: {outcome:?}"
                );
                assert_eq!(proxy.arrived(), refused + 1);
                assert_eq!(
                    proxy.forwarded(),
                    1,
                    "{mode:?}: throttled requests never arrived"
                );
            }
            _ => {
                match &outcome {
                    Outcome::Unknown { stored_now, .. } => assert_eq!(
                        stored_now.as_ref().unwrap().as_deref(),
                        Some("11"),
                        "{mode:?} {fault:?}: what is stored now is shown"
                    ),
                    other => panic!("{mode:?} {fault:?}: not unknown: {other:?}"),
                }
                if mode == EditMode::Exact {
                    // Repeatable: sent again, and its condition kept it from applying twice.
                    assert!(
                        (1..=3).contains(&proxy.forwarded()),
                        "{}",
                        proxy.forwarded()
                    );
                } else {
                    assert_eq!(proxy.forwarded(), 1, "{mode:?} {fault:?}: never sent twice");
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counter_add_through_faults() {
    counter_edits_through_faults(EditMode::Add).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counter_set_from_zero_through_faults() {
    counter_edits_through_faults(EditMode::SetFromZero).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counter_exact_through_faults() {
    counter_edits_through_faults(EditMode::Exact).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exact_edit_re_sent_after_a_lost_answer_is_unknown_not_failed() {
    let (engine, info) = engine_with_table().await;
    let key = key("VID#resent", "STATS#TOTAL");
    let mut item = key.clone();
    item.insert("play_count".into(), n("10"));
    put_all(&engine.client, &info.name, vec![item.clone()]).await;
    let (proxy, through) = proxied(&engine, &["UpdateItem"], Fault::HtmlAfterApplyOnce).await;
    let request = counter::EditRequest {
        attribute: "play_count".into(),
        change: Change::By("1".into()),
        from: None,
        create: false,
    };
    let plan = counter::plan_edit(
        &Destination::of(&through),
        &info,
        &item,
        &request,
        EditMode::Exact,
    )
    .unwrap();
    let outcome = counter::update_counter(&through, &plan, false).await;
    // The first send applied (its answer was an HTML 500); the second failed its condition
    // because of the first. That is not "condition failed": the edit may well be in.
    match &outcome {
        Outcome::Unknown { stored_now, .. } => {
            assert_eq!(stored_now.as_ref().unwrap().as_deref(), Some("11"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.forwarded(), 2);
    assert_eq!(
        number(&engine, &info.name, &key, "play_count")
            .await
            .as_deref(),
        Some("11")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repairs_through_faults() {
    let (engine, info) = engine_with_table().await;
    let rule = TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: String::new(),
        },
        tally: "likeTally".into(),
        children: ChildSource::SortKeyPrefix("LIKE#".into()),
    };
    for fault in faults() {
        let pk = format!("POST#{fault:?}");
        let mut parent = key(&pk, "META");
        parent.insert("likeTally".into(), n("5"));
        put_all(
            &engine.client,
            &info.name,
            vec![parent, key(&pk, "LIKE#USER#1"), key(&pk, "LIKE#USER#2")],
        )
        .await;
        let (check, _) = tally::check_partition(&engine.client, &info, &rule, s(&pk))
            .await
            .unwrap();
        let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
        let plan = tally::repair_plan(&Destination::of(&through), &info, &rule, &check).unwrap();
        let report = tally::repair(&through, &info, &rule, &plan, false).await;
        let stored = number(&engine, &info.name, &key(&pk, "META"), "likeTally").await;
        assert_eq!(stored.as_deref(), Some("2"), "{fault:?}: repaired once");
        let (recheck, _) = report.recheck.as_ref().unwrap();
        assert!(!recheck.drifted(), "{fault:?}: checked again, no drift");
        match fault {
            Fault::Throttle(_) => {
                assert!(
                    matches!(report.outcome, Outcome::Applied { .. }),
                    "{fault:?}"
                );
                assert_eq!(proxy.forwarded(), 1);
            }
            _ => {
                assert!(
                    matches!(report.outcome, Outcome::Unknown { .. }),
                    "{fault:?}: {:?}",
                    report.outcome
                );
                assert!((1..=3).contains(&proxy.forwarded()));
            }
        }
    }
}

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
            &dynoscope::core::cancel::CancelToken::default(),
        )
        .await
        .expect("not cancelled");
        let after = likes::snapshot(&engine.client, &info, &target)
            .await
            .unwrap();
        let expected = if op == LikeOp::Like { 2 } else { 0 };
        assert_eq!(
            (after.tally.as_deref(), after.children),
            (Some(expected.to_string().as_str()), expected),
            "{op:?} token={token} {fault:?}: applied once"
        );
        match fault {
            Fault::Throttle(refused) => {
                assert!(
                    matches!(report.sent.outcome, LikeOutcome::Committed { .. }),
                    "{fault:?}: {:?}",
                    report.sent
                );
                assert_eq!(report.sent.attempts, refused as u32 + 1);
                assert_eq!(proxy.forwarded(), 1);
            }
            _ => {
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
                )
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
        match fault {
            Fault::Throttle(_) => {
                assert!(run.problems().is_empty(), "{:?}", run.problems());
                assert!(
                    run.results
                        .iter()
                        .all(|r| r.lost == 0 || r.method == lab::LabMethod::Naive)
                );
                // One ADD and one conditional SET reached the server.
                assert_eq!(proxy.forwarded(), 2);
            }
            _ => {
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builder_runs_through_faults() {
    let (engine, info) = engine_with_table().await;
    for fault in faults() {
        let key = key(&format!("VID#run{fault:?}"), "META");
        let mut item = key.clone();
        item.insert("plays".into(), n("41"));
        put_all(&engine.client, &info.name, vec![item]).await;
        let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
        let request = common::builder_add(&info.name, &key, "plays");
        let result = dynoscope::core::run::run(&through, &request, info.key_names(), false)
            .await
            .unwrap();
        assert_eq!(
            number(&engine, &info.name, &key, "plays").await.as_deref(),
            Some("42"),
            "{fault:?}: applied once"
        );
        assert_eq!(
            proxy.forwarded(),
            1,
            "{fault:?}: an ADD is never sent twice"
        );
        match fault {
            Fault::Throttle(_) => assert!(result.summary.starts_with("UpdateItem applied")),
            _ => {
                assert!(
                    result.summary.starts_with("Outcome unknown"),
                    "{}",
                    result.summary
                );
                assert_eq!(result.items[0]["plays"], n("42"), "{fault:?}: stored now");
            }
        }
    }
}
