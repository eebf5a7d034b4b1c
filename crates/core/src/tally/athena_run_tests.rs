//! Athena's result pages as its API documents them (moto answers a query in one page, so the
//! paging is read here from pages built in that shape): the column names from the metadata,
//! the header row only on the first page, every later row kept, and the rows made the parent
//! checks every route gives.

use aws_sdk_athena::types::{ColumnInfo, Datum, ResultSet, ResultSetMetadata, Row};

use super::*;
use crate::tally::ParentCheck;
use crate::tally::athena_rows::parent_check;
use crate::tally::tests::{likes_rule, social_info};
use aws_sdk_dynamodb::types::AttributeValue;

fn row(values: &[Option<&str>]) -> Row {
    let data = values.iter().map(|v| {
        let datum = Datum::builder();
        match v {
            Some(text) => datum.var_char_value(*text).build(),
            None => datum.build(),
        }
    });
    Row::builder().set_data(Some(data.collect())).build()
}

/// A page: its rows, with the metadata (the column names) or without it.
fn page(metadata: bool, rows: &[&[Option<&str>]]) -> ResultSet {
    let column = |name: &str| {
        let info = ColumnInfo::builder().name(name).r#type("varchar");
        info.build().unwrap()
    };
    let columns = ["pk", "stored", "counted"].map(column);
    let set = ResultSet::builder().set_rows(Some(rows.iter().map(|r| row(r)).collect()));
    if metadata {
        let meta = ResultSetMetadata::builder().set_column_info(Some(columns.to_vec()));
        set.result_set_metadata(meta.build()).build()
    } else {
        set.build()
    }
}

const HEADER: [Option<&str>; 3] = [Some("pk"), Some("stored"), Some("counted")];

/// A first page: the header row, a drifted parent, a parent without its tally.
fn first_page() -> ResultSet {
    let rows: [&[Option<&str>]; 3] = [
        &HEADER,
        &[Some("POST#a91f"), Some("3"), Some("2")],
        &[Some("POST#b7"), None, Some("1")],
    ];
    page(true, &rows)
}

#[test]
fn rows_are_read_across_pages_the_header_left_out_once() {
    let mut pages = Pages::default();
    pages.add(Some(&first_page()));
    // A later page begins with a row, never a header: a row that reads like one is kept.
    pages.add(Some(&page(
        true,
        &[&HEADER, &[Some("POST#c3"), Some("0"), Some("4")]],
    )));
    // A page without the metadata keeps the names the first one gave.
    pages.add(Some(&page(
        false,
        &[&[Some("POST#d4"), Some("9"), Some("10")]],
    )));
    pages.add(None);
    assert_eq!(pages.read, 4);
    let pks: Vec<Option<String>> = (pages.rows.iter())
        .map(|r| {
            r.iter()
                .find(|(n, _)| n == "pk")
                .and_then(|(_, v)| v.clone())
        })
        .collect();
    let pk = |s: &str| Some(s.to_owned());
    assert_eq!(
        pks,
        [
            pk("POST#a91f"),
            pk("POST#b7"),
            pk("pk"),
            pk("POST#c3"),
            pk("POST#d4")
        ]
    );
    assert_eq!(
        pages.rows[1][1],
        ("stored".to_owned(), None),
        "a NULL tally"
    );
}

#[test]
fn a_pages_rows_are_the_parent_checks_with_their_exact_drift() {
    let mut pages = Pages::default();
    pages.add(Some(&first_page()));
    pages.add(Some(&page(
        true,
        &[&[Some("POST#c3"), Some("12345678901234567890123"), Some("4")]],
    )));
    let (info, rule) = (social_info(), likes_rule());
    let checks: Vec<ParentCheck> = (pages.rows.iter())
        .map(|r| parent_check(&info, &rule, r).unwrap())
        .collect();
    assert_eq!(checks.len(), 3);
    assert_eq!(checks[0].partition, "POST#a91f");
    assert_eq!(checks[0].count.count, 2);
    assert!(checks[0].drifted());
    assert_eq!(checks[0].key["SK"], AttributeValue::S("META".into()));
    assert_eq!(checks[1].stored, None, "a missing tally is not 0");
    // A tally past any f64: the drift is worked out exactly.
    assert_eq!(checks[2].stored.as_deref(), Some("12345678901234567890123"));
    assert_eq!(
        checks[2].drift.as_ref().map(ToString::to_string).as_deref(),
        Some("12345678901234567890119")
    );
    // A row without its count is refused, never read as 0.
    let broken = vec![("pk".to_owned(), Some("POST#x".to_owned()))];
    assert!(parent_check(&info, &rule, &broken).is_err());
}

#[test]
fn a_parent_in_two_rows_is_refused_and_a_row_in_step_is_no_drift() {
    let (info, rule) = (social_info(), likes_rule());
    let mut pages = Pages::default();
    pages.add(Some(&page(
        true,
        &[
            &HEADER,
            &[Some("POST#a91f"), Some("3"), Some("2")],
            &[Some("POST#in-step"), Some("4"), Some("4")],
        ],
    )));
    let checks = drifted_checks(&info, &rule, &pages.rows).unwrap();
    let parents: Vec<&str> = checks.iter().map(|c| c.partition.as_str()).collect();
    assert_eq!(
        parents,
        ["POST#a91f"],
        "a row at drift 0 is not a drifted parent"
    );
    pages.add(Some(&page(
        false,
        &[&[Some("POST#a91f"), Some("3"), Some("2")]],
    )));
    let error = drifted_checks(&info, &rule, &pages.rows)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("name the parent `POST#a91f` twice"),
        "{error}"
    );
}

/// Athena answering RUNNING to every `GetQueryExecution`: the query is followed for its wait,
/// then stopped (its bill with it) and the run ends as timed out, on a clock that does not
/// count real seconds.
#[tokio::test(start_paused = true)]
async fn a_query_that_stays_running_is_stopped_after_its_wait() {
    let running = r#"{"QueryExecution":{"QueryExecutionId":"q1","Status":{"State":"RUNNING"}}}"#;
    let mut answers = vec![(200, r#"{"QueryExecutionId":"q1"}"#)];
    answers.extend(std::iter::repeat_n((200, running), 8));
    answers.push((200, "{}"));
    let replay = crate::replay::Replay::new(&answers);
    let connection = replay.connection().await;
    let spec = AthenaRunSpec {
        location: "s3://exports/AWSDynamoDB/01/".to_owned(),
        output: "s3://results/".to_owned(),
        workgroup: primary(),
        database: default_database(),
        wait_seconds: Some(2),
    };
    let error = execute(
        &connection.athena(),
        "SELECT 1",
        &spec,
        &CancelToken::default(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&error, Error::Timeout { detail, .. } if detail.contains("still RUNNING after 2 s")),
        "{error}"
    );
    let sent = replay.operations();
    assert_eq!(
        sent.first().map(String::as_str),
        Some("StartQueryExecution")
    );
    assert_eq!(
        sent.last().map(String::as_str),
        Some("StopQueryExecution"),
        "{sent:?}"
    );
    assert!(
        sent.len() < 10,
        "followed a few times, not forever: {sent:?}"
    );
}
