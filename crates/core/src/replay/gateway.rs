//! The write gateway against a replayed server: an `ADD` whose answer is lost is never sent
//! again (its outcome unknown, the item read back instead); a `SET` to given values, repeatable,
//! is sent again and applies; a throttled `ADD` is sent again, the server having refused it.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::{Operation, Request, ReturnOptions};
use crate::replay::{LOST, Replay, THROTTLED};
use crate::value::Item;
use crate::write::{Destination, Idempotency, WriteOutcome, WritePlan, send};

fn key() -> Item {
    Item::from([("PK".to_owned(), AttributeValue::S("VID#9f3a".into()))])
}

/// `UpdateItem` of `update` with `:v` = 1 on `n`.
fn update(
    replay_connection: &crate::connection::Connection,
    update: &str,
    idempotency: Idempotency,
) -> WritePlan {
    let request = Request {
        table: "T".into(),
        operation: Operation::Update(key()),
        update: Some(update.to_owned()),
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::from([("#n".to_owned(), "n".to_owned())]),
        values: HashMap::from([(":v".to_owned(), AttributeValue::N("1".into()))]),
        returns: ReturnOptions::default(),
    };
    let destination = Destination::of(replay_connection);
    WritePlan::single(destination, request, idempotency, vec!["PK".into()]).unwrap()
}

const STORED: (u16, &str) = (200, r#"{"Item":{"PK":{"S":"VID#9f3a"},"n":{"N":"8"}}}"#);

#[tokio::test]
async fn an_add_whose_answer_is_lost_is_sent_once_and_its_item_read_back() {
    let replay = Replay::new(&[LOST, STORED]);
    let connection = replay.connection().await;
    let plan = update(&connection, "ADD #n :v", Idempotency::Once);
    let outcome = send(&connection, &plan, true).await;
    let WriteOutcome::Unknown {
        attempts,
        stored_now,
        ..
    } = &outcome
    else {
        panic!("{outcome:?}");
    };
    assert_eq!(*attempts, 1);
    assert_eq!(
        stored_now[0].as_ref().unwrap().as_ref().unwrap()["n"],
        AttributeValue::N("8".into())
    );
    assert_eq!(replay.operations(), ["UpdateItem", "GetItem"]);
}

#[tokio::test]
async fn a_repeatable_set_whose_answer_is_lost_is_sent_again_and_applies() {
    let replay = Replay::new(&[LOST, (200, "{}")]);
    let connection = replay.connection().await;
    let plan = update(&connection, "SET #n = :v", Idempotency::Repeatable);
    let outcome = send(&connection, &plan, true).await;
    assert!(
        matches!(outcome, WriteOutcome::Applied { attempts: 2, .. }),
        "{outcome:?}"
    );
    let sent = replay.sent();
    assert_eq!(replay.operations(), ["UpdateItem", "UpdateItem"]);
    assert_eq!(sent[0], sent[1]);
}

#[tokio::test(start_paused = true)]
async fn a_throttled_add_is_sent_again_since_the_server_refused_it() {
    let replay = Replay::new(&[THROTTLED, (200, "{}")]);
    let connection = replay.connection().await;
    let plan = update(&connection, "ADD #n :v", Idempotency::Once);
    let outcome = send(&connection, &plan, true).await;
    let WriteOutcome::Applied {
        attempts,
        throttled,
        ..
    } = &outcome
    else {
        panic!("{outcome:?}");
    };
    assert_eq!((*attempts, throttled.len()), (2, 1));
    assert_eq!(replay.operations(), ["UpdateItem", "UpdateItem"]);
}

#[tokio::test]
async fn an_unconfirmed_write_off_this_machine_sends_nothing() {
    let replay = Replay::new(&[]);
    let connection = replay.connection().await;
    let plan = update(&connection, "ADD #n :v", Idempotency::Once);
    let outcome = send(&connection, &plan, false).await;
    assert!(
        matches!(outcome, WriteOutcome::Refused { attempts: 0, .. }),
        "{outcome:?}"
    );
    assert!(replay.sent().is_empty());
}
