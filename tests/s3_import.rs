//! An import straight from an export in S3 (`import --from-export s3://…`), against moto's
//! server (its DynamoDB for the table written, its S3 for the export): the sandbox's Social
//! exported as DynamoDB writes a full export, with its manifest and a stray object beside it.
//! The import puts exactly the export's items (the stray left out), its drifts come over as they
//! were, read-only writes nothing, an object replaced between the check and the write stops the
//! import before a batch of it is sent, and the lines the table cannot take are written to the
//! data folder.

use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::{AttributeValue, Select};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::import::{self, CheckLimits};
use dynoscope_core::read;
use dynoscope_core::transfer::Format;

use crate::common::LIKES_RULE;
use crate::common::files::{cli, dynoscope};
use crate::common::moto::{items, moto_connection, table_with};
use crate::s3_export::{parents, social_export};

const EXPORT: &str = "nightly/AWSDynamoDB/01764547200000-e5f6a7b8";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("s3-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Put `body` at `key` in the bucket `exports`.
async fn put(connection: &Connection, key: &str, body: Vec<u8>) {
    let s3 = connection.s3();
    let request = s3.put_object().bucket("exports").key(key).body(body.into());
    request.send().await.unwrap();
}

/// The Social export put in S3 as DynamoDB lays out a full export (one data object named by
/// the manifest, a stray object beside it); the export's gzipped bytes.
async fn exported(connection: &Connection, dir: &Path) -> Vec<u8> {
    let gz = social_export(dir);
    let s3 = connection.s3();
    s3.create_bucket().bucket("exports").send().await.unwrap();
    let data = format!("{EXPORT}/data/part-0001.json.gz");
    put(connection, &data, gz.clone()).await;
    let manifest = format!("{{\"itemCount\": 1, \"dataFileS3Key\": \"{data}\"}}\n");
    let manifest_key = format!("{EXPORT}/manifest-files.json");
    put(connection, &manifest_key, manifest.into_bytes()).await;
    let stray =
        br#"{"Item": {"PK": {"S": "POST#stray"}, "SK": {"S": "META"}, "likeTally": {"N": "9"}}}"#;
    put(
        connection,
        &format!("{EXPORT}/data/stray.json"),
        stray.to_vec(),
    )
    .await;
    gz
}

/// The export's items, as lines of text.
fn lines_of(gz: &[u8]) -> usize {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(gz), &mut text).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Every item of `table`, counted page after page.
async fn count(connection: &Connection, table: &str) -> usize {
    let client = crate::common::Sdk::sdk(connection);
    let mut pages = (client.scan().table_name(table))
        .select(Select::Count)
        .into_paginator()
        .send();
    let mut total = 0;
    while let Some(page) = pages.next().await {
        total += usize::try_from(page.unwrap().count).unwrap();
    }
    total
}

/// `check --all` of `table` under the likes rule: each parent's line.
async fn checked(url: &str, table: &str) -> std::collections::BTreeSet<String> {
    let mut args = vec!["check", "--table", table];
    args.extend(LIKES_RULE);
    // moto's Scan answers a page of 26,524 items in seconds, eight segments at once: the
    // check is given time for that (its correctness, not moto's speed, is under test).
    args.extend(["--all", "--output", "jsonl", "--timeout", "120"]);
    let (code, stdout, stderr) = dynoscope(url, &args).await;
    assert_eq!(code, 1, "the seeded drifts come over: {stderr}");
    let checked = parents(&stdout);
    assert!(!checked.is_empty(), "{stdout}");
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_in_s3_is_imported_as_it_was() {
    let (moto, connection) = moto_connection().await;
    let dir = scratch("whole");
    let gz = exported(&connection, &dir).await;
    let table = table_with(&connection, "Imported", 0).await;
    let location = format!("s3://exports/{EXPORT}/");
    let import = |extra: &'static [&'static str]| {
        let mut args = vec!["import", "--table", &table, "--from-export", &location];
        args.extend(extra);
        let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        let url = moto.url.clone();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &args).await
        }
    };
    let expected = lines_of(&gz);

    let (code, stdout, stderr) = import(&["--dry-run"]).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{expected} items read")),
        "{stdout}"
    );
    assert!(stdout.contains("nothing was written"), "{stdout}");
    let (code, _, stderr) = import(&["--read-only"]).await;
    assert_eq!(
        code, 2,
        "read-only refuses before anything is sent: {stderr}"
    );
    assert!(items(&connection, &table).await.is_empty());

    let (code, stdout, stderr) = import(&[]).await;
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!(
            "import: {expected} read, {expected} written, 0 refused"
        )),
        "{stdout}"
    );
    assert_eq!(count(&connection, &table).await, expected);
    let stray = crate::common::Sdk::sdk(&connection)
        .get_item()
        .table_name(&table)
        .key("PK", AttributeValue::S("POST#stray".into()))
        .key("SK", AttributeValue::S("META".into()))
        .send()
        .await
        .unwrap();
    assert!(
        stray.item.is_none(),
        "the manifest does not name the stray object"
    );
    // The export's drifts came over as they were: the same as read from the export itself.
    let mut from_export = vec!["check", "--table", &table];
    from_export.extend(LIKES_RULE);
    from_export.extend(["--output", "jsonl", "--from-export", &location]);
    let (code, stdout, stderr) = dynoscope(&moto.url, &from_export).await;
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(checked(&moto.url, &table).await, parents(&stdout));

    // Given as PATH, the same location is read the same way.
    let again = table_with(&connection, "Again", 0).await;
    let (code, stdout, stderr) = dynoscope(
        &moto.url,
        &[
            "import",
            "--table",
            &again,
            "--format",
            "s3-export",
            "--dry-run",
            &location,
        ],
    )
    .await;
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("{expected} items read")),
        "{stdout}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_replaced_after_its_check_is_not_imported() {
    let (_moto, connection) = moto_connection().await;
    let dir = scratch("replaced");
    let gz = exported(&connection, &dir).await;
    let table = table_with(&connection, "Replaced", 0).await;
    let info = read::describe_table(&connection.reader(), &table)
        .await
        .unwrap();
    let location = PathBuf::from(format!("s3://exports/{EXPORT}"));
    let (conn, at, checking) = (connection.clone(), location.clone(), info.clone());
    let checked = tokio::task::spawn_blocking(move || {
        let sources = import::import_sources(&at, &conn, &CancelToken::default()).unwrap();
        let names: Vec<String> = sources
            .files
            .iter()
            .map(dynoscope_core::import::DataSource::name)
            .collect();
        let never = CancelToken::default();
        let types = std::collections::HashMap::default();
        let limits = CheckLimits::default();
        let check = import::check_import(
            &sources,
            Format::S3Export,
            &types,
            &checking,
            &[],
            limits,
            &never,
            |_| {},
        );
        (names, check.unwrap())
    });
    let (names, checked) = checked.await.unwrap();
    assert_eq!(
        names,
        [format!("s3://exports/{EXPORT}/data/part-0001.json.gz")]
    );
    assert_eq!(checked.items, lines_of(&gz));
    // A second writer replaces the object with one item fewer: a new ETag.
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    let shorter: Vec<&str> = text.lines().skip(1).collect();
    let data = format!("{EXPORT}/data/part-0001.json.gz");
    put(&connection, &data, (shorter.join("\n") + "\n").into_bytes()).await;

    let never = CancelToken::default();
    let report = import::import(&connection, &info, &checked, 4, true, &never, |_| {}).await;
    assert_eq!(
        (report.written, report.not_sent),
        (0, checked.items),
        "{report:?}"
    );
    let stopped = report.stopped.clone().unwrap_or_default();
    assert!(
        stopped.contains("changed since it was checked"),
        "{stopped}"
    );
    assert!(
        stopped.contains(&format!("s3://exports/{data}")),
        "{stopped}"
    );
    assert!(items(&connection, &table).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_the_table_cannot_take_are_written_to_the_data_folder() {
    let (moto, connection) = moto_connection().await;
    let dir = scratch("rejected");
    let s3 = connection.s3();
    s3.create_bucket().bucket("exports").send().await.unwrap();
    let lines = [
        r#"{"Item": {"PK": {"S": "POST#1"}, "SK": {"S": "META"}, "likeTally": {"N": "1"}}}"#,
        r#"{"Item": {"PK": {"S": "POST#1"}, "likeTally": {"N": "1"}}}"#,
        r#"{"Item": {"PK": {"S": "POST#1"}, "SK": {"S": "LIKE#USER#7c20"}}}"#,
    ];
    let key = format!("{EXPORT}/data/part-0001.json");
    put(&connection, &key, (lines.join("\n") + "\n").into_bytes()).await;
    let table = table_with(&connection, "Skipped", 0).await;
    let location = format!("s3://exports/{EXPORT}/");
    let args = [
        "import",
        "--table",
        &table,
        "--skip-invalid",
        "--from-export",
        &location,
    ];
    let data = dir.join("data");
    let out = cli(&moto.url, &args)
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "a line was skipped: {stdout}");
    assert_eq!(items(&connection, &table).await.len(), 2);
    let rejected = data.join("dynoscope/rejected/01764547200000-e5f6a7b8.rejected");
    let text = std::fs::read_to_string(&rejected).unwrap();
    assert!(
        text.contains(&format!("# skipped from s3://exports/{key}")),
        "{text}"
    );
    assert!(text.contains(lines[1]), "{text}");
    assert!(stdout.contains(&rejected.display().to_string()), "{stdout}");
    // A second import would not replace that file (perhaps fixed by hand): refused, none sent.
    let out = cli(&moto.url, &args)
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not replaced"), "{stderr}");
}
