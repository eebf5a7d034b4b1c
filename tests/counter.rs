//! Counter edits against an embedded engine: ADD from nothing, exactness, concurrency, the exact
//! mode's condition, and a lost response that must not be re-sent.

use crate::common;

use std::collections::HashMap;

use common::{create_table, empty_engine, n, put_all, s, table_name};
use dynoscope_core::connection::Connection;
use dynoscope_core::counter::{self, Change, EditMode, Outcome, UpdatePlan};
use dynoscope_core::read as ops;
use dynoscope_core::value::Item;
use dynoscope_core::write::Destination;

fn key(pk: &str) -> Item {
    HashMap::from([
        ("PK".to_owned(), s(pk)),
        ("SK".to_owned(), s("STATS#TOTAL")),
    ])
}

async fn table_with(items: Vec<Item>) -> (common::Engine, String) {
    let engine = empty_engine().await;
    let name = table_name("counter");
    create_table(&engine.client, &name).await;
    put_all(&engine.client, &name, items).await;
    (engine, name)
}

/// An edit of an existing item, planned for `on`.
fn edit_on(
    on: &Connection,
    table: &str,
    pk: &str,
    attr: &str,
    current: Option<&str>,
    change: &Change,
    mode: EditMode,
) -> UpdatePlan {
    let planned = counter::plan(current, change).expect("valid input");
    counter::update_plan(
        &Destination::of(on),
        table,
        key(pk),
        attr,
        mode,
        planned,
        false,
    )
    .expect("valid request")
}

async fn stored(engine: &common::Engine, table: &str, pk: &str, attr: &str) -> Option<String> {
    ops::read_number(&engine.reader(), table, &key(pk), attr)
        .await
        .unwrap()
}

fn applied(outcome: &Outcome) -> (Option<String>, f64) {
    match outcome {
        Outcome::Applied {
            new_value,
            consumed_wcu,
            ..
        } => (new_value.clone(), *consumed_wcu),
        other => panic!("not applied: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_creates_a_missing_attribute_from_zero() {
    let (engine, table) = table_with(vec![key("VID#1")]).await;
    for mode in [EditMode::Add, EditMode::SetFromZero] {
        let attr = format!("plays_{mode:?}");
        let plan = edit_on(
            &engine.connection,
            &table,
            "VID#1",
            &attr,
            None,
            &Change::By("5".into()),
            mode,
        );
        let (new, wcu) = applied(&counter::update_counter(&engine.connection, &plan, false).await);
        assert_eq!(new.as_deref(), Some("5"), "{mode:?}");
        assert!(wcu > 0.0);
    }
    // The exact mode creates it too, on the condition that it is still missing.
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#1",
        "count",
        None,
        &Change::To("7".into()),
        EditMode::Exact,
    );
    let (new, _) = applied(&counter::update_counter(&engine.connection, &plan, false).await);
    assert_eq!(new.as_deref(), Some("7"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_eight_digit_values_stay_exact() {
    let big = "98765432109876543210987654321098765432";
    let mut item = key("VID#big");
    item.insert("bytes".into(), n(big));
    let (engine, table) = table_with(vec![item]).await;
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#big",
        "bytes",
        Some(big),
        &Change::By("-2".into()),
        EditMode::Add,
    );
    let (new, _) = applied(&counter::update_counter(&engine.connection, &plan, false).await);
    assert_eq!(
        new.as_deref(),
        Some("98765432109876543210987654321098765430")
    );
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#big",
        "bytes",
        Some("98765432109876543210987654321098765430"),
        &Change::To("98765432109876543210987654321098765439".into()),
        EditMode::Exact,
    );
    let (new, _) = applied(&counter::update_counter(&engine.connection, &plan, false).await);
    assert_eq!(
        new.as_deref(),
        Some("98765432109876543210987654321098765439")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_concurrent_adds_count_exactly_two_hundred() {
    let mut item = key("VID#hot");
    item.insert("play_count".into(), n("1000"));
    let (engine, table) = table_with(vec![item]).await;
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#hot",
        "play_count",
        Some("1000"),
        &Change::By("1".into()),
        EditMode::Add,
    );
    let mut tasks = Vec::new();
    for _ in 0..200 {
        let connection = engine.connection.clone();
        let plan = plan.clone();
        tasks.push(tokio::spawn(async move {
            counter::update_counter(&connection, &plan, false).await
        }));
    }
    let mut interfered = 0;
    for task in tasks {
        let outcome = task.await.unwrap();
        let (new, _) = applied(&outcome);
        if new.as_deref() != Some("1001") {
            interfered += 1;
        }
    }
    assert_eq!(
        stored(&engine, &table, "VID#hot", "play_count")
            .await
            .as_deref(),
        Some("1200")
    );
    assert_eq!(
        interfered, 199,
        "all but one saw someone else's increments in between"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exact_mode_refuses_a_stale_value_and_returns_the_current_one() {
    let mut item = key("VID#9f3a");
    item.insert("play_count".into(), n("42"));
    let (engine, table) = table_with(vec![item]).await;
    // The user saw 41, but someone else already made it 42.
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#9f3a",
        "play_count",
        Some("41"),
        &Change::To("42".into()),
        EditMode::Exact,
    );
    assert_eq!(
        plan.condition_expression.as_deref(),
        Some("attribute_exists(#k) AND #a = :current")
    );
    match counter::update_counter(&engine.connection, &plan, false).await {
        Outcome::ConditionFailed { current } => assert_eq!(current.as_deref(), Some("42")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        stored(&engine, &table, "VID#9f3a", "play_count")
            .await
            .as_deref(),
        Some("42")
    );
    // Retrying from the server's value works.
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#9f3a",
        "play_count",
        Some("42"),
        &Change::By("1".into()),
        EditMode::Exact,
    );
    let (new, _) = applied(&counter::update_counter(&engine.connection, &plan, false).await);
    assert_eq!(new.as_deref(), Some("43"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_response_is_reported_as_unknown_and_not_sent_twice() {
    let mut item = key("VID#lost");
    item.insert("play_count".into(), n("41"));
    let (engine, table) = table_with(vec![item]).await;
    let proxy = common::response_dropping_proxy(engine.sandbox.addr(), "UpdateItem").await;
    let through_proxy = common::connect_to(
        &format!("http://{proxy}"),
        std::time::Duration::from_secs(10),
    )
    .await;
    let plan = edit_on(
        &through_proxy,
        &table,
        "VID#lost",
        "play_count",
        Some("41"),
        &Change::By("1".into()),
        EditMode::Add,
    );
    let outcome = counter::update_counter(&through_proxy, &plan, false).await;
    match &outcome {
        Outcome::Unknown {
            error,
            stored_now,
            attempts,
        } => {
            assert_eq!(*attempts, 1, "an ADD is sent once");
            assert_eq!(error.op(), Some("UpdateItem"));
            // The item was read again: the one send was applied.
            assert_eq!(stored_now.as_ref().unwrap().as_deref(), Some("42"));
        }
        other => panic!("expected an unknown outcome, got {other:?}"),
    }
    assert_eq!(
        stored(&engine, &table, "VID#lost", "play_count")
            .await
            .as_deref(),
        Some("42"),
        "applied once, not re-sent"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_item_is_refused_with_nothing_written_unless_created() {
    let (engine, table) = table_with(vec![key("VID#here")]).await;
    for mode in EditMode::ALL {
        let plan = edit_on(
            &engine.connection,
            &table,
            "VID#nope",
            "play_count",
            None,
            &Change::By("1".into()),
            mode,
        );
        let outcome = counter::update_counter(&engine.connection, &plan, false).await;
        assert_eq!(outcome, Outcome::Missing, "{mode:?}");
        let read = ops::get_item(&engine.reader(), &table, key("VID#nope"))
            .await
            .unwrap();
        assert_eq!(read, None, "{mode:?}: no item was created");
    }
    // Creating is an explicit choice.
    let planned = counter::plan(None, &Change::By("1".into())).unwrap();
    let create = counter::update_plan(
        &Destination::of(&engine.connection),
        &table,
        key("VID#nope"),
        "play_count",
        EditMode::Add,
        planned,
        true,
    )
    .unwrap();
    let (new, _) = applied(&counter::update_counter(&engine.connection, &create, false).await);
    assert_eq!(new.as_deref(), Some("1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_is_sent_only_on_the_connection_it_was_planned_on() {
    let mut item = key("VID#mine");
    item.insert("play_count".into(), n("5"));
    let (engine, table) = table_with(vec![item]).await;
    let other = common::empty_engine().await;
    let plan = edit_on(
        &engine.connection,
        &table,
        "VID#mine",
        "play_count",
        Some("5"),
        &Change::By("1".into()),
        EditMode::Add,
    );
    match counter::update_counter(&other.connection, &plan, false).await {
        Outcome::Failed(error) => assert!(error.to_string().contains("planned for"), "{error}"),
        other => panic!("sent on another connection: {other:?}"),
    }
    assert_eq!(
        stored(&engine, &table, "VID#mine", "play_count")
            .await
            .as_deref(),
        Some("5")
    );
}
