//! The specs of writes and statements at their boundaries: an edit, a like, a storm, a PartiQL
//! statement.

use super::tests::{numbers, social};
use super::*;

#[test]
fn an_edit_and_a_like_are_checked_before_anything_is_sent() {
    let add = AddSpec {
        table: "Social".into(),
        key: KeySpec::new([("PK", "VID#9f3a"), ("SK", "STATS#TOTAL")]),
        attribute: "play_count".into(),
        delta: "1".into(),
        ..AddSpec::default()
    };
    assert!(add.plan(&social()).is_ok());
    let bad = AddSpec {
        delta: "one".into(),
        ..add.clone()
    };
    assert_eq!(
        bad.plan(&social()).expect_err("not a number").field,
        "delta"
    );
    let like = LikeSpec {
        table: "Numbers".into(),
        pk: "1".into(),
        parent_sk: "META".into(),
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        user: "USER#7c20".into(),
        token: None,
        create: false,
    };
    assert!(
        like.plan(&numbers())
            .expect_err("no sort key")
            .reason
            .contains("no sort key")
    );
    let nobody = LikeSpec {
        table: "Social".into(),
        user: " ".into(),
        ..like
    };
    assert_eq!(nobody.plan(&social()).expect_err("no user").field, "user");
}

#[test]
fn a_statement_is_parsed_with_its_parameters() {
    let spec = StatementSpec {
        statement: r#"SELECT * FROM "Social" WHERE PK = ?"#.into(),
        params: vec![serde_json::json!({"S": "POST#a91f"})],
        limit: Some(3),
        page_size: None,
    };
    let plan = spec.plan().expect("planned");
    assert!(!plan.writes);
    assert_eq!(plan.limit, Some(3));
    let write = StatementSpec {
        statement: r#"DELETE FROM "Social" WHERE PK = 'A' AND SK = 'B'"#.into(),
        limit: Some(3),
        ..StatementSpec::default()
    };
    assert_eq!(write.plan().expect_err("a limit on a write").field, "limit");
    let missing = StatementSpec {
        statement: r#"SELECT * FROM "Social" WHERE PK = ?"#.into(),
        ..StatementSpec::default()
    };
    assert_eq!(missing.plan().expect_err("no parameter").field, "statement");
}

#[test]
fn a_storm_has_users_from_one_and_a_target_with_a_sort_key() {
    let like = LikeSpec {
        table: "Social".into(),
        pk: "POST#a91f".into(),
        parent_sk: "META".into(),
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        user: String::new(),
        token: None,
        create: false,
    };
    let destination = crate::write::Destination {
        connection: crate::connection::ConnectionId("http://127.0.0.1:8000".into()),
        endpoint: "http://127.0.0.1:8000".into(),
        setup: crate::connection::ClientSetup::default(),
        local: true,
        read_only: false,
        name: None,
        protected: false,
    };
    let storm = |users: usize| StormSpec {
        target: like.clone(),
        users,
        concurrency: 16,
    };
    let plan = storm(200)
        .plan(&social(), &destination, "run")
        .expect("planned");
    assert_eq!(plan.users, 200);
    assert_eq!(
        storm(0)
            .plan(&social(), &destination, "run")
            .expect_err("none")
            .field,
        "users"
    );
    let on_numbers = StormSpec {
        target: LikeSpec {
            table: "Numbers".into(),
            ..like.clone()
        },
        ..storm(10)
    };
    assert!(on_numbers.plan(&numbers(), &destination, "run").is_err());
}
