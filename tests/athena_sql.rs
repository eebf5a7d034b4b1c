//! The Athena SQL `check --athena` writes, run by an engine independent of dynoscope's: DuckDB
//! (PyPI, `scripts/test.sh` installs it) runs the query as written over a view made from the
//! `CREATE EXTERNAL TABLE`'s columns, on the sandbox's Social exported in DynamoDB's S3 export
//! format. It finds exactly the drifted parents dynoscope's own reconcile of the same files finds.
//! (Athena itself is never run by the suite: moto's Athena does not execute SQL.)

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::common::{LIKES_RULE, likes_rule};
use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::tally;
use dynoscope_core::transfer::{Format, IfExists, write_rows_file};

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
        "s3://bkt/AWSDynamoDB/01/",
        "social_export",
    )
    .unwrap();
    assert!(
        statements
            .ddl
            .ends_with("LOCATION 's3://bkt/AWSDynamoDB/01/data/'")
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
            "--output",
            "jsonl",
        ])
        .args(LIKES_RULE)
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

/// Queue `results` (JSON, moto's documented shape) as the answers of Athena's next queries.
fn queue_athena_results(moto_url: &str, results: &Value) {
    let script = "import sys, urllib.request\n\
        r = urllib.request.Request(sys.argv[1] + '/moto-api/static/athena/query-results', \
        data=sys.argv[2].encode(), headers={'Content-Type': 'application/json'})\n\
        assert urllib.request.urlopen(r).status == 201\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script, moto_url, &results.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What moto's Athena answers next: nothing for the DDL; for the query, a header row and two
/// drifted parents.
fn drifted_rows() -> Value {
    let cell = |v: &str| serde_json::json!({"VarCharValue": v});
    let row = |cells: [&str; 4]| serde_json::json!({"Data": cells.map(cell)});
    let columns: Vec<Value> = ["pk", "stored", "counted", "drift"]
        .iter()
        .map(|n| serde_json::json!({"Name": n, "Type": "varchar"}))
        .collect();
    let ddl = serde_json::json!({"rows": [], "column_info": []});
    let query = serde_json::json!({
        "rows": [
            row(["pk", "stored", "counted", "drift"]),
            row(["POST#b", "3", "1", "2"]),
            row(["POST#c", "0", "1", "-1"]),
        ],
        "column_info": columns,
    });
    serde_json::json!({"results": [ddl, query]})
}

/// Every query moto's Athena was sent, each checked to have run in workgroup `analysts` with
/// its results under `s3://results/dynoscope/`.
async fn sent_to(connection: &dynoscope_core::connection::Connection) -> Vec<String> {
    let athena = connection.athena();
    let listed = athena.list_query_executions().send().await.unwrap();
    let mut sent = Vec::new();
    for id in listed.query_execution_ids() {
        let got = athena
            .get_query_execution()
            .query_execution_id(id)
            .send()
            .await
            .unwrap();
        let execution = got.query_execution().unwrap();
        assert_eq!(execution.work_group(), Some("analysts"));
        let output = execution
            .result_configuration()
            .unwrap()
            .output_location()
            .unwrap();
        assert!(output.starts_with("s3://results/dynoscope/"), "{output}");
        sent.push(execution.query().unwrap().to_owned());
    }
    sent
}

/// `check --athena … --run` against moto's Athena (which runs no SQL, but answers what it is
/// given in Athena's documented result shape): the DDL and the query are sent in that order with
/// the workgroup, database and output location, the header row is left out, and the rows are the
/// drifted parents as every route gives them, the drift worked out exactly here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_run_in_athena_reads_its_rows_as_parent_checks() {
    use crate::common::files::dynoscope;
    use crate::common::moto::{moto_connection, table_with};
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Athena", 0).await;
    queue_athena_results(&moto.url, &drifted_rows());
    let mut args = vec!["check", "--table", &table];
    args.extend(LIKES_RULE);
    args.extend([
        "--athena",
        "s3://exports/nightly/AWSDynamoDB/01764547200000-a1b2c3d4/",
        "--run",
        "--athena-output",
        "s3://results/dynoscope/",
        "--workgroup",
        "analysts",
        "--json",
    ]);
    // A workgroup that does not exist: refused by Athena, said in its words, exit 2.
    let (code, _, stderr) = dynoscope(&moto.url, &args).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("StartQueryExecution: InvalidRequestException: WorkGroup does not exist"),
        "{stderr}"
    );
    let athena = connection.athena();
    athena
        .create_work_group()
        .name("analysts")
        .send()
        .await
        .unwrap();
    let (code, stdout, stderr) = dynoscope(&moto.url, &args).await;
    assert_eq!(code, 1, "drifted parents found: {stdout}{stderr}");
    let run: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(run["drifted"], 2, "{run}");
    let checks: Vec<String> = run["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} {} {}",
                c["pk"], c["stored"], c["counted"], c["drift"]
            )
        })
        .collect();
    assert_eq!(
        checks,
        [r#""POST#b" "3" "1" "2""#, r#""POST#c" "0" "1" "-1""#],
        "the header row left out"
    );
    assert!(
        run["price"].as_str().unwrap().contains("at least 10 MB"),
        "{run}"
    );
    assert_eq!(
        run["location"],
        "s3://exports/nightly/AWSDynamoDB/01764547200000-a1b2c3d4/data/"
    );
    // What Athena was sent: the DDL, then the query, in the workgroup with the output given.
    let sent = sent_to(&connection).await;
    assert_eq!(sent.len(), 2, "{sent:?}");
    let ddl = sent
        .iter()
        .find(|q| q.starts_with("CREATE EXTERNAL TABLE IF NOT EXISTS `athena"));
    assert!(
        ddl.is_some_and(|d| d
            .contains("LOCATION 's3://exports/nightly/AWSDynamoDB/01764547200000-a1b2c3d4/data/'")),
        "{sent:?}"
    );
    assert!(
        sent.iter().any(|q| q.starts_with("WITH parents AS (")),
        "{sent:?}"
    );
}
