//! The counter edit's requests, per mode, and as copied code.

use super::*;
use crate::counter::{Change, plan};

fn here() -> Destination {
    Destination {
        connection: crate::connection::ConnectionId("test".into()),
        endpoint: "http://127.0.0.1:1".into(),
        setup: ClientSetup::default(),
        local: true,
        read_only: false,
        name: None,
        protected: false,
    }
}

fn key() -> Item {
    HashMap::from([
        ("PK".to_owned(), AttributeValue::S("VID#9f3a".into())),
        ("SK".to_owned(), AttributeValue::S("STATS#TOTAL".into())),
    ])
}

#[test]
fn requests_per_mode() {
    let p = plan(Some("41"), &Change::By("1".into())).unwrap();
    let add = update_plan(
        &here(),
        "Videos",
        key(),
        "count",
        EditMode::Add,
        p.clone(),
        true,
    )
    .unwrap();
    assert_eq!(add.update_expression, "ADD #a :d");
    assert_eq!(
        add.names["#a"], "count",
        "a reserved word goes through a placeholder"
    );
    let set = update_plan(
        &here(),
        "Videos",
        key(),
        "count",
        EditMode::SetFromZero,
        p.clone(),
        true,
    )
    .unwrap();
    assert_eq!(set.values[":zero"], AttributeValue::N("0".into()));
    let exact = update_plan(&here(), "Videos", key(), "count", EditMode::Exact, p, true).unwrap();
    assert_eq!(exact.condition_expression.as_deref(), Some("#a = :current"));
    assert_eq!(exact.values[":next"], AttributeValue::N("42".into()));
    assert_eq!(exact.values[":current"], AttributeValue::N("41".into()));
    let existing = update_plan(
        &here(),
        "Videos",
        key(),
        "count",
        EditMode::Exact,
        plan(Some("41"), &Change::By("1".into())).unwrap(),
        false,
    )
    .unwrap();
    assert_eq!(
        existing.condition_expression.as_deref(),
        Some("attribute_exists(#k) AND #a = :current"),
        "an edit of an existing item never creates one"
    );
    assert_eq!(existing.names["#k"], "PK");
    assert!(
        update_plan(
            &here(),
            "Videos",
            key(),
            "PK",
            EditMode::Add,
            plan(None, &Change::By("1".into())).unwrap(),
            true
        )
        .is_err()
    );
}

#[test]
fn a_typed_new_value_holds_to_the_value_shown_in_every_mode() {
    for mode in EditMode::ALL {
        let p = plan(Some("4"), &Change::To("10".into())).unwrap();
        let up = update_plan(&here(), "Social", key(), "likeTally", mode, p, false).unwrap();
        assert_eq!(
            up.condition_expression.as_deref(),
            Some("attribute_exists(#k) AND #a = :current"),
            "{mode:?}"
        );
        assert_eq!(up.values[":current"], AttributeValue::N("4".into()));
        assert!(
            up.repeatable(),
            "{mode:?}: a second arrival fails its condition"
        );
    }
    let p = plan(None, &Change::To("10".into())).unwrap();
    let up = update_plan(&here(), "Social", key(), "n", EditMode::Add, p, true).unwrap();
    assert_eq!(
        up.condition_expression.as_deref(),
        Some("attribute_not_exists(#a)")
    );
    // A delta is the atomic counter: added to whatever is there, sent once.
    let p = plan(Some("4"), &Change::By("1".into())).unwrap();
    let up = update_plan(&here(), "Social", key(), "n", EditMode::Add, p, true).unwrap();
    assert_eq!(up.condition_expression, None);
    assert!(!up.repeatable());
    assert_eq!(
        up.write_plan().unwrap().idempotency,
        crate::write::Idempotency::Once
    );
}

#[test]
fn copy_as_json_and_cli() {
    let p = plan(Some("41"), &Change::By("1".into())).unwrap();
    let add = update_plan(
        &here(),
        "Videos",
        key(),
        "play_count",
        EditMode::Add,
        p,
        true,
    )
    .unwrap();
    let json: serde_json::Value = serde_json::from_str(&add.to_json()).unwrap();
    assert_eq!(json["UpdateExpression"], "ADD #a :d");
    assert_eq!(json["ExpressionAttributeValues"][":d"]["N"], "1");
    assert_eq!(json["Key"]["PK"]["S"], "VID#9f3a");
    let cli = add.to_aws_cli();
    assert!(cli.contains("--update-expression 'ADD #a :d'"), "{cli}");
    assert!(
        cli.contains(r#"--expression-attribute-values '{":d":{"N":"1"}}'"#),
        "{cli}"
    );
}
