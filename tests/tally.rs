//! Tally checks against an embedded engine, on generated data.

use crate::common;

use std::collections::{BTreeSet, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use common::{create_table, empty_engine, n, put_all, s, table_name};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::counter;
use dynoscope_core::counter::Outcome;
use dynoscope_core::read as ops;
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{self as tally_ops, ParentSource, ReconcileEvent, ReconcilePlan};
use dynoscope_core::tally::{ChildSource, ParentMatch, ShardRule, TallyRule};
use dynoscope_core::value::Item;
use dynoscope_core::write::Destination;

fn item(pk: &str, sk: &str) -> Item {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

fn parent(pk: &str, tally_name: &str, tally: Option<u64>) -> Item {
    let mut parent = item(pk, "META");
    if let Some(t) = tally {
        parent.insert(tally_name.to_owned(), n(&t.to_string()));
    }
    parent
}

fn likes(pk: &str, count: usize, prefix: &str, pad: usize) -> Vec<Item> {
    (0..count)
        .map(|i| {
            let mut child = item(pk, &format!("{prefix}USER#{i:06}"));
            if pad > 0 {
                child.insert("pad".into(), s(&"x".repeat(pad)));
            }
            child
        })
        .collect()
}

fn rule(tally: &str, prefix: &str) -> TallyRule {
    TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        },
        tally: tally.into(),
        children: ChildSource::SortKeyPrefix(prefix.into()),
    }
}

async fn table_with(items: Vec<Item>) -> (common::Engine, TableInfo) {
    let engine = empty_engine().await;
    let name = table_name("tally");
    create_table(&engine.client, &name).await;
    put_all(&engine.client, &name, items).await;
    let info = ops::describe_table(&engine.reader(), &name).await.unwrap();
    (engine, info)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_are_exact_across_many_pages_and_skip_likes_prefix() {
    let mut items = vec![parent("POST#big", "likeTally", Some(6_000))];
    items.extend(likes("POST#big", 6_000, "LIKE#", 400));
    // The trap: another prefix that begins with the same letters.
    items.extend(likes("POST#big", 50, "LIKES#", 0));
    let (engine, info) = table_with(items).await;
    let r = rule("likeTally", "LIKE#");
    let p = tally_ops::load_parent(&engine.reader(), &info, &r, s("POST#big"))
        .await
        .unwrap()
        .unwrap();
    let check = tally_ops::check_parent(&engine.reader(), &info, &r, &p)
        .await
        .unwrap();
    assert_eq!(check.count.count, 6_000, "LIKES# items are not counted");
    assert!(
        check.count.pages >= 3,
        "2.4 MB of children: {} pages",
        check.count.pages
    );
    assert!(check.count.consumed_rcu > 100.0);
    assert_eq!(check.stored.as_deref(), Some("6000"));
    assert!(!check.drifted());
    assert!(
        check.count.method.contains("Select=COUNT"),
        "{}",
        check.count.method
    );
    assert!(
        check.count.method.contains("begins_with(SK, \"LIKE#\")"),
        "{}",
        check.count.method
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reserved_word_tally_and_a_missing_tally() {
    let mut items = vec![
        parent("POST#r", "count", Some(2)),
        parent("POST#m", "count", None),
    ];
    items.extend(likes("POST#r", 2, "LIKE#", 0));
    items.extend(likes("POST#m", 4, "LIKE#", 0));
    let (engine, info) = table_with(items).await;
    let r = rule("count", "LIKE#");
    let reserved = tally_ops::load_parent(&engine.reader(), &info, &r, s("POST#r"))
        .await
        .unwrap()
        .unwrap();
    let check = tally_ops::check_parent(&engine.reader(), &info, &r, &reserved)
        .await
        .unwrap();
    assert_eq!((check.stored.as_deref(), check.count.count), (Some("2"), 2));
    let missing = tally_ops::load_parent(&engine.reader(), &info, &r, s("POST#m"))
        .await
        .unwrap()
        .unwrap();
    let check = tally_ops::check_parent(&engine.reader(), &info, &r, &missing)
        .await
        .unwrap();
    assert_eq!(check.stored, None, "missing, not 0");
    assert_eq!(check.drift_text(), "missing tally");
    assert!(check.drifted());
    // Repairing a missing tally is guarded by attribute_not_exists, and works on `count`.
    let here = Destination::of(&engine.connection);
    let plan = tally_ops::repair_plan(&here, &info, &r, &check).unwrap();
    assert_eq!(
        plan.condition_expression.as_deref(),
        Some("attribute_exists(#k) AND attribute_not_exists(#a)")
    );
    assert_eq!(plan.update_expression, "SET #a = :next");
    assert!(matches!(
        counter::update_counter(&engine.connection, &plan, false).await,
        Outcome::Applied { .. }
    ));
    let check = tally_ops::check_parent(
        &engine.reader(),
        &info,
        &r,
        &tally_ops::load_parent(&engine.reader(), &info, &r, s("POST#m"))
            .await
            .unwrap()
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(check.stored.as_deref(), Some("4"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_held_in_an_index() {
    let mut items = vec![parent("USER#ana", "postCount", Some(3))];
    for i in 0..3 {
        let mut post = item(&format!("POST#{i}"), "META");
        post.insert("owner".into(), s("USER#ana"));
        post.insert("rank".into(), n(&i.to_string()));
        items.push(post);
    }
    let mut other = item("POST#9", "META");
    other.insert("owner".into(), s("USER#bruno"));
    other.insert("rank".into(), n("1"));
    items.push(other);
    let (engine, info) = table_with(items).await;
    let r = TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "USER#".into(),
        },
        tally: "postCount".into(),
        children: ChildSource::Index {
            index: "ByOwner".into(),
            id_attribute: None,
            sort_prefix: String::new(),
        },
    };
    let p = tally_ops::load_parent(&engine.reader(), &info, &r, s("USER#ana"))
        .await
        .unwrap()
        .unwrap();
    let check = tally_ops::check_parent(&engine.reader(), &info, &r, &p)
        .await
        .unwrap();
    assert_eq!(check.count.count, 3);
    assert!(
        check.count.method.contains("on ByOwner"),
        "{}",
        check.count.method
    );
    assert!(!check.drifted());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconcile_finds_exactly_the_drifted_parents() {
    let mut items = Vec::new();
    let drifted: BTreeSet<String> = ["POST#03", "POST#07", "POST#11"].map(String::from).into();
    for i in 0..15u64 {
        let pk = format!("POST#{i:02}");
        let children = (i * 3) as usize;
        let tally = match pk.as_str() {
            "POST#03" => Some(children as u64 + 1),
            "POST#07" => Some(children as u64 - 2),
            "POST#11" => None,
            _ => Some(children as u64),
        };
        items.push(parent(&pk, "likeTally", tally));
        items.extend(likes(&pk, children, "LIKE#", 0));
    }
    // A parent of another kind must not be picked up.
    items.push(parent("WORKSPACE#acme", "memberCount", Some(1)));
    let (engine, info) = table_with(items).await;
    let r = rule("likeTally", "LIKE#");
    let never = CancelToken::default();
    let parents = tally_ops::find_parents(&engine.reader(), &info, &r, &ParentSource::Scan, &never)
        .await
        .unwrap()
        .0;
    assert_eq!(parents.len(), 15);
    let mut checks = Vec::new();
    let mut found = None;
    let cancelled = tally_ops::reconcile(
        &engine.reader(),
        &info,
        &r,
        &ParentSource::Scan,
        ReconcilePlan::PerParent { concurrency: 4 },
        &never,
        |event| match event {
            ReconcileEvent::Found(n) => found = Some(n),
            ReconcileEvent::Checked(c) => checks.push(c.unwrap()),
            _ => {}
        },
    )
    .await
    .unwrap();
    assert!(!cancelled);
    assert_eq!(found, Some(15));
    assert_eq!(checks.len(), 15);
    let found: BTreeSet<String> = checks
        .iter()
        .filter(|c| c.drifted())
        .map(|c| c.partition.clone())
        .collect();
    assert_eq!(found, drifted);

    // Cancelling keeps what finished.
    let cancel = CancelToken::default();
    let mut seen = 0;
    let cancelled = tally_ops::reconcile(
        &engine.reader(),
        &info,
        &r,
        &ParentSource::Scan,
        ReconcilePlan::PerParent { concurrency: 1 },
        &cancel,
        |event| {
            if let ReconcileEvent::Checked(_) = event {
                seen += 1;
                if seen == 5 {
                    cancel.cancel();
                }
            }
        },
    )
    .await
    .unwrap();
    assert!(cancelled);
    assert!((5..15).contains(&seen), "{seen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guarded_repair_refuses_when_the_tally_moved_meanwhile() {
    let mut items = vec![parent("POST#x", "likeTally", Some(5))];
    items.extend(likes("POST#x", 3, "LIKE#", 0));
    let (engine, info) = table_with(items).await;
    let r = rule("likeTally", "LIKE#");
    let p = tally_ops::load_parent(&engine.reader(), &info, &r, s("POST#x"))
        .await
        .unwrap()
        .unwrap();
    let check = tally_ops::check_parent(&engine.reader(), &info, &r, &p)
        .await
        .unwrap();
    assert_eq!(check.drift_text(), "+2");
    let plan =
        tally_ops::repair_plan(&Destination::of(&engine.connection), &info, &r, &check).unwrap();
    assert_eq!(
        plan.condition_expression.as_deref(),
        Some("attribute_exists(#k) AND #a = :current")
    );
    // Someone likes the post meanwhile: the tally moves to 6.
    let mut moved = parent("POST#x", "likeTally", Some(6));
    moved.insert("note".into(), s("moved"));
    put_all(&engine.client, &info.name, vec![moved]).await;
    match counter::update_counter(&engine.connection, &plan, false).await {
        Outcome::ConditionFailed { current } => assert_eq!(current.as_deref(), Some("6")),
        other => panic!("{other:?}"),
    }
    let stored = ops::read_number(&engine.reader(), &info.name, &check.key, "likeTally")
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some("6"), "not overwritten");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_are_summed_exactly_and_the_hot_one_named() {
    let values = ["10", "12", "9999", "11", "0.5"];
    let mut items = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let mut shard = item("VID#s", &format!("STATS#TOTAL#{i}"));
        shard.insert("play_count".into(), n(v));
        items.push(shard);
    }
    items.push(item("VID#s", "STATS#TOTAL#10")); // a shard without a value yet
    let (engine, info) = table_with(items).await;
    let total = tally_ops::sum_shards(
        &engine.reader(),
        &info,
        AttributeValue::S("VID#s".into()),
        &ShardRule {
            prefix: "STATS#TOTAL#".into(),
            attribute: "play_count".into(),
        },
    )
    .await
    .unwrap();
    assert_eq!(total.shards.len(), 6);
    assert_eq!(total.shards[5].0, "STATS#TOTAL#10", "numeric order");
    assert_eq!(dynoscope_core::number::to_dynamodb(&total.total), "10032.5");
    assert_eq!(total.hot, Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parents_from_an_index_query_or_the_loaded_rows() {
    let mut items = Vec::new();
    for (i, owner) in ["ana", "ana", "bruno"].iter().enumerate() {
        let pk = format!("POST#{i}");
        let mut p = parent(&pk, "likeTally", Some(2));
        p.insert("owner".into(), s(owner));
        p.insert("rank".into(), n(&i.to_string()));
        items.push(p);
        items.extend(likes(&pk, if i == 1 { 3 } else { 2 }, "LIKE#", 0));
    }
    let (engine, info) = table_with(items.clone()).await;
    let r = rule("likeTally", "LIKE#");
    let by_ana = ParentSource::IndexQuery {
        index: "ByOwner".into(),
        partition: s("ana"),
    };
    let never = CancelToken::default();
    let (parents, _) = tally_ops::find_parents(&engine.reader(), &info, &r, &by_ana, &never)
        .await
        .unwrap();
    let names: BTreeSet<String> = parents
        .iter()
        .map(|p| dynoscope_core::value::cell_text(&p["PK"]))
        .collect();
    assert_eq!(names, ["POST#0", "POST#1"].map(String::from).into());
    let mut drifted = Vec::new();
    let plan = ReconcilePlan::PerParent { concurrency: 2 };
    tally_ops::reconcile(
        &engine.reader(),
        &info,
        &r,
        &by_ana,
        plan,
        &never,
        |event| {
            if let ReconcileEvent::Checked(c) = event {
                let c = c.unwrap();
                if c.drifted() {
                    drifted.push(c.partition);
                }
            }
        },
    )
    .await
    .unwrap();
    assert_eq!(drifted, ["POST#1"]);
    // The rows loaded in the grid: only the parents among them.
    let loaded = ParentSource::Loaded(dynoscope_core::rows::Rows::from_items(&items));
    let (parents, _) = tally_ops::find_parents(&engine.reader(), &info, &r, &loaded, &never)
        .await
        .unwrap();
    assert_eq!(parents.len(), 3);
}
