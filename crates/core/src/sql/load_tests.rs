//! Loading a result tab's rows, and runs over loaded tabs with their steps and Cancel.

use aws_sdk_dynamodb::types::AttributeValue as V;

use super::tests::{item, keys, n, one, s};
use super::*;
use crate::cancel::CancelToken;

#[test]
fn a_result_tabs_rows_load_across_batches_as_they_are_now() {
    // More rows than one JSON batch, and a row edited after loading (its old attribute `gone`
    // is in no row any more, so it gets no column).
    let mut rows = Rows::new();
    for i in 0..2_500 {
        rows.push(&item(&[
            ("PK", s(&format!("POST#{i}"))),
            ("SK", s("META")),
            ("likeTally", n(&i.to_string())),
        ]));
    }
    rows.replace(
        0,
        &item(&[("PK", s("POST#0")), ("SK", s("META")), ("title", s("x"))]),
    );
    let mut session = SqlSession::new().unwrap();
    let loaded = session.load_rows("t", &keys(), &rows).unwrap();
    assert_eq!(loaded.rows, 2_500);
    let result = session.query("SELECT * FROM t ORDER BY rowid").unwrap();
    assert_eq!(result.columns, ["PK", "SK", "likeTally", "title", "item"]);
    assert_eq!(result.rows[0]["likeTally"], V::Null(true));
    assert_eq!(
        result.rows[0]["item"],
        s(r#"{"PK":"POST#0","SK":"META","title":"x"}"#)
    );
    assert_eq!(result.rows[1]["title"], V::Null(true));
    assert_eq!(
        result.rows[2_499]["item"],
        s(r#"{"PK":"POST#2499","SK":"META","likeTally":2499}"#)
    );
    assert_eq!(
        one(&session, "SELECT SUM(likeTally) FROM t"),
        n(&(1..2_500).sum::<i32>().to_string())
    );
}

#[test]
fn a_run_over_tabs_reports_its_steps_and_stops_when_cancelled() {
    let rows = Rows::from_items(
        &(0..5_000)
            .map(|i| item(&[("PK", s(&format!("POST#{i}"))), ("SK", s("META"))]))
            .collect::<Vec<_>>(),
    );
    let sources = [
        SqlSource {
            name: "posts".into(),
            key_names: keys(),
            rows: rows.clone(),
        },
        SqlSource {
            name: "again".into(),
            key_names: keys(),
            rows,
        },
    ];
    let steps = std::cell::RefCell::new(Vec::new());
    let cancel = CancelToken::default();
    let run = run_over(
        &sources,
        "SELECT COUNT(*) AS n FROM posts JOIN again USING (PK)",
        &cancel,
        |s| steps.borrow_mut().push(s.to_string()),
    )
    .unwrap();
    assert_eq!(run.rows.rows[0]["n"], n("5000"));
    assert_eq!(run.loaded.len(), 2);
    assert_eq!(
        steps.into_inner(),
        [
            "Loading posts (5000 rows) into SQLite, table 1 of 2…",
            "Loading again (5000 rows) into SQLite, table 2 of 2…",
            "Running the SQL…"
        ]
    );

    // Cancelled while the second table loads: the run ends as cancelled.
    let cancel = CancelToken::default();
    let result = run_over(&sources, "SELECT 1", &cancel, |s| {
        if matches!(s, SqlStep::Loading { at: 2, .. }) {
            cancel.cancel();
        }
    });
    assert!(
        matches!(result, Err(Error::Cancelled { op: "SQL" })),
        "{result:?}"
    );

    // Cancelled while the query runs (a cross join of 25 million pairs).
    let cancel = CancelToken::default();
    let result = run_over(
        &sources,
        "SELECT COUNT(*) FROM posts, again",
        &cancel,
        |s| {
            if s == SqlStep::Running {
                cancel.cancel();
            }
        },
    );
    assert!(
        matches!(result, Err(Error::Cancelled { op: "SQL" })),
        "{result:?}"
    );
}
