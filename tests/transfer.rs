//! Export and import through the CLI, as a real process against an embedded engine: every
//! format round-trips a table item by item (38-digit numbers, sets, binary, nested maps, empty
//! strings); a malformed line stops the import before any write; unprocessed items are sent
//! again, and those refused after a round are reported not written. (Lost answers and single
//! items: `transfer_gateway.rs`.)

use crate::common;

use dynoscope_core::value::{Item, item_to_dynamodb_json};

use common::files::{dynoscope, scratch};
use common::roundtrip::{exported, import_into_new, items, scan, source};
use common::{Fault, create_table, empty_engine, s, table_name};

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
    let good: String = text.lines().take(30).flat_map(|l| [l, "\n"]).collect();
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
