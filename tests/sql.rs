//! SQL over loaded rows against the seeded sandbox: rows read through the real SDK client and
//! the one reader, the shipped reconciliation finding exactly the posts the seed drifted, and
//! the CLI twin's output and exit codes.

use crate::common;

use std::collections::BTreeMap;
use std::process::{Command, Output};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::read::{self, BrowseRequest};
use dynoscope_core::seed;
use dynoscope_core::sql::{RECONCILE_LIKES, SqlSession};
use dynoscope_core::value::Item;

/// Every item of `table`, read as the CLI's `--load` reads it.
async fn scan(
    client: &dynoscope_core::connection::Reader,
    table: &str,
) -> (Vec<Item>, Vec<String>) {
    let info = read::describe_table(client, table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut items = Vec::new();
    read::read_all(client, &request, |page| items.extend(page.items))
        .await
        .unwrap();
    (items, info.key_names())
}

/// What the seed drifted: post → (stored tally, counted likes), counted from the raw items.
fn drifted_in(items: &[Item]) -> BTreeMap<String, (Option<i64>, i64)> {
    let text = |item: &Item, name: &str| match item.get(name) {
        Some(AttributeValue::S(s) | AttributeValue::N(s)) => Some(s.clone()),
        _ => None,
    };
    let mut posts: BTreeMap<String, (Option<i64>, i64)> = BTreeMap::new();
    for item in items {
        let (Some(pk), Some(sk)) = (text(item, "PK"), text(item, "SK")) else {
            continue;
        };
        if !pk.starts_with("POST#") {
            continue;
        }
        let entry = posts.entry(pk).or_default();
        if sk == "META" {
            entry.0 = text(item, "likeTally").map(|t| t.parse().unwrap());
        } else if sk.starts_with("LIKE#") {
            entry.1 += 1;
        }
    }
    posts.retain(|_, (stored, counted)| *stored != Some(*counted));
    posts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shipped_reconciliation_finds_exactly_the_drifted_posts() {
    let conn = connection::connect(ConnectionSpec::Sandbox { db_path: None })
        .await
        .unwrap();
    let (social, keys) = scan(&conn.reader(), seed::SOCIAL).await;
    let (videos, video_keys) = scan(&conn.reader(), seed::VIDEOS).await;
    let mut session = SqlSession::new().unwrap();
    let loaded = session.load("social", &keys, &social).unwrap();
    assert_eq!(loaded.rows, social.len());
    session.load("videos", &video_keys, &videos).unwrap();

    let rows = session.query(RECONCILE_LIKES.sql).unwrap();
    assert_eq!(rows.columns, ["post", "stored", "counted", "drift"]);
    let found: BTreeMap<String, (Option<i64>, i64)> = rows
        .rows
        .iter()
        .map(|row| {
            let number = |name: &str| match &row[name] {
                AttributeValue::N(n) => Some(n.parse::<i64>().unwrap()),
                AttributeValue::Null(_) => None,
                other => panic!("{name}: {other:?}"),
            };
            let AttributeValue::S(post) = &row["post"] else {
                panic!("{row:?}")
            };
            assert_eq!(
                number("drift"),
                number("stored").map(|s| s - number("counted").unwrap())
            );
            (post.clone(), (number("stored"), number("counted").unwrap()))
        })
        .collect();
    assert_eq!(found, drifted_in(&social));
    let posts: Vec<&str> = found.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = seed::DRIFTED.iter().map(|(p, _)| *p).collect();
    expected.sort_unstable();
    assert_eq!(posts, expected, "exactly the posts the seed drifted");
    assert!(rows.notes.is_empty(), "{:?}", rows.notes);

    // The 38-digit number went through the SDK, the reader and SQLite unchanged.
    let big = session
        .query("SELECT bytes_served FROM videos WHERE bytes_served IS NOT NULL")
        .unwrap();
    assert_eq!(
        big.rows[0]["bytes_served"],
        AttributeValue::N(seed::BIG_NUMBER.into())
    );
}

fn dynoscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_cli_twin_prints_rows_as_json_and_exits_0() {
    let out = dynoscope(&[
        "--sandbox",
        "sql",
        "--load",
        "social=Social",
        "--load",
        "videos=Videos",
        RECONCILE_LIKES.sql,
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let posts: Vec<&str> = rows.iter().map(|r| r["post"].as_str().unwrap()).collect();
    let mut expected: Vec<&str> = seed::DRIFTED.iter().map(|(p, _)| *p).collect();
    expected.sort_unstable();
    assert_eq!(posts, expected);
    assert!(stdout.contains(r#""stored":null"#), "{stdout}");
    assert!(rows.iter().all(|r| r["counted"].is_number()), "{stdout}");
    assert!(stderr.contains("social: "), "{stderr}");
    assert!(stderr.contains("3 rows · 4 columns"), "{stderr}");

    // One partition, by Query; the 38-digit number printed as a JSON number, every digit.
    let out = dynoscope(&[
        "--sandbox",
        "sql",
        "--load",
        "post=Social:POST#a91f",
        "--load",
        "v=Videos:VID#9f3a",
        "SELECT (SELECT COUNT(*) FROM post) AS items, bytes_served FROM v WHERE SK = 'META'",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{{\"items\":4,\"bytes_served\":{}}}\n", seed::BIG_NUMBER)
    );
    assert!(
        text(&out.stderr).contains("Query of Social"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_cli_twin_exits_2_on_a_bad_statement_with_its_position() {
    // No --load: nothing to read, so no connection is made.
    let out = dynoscope(&["sql", "SELECT 1 AS one,\n       2 AS two\n  FORM nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("SQL query failed at line 3, column 3: near \"FORM\""),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "said once: {stderr}");

    let out = dynoscope(&["sql", "--json", "SELECT nope"]);
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_str(text(&out.stderr).trim()).unwrap();
    assert_eq!(error["exit"], 2);
    assert_eq!(error["at"]["line"], 1);
    assert_eq!(error["at"]["column"], 8);
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("no such column: nope")
    );

    let out = dynoscope(&["sql", "SELECT 1; SELECT 2 AS two"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "{\"two\":2}\n");

    for bad in [
        ["--load", "Social", "SELECT 1"],
        ["--load", "select=Social", "SELECT 1"],
        ["--load", "my-table=Social", "SELECT 1"],
    ] {
        let mut args = vec!["sql"];
        args.extend(bad);
        let out = dynoscope(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let out = dynoscope(&["--sandbox", "sql", "--load", "x=Nope", "SELECT 1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("ResourceNotFoundException"),
        "{}",
        text(&out.stderr)
    );
}

/// `dynoscope ARGS`, killed (and the test failed) when it has not ended within a minute.
fn dynoscope_within_a_minute(args: &[&str]) -> Output {
    let child = common::served::command(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    common::served::ended_within(child, std::time::Duration::from_mins(1))
}

#[test]
fn the_cli_twin_stops_sql_at_the_timeout_and_refuses_a_huge_value() {
    let forever =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";
    let out = dynoscope_within_a_minute(&["--timeout", "1", "sql", forever]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("SQL failed: timed out: the SQL ran longer than 1 s"),
        "{stderr}"
    );
    // One value is bounded: refused before SQLite allocates a gigabyte.
    let out = dynoscope_within_a_minute(&["sql", "SELECT length(randomblob(1000000000)) AS n"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("larger than 32 MiB"), "{stderr}");
}
