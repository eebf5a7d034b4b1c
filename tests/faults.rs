//! Every write path through a fault-injecting proxy: answers lost after the write was applied
//! (an HTML 500, an unreadable 200, a cut body, a reset, silence) and throttling. Each path
//! must report the outcome that matches what the server stored, send a request that is not
//! idempotent exactly once, and move the stored value by exactly what the outcome says.

use crate::common;

use dynoscope_core::counter::{self, Change, EditMode, Outcome};
use dynoscope_core::tally::{self, ChildSource, ParentMatch, TallyRule};
use dynoscope_core::write::Destination;

use common::through::{engine_with_table, faults, key, number, proxied};
use common::{Fault, n, put_all, s};

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
        if let Fault::Throttle(refused) = fault {
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
        } else {
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
        let (check, _) = tally::check_partition(&engine.reader(), &info, &rule, s(&pk))
            .await
            .unwrap();
        let (proxy, through) = proxied(&engine, &["UpdateItem"], fault).await;
        let plan = tally::repair_plan(&Destination::of(&through), &info, &rule, &check).unwrap();
        let report = tally::repair(&through, &info, &rule, &plan, false).await;
        let stored = number(&engine, &info.name, &key(&pk, "META"), "likeTally").await;
        assert_eq!(stored.as_deref(), Some("2"), "{fault:?}: repaired once");
        let (recheck, _) = report.recheck.as_ref().unwrap();
        assert!(!recheck.drifted(), "{fault:?}: checked again, no drift");
        if let Fault::Throttle(_) = fault {
            assert!(
                matches!(report.outcome, Outcome::Applied { .. }),
                "{fault:?}"
            );
            assert_eq!(proxy.forwarded(), 1);
        } else {
            assert!(
                matches!(report.outcome, Outcome::Unknown { .. }),
                "{fault:?}: {:?}",
                report.outcome
            );
            assert!((1..=3).contains(&proxy.forwarded()));
            // The report counts what was sent: never "not sent again" of a repeated send.
            let said = report.line().text;
            match proxy.arrived() {
                1 => assert!(said.contains("not sent again"), "{fault:?}: {said}"),
                n => assert!(
                    said.contains(&format!("sent {n} times")),
                    "{fault:?}: {said}"
                ),
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
        let result = dynoscope_core::run::run(&through, &request, info.key_names(), false)
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
        if let Fault::Throttle(_) = fault {
            assert!(result.summary.starts_with("UpdateItem applied"));
        } else {
            assert!(
                result.summary.starts_with("Outcome unknown"),
                "{}",
                result.summary
            );
            assert_eq!(result.items[0]["plays"], n("42"), "{fault:?}: stored now");
        }
    }
}
