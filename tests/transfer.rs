//! Export and import through the CLI, as a real process against an embedded engine: every
//! format round-trips a table item by item (38-digit numbers, sets, binary, nested maps, empty
//! strings); a malformed line stops the import before any write; unprocessed items are sent
//! again; a lost answer is reported unknown and matches what the server stored; read-only
//! refuses.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;
use common::{Engine, Fault, create_table, empty_engine, n, put_all, s, table_name};
use dynoscope::core::read::{self, BrowseRequest};
use dynoscope::core::value::{Item, item_to_dynamodb_json};

/// Run the CLI against `url`; (exit status, stdout, stderr).
async fn dynoscope(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["--endpoint-url".to_owned(), url.to_owned()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(&all)
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_REGION", "us-east-1")
            .output()
            .expect("runs")
    })
    .await
    .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dynoscope-transfer-it-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 60 items: one with every awkward value, the rest likes.
fn items() -> Vec<Item> {
    let mut awkward = HashMap::from([
        ("PK".to_owned(), s("POST#a91f")),
        ("SK".to_owned(), s("META")),
        (
            "likeTally".to_owned(),
            n("98765432109876543210987654321098765432"),
        ),
        ("title".to_owned(), s("Hola, \"mundo\"\nsegunda línea")),
        ("empty".to_owned(), s("")),
        ("zip".to_owned(), s("007")),
        ("flag".to_owned(), V::Bool(false)),
        ("nothing".to_owned(), V::Null(true)),
        ("bin".to_owned(), V::B(Blob::new(vec![0, 1, 254]))),
        ("tags".to_owned(), V::Ss(vec!["a".into(), "b,c".into()])),
        ("scores".to_owned(), V::Ns(vec!["1.50".into(), "-2".into()])),
        ("blobs".to_owned(), V::Bs(vec![Blob::new(vec![9])])),
    ]);
    awkward.insert(
        "meta".to_owned(),
        V::M(HashMap::from([(
            "l".to_owned(),
            V::L(vec![n("0.10"), s(""), V::M(HashMap::new())]),
        )])),
    );
    let mut all = vec![awkward];
    for i in 0..59 {
        all.push(HashMap::from([
            ("PK".to_owned(), s("POST#a91f")),
            ("SK".to_owned(), s(&format!("LIKE#USER#{i:04}"))),
            ("likedAt".to_owned(), n(&(1_750_636_800 + i).to_string())),
        ]));
    }
    all
}

/// Every item of `table`, in key order.
async fn scan(engine: &Engine, table: &str) -> Vec<Item> {
    let info = read::describe_table(&engine.client, table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut all = Vec::new();
    read::read_all(&engine.client, &request, |page| all.extend(page.items))
        .await
        .unwrap();
    let keys = ["PK".to_owned(), "SK".to_owned()];
    all.sort_by_key(|i| item_to_dynamodb_json(i, &keys, false));
    all
}

async fn source(engine: &Engine) -> String {
    let table = table_name("xfer-src");
    create_table(&engine.client, &table).await;
    put_all(&engine.client, &table, items()).await;
    table
}

/// A source table of [`items`] exported as DynamoDB JSON lines: its name and the file.
async fn exported(engine: &Engine, name: &str) -> (String, String) {
    let from = source(engine).await;
    let file = scratch(name).join("all.jsonl");
    let file = file.to_str().unwrap().to_owned();
    let (code, _, err) = dynoscope(
        engine.sandbox.endpoint(),
        &["export", "--table", &from, "--out", &file],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    (from, file)
}

/// Import `file` (DynamoDB JSON lines) into a new empty table through `url`, with `extra`
/// arguments; the table and the CLI's (exit status, stdout, stderr).
async fn import_into_new(
    engine: &Engine,
    url: &str,
    prefix: &str,
    file: &str,
    extra: &[&str],
) -> (String, (i32, String, String)) {
    let to = table_name(prefix);
    create_table(&engine.client, &to).await;
    let mut args = vec!["import", "--table", &to, "--format", "ddb-json", file];
    args.extend_from_slice(extra);
    let run = dynoscope(url, &args).await;
    (to, run)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_format_round_trips_a_table_item_by_item() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let from = source(&engine).await;
    let original = scan(&engine, &from).await;
    assert_eq!(original.len(), 60);
    let dir = scratch("round");
    for (format, gzip) in [
        ("csv", false),
        ("ddb-json", false),
        ("s3-export", true),
        ("jsonl", false),
    ] {
        let file = dir.join(format!("{format}.out"));
        let file = file.to_str().unwrap();
        let mut args = vec![
            "export", "--table", &from, "--format", format, "--out", file,
        ];
        if gzip {
            args.push("--gzip");
        }
        let (code, _, err) = dynoscope(&url, &args).await;
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("exported 60 items"), "{err}");

        let to = table_name("xfer-to");
        create_table(&engine.client, &to).await;
        let (code, out, err) =
            dynoscope(&url, &["import", "--table", &to, "--format", format, file]).await;
        assert_eq!(code, 0, "{format}: {out}{err}");
        assert!(
            out.contains(
                "import: 60 read, 60 written, 0 refused, 0 unknown, 0 not sent (3 requests"
            ),
            "{out}"
        );
        let copied = scan(&engine, &to).await;
        if format == "jsonl" {
            // Plain JSON has no sets or binary: those come back as lists and base64 text.
            assert_eq!(copied.len(), 60);
            let meta = |all: &[Item]| all.iter().find(|i| i["SK"] == s("META")).cloned().unwrap();
            let (copied, original) = (meta(&copied), meta(&original));
            assert_eq!(copied["likeTally"], original["likeTally"]);
            assert_eq!(copied["empty"], s(""));
            assert_eq!(copied["bin"], s("AAH+"));
        } else {
            assert_eq!(copied, original, "{format}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_line_stops_the_import_before_any_write() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let table = table_name("xfer-bad");
    create_table(&engine.client, &table).await;
    let dir = scratch("bad");
    let keys = ["PK".to_owned(), "SK".to_owned()];
    let mut text: String = items()
        .iter()
        .take(30)
        .map(|i| item_to_dynamodb_json(i, &keys, false) + "\n")
        .collect();
    text += "{\"PK\": {\"S\": \"POST#x\"}, \"SK\": {\"N\": \"12abc\"}}\n";
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();

    let (code, _, err) = dynoscope(
        &url,
        &["import", "--table", &table, "--format", "ddb-json", file],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.jsonl: line 31: SK:"), "{err}");
    assert!(scan(&engine, &table).await.is_empty(), "nothing written");

    // A key attribute of the wrong type, found before any write too.
    std::fs::write(file, text.replace("12abc", "12")).unwrap();
    let (code, _, err) = dynoscope(
        &url,
        &["import", "--table", &table, "--format", "ddb-json", file],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.jsonl: line 31: `SK` is N here, but it is a key attribute of type S"),
        "{err}"
    );
    assert!(scan(&engine, &table).await.is_empty(), "nothing written");

    // A dry run of a good file: the preview, and still nothing written.
    let good: String = text.lines().take(30).map(|l| format!("{l}\n")).collect();
    std::fs::write(file, good).unwrap();
    let (code, out, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &table,
            "--format",
            "ddb-json",
            "--dry-run",
            file,
        ],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("30 items read; first items:"), "{out}");
    assert!(out.contains("  likeTally: N"), "{out}");
    assert!(
        out.contains("dry run: 30 items read and checked; nothing was written"),
        "{out}"
    );
    assert!(scan(&engine, &table).await.is_empty(), "nothing written");

    // Read-only refuses before anything is sent.
    let (code, _, err) = dynoscope(
        &url,
        &[
            "--read-only",
            "import",
            "--table",
            &table,
            "--format",
            "ddb-json",
            file,
        ],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("read-only"), "{err}");
    assert!(scan(&engine, &table).await.is_empty(), "nothing written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unprocessed_items_are_sent_again_until_written() {
    let engine = empty_engine().await;
    let (from, file) = exported(&engine, "unprocessed").await;
    let file = file.as_str();

    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::Unprocessed(3),
    )
    .await;
    let (to, (code, out, err)) = import_into_new(&engine, &proxy.url, "xfer-unp", file, &[]).await;
    assert_eq!(code, 0, "{out}{err}");
    // The three batches are in flight together (four may be), so they are the proxy's first 3
    // requests: it holds back the last item of each, and each is sent again alone.
    assert!(
        out.contains("60 read, 60 written, 0 refused, 0 unknown, 0 not sent (6 requests"),
        "{out}"
    );
    assert_eq!(proxy.arrived(), 6);
    assert_eq!(scan(&engine, &to).await, scan(&engine, &from).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn items_refused_after_an_unprocessed_round_are_reported_not_written() {
    let engine = empty_engine().await;
    let (_, file) = exported(&engine, "then-throttled").await;
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::UnprocessedThenThrottled,
    )
    .await;
    // One batch at a time: which batch the proxy treats first is then the first.
    let one = ["--concurrency", "1"];
    let (to, (code, out, err)) =
        import_into_new(&engine, &proxy.url, "xfer-thr", &file, &one).await;
    assert_eq!(code, 1, "{out}{err}");
    // The first batch wrote 24 items; its 25th, sent again, was throttled out (1 + 4
    // requests); the other two batches were throttled out whole (4 requests each).
    assert!(
        out.contains("60 read, 24 written, 36 refused, 0 unknown, 0 not sent (13 requests"),
        "{out}"
    );
    assert!(
        out.contains("left unprocessed by the server, then BatchWriteItem failed"),
        "{out}"
    );
    assert_eq!(scan(&engine, &to).await.len(), 24);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_answer_is_unknown_and_matches_what_was_stored() {
    let engine = empty_engine().await;
    let (from, file) = exported(&engine, "lost").await;
    let file = file.as_str();

    // The first answer lost once: a put of whole items is sent again, and all are written.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::HtmlAfterApplyOnce,
    )
    .await;
    let (to, (code, out, err)) = import_into_new(&engine, &proxy.url, "xfer-once", file, &[]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("60 written"), "{out}");
    assert_eq!(proxy.forwarded(), 4);
    assert_eq!(scan(&engine, &to).await, scan(&engine, &from).await);

    // Every answer lost, one batch at a time: the first batch is unknown after its re-sends,
    // the import stops.
    for fault in Fault::AFTER_APPLY {
        if fault == Fault::SilentAfterApply {
            continue; // the same path as a reset, 10 s per attempt
        }
        let proxy = common::fault_proxy(engine.sandbox.addr(), &["BatchWriteItem"], fault).await;
        let one = ["--concurrency", "1"];
        let (to, (code, out, err)) =
            import_into_new(&engine, &proxy.url, "xfer-lost", file, &one).await;
        assert_eq!(code, 3, "{fault:?}: {out}{err}");
        assert!(
            out.contains("60 read, 0 written, 0 refused, 25 unknown, 35 not sent"),
            "{fault:?}: {out}"
        );
        assert!(out.contains("unknown: "), "{out}");
        assert!(
            out.contains("not sent again. Read again: 25 of 25 stored as imported now"),
            "{fault:?}: {out}"
        );
        // What the server stored: the first batch, whole (it was applied), nothing else.
        assert_eq!(scan(&engine, &to).await.len(), 25, "{fault:?}");
        assert_eq!(
            proxy.forwarded(),
            3,
            "{fault:?}: sent, then sent again twice"
        );
    }

    // Every answer lost, batches in flight together: the three are all sent before the first
    // answer, each is unknown after its re-sends, and every item is stored.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::HtmlAfterApply,
    )
    .await;
    let (to, (code, out, err)) =
        import_into_new(&engine, &proxy.url, "xfer-lost4", file, &[]).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("60 read, 0 written, 0 refused, 60 unknown, 0 not sent"),
        "{out}"
    );
    // Sets compared as sets: the item with every type reads back as imported too.
    assert!(
        out.contains("Read again: 10 of 10 stored as imported now"),
        "{out}"
    );
    assert_eq!(proxy.forwarded(), 9);
    assert_eq!(scan(&engine, &to).await.len(), 60);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn put_and_delete_one_item_through_the_gateway() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let table = table_name("xfer-put");
    create_table(&engine.client, &table).await;
    let item = r#"{"PK":{"S":"POST#a91f"},"SK":{"S":"META"},"likeTally":{"N":"98765432109876543210987654321098765432"}}"#;
    let put = |extra: &'static [&'static str], item: &'static str| {
        let mut args = vec!["put", "--table", table.as_str(), "--item", item];
        args.extend_from_slice(extra);
        args
    };

    let (code, out, err) = dynoscope(&url, &put(&["--create-only"], item)).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PutItem applied"), "{out}");
    let (code, out, _) = dynoscope(&url, &put(&["--create-only"], item)).await;
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the condition failed; nothing was written"),
        "{out}"
    );
    assert!(
        out.contains("98765432109876543210987654321098765432"),
        "{out}"
    );
    let (code, _, err) = dynoscope(&url, &put(&[], r#"{"PK":{"S":"x"}}"#)).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("key attribute `SK`"), "{err}");
    let (code, _, err) = dynoscope(&url, &put(&[], "{not json")).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--item: not valid JSON"), "{err}");
    assert_eq!(scan(&engine, &table).await.len(), 1);

    let delete = [
        "delete",
        "--table",
        &table,
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=META",
    ];
    let mut read_only = vec!["--read-only"];
    read_only.extend_from_slice(&delete);
    let (code, _, err) = dynoscope(&url, &read_only).await;
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        scan(&engine, &table).await.len(),
        1,
        "read-only wrote nothing"
    );
    let (code, out, err) = dynoscope(&url, &delete).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("DeleteItem applied"), "{out}");
    assert!(scan(&engine, &table).await.is_empty());

    // A create-only put whose answer is lost: sent again, its own first attempt makes the
    // condition fail, so the outcome is unknown, with the item as stored now.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["PutItem"],
        Fault::HtmlAfterApplyOnce,
    )
    .await;
    let (code, out, err) = dynoscope(&proxy.url, &put(&["--create-only"], item)).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("Outcome unknown"), "{out}");
    assert!(out.contains("The item as stored now:"), "{out}");
    assert_eq!(proxy.forwarded(), 2);
    assert_eq!(scan(&engine, &table).await.len(), 1);
}
