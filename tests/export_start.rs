//! DynamoDB's export to S3 started by dynoscope (`table export --to s3://…`), against moto's
//! server (its DynamoDB exports into its own S3): refused while point-in-time recovery is off,
//! with the way on and nothing sent; started with `--enable-pitr`, followed to COMPLETED, its
//! files found, and a reconcile from there finds exactly the planted drifts, as the live table
//! does, and a diff of the export in S3 against the table finds the like added after it. Through
//! the fault proxy: a lost answer is re-sent with the same ClientToken; a
//! read-only connection sends nothing.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::files::dynoscope;
use crate::common::moto::{moto_connection, table_with};
use crate::common::{Fault, LIKES_RULE, Sdk, fault_proxy, n, s};
use dynoscope_core::connection::Connection;
use dynoscope_core::value::Item;

/// Three posts: `POST#a` right (2 of 2), `POST#b` over (3 stored, 1 liked), `POST#c` under
/// (0 stored, 1 liked).
async fn likes(connection: &Connection, table: &str) {
    let client = connection.sdk();
    let mut items: Vec<Item> = [("a", "2"), ("b", "3"), ("c", "0")]
        .into_iter()
        .map(|(post, tally)| {
            Item::from([
                ("PK".to_owned(), s(&format!("POST#{post}"))),
                ("SK".to_owned(), s("META")),
                ("likeTally".to_owned(), n(tally)),
            ])
        })
        .collect();
    for (post, user) in [("a", "1"), ("a", "2"), ("b", "1"), ("c", "9")] {
        items.push(Item::from([
            ("PK".to_owned(), s(&format!("POST#{post}"))),
            ("SK".to_owned(), s(&format!("LIKE#USER#{user}"))),
        ]));
    }
    for item in items {
        let put = client.put_item().table_name(table).set_item(Some(item));
        put.send().await.unwrap();
    }
}

/// The export in S3 compared with the table: the same items, until a like is added.
async fn diff_finds_the_late_like(url: &str, connection: &Connection, table: &str, location: &str) {
    let diff = ["diff", "--table", table, "--all", "--from-export", location];
    let (code, same, stderr) = dynoscope(url, &diff).await;
    assert_eq!(code, 0, "{same}{stderr}");
    likes_one_more(connection, table).await;
    let (code, differ, stderr) = dynoscope(url, &diff).await;
    assert_eq!(code, 1, "{differ}{stderr}");
    assert!(differ.contains("1 only in B"), "{differ}");
}

/// One like more on `POST#a`, behind the export's back.
async fn likes_one_more(connection: &Connection, table: &str) {
    let item = Item::from([
        ("PK".to_owned(), s("POST#a")),
        ("SK".to_owned(), s("LIKE#USER#late")),
    ]);
    let put = connection.sdk().put_item().table_name(table);
    put.set_item(Some(item)).send().await.unwrap();
}

/// The drifted parents a check's JSON names: `pk stored counted`.
fn drifted(stdout: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("pk").is_some() && v["drift"].to_string().trim_matches('"') != "0")
        .map(|v| format!("{} {} {}", v["pk"], v["stored"], v["counted"]))
        .collect()
}

async fn check(url: &str, table: &str, from: Option<&str>) -> BTreeSet<String> {
    // Every parent checked, an object a line.
    let mut args = vec!["check", "--table", table, "--output", "jsonl"];
    args.extend(LIKES_RULE);
    match from {
        Some(from) => args.extend(["--from-export", from]),
        None => args.push("--all"),
    }
    let (code, stdout, stderr) = dynoscope(url, &args).await;
    assert_eq!(code, 1, "two drifts: {stderr}");
    drifted(&stdout)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_started_here_is_followed_and_reconciled_from_s3() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Exported", 0).await;
    likes(&connection, &table).await;
    let s3 = connection.s3();
    s3.create_bucket().bucket("exports").send().await.unwrap();
    let export = |extra: &'static [&'static str]| {
        let mut args = vec![
            "table",
            "export",
            "--table",
            &table,
            "--to",
            "s3://exports/nightly",
            "--json",
        ];
        args.extend(extra);
        let (url, args): (String, Vec<String>) = (
            moto.url.clone(),
            args.iter().map(|a| (*a).to_owned()).collect(),
        );
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &args).await
        }
    };
    // Point-in-time recovery off: refused with the way on, nothing started.
    let (code, stdout, stderr) = export(&[]).await;
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("point-in-time recovery off"), "{stderr}");
    assert!(
        stderr.contains("turn it on first (enable PITR)"),
        "{stderr}"
    );
    let (code, listed, stderr) = dynoscope(
        &moto.url,
        &["table", "exports", "--table", &table, "--json"],
    )
    .await;
    assert_eq!(code, 0, "{stderr}");
    let listed: Value = serde_json::from_str(listed.trim()).unwrap();
    assert_eq!(listed["exports"], serde_json::json!([]), "nothing started");

    let (code, stdout, stderr) = export(&["--enable-pitr"]).await;
    assert_eq!(code, 0, "{stdout}{stderr}");
    let run: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(run["pitr"], "applied", "{run}");
    assert_eq!(run["start"], "applied", "{run}");
    assert_eq!(run["attempts"], 1, "{run}");
    assert_eq!(run["export"]["status"], "COMPLETED", "{run}");
    assert_eq!(run["export"]["items"], 7, "{run}");
    assert!(
        run["price"].as_str().unwrap().starts_with("price: "),
        "{run}"
    );
    assert!(
        stderr.contains("dynoscope: price: "),
        "said before: {stderr}"
    );
    let location = run["location"].as_str().unwrap().to_owned();
    assert!(
        location.starts_with("s3://exports/nightly/AWSDynamoDB/"),
        "{run}"
    );

    let live = check(&moto.url, &table, None).await;
    assert_eq!(live.len(), 2, "{live:?}");
    assert!(live.contains(r#""POST#b" "3" "1""#), "{live:?}");
    assert_eq!(check(&moto.url, &table, Some(&location)).await, live);

    diff_finds_the_late_like(&moto.url, &connection, &table, &location).await;

    let (code, listed, stderr) =
        dynoscope(&moto.url, &["table", "exports", "--table", &table]).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(listed.lines().count(), 1, "{listed}");
    assert!(listed.contains("COMPLETED"), "{listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_answer_is_sent_again_with_its_token_and_read_only_sends_none() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Lost", 0).await;
    likes(&connection, &table).await;
    connection
        .s3()
        .create_bucket()
        .bucket("lost")
        .send()
        .await
        .unwrap();
    let proxy = fault_proxy(
        moto.addr(),
        &["ExportTableToPointInTime"],
        Fault::HtmlAfterApplyOnce,
    )
    .await;
    let args = [
        "table",
        "export",
        "--table",
        &table,
        "--to",
        "s3://lost/p",
        "--enable-pitr",
        "--json",
    ];
    let read_only: Vec<&str> = std::iter::once("--read-only").chain(args).collect();
    let (code, stdout, stderr) = dynoscope(&proxy.url, &read_only).await;
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert_eq!(proxy.arrived(), 0, "read-only: nothing sent");

    let (code, stdout, stderr) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 0, "{stdout}{stderr}");
    let run: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(run["start"], "applied", "{run}");
    assert_eq!(run["attempts"], 2, "{run}");
    assert_eq!(proxy.arrived(), 2, "the first answer lost, sent once more");
    let tokens: Vec<String> = proxy
        .bodies()
        .iter()
        .map(|b| serde_json::from_str::<Value>(b).unwrap()["ClientToken"].to_string())
        .collect();
    assert_eq!(tokens.len(), 2);
    assert_eq!(tokens[0], tokens[1], "one token for both attempts");
    assert_eq!(tokens[0], run["token"].to_string());
}

/// `dynoscope plan`: the issue's 10,000,000 posts and 1,000,000,000 likes (135 bytes each) with
/// no connection at all, and the sandbox's Social as DynamoDB describes it.
#[test]
fn the_planner_prices_every_route_and_recommends_one() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(args)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
        serde_json::from_str::<Value>(stdout.trim()).unwrap()
    };
    let big = run(&[
        "plan",
        "--items",
        "1010000000",
        "--bytes",
        "136350000000",
        "--json",
    ]);
    assert_eq!(big["recommended"], "export, then Athena", "{big}");
    let dollars: Vec<&str> = big["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["dollars"].as_str().unwrap())
        .collect();
    assert_eq!(dollars.len(), 3);
    assert!(dollars[0].starts_with("2.08"), "{dollars:?}");
    assert!(big["assumed"].as_str().unwrap().contains("us-east-1"));

    let social = run(&["--sandbox", "plan", "--table", "Social", "--json"]);
    assert_eq!(social["items"], 26_524, "{social}");
    assert_eq!(social["recommended"], "scan from here", "{social}");
    assert!(social["source"].as_str().unwrap().contains("DescribeTable"));
}
