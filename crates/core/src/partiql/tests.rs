use crate::statement::text::parse_param;
use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::connection::ConnectionId;
use crate::error::Error;
use crate::expr::codegen::ClientSetup;
use crate::write::{Confirmation, Destination, Idempotency, WritePlan};

fn classify(text: &str) -> Classified {
    Statement::new(text, Vec::new())
        .classify()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn invalid(result: crate::error::Result<impl std::fmt::Debug>) -> String {
    match result {
        Err(Error::Invalid(message)) => message,
        other => panic!("expected bad input, got {other:?}"),
    }
}

#[test]
fn the_first_keyword_says_what_it_does_in_any_case_after_comments() {
    for (text, kind, table, index) in [
        (r#"SELECT * FROM "Videos""#, Kind::Select, "Videos", None),
        (
            "  -- a comment\n /* another\n one */ select a, b from Videos where PK = ?",
            Kind::Select,
            "Videos",
            None,
        ),
        (
            r#"SeLeCt "from", x FROM "My.Table"."ByOwner" WHERE owner = ?"#,
            Kind::Select,
            "My.Table",
            Some("ByOwner"),
        ),
        (
            "SELECT * FROM Social.ByOwner",
            Kind::Select,
            "Social",
            Some("ByOwner"),
        ),
        (
            r#"insert into "T" value {'PK': ?, 'SK': 'a?b'}"#,
            Kind::Insert,
            "T",
            None,
        ),
        (
            r#"UPDATE "T" SET n = n + ? WHERE PK = ?"#,
            Kind::Update,
            "T",
            None,
        ),
        (
            "delete FROM T WHERE PK = 'x' AND SK = ?",
            Kind::Delete,
            "T",
            None,
        ),
        (
            r#"EXISTS(SELECT * FROM "T" WHERE PK = ?)"#,
            Kind::Exists,
            "T",
            None,
        ),
    ] {
        let c = classify(text);
        assert_eq!(c.kind, kind, "{text}");
        assert_eq!(c.table, table, "{text}");
        assert_eq!(c.index.as_deref(), index, "{text}");
    }
    assert!(Kind::Insert.writes() && Kind::Update.writes() && Kind::Delete.writes());
    assert!(!Kind::Select.writes() && !Kind::Exists.writes());
}

#[test]
fn placeholders_are_counted_outside_strings_names_and_comments() {
    let c = classify(
        "UPDATE \"wh?t\" SET a = ?, b = 'is it?' -- really?\n /* ? */ WHERE PK = ? AND \"x?\" = ?",
    );
    assert_eq!(c.placeholders, 3);
    // A doubled quote is the quote itself.
    let c = classify("SELECT * FROM \"a\"\"b\" WHERE x = 'it''s ?'");
    assert_eq!(c.table, "a\"b");
    assert_eq!(c.placeholders, 0);
}

#[test]
fn what_cannot_be_read_is_refused_at_its_place() {
    let message = invalid(Statement::new("  \n  REPLACE INTO T", vec![]).classify());
    assert!(message.contains("`REPLACE`"), "{message}");
    assert!(message.contains("line 2, column 3"), "{message}");
    let message = invalid(Statement::new("SELECT * FROM \"T\" WHERE a = 'open", vec![]).classify());
    assert!(
        message.contains("string opened at line 1, column 29"),
        "{message}"
    );
    let message = invalid(Statement::new("SELECT 1 /* open", vec![]).classify());
    assert!(message.contains("comment"), "{message}");
    let message = invalid(Statement::new("DELETE T WHERE a = 1", vec![]).classify());
    assert!(message.contains("expected FROM after DELETE"), "{message}");
    assert!(message.contains("column 8"), "{message}");
    let message = invalid(Statement::new("SELECT *", vec![]).classify());
    assert!(message.contains("needs a table"), "{message}");
    assert!(invalid(Statement::new(" -- nothing", vec![]).classify()).contains("empty"));
}

#[test]
fn every_placeholder_needs_exactly_one_parameter() {
    let s = |n: usize| AttributeValue::S(n.to_string());
    let text = "SELECT * FROM T WHERE PK = ?\n AND SK = ?";
    assert!(Statement::new(text, vec![s(1), s(2)]).check().is_ok());
    let message = invalid(Statement::new(text, vec![s(1)]).check());
    assert!(
        message.contains("the `?` at line 2, column 11 has no parameter"),
        "{message}"
    );
    let message = invalid(Statement::new(text, vec![s(1), s(2), s(3)]).check());
    assert!(message.contains("3 parameters"), "{message}");
}

#[test]
fn parameters_are_typed_dynamodb_json_with_exact_numbers() {
    let big = "12345678901234567890123456789012345678";
    let statement = Statement::from_json(
        "SELECT * FROM T WHERE a = ? AND b = ? AND c = ?",
        &[
            format!(r#"{{"N": "{big}"}}"#),
            r#"{"S": "x y"}"#.to_owned(),
            r#"{"BOOL": true}"#.to_owned(),
        ],
    )
    .unwrap();
    assert_eq!(
        statement.params,
        vec![
            AttributeValue::N(big.into()),
            AttributeValue::S("x y".into()),
            AttributeValue::Bool(true),
        ]
    );
    let message = invalid(parse_param("{\"N\": \n 12", 2));
    assert!(
        message.starts_with("parameter 2: not valid JSON"),
        "{message}"
    );
    assert!(message.contains("line 2"), "{message}");
    let message = invalid(parse_param(r#"{"N": "NaN"}"#, 3));
    assert!(message.starts_with("parameter 3: "), "{message}");
    let message = invalid(Statement::from_json("SELECT * FROM T", &["{\"Q\": 1}"]));
    assert!(
        message.starts_with("parameter 1: unknown type"),
        "{message}"
    );
}

fn destination(local: bool, read_only: bool) -> Destination {
    Destination {
        connection: ConnectionId("http://db.example:8000".into()),
        endpoint: "http://db.example:8000".into(),
        setup: ClientSetup::default(),
        local,
        read_only,
        name: None,
        protected: false,
    }
}

#[test]
fn writes_are_planned_once_and_the_question_names_table_and_statement() {
    let statement = Statement::from_json(
        r#"UPDATE "Videos" SET n = n + 1 WHERE PK = ?"#,
        &[r#"{"S": "VID#1"}"#],
    )
    .unwrap();
    let plan = plan_write(destination(false, false), statement.clone()).unwrap();
    assert_eq!(plan.idempotency, Idempotency::Once);
    assert!(plan.targets().is_empty());
    let Confirmation::Ask(question) = plan.confirmation() else {
        panic!("a remote write asks");
    };
    assert!(question.contains("table Videos"), "{question}");
    assert!(
        question.contains(r#"`UPDATE "Videos" SET n = n + 1 WHERE PK = ?` with ? = VID#1"#),
        "{question}"
    );
    assert!(question.contains("http://db.example:8000"), "{question}");
    assert_eq!(
        plan_write(destination(true, false), statement.clone())
            .unwrap()
            .confirmation(),
        Confirmation::NotNeeded
    );
    assert!(matches!(
        plan_write(destination(true, true), statement)
            .unwrap()
            .confirmation(),
        Confirmation::Refused(Error::ReadOnly { .. })
    ));
    let select = Statement::new("SELECT * FROM T", vec![]);
    assert!(
        invalid(WritePlan::statement(destination(true, false), select)).contains("not a write")
    );
    let unfilled = Statement::new("DELETE FROM T WHERE PK = ?", vec![]);
    assert!(plan_write(destination(true, false), unfilled).is_err());
}

#[test]
fn long_statements_are_shown_on_one_line_and_cut() {
    let statement = Statement::new(
        format!("SELECT *\n\n  FROM T WHERE a = '{}'", "x".repeat(50)),
        vec![],
    );
    let shown = statement.shown(21);
    assert_eq!(shown, "`SELECT * FROM T WHERE…`");
}
