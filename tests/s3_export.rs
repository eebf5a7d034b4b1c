//! A reconcile straight from an export in S3 (`check --from-export s3://…`), against moto's
//! server (its DynamoDB for the table's keys, its S3 for the export): the sandbox's Social
//! exported (gzipped S3 export format) and put where DynamoDB puts a full export's files, with
//! its `manifest-files.json`, beside a stray object the manifest does not name. The same drifts
//! as from the downloaded file, the stray left out; a prefix without a manifest is listed.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::LIKES_RULE;
use crate::common::files::dynoscope;
use crate::common::moto::{moto_connection, table_with};

/// The sandbox's Social, exported as DynamoDB's export to S3 writes its data files.
pub(crate) fn social_export(dir: &Path) -> Vec<u8> {
    let file = dir.join("social.json.gz");
    let _ = std::fs::remove_file(&file);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--sandbox",
            "export",
            "--table",
            "Social",
            "--format",
            "s3-export",
        ])
        .arg("--gzip")
        .arg("--out")
        .arg(&file)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&file).unwrap()
}

/// Each parent's line of a check's JSON lines (`--output jsonl`): its partition, stored tally, counted children, drift.
pub(crate) fn parents(stdout: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v.get("pk").is_some())
        .map(|v| {
            format!(
                "{} {} {} {}",
                v["pk"], v["stored"], v["counted"], v["drift"]
            )
        })
        .collect()
}

/// The export `gz` put again: whole under `plain/`, as five objects under `split/data/`, and
/// under `broken/data/` with a sixth that is not an export's.
async fn put_split_and_broken(connection: &dynoscope_core::connection::Connection, gz: &[u8]) {
    let s3 = connection.s3();
    let put = |key: String, body: Vec<u8>| {
        let request = s3.put_object().bucket("exports").key(key).body(body.into());
        async move { request.send().await.unwrap() }
    };
    put("plain/part.json.gz".to_owned(), gz.to_vec()).await;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(gz), &mut text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (i, part) in lines.chunks(lines.len().div_ceil(5)).enumerate() {
        let body = (part.join("\n") + "\n").into_bytes();
        put(format!("split/data/part-{i}.json"), body.clone()).await;
        put(format!("broken/data/part-{i}.json"), body).await;
    }
    let bad = b"{\"Item\": not json}\n".to_vec();
    put("broken/data/part-9.json".to_owned(), bad).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_from_s3_finds_what_the_downloaded_export_does() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Social", 0).await;
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("s3-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = social_export(&dir);
    let s3 = connection.s3();
    s3.create_bucket().bucket("exports").send().await.unwrap();
    let put = |key: &'static str, body: Vec<u8>| {
        let request = s3.put_object().bucket("exports").key(key).body(body.into());
        async move { request.send().await.unwrap() }
    };
    let data = "nightly/AWSDynamoDB/01764547200000-a1b2c3d4/data/part-0001.json.gz";
    put(data, gz.clone()).await;
    let manifest = format!("{{\"itemCount\": 1, \"dataFileS3Key\": \"{data}\"}}\n");
    put(
        "nightly/AWSDynamoDB/01764547200000-a1b2c3d4/manifest-files.json",
        manifest.into_bytes(),
    )
    .await;
    // A stray file beside it, not the export's: a parent whose tally nobody counted.
    let stray =
        br#"{"Item": {"PK": {"S": "POST#stray"}, "SK": {"S": "META"}, "likeTally": {"N": "9"}}}"#;
    put(
        "nightly/AWSDynamoDB/01764547200000-a1b2c3d4/data/stray.json",
        stray.to_vec(),
    )
    .await;
    put_split_and_broken(&connection, &gz).await;

    let local = dir.join("social.json.gz");
    let run = |from: String| {
        let mut args = vec!["check".to_owned(), "--table".to_owned(), table.clone()];
        args.extend(LIKES_RULE.iter().map(|s| (*s).to_owned()));
        // Every parent checked, an object a line.
        args.extend(["--output", "jsonl", "--from-export"].map(str::to_owned));
        args.push(from);
        let url = moto.url.clone();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &args).await
        }
    };
    let (code, from_file, stderr) = run(local.display().to_string()).await;
    assert_eq!(code, 1, "the seeded drifts: {stderr}");
    let expected = parents(&from_file);
    assert!(!expected.is_empty(), "{from_file}");

    let export = "s3://exports/nightly/AWSDynamoDB/01764547200000-a1b2c3d4/".to_owned();
    let (code, from_s3, stderr) = run(export).await;
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(parents(&from_s3), expected, "{stderr}");
    assert!(
        stderr.contains("read 1 object from s3://exports/"),
        "{stderr}"
    );
    assert!(
        !from_s3.contains("POST#stray"),
        "the stray file is not the export's"
    );

    // The same file with no manifest, listed under its prefix; the same items in five objects,
    // read several at once.
    for (prefix, objects) in [("plain", "1 object"), ("split", "5 objects")] {
        let (code, read, stderr) = run(format!("s3://exports/{prefix}")).await;
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(parents(&read), expected, "{prefix}: {stderr}");
        assert!(stderr.contains(&format!("read {objects} from")), "{stderr}");
    }
    let (code, _, stderr) = run("s3://exports/broken".to_owned()).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("s3://exports/broken/data/part-9.json"),
        "{stderr}"
    );

    let (code, _, stderr) = run("s3://exports/nothing-here".to_owned()).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("holds no .json or .json.gz objects"),
        "{stderr}"
    );
    let (code, _, stderr) = run("s3://Not_A_Bucket/x".to_owned()).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is not a bucket name"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_windows_drifts_are_found_in_an_incremental_export_in_s3() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Social", 0).await;
    // The window's export as DynamoDB lays it out, then put in S3 at the same keys.
    let records = crate::window::the_window();
    let dir = crate::window::export("s3", &records, Some("NEW_AND_OLD_IMAGES"));
    let root = dir.parent().unwrap();
    let s3 = connection.s3();
    s3.create_bucket()
        .bucket("increments")
        .send()
        .await
        .unwrap();
    let id = dir.file_name().unwrap().to_string_lossy().into_owned();
    let files = [
        format!("{id}/manifest-summary.json"),
        format!("{id}/manifest-files.json"),
        "data/part-0001.json.gz".to_owned(),
        "data/other-window.json.gz".to_owned(),
    ];
    for file in &files {
        let mut body = std::fs::read(root.join(file)).unwrap();
        if file.ends_with("manifest-files.json") {
            // The manifest names its objects by their whole key in the bucket.
            let text = String::from_utf8(body).unwrap();
            body = text
                .replace("exports/AWSDynamoDB/", "day/AWSDynamoDB/")
                .into_bytes();
        }
        let key = format!("day/AWSDynamoDB/{file}");
        let put = s3
            .put_object()
            .bucket("increments")
            .key(key)
            .body(body.into());
        put.send().await.unwrap();
    }
    let export = format!("s3://increments/day/AWSDynamoDB/{id}/");
    let mut args = vec!["check", "--table", &table];
    args.extend(LIKES_RULE);
    args.extend(["--incremental-export", &export, "--json"]);
    let (code, stdout, stderr) = dynoscope(&moto.url, &args).await;
    assert_eq!(code, 1, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let gained: Vec<(&str, &str)> = (doc["drifted"].as_array().unwrap().iter())
        .map(|p| {
            (
                p["partition"].as_str().unwrap(),
                p["gained"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(gained, [("POST#w3", "-1"), ("POST#w4", "1")], "{stdout}");
    assert_eq!(doc["view"], "NEW_AND_OLD_IMAGES");
    let file = doc["drifted"][0]["records"][0]["file"].as_str().unwrap();
    assert_eq!(
        file,
        "s3://increments/day/AWSDynamoDB/data/part-0001.json.gz"
    );
}
