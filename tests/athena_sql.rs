//! The Athena SQL `check --athena` writes, run by an engine independent of dynoscope's: DuckDB
//! (PyPI, `scripts/test.sh` installs it) runs the query as written over a view made from the
//! `CREATE EXTERNAL TABLE`'s columns, on the sandbox's Social exported in DynamoDB's S3 export
//! format. It finds exactly the drifted parents dynoscope's own reconcile of the same files finds.
//! (Athena itself is never run by the suite: moto's Athena does not execute SQL.)

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::tally::{self, ChildSource, ParentMatch, TallyRule};
use dynoscope_core::transfer::{Format, IfExists, write_rows_file};

fn likes_rule() -> TallyRule {
    TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        },
        tally: "likeTally".into(),
        children: ChildSource::SortKeyPrefix("LIKE#".into()),
    }
}

/// `pk stored counted drift` of each row.
fn rows(lines: &str) -> BTreeSet<String> {
    lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("pk").is_some())
        .map(|v| {
            let text = |k: &str| v[k].as_str().map_or("null".to_owned(), str::to_owned);
            format!(
                "{} {} {} {}",
                text("pk"),
                text("stored"),
                text("counted"),
                text("drift")
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duckdb_running_the_athena_sql_finds_the_drifts_the_reconcile_does() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("athena-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let sandbox = ConnectionSpec::Sandbox { db_path: None };
    // The connection holds the sandbox: kept while it is read.
    let held = connection::connect(sandbox).await.unwrap();
    let reader = held.reader();
    let info = dynoscope_core::read::describe_table(&reader, "Social")
        .await
        .unwrap();
    let read = dynoscope_core::read::read_table(&reader, &info, None)
        .await
        .unwrap();
    let file = dir.join("data").join("part-0.json.gz");
    let (keys, format) = (info.key_names(), Format::S3Export);
    write_rows_file(&file, &read.rows, &keys, format, true, IfExists::Replace).unwrap();
    let statements = tally::athena_statements(
        &info,
        &likes_rule(),
        "s3://b/AWSDynamoDB/01/",
        "social_export",
    )
    .unwrap();
    assert!(
        statements
            .ddl
            .ends_with("LOCATION 's3://b/AWSDynamoDB/01/data/'")
    );
    std::fs::write(dir.join("ddl.sql"), &statements.ddl).unwrap();
    std::fs::write(dir.join("query.sql"), &statements.query).unwrap();
    let out = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/athena/run_duckdb.py"))
        .arg(dir.join("ddl.sql"))
        .arg(dir.join("query.sql"))
        .arg(dir.join("data").join("*.json.gz"))
        .output()
        .expect("python3 runs (scripts/test.sh brings DuckDB into target/test-tools)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "DuckDB ran the query: {stderr}");
    let from_duckdb = rows(&String::from_utf8_lossy(&out.stdout));

    // dynoscope's own reconcile of the same file: its drifted parents.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--sandbox",
            "check",
            "--table",
            "Social",
            "--tally",
            "likeTally",
        ])
        .args([
            "--parent-prefix",
            "POST#",
            "--child-prefix",
            "LIKE#",
            "--json",
        ])
        .arg("--from-export")
        .arg(dir.join("data"))
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "the sandbox's seeded drifts");
    let ours: BTreeSet<String> = rows(&String::from_utf8_lossy(&out.stdout))
        .into_iter()
        .filter(|r| !r.ends_with(" 0"))
        .collect();
    assert!(!ours.is_empty());
    assert_eq!(
        from_duckdb, ours,
        "DuckDB and dynoscope find the same drifts"
    );
}
