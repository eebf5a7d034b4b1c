use crate::sql::cells::plain_integer;
use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;

use super::*;
use crate::error::TextPosition;

const BIG: &str = "98765432109876543210987654321098765432";

pub(super) fn s(text: &str) -> V {
    V::S(text.to_owned())
}

pub(super) fn n(text: &str) -> V {
    V::N(text.to_owned())
}

pub(super) fn item(pairs: &[(&str, V)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect::<HashMap<_, _>>()
}

pub(super) fn keys() -> Vec<String> {
    vec!["PK".to_owned(), "SK".to_owned()]
}

fn session_with(items: &[Item]) -> SqlSession {
    let mut session = SqlSession::new().unwrap();
    session.load("t", &keys(), items).unwrap();
    session
}

pub(super) fn one(session: &SqlSession, sql: &str) -> V {
    let rows = session.query(sql).unwrap();
    assert_eq!(rows.rows.len(), 1, "{sql}: {rows:?}");
    rows.rows[0][&rows.columns[0]].clone()
}

#[test]
fn a_38_digit_number_comes_out_unchanged() {
    let session = session_with(&[item(&[("PK", s("a")), ("SK", s("1")), ("big", n(BIG))])]);
    assert_eq!(one(&session, "SELECT big FROM t"), n(BIG));
    assert_eq!(
        one(&session, "SELECT b FROM (SELECT big AS b FROM t)"),
        n(BIG)
    );
    assert_eq!(one(&session, "SELECT typeof(big) FROM t"), s("text"));
    let V::S(json) = one(&session, "SELECT item FROM t") else {
        panic!("item is JSON text")
    };
    assert!(json.contains(&format!("\"big\":{BIG}")), "{json}");
    assert!(json.starts_with(r#"{"PK":"a","SK":"1""#), "{json}");
}

#[test]
fn integers_compare_and_sum_as_numbers() {
    let items: Vec<Item> = ["5", "30", "7", "-2"]
        .iter()
        .enumerate()
        .map(|(i, v)| item(&[("PK", s("p")), ("SK", n(&i.to_string())), ("v", n(v))]))
        .collect();
    let session = session_with(&items);
    assert_eq!(one(&session, "SELECT SUM(v) FROM t"), n("40"));
    assert_eq!(one(&session, "SELECT MAX(v) FROM t"), n("30"));
    assert_eq!(one(&session, "SELECT COUNT(*) FROM t WHERE v > 6"), n("2"));
    let rows = session.query("SELECT v FROM t ORDER BY v").unwrap();
    let order: Vec<&V> = rows.rows.iter().map(|r| &r["v"]).collect();
    assert_eq!(order, [&n("-2"), &n("5"), &n("7"), &n("30")]);
    assert!(rows.notes.is_empty(), "{:?}", rows.notes);
}

#[test]
fn numbers_that_are_not_plain_integers_keep_the_servers_text() {
    for text in [
        "-0",
        "1E+3",
        "0.10",
        "007",
        "+5",
        "9223372036854775808",
        "1.5e-7",
    ] {
        let session = session_with(&[item(&[("PK", s("a")), ("SK", s("1")), ("v", n(text))])]);
        assert_eq!(one(&session, "SELECT v FROM t"), n(text), "{text}");
        assert_eq!(
            one(&session, "SELECT typeof(v) FROM t"),
            s("text"),
            "{text}"
        );
    }
    assert_eq!(plain_integer("-9223372036854775808"), Some(i64::MIN));
    assert_eq!(plain_integer("42"), Some(42));
    assert_eq!(plain_integer("0"), Some(0));
}

#[test]
fn sqlite_arithmetic_in_floating_point_is_marked() {
    let items: Vec<Item> = ["1", "2"]
        .iter()
        .map(|v| item(&[("PK", s("p")), ("SK", s(v)), ("v", n(v))]))
        .collect();
    let session = session_with(&items);
    let rows = session
        .query("SELECT AVG(v) AS mean, SUM(v) AS total FROM t")
        .unwrap();
    assert_eq!(rows.rows[0]["mean"], n("1.5"));
    assert_eq!(rows.rows[0]["total"], n("3"));
    assert_eq!(rows.notes.len(), 1);
    assert!(
        rows.notes[0].starts_with("mean: computed by SQLite"),
        "{:?}",
        rows.notes
    );
}

#[test]
fn other_scalars_come_back_as_their_types() {
    let full = item(&[
        ("PK", s("a")),
        ("SK", s("1")),
        ("flag", V::Bool(true)),
        ("none", V::Null(true)),
        ("bin", V::B(Blob::new(vec![0, 1, 2]))),
        ("tags", V::Ss(vec!["x".into()])),
        ("digits", s("123")),
    ]);
    let session = session_with(&[full, item(&[("PK", s("b")), ("SK", s("2"))])]);
    let rows = session.query("SELECT * FROM t ORDER BY PK").unwrap();
    assert_eq!(
        rows.columns,
        ["PK", "SK", "bin", "digits", "flag", "none", "item"]
    );
    let first = &rows.rows[0];
    assert_eq!(first["flag"], V::Bool(true));
    assert_eq!(first["none"], V::Null(true));
    assert_eq!(first["bin"], V::B(Blob::new(vec![0, 1, 2])));
    assert_eq!(first["digits"], s("123"));
    assert_eq!(rows.rows[1]["flag"], V::Null(true));
    assert_eq!(one(&session, "SELECT COUNT(*) FROM t WHERE flag"), n("1"));
    assert_eq!(
        one(
            &session,
            "SELECT json_extract(item, '$.tags[0]') FROM t WHERE PK = 'a'"
        ),
        s("x")
    );
}

#[test]
fn attribute_names_are_quoted_and_kept_apart() {
    let odd = item(&[
        ("PK", s("a")),
        ("SK", s("1")),
        ("a\"b", n("1")),
        ("likes count", n("2")),
        ("select", n("3")),
        ("Count", n("4")),
        ("count", n("5")),
        ("item", s("attribute")),
    ]);
    let mut session = SqlSession::new().unwrap();
    let loaded = session.load("odd", &keys(), [&odd]).unwrap();
    assert_eq!(loaded.item_column(), "item_2");
    let named = |a: &str| {
        loaded
            .columns
            .iter()
            .find(|c| c.attribute.as_deref() == Some(a))
            .map(|c| c.name.clone())
    };
    assert_eq!(named("Count").as_deref(), Some("Count"));
    assert_eq!(named("count").as_deref(), Some("count_2"));
    assert!(
        loaded
            .summary()
            .contains("attribute `count` is column count_2")
    );
    let sql = r#"SELECT "a""b", "likes count", "select", "Count", count_2, item FROM odd"#;
    let rows = session.query(sql).unwrap();
    let row = &rows.rows[0];
    assert_eq!(row["a\"b"], n("1"));
    assert_eq!(row["likes count"], n("2"));
    assert_eq!(row["select"], n("3"));
    assert_eq!(row["Count"], n("4"));
    assert_eq!(row["count_2"], n("5"));
    assert_eq!(row["item"], s("attribute"));
}

#[test]
fn table_names_must_be_plain_identifiers() {
    let mut session = SqlSession::new().unwrap();
    for bad in [
        "",
        "1x",
        "a-b",
        "a b",
        "sqlite_master",
        "select",
        "Social\"",
        "ñ",
    ] {
        let result = session.load(bad, &keys(), []);
        assert!(
            matches!(result, Err(Error::Invalid(_))),
            "{bad}: {result:?}"
        );
    }
    assert!(session.tables().is_empty());
    for good in ["likes", "_x", "Posts_2025", "key"] {
        session.load(good, &keys(), []).unwrap();
    }
    assert_eq!(session.tables().len(), 4);
    assert_eq!(
        session.query("SELECT * FROM likes").unwrap().columns,
        ["PK", "SK", "item"]
    );
}

#[test]
fn loading_again_replaces_and_drop_removes() {
    let mut session = session_with(&[item(&[("PK", s("a")), ("SK", s("1"))])]);
    let two = [
        item(&[("PK", s("b")), ("SK", s("1")), ("x", n("1"))]),
        item(&[("PK", s("c")), ("SK", s("1"))]),
    ];
    let loaded = session.load("T", &keys(), &two).unwrap();
    assert_eq!(loaded.rows, 2);
    assert_eq!(one(&session, "SELECT COUNT(*) FROM t"), n("2"));
    assert_eq!(session.tables().len(), 1);
    assert!(session.drop("t").unwrap());
    assert!(!session.drop("t").unwrap());
    assert!(session.query("SELECT * FROM t").is_err());
}

#[test]
fn errors_point_at_line_and_column() {
    let session = session_with(&[]);
    let err = session.query("SELECT *\n  FORM t").unwrap_err();
    let Error::Sql {
        at: Some(at),
        message,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((at.line, at.column), (2, 3), "{message}");
    assert!(
        err.to_string()
            .starts_with("SQL query failed at line 2, column 3: "),
        "{err}"
    );

    let err = session.query("SELECT 1;\nSELECT nope FROM t").unwrap_err();
    let Error::Sql {
        at: Some(at),
        message,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((at.line, at.column), (2, 8), "{message}");
    assert!(message.contains("nope"), "{message}");
}

#[test]
fn statements_run_in_order_and_rows_are_bounded() {
    let items: Vec<Item> = (0..5)
        .map(|i| item(&[("PK", s("p")), ("SK", n(&i.to_string()))]))
        .collect();
    let session = session_with(&items);
    let rows = session
        .query_bounded(
            "CREATE TABLE odd AS SELECT * FROM t WHERE 0;
             INSERT INTO odd SELECT * FROM t WHERE SK % 2 = 1;
             SELECT 1; SELECT SK FROM odd ORDER BY SK; -- the last rows\n",
            10,
        )
        .unwrap();
    assert_eq!(rows.changed, 2);
    assert_eq!(rows.rows.len(), 2);
    assert_eq!(rows.rows[1]["SK"], V::N("3".into()));
    assert!(rows.notes[0].starts_with("2 statements returned rows"));
    let rows = session.query_bounded("SELECT * FROM t, t AS u", 3).unwrap();
    assert_eq!(rows.rows.len(), 3);
    assert!(rows.truncated);
    assert_eq!(rows.columns[3], "PK (2)");
    assert!(
        rows.summary().starts_with("3 rows (more not kept)"),
        "{}",
        rows.summary()
    );
}

#[test]
fn positions_count_characters_from_one() {
    let text = "SELECT 'ñ'\n  FROM";
    assert_eq!(
        TextPosition::in_text(text, text.find("FROM").unwrap()),
        TextPosition {
            offset: 14,
            line: 2,
            column: 3
        }
    );
    assert_eq!(TextPosition::in_text("é", 1).offset, 0);
    assert_eq!(TextPosition::in_text("ab", 99).column, 3);
}

#[test]
fn the_shipped_example_is_there() {
    let example = examples()[0];
    assert!(example.sql.contains("GROUP BY p.PK"));
    assert!(example.sql.contains("LEFT JOIN social"));
    assert_eq!(example.loads, ["social=Social"]);
}
