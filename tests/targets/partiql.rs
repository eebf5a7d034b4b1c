//! The PartiQL target run by the engine: `expr … --as partiql` prints a statement and its `?`
//! parameters, `dynoscope partiql` sends them, and the item ends as the request would leave
//! it; what PartiQL cannot say (an ADD, `if_not_exists`) is refused in words.

use serde_json::Value;

use super::requests::stored;
use crate::common::served::{Served, dynoscope, text};

/// `expr ARGS --as partiql`: the statement and its parameters, as the target prints them.
fn partiql_of(args: &[&str]) -> (String, Vec<String>) {
    let mut all = vec!["expr"];
    all.extend(args);
    all.extend(["--as", "partiql"]);
    let out = dynoscope(&all);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    let printed = text(&out.stdout);
    let statement = (printed.lines())
        .find(|l| !l.starts_with("--"))
        .unwrap()
        .to_owned();
    let params = (printed.lines())
        .filter_map(|l| l.strip_prefix("-- ? "))
        .map(|l| l.split_once(": ").unwrap().1.to_owned())
        .collect();
    (statement, params)
}

fn as_refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Run a statement with its parameters against `url`: the items it printed.
fn run_partiql(url: &str, (statement, params): &(String, Vec<String>)) -> Vec<Value> {
    let mut args = vec!["--endpoint-url", url, "partiql", statement.as_str()];
    for p in params {
        args.extend(["--param", p.as_str()]);
    }
    let out = dynoscope(&args);
    assert!(out.status.success(), "{statement}: {}", text(&out.stderr));
    (text(&out.stdout).lines())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

const STATS: [&str; 6] = [
    "--table",
    "Videos",
    "--key",
    "PK=VID#9f3a",
    "--key",
    "SK=STATS#TOTAL",
];

/// `head` and the key of the seeded counter.
fn with_stats(head: &[&str]) -> Vec<String> {
    head.iter().chain(&STATS).map(|s| (*s).to_owned()).collect()
}

#[test]
fn partiql_updates_do_what_their_requests_do() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let before = stored(&url, "Videos", "VID#9f3a", "STATS#TOTAL");
    let plays: i64 = before["play_count"]["N"].as_str().unwrap().parse().unwrap();
    let values = r#"{":t":{"S":"it's \"q\" $x"},":one":{"N":"1"},":l":{"L":[{"N":"1"}]},":s":{"SS":["a","b"]}}"#;
    let update = with_stats(&[
        "update",
        "SET title = :t, play_count = play_count + :one, l = :l, tags = :s",
        "--condition",
        "attribute_exists(PK)",
        "--values",
        values,
    ]);
    run_partiql(&url, &partiql_of(&as_refs(&update)));
    let after = stored(&url, "Videos", "VID#9f3a", "STATS#TOTAL");
    assert_eq!(after["play_count"]["N"], (plays + 1).to_string());
    assert_eq!(after["title"]["S"], "it's \"q\" $x");
    let values = r#"{":m":{"L":[{"N":"2"}]},":d":{"SS":["a"]}}"#;
    let update = with_stats(&[
        "update",
        "SET l = list_append(l, :m) DELETE tags :d REMOVE title",
        "--values",
        values,
    ]);
    run_partiql(&url, &partiql_of(&as_refs(&update)));
    let after = stored(&url, "Videos", "VID#9f3a", "STATS#TOTAL");
    assert_eq!(after["l"]["L"], serde_json::json!([{"N": "1"}, {"N": "2"}]));
    assert_eq!(after["tags"]["SS"], serde_json::json!(["b"]));
    assert!(after.get("title").is_none(), "{after}");
}

#[test]
fn a_partiql_query_reads_the_collection_and_a_delete_removes_its_item() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let values = r#"{":p":{"S":"POST#a91f"},":c":{"S":"LIKE#"},":t":{"N":"0"}}"#;
    let query = partiql_of(&[
        "query",
        "PK = :p AND begins_with(SK, :c)",
        "--filter",
        "likedAt > :t",
        "--projection",
        "PK, SK",
        "--values",
        values,
        "--table",
        "Social",
    ]);
    let read = run_partiql(&url, &query);
    let items = dynoscope(&[
        "--endpoint-url",
        &url,
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
    ]);
    let children = text(&items.stdout)
        .lines()
        .filter(|l| l.contains("\"LIKE#"))
        .count();
    assert!(children >= 3, "{children}");
    assert_eq!(read.len(), children, "every child");
    assert!(
        read.iter().all(|i| i.as_object().unwrap().len() == 2),
        "projected"
    );
    run_partiql(
        &url,
        &(
            "INSERT INTO \"Videos\" VALUE {'PK': ?, 'SK': ?}".to_owned(),
            vec![r#"{"S":"GONE"}"#.to_owned(), r#"{"S":"x"}"#.to_owned()],
        ),
    );
    assert_ne!(stored(&url, "Videos", "GONE", "x"), Value::Null);
    let delete = partiql_of(&[
        "delete",
        "attribute_exists(PK)",
        "--table",
        "Videos",
        "--key",
        "PK=GONE",
        "--key",
        "SK=x",
    ]);
    run_partiql(&url, &delete);
    assert_eq!(stored(&url, "Videos", "GONE", "x"), Value::Null, "deleted");
}

#[test]
fn what_partiql_cannot_say_is_refused_before_anything_in_words() {
    for (expression, words) in [
        ("ADD play_count :one", "PartiQL has no ADD"),
        ("SET c = if_not_exists(c, :one)", "if_not_exists"),
    ] {
        let args = with_stats(&[
            "update",
            expression,
            "--values",
            r#"{":one":{"N":"1"}}"#,
            "--as",
            "partiql",
        ]);
        let mut all = vec!["expr"];
        all.extend(as_refs(&args));
        let out = dynoscope(&all);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(words), "{}", text(&out.stderr));
    }
    // An update that may create its item: refused when its condition asks for a new item,
    // said in a comment otherwise (UPDATE leaves a missing item missing).
    let create = |condition: &[&str]| {
        let mut args = vec![
            "expr",
            "update",
            "SET title = :t",
            "--values",
            r#"{":t":{"S":"x"}}"#,
        ];
        args.extend(condition);
        args.extend(STATS);
        args.extend(["--as", "partiql"]);
        dynoscope(&args)
    };
    let out = create(&["--condition", "attribute_not_exists(PK)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("never creates an item"),
        "{}",
        text(&out.stderr)
    );
    let out = create(&[]);
    assert!(text(&out.stdout).starts_with("-- applies to an existing item only"));
    // A name PartiQL cannot write (a bidirectional override): refused, never printed escaped.
    let mut args = vec![
        "expr",
        "update",
        "SET #a = :t",
        "--names",
        "{\"#a\":\"x\u{202e}y\"}",
    ];
    args.extend(["--values", r#"{":t":{"S":"x"}}"#]);
    args.extend(STATS);
    args.extend(["--as", "partiql"]);
    let out = dynoscope(&args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
}
