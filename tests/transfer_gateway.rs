//! Imports and single items through the write gateway, as a real process: a lost answer is
//! reported unknown and matches what the server stored; put and delete of one item, refused on
//! a read-only connection.

use crate::common;

use common::files::dynoscope;
use common::roundtrip::{exported, import_into_new, scan};
use common::{Fault, create_table, empty_engine, table_name};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_answer_is_unknown_and_matches_what_was_stored() {
    let engine = empty_engine().await;
    let (_, file) = exported(&engine, "lost").await;
    let file = file.as_str();

    // The first answer lost once: a batch is never sent again after a lost answer (another
    // writer's newer item could be put over), so it is unknown, read again, and the import
    // stops there; it was sent once.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::HtmlAfterApplyOnce,
    )
    .await;
    let one = ["--concurrency", "1"];
    let (to, (code, out, err)) =
        import_into_new(&engine, &proxy.url, "xfer-once", file, &one).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("not sent again. Read again: 25 of 25 stored as imported now"),
        "{out}"
    );
    assert_eq!(proxy.forwarded(), 1);
    assert_eq!(scan(&engine, &to).await.len(), 25);

    // Every answer lost, one batch at a time: the first batch is unknown, sent once, the
    // import stops.
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
        assert_eq!(proxy.forwarded(), 1, "{fault:?}: sent once, never again");
    }

    // Every answer lost, batches in flight together: the three are all sent before the first
    // answer, each is unknown, sent once, and every item is stored.
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
    assert_eq!(proxy.forwarded(), 3);
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
    assert!(err.contains("item: not valid JSON"), "{err}");
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
