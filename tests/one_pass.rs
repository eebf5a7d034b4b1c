//! One reconciliation pass, two sources: a parallel scan of the live table and the files of an
//! export give the same checks as a COUNT query per parent, and every request's cost is in the
//! totals.

use crate::common;

use std::collections::BTreeMap;
use std::collections::HashMap;

use common::{create_table, empty_engine, likes_rule, n, put_all, s, table_name};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::condition::ScalarType;
use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::read as ops;
use dynoscope_core::seed;
use dynoscope_core::table::{KeyAttr, TableInfo};
use dynoscope_core::tally::{
    self, Cheaper, Checked, ChildSource, ParentMatch, ParentSource, ReconcileEvent, ReconcilePlan,
    TallyRule,
};
use dynoscope_core::transfer::{self, Format};
use dynoscope_core::value::Item;

async fn run(
    client: &dynoscope_core::connection::Reader,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    plan: ReconcilePlan,
) -> Checked {
    let mut checked = Checked::default();
    let cancelled = tally::reconcile(
        client,
        info,
        rule,
        source,
        plan,
        &CancelToken::default(),
        |event| match event {
            ReconcileEvent::Read(read) => checked.add_read(&read),
            ReconcileEvent::Checked(c) => checked.add(c.unwrap()),
            _ => {}
        },
    )
    .await
    .unwrap();
    assert!(!cancelled);
    checked
}

/// Each parent's stored tally, count and drift, by partition.
fn verdicts(checked: &Checked) -> BTreeMap<String, (String, u64, String)> {
    checked
        .checks
        .iter()
        .map(|c| {
            let row = (c.stored_text().to_owned(), c.count.count, c.drift_text());
            (c.partition.clone(), row)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_reconciles_alike_per_parent_in_one_pass_and_from_its_export() {
    let conn = connection::connect(ConnectionSpec::Sandbox { db_path: None })
        .await
        .unwrap();
    let client = &conn.reader();
    let info = ops::describe_table(client, seed::SOCIAL).await.unwrap();
    let rule = likes_rule();

    let per_parent = ReconcilePlan::PerParent { concurrency: 8 };
    let one_pass = ReconcilePlan::OnePass { segments: 4 };
    let a = run(client, &info, &rule, &ParentSource::Scan, per_parent).await;
    let b = run(client, &info, &rule, &ParentSource::Scan, one_pass).await;
    assert_eq!(verdicts(&a), verdicts(&b));
    let drifted: Vec<&str> = a
        .checks
        .iter()
        .filter(|c| c.drifted())
        .map(|c| c.partition.as_str())
        .collect();
    let mut expected: Vec<&str> = seed::DRIFTED.iter().map(|(pk, _)| *pk).collect();
    expected.sort_unstable();
    let mut got = drifted.clone();
    got.sort_unstable();
    assert_eq!(got, expected);

    // The true cost: one pass is one scan; per parent is that scan plus every COUNT query.
    let scan = ops::read_table(client, &info, None).await.unwrap();
    let items = scan.rows.len() as u64;
    assert_eq!(b.totals.items_read, items, "each item read once");
    assert!(
        (b.totals.rcu - scan.rcu).abs() <= 0.5 * b.totals.pages as f64,
        "one pass {} vs a scan {}",
        b.totals.rcu,
        scan.rcu
    );
    let queries: f64 = a.checks.iter().map(|c| c.count.consumed_rcu).sum();
    assert!(queries >= 0.5 * a.checks.len() as f64);
    // ScannedCount as the server reports it (dynoxide may count one more at a page's end).
    let off = a.totals.items_read.abs_diff(items);
    assert!(
        off <= a.totals.pages as u64,
        "the parents were found by a scan: {off}"
    );
    assert!((a.totals.rcu - (queries + scan.rcu)).abs() <= 0.5 * a.totals.pages as f64);
    assert!(b.totals.rcu < a.totals.rcu);
    assert_eq!(
        tally::estimate(&info, &ParentSource::Scan).cheaper,
        Cheaper::OnePass
    );

    // The same from the files of an export, gzipped, as DynamoDB's export to S3 writes them.
    let dir = std::env::temp_dir().join(format!("dynoscope-export-{}", table_name("x")));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("manifest-summary.json"), "{}").unwrap();
    let keys = info.key_names();
    let half = scan.rows.len() / 2;
    let all: Vec<Item> = scan.rows.items().collect();
    for (name, part) in [("a.json.gz", &all[..half]), ("b.json.gz", &all[half..])] {
        let rows = dynoscope_core::rows::Rows::from_items(part);
        transfer::write_rows_file(
            &dir.join("data").join(name),
            &rows,
            &keys,
            Format::S3Export,
            true,
            transfer::IfExists::Refuse,
        )
        .unwrap();
    }
    let (checks, read) = tally::check_export(
        &info,
        &rule,
        &transfer::export_files(&dir).unwrap().files,
        Format::S3Export,
        &CancelToken::default(),
        |_| {},
    )
    .unwrap();
    assert_eq!(read.items, items);
    assert_eq!(read.files, 2, "the manifest holds no items");
    let mut c = Checked::default();
    for check in checks.unwrap() {
        c.add(check.unwrap());
    }
    assert_eq!(verdicts(&c), verdicts(&a));
    assert!(c.totals.rcu.abs() < f64::EPSILON, "no request sent");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_in_an_index_and_parents_from_the_loaded_rows_in_one_pass() {
    let engine = empty_engine().await;
    let name = table_name("onepass");
    create_table(&engine.client, &name).await;
    let mut items = Vec::new();
    for (user, tally, posts) in [
        ("USER#ana", "3", 3),
        ("USER#bruno", "2", 1),
        ("USER#cy", "0", 0),
    ] {
        items.push(HashMap::from([
            ("PK".to_owned(), s(user)),
            ("SK".to_owned(), s("META")),
            ("postCount".to_owned(), n(tally)),
        ]));
        for i in 0..posts {
            items.push(HashMap::from([
                ("PK".to_owned(), s(&format!("POST#{user}{i}"))),
                ("SK".to_owned(), s("META")),
                ("owner".to_owned(), s(user)),
                ("rank".to_owned(), n(&i.to_string())),
            ]));
        }
    }
    // Not in the index: no rank.
    items.push(HashMap::from([
        ("PK".to_owned(), s("POST#loose")),
        ("SK".to_owned(), s("META")),
        ("owner".to_owned(), s("USER#ana")),
    ]));
    put_all(&engine.client, &name, items.clone()).await;
    let info = ops::describe_table(&engine.reader(), &name).await.unwrap();
    let rule = TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "USER#".into(),
        },
        tally: "postCount".into(),
        children: ChildSource::Index {
            index: "ByOwner".into(),
            id_attribute: None,
            sort_prefix: String::new(),
        },
    };
    let c = &engine.reader();
    let per = ReconcilePlan::PerParent { concurrency: 2 };
    let one = ReconcilePlan::OnePass { segments: 3 };
    let a = run(c, &info, &rule, &ParentSource::Scan, per).await;
    let b = run(c, &info, &rule, &ParentSource::Scan, one).await;
    assert_eq!(verdicts(&a), verdicts(&b));
    assert_eq!(verdicts(&b)["USER#bruno"], ("2".into(), 1, "+1".into()));
    assert_eq!(
        verdicts(&b)["USER#ana"].1,
        3,
        "the item without rank is not in the index"
    );

    // Only the parents among the loaded rows, in one pass too.
    let loaded: Vec<Item> = items
        .into_iter()
        .filter(|i| i["PK"] != s("USER#cy"))
        .collect();
    let source = ParentSource::Loaded(dynoscope_core::rows::Rows::from_items(&loaded));
    let only = run(c, &info, &rule, &source, one).await;
    let names: Vec<String> = verdicts(&only).into_keys().collect();
    assert_eq!(names, ["USER#ana", "USER#bruno"]);
}

#[test]
fn the_athena_sql_reads_the_export_and_groups_children_by_parent() {
    let key = |name: &str| KeyAttr::new(name, ScalarType::S);
    let info = TableInfo::with_keys("Social", key("PK"), Some(key("SK")));
    let sql = tally::athena_sql(
        &info,
        &likes_rule(),
        "s3://my-bucket/AWSDynamoDB/01700000000000-abcd/data",
        &tally::athena_table("Social"),
    )
    .unwrap();
    let expected = r"-- POST#…/META.likeTally = count(LIKE#…) over the DynamoDB export of Social, in Amazon Athena.
";
    assert!(sql.starts_with(expected.trim_end()), "{sql}");
    for part in [
        "CREATE EXTERNAL TABLE `social_export` (\n  item struct<`PK`:struct<S:string>, `SK`:struct<S:string>, `likeTally`:struct<N:string>>\n)",
        "ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'",
        "LOCATION 's3://my-bucket/AWSDynamoDB/01700000000000-abcd/data/';",
        "WHERE item.\"SK\".\"S\" = 'META' AND starts_with(item.\"PK\".\"S\", 'POST#')",
        "WHERE starts_with(item.\"SK\".\"S\", 'LIKE#')\n  GROUP BY item.\"PK\".\"S\"",
        "FROM parents p LEFT JOIN children c ON c.id = p.id",
        "WHERE p.stored IS NULL OR p.stored <> CAST(COALESCE(c.counted, 0) AS VARCHAR)",
    ] {
        assert!(sql.contains(part), "missing {part:?} in\n{sql}");
    }
    assert!(tally::athena_sql(&info, &likes_rule(), "/tmp/x", "t").is_err());
    // A numeric sort key has no text parents to match: said, not a query that fails in Athena.
    let numeric = TableInfo::with_keys(
        "Numbers",
        KeyAttr::new("PK", ScalarType::S),
        Some(KeyAttr::new("SK", ScalarType::N)),
    );
    let error = tally::athena_sql(&numeric, &likes_rule(), "s3://bkt/d/", "t").unwrap_err();
    assert!(error.to_string().contains("`SK` is N"), "{error}");
}
