//! The Tally check's Reconcile "from an export" given an `s3://` location: on a connection to
//! moto's server (its DynamoDB holds the table, its S3 an export holding one like more), the
//! export's objects are streamed and the parents reconciled from them — the extra like seen, no
//! read capacity used.

use aws_sdk_dynamodb::types::AttributeValue;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::common::Sdk as _;
use crate::common::moto::{moto_connection, table_with};
use crate::{
    click_shown, endpoint, has_label, has_label_containing, query_partition, start, step_until,
    type_into,
};

/// `(pk, sk, likeTally)`: two posts, one drifted (3 stored, 1 child).
const ITEMS: [(&str, &str, Option<&str>); 5] = [
    ("POST#s1", "META", Some("2")),
    ("POST#s1", "LIKE#USER#a", None),
    ("POST#s1", "LIKE#USER#b", None),
    ("POST#s2", "META", Some("3")),
    ("POST#s2", "LIKE#USER#c", None),
];

fn item(
    pk: &str,
    sk: &str,
    tally: Option<&str>,
) -> std::collections::HashMap<String, AttributeValue> {
    let mut item = std::collections::HashMap::from([
        ("PK".to_owned(), AttributeValue::S(pk.to_owned())),
        ("SK".to_owned(), AttributeValue::S(sk.to_owned())),
    ]);
    if let Some(tally) = tally {
        item.insert("likeTally".to_owned(), AttributeValue::N(tally.to_owned()));
    }
    item
}

/// The same item as a line of DynamoDB's export to S3.
fn line(pk: &str, sk: &str, tally: Option<&str>) -> String {
    let tally = tally.map_or(String::new(), |t| {
        format!(r#", "likeTally": {{"N": "{t}"}}"#)
    });
    format!(r#"{{"Item": {{"PK": {{"S": "{pk}"}}, "SK": {{"S": "{sk}"}}{tally}}}}}"#)
}

#[test]
fn reconcile_reads_an_export_straight_from_s3() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (moto, table) = runtime.block_on(async {
        let (moto, connection) = moto_connection().await;
        let table = table_with(&connection, "Social", 0).await;
        let client = connection.sdk();
        for (pk, sk, tally) in ITEMS {
            let put = client
                .put_item()
                .table_name(&table)
                .set_item(Some(item(pk, sk, tally)));
            put.send().await.unwrap();
        }
        let s3 = connection.s3();
        s3.create_bucket().bucket("exports").send().await.unwrap();
        // The export holds a like the table does not: only a read of the export sees POST#s1
        // drifted too.
        let mut lines: Vec<String> = ITEMS.iter().map(|(p, s, t)| line(p, s, *t)).collect();
        lines.push(line("POST#s1", "LIKE#USER#z", None));
        let body = (lines.join("\n") + "\n").into_bytes();
        let put = s3
            .put_object()
            .bucket("exports")
            .key("ui/data/part.json")
            .body(body.into());
        put.send().await.unwrap();
        (moto, table)
    });
    let mut app = start(endpoint(&moto.url), Some(&table));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1600.0));
    query_partition(h, "POST#s1");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#a"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the reconcile form", |h| has_label(h, "Reconcile"));
    h.get_by_role_and_label(Role::RadioButton, "An export's files")
        .click();
    step_until(h, "the export form", |h| has_label(h, "Export path"));
    type_into(h, "Export path", "s3://exports/ui");
    h.get_by_role_and_label(Role::Button, "Reconcile").click();
    step_until(h, "the reconciliation", |h| {
        has_label_containing(h, "2 parents checked · 2 drifted")
    });
    assert!(
        has_label_containing(h, "· 0 RCU ≈ $0 on demand in all"),
        "no read capacity used"
    );
    assert!(
        has_label(h, "POST#s1") && has_label(h, "POST#s2"),
        "both listed"
    );
    drop(moto);
}

/// The Table view's Export to S3 on moto's server (whose DynamoDB exports into its own S3):
/// refused while point-in-time recovery is off, with the way on; with it turned on first, the
/// export is started, followed to COMPLETED and its files' address said; the exports listed.
/// At 1280×800 and at 900×600, each control scrolled into view as a user would.
fn export_journey(size: egui::Vec2) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (moto, table) = runtime.block_on(async {
        let (moto, connection) = moto_connection().await;
        let table = table_with(&connection, "ui-export", 4).await;
        let s3 = connection.s3();
        s3.create_bucket().bucket("snapshots").send().await.unwrap();
        (moto, table)
    });
    let mut app = start(endpoint(&moto.url), Some(&table));
    let h = &mut app.harness;
    h.set_size(size);
    step_until(h, "the table", |h| has_label(h, "Table"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "the table read", |h| has_label(h, "Export to S3"));
    h.get_by_label("Settings").click();
    h.step();
    h.step();
    h.get_by_label("Export to S3").click();
    step_until(h, "the export form", |h| has_label(h, "Export to"));
    type_into(h, "Export to", "s3://snapshots/ui");
    click_shown(h, "Start export");
    step_until(h, "the refusal", |h| {
        has_label_containing(h, "has point-in-time recovery off")
    });
    let tick = "Turn point-in-time recovery on first (it is off; billed per GB-month)";
    h.get_by_label(tick).scroll_to_me();
    h.step();
    h.get_by_label(tick).click();
    h.step();
    click_shown(h, "Start export");
    step_until(h, "the export followed to its end", |h| {
        has_label_containing(h, "its files: s3://snapshots/ui/AWSDynamoDB/")
    });
    assert!(has_label_containing(
        h,
        "point-in-time recovery turned on: applied"
    ));
    assert!(has_label_containing(h, ": COMPLETED, FULL_EXPORT, 4 items"));
    assert!(has_label_containing(h, "price: "));
    // Point-in-time recovery turned on, the table is read again and its tick box goes: the
    // rows below move up, so the click waits for that.
    step_until(h, "the table read again", |h| !has_label(h, tick));
    click_shown(h, "List exports");
    step_until(h, "the exports listed", |h| {
        has_label_containing(h, "listed ")
    });
    assert!(
        has_label_containing(h, ": COMPLETED, FULL_EXPORT ("),
        "the list"
    );
    drop(app);
    drop(moto);
}

#[test]
fn the_table_view_exports_to_s3_and_says_where_the_files_are() {
    export_journey(egui::vec2(1280.0, 800.0));
}

#[test]
fn the_table_view_exports_to_s3_in_a_small_window() {
    export_journey(egui::vec2(900.0, 600.0));
}

/// The Import view given an `s3://` export (no file here): its objects read and checked, the
/// preview said, then imported into an empty table on moto's server — at 900×600.
#[test]
fn an_export_in_s3_is_imported_from_the_import_view() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (moto, connection, table) = runtime.block_on(async {
        let (moto, connection) = moto_connection().await;
        let table = table_with(&connection, "ui-import", 0).await;
        let s3 = connection.s3();
        s3.create_bucket().bucket("exports").send().await.unwrap();
        let lines: Vec<String> = ITEMS.iter().map(|(p, s, t)| line(p, s, *t)).collect();
        let put = s3
            .put_object()
            .bucket("exports")
            .key("nightly/data/part-0.json")
            .body((lines.join("\n") + "\n").into_bytes().into());
        put.send().await.unwrap();
        (moto, connection, table)
    });
    let mut app = start(endpoint(&moto.url), Some(&table));
    let h = &mut app.harness;
    h.set_size(egui::vec2(900.0, 600.0));
    step_until(h, "the views", |h| has_label(h, "Import / Export"));
    h.get_by_role_and_label(Role::Button, "Import / Export")
        .click();
    step_until(h, "the import form", |h| has_label(h, "File to import"));
    type_into(h, "File to import", "s3://exports/nightly");
    click_shown(h, "Read and check");
    step_until(h, "the preview", |h| {
        has_label_containing(h, "5 items read from s3://exports/nightly as")
    });
    assert!(has_label_containing(h, "line 4: {\"PK\":\"POST#s2\""));
    h.get_by_role_and_label(Role::Button, "Import 5 items")
        .click();
    step_until(h, "the import", |h| {
        has_label_containing(
            h,
            "import: 5 read, 5 written, 0 refused, 0 unknown, 0 not sent",
        )
    });
    let stored = runtime.block_on(crate::common::moto::items(&connection, &table));
    assert_eq!(stored.len(), ITEMS.len());
    drop(moto);
}
