//! An export read twice over is refused, never counted twice: the sandbox's Social exported
//! once and copied into two folders under one (`two/a/`, `two/b/`) — on this machine and in
//! moto's S3 under one prefix — is a key given twice, for `check --from-export` and for `diff`
//! alike, in bounded memory; one copy alone passes. And a comparison whose export side fails
//! part-way ends with the error, its other side stopped and waited for (no reader left to
//! meet a runtime shutting down).

use std::path::Path;

use crate::common::LIKES_RULE;
use crate::common::files::{dynoscope, scratch};
use crate::common::moto::{moto_connection, table_with};
use crate::s3_export::social_export;
use dynoscope_core::sandbox::Sandbox;

/// `check` of `table` under the likes rule from the export at `from`.
fn check_args<'a>(table: &'a str, from: &'a str) -> Vec<&'a str> {
    let mut args = vec!["check", "--table", table];
    args.extend(LIKES_RULE);
    args.extend(["--from-export", from]);
    args
}

/// `gz` copied into `dir/two/a/` and `dir/two/b/`: the folder `dir/two`.
fn copied_twice(dir: &Path, gz: &[u8]) -> String {
    for side in ["a", "b"] {
        let folder = dir.join("two").join(side);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("social.json.gz"), gz).unwrap();
    }
    dir.join("two").display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_copied_twice_is_refused_by_check_and_diff() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let dir = scratch("exports-twice");
    let gz = social_export(&dir);
    let once = dir.join("social.json.gz").display().to_string();
    let two = copied_twice(&dir, &gz);

    // One copy: the seeded drifts (exit 1), 45 parents.
    let (code, out, err) = dynoscope(url, &check_args("Social", &once)).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("POST#d71e"), "the seeded drifts: {out}");
    assert!(!err.contains("is there twice"), "{err}");

    // Two copies: a key twice, refused (2) before any count is said.
    let (code, out, err) = dynoscope(url, &check_args("Social", &two)).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is there twice"), "{err}");
    assert!(err.contains("point at one export"), "{err}");
    assert!(!out.contains("drifted"), "no count is said: {out}");

    // The diff of the table with the doubled export: refused, never "only in A".
    let diff = ["diff", "--table", "Social", "--from-export", &two, "--all"];
    for _ in 0..2 {
        let (code, out, err) = dynoscope(url, &diff).await;
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("is there twice"), "{err}");
        assert!(!out.contains("only in A"), "{out}");
    }
    // One copy against the table: the same items.
    let diff_once = ["diff", "--table", "Social", "--from-export", &once, "--all"];
    let (code, out, err) = dynoscope(url, &diff_once).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("0 only in A, 0 only in B, 0 different"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_exports_under_one_prefix_in_s3_are_refused_and_a_failed_object_ends_cleanly() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Social", 0).await;
    let dir = scratch("exports-twice-s3");
    let gz = social_export(&dir);
    let s3 = connection.s3();
    s3.create_bucket().bucket("twice").send().await.unwrap();
    let put = |key: String, body: Vec<u8>| {
        let request = s3.put_object().bucket("twice").key(key).body(body.into());
        async move { request.send().await.unwrap() }
    };
    put("both/a/part.json.gz".to_owned(), gz.clone()).await;
    put("both/b/part.json.gz".to_owned(), gz.clone()).await;
    // Five objects of the export, and the same with a sixth that is not an export's.
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (i, part) in lines.chunks(lines.len().div_ceil(5)).enumerate() {
        let body = (part.join("\n") + "\n").into_bytes();
        put(format!("split/data/part-{i}.json"), body.clone()).await;
        put(format!("broken/data/part-{i}.json"), body).await;
    }
    put(
        "broken/data/part-0-bad.json".to_owned(),
        b"{\"Item\": not json}\n".to_vec(),
    )
    .await;

    let (code, out, err) = dynoscope(&moto.url, &check_args(&table, "s3://twice/both")).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is there twice"), "{err}");
    let diff = |from: &'static str, to: &'static str| {
        let table = table.clone();
        let url = moto.url.clone();
        async move {
            let args = [
                "diff",
                "--table",
                &table,
                "--from-export",
                from,
                "--to-export",
                to,
                "--all",
            ];
            dynoscope(&url, &args).await
        }
    };
    let (code, out, err) = diff("s3://twice/both", "s3://twice/split").await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is there twice"), "{err}");
    // One side fails on its first object while the other reads five: the error, exit 2,
    // and nothing left running to panic at the end.
    let (code, out, err) = diff("s3://twice/broken", "s3://twice/split").await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("part-0-bad.json"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let (code, out, err) = diff("s3://twice/split", "s3://twice/split").await;
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
