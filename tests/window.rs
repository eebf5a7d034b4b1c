//! A window's writes from an incremental export (`check --incremental-export`), as the CLI runs
//! it against its sandbox's Social table: records in the documented format (`Metadata.
//! WriteTimestampMicros`, `Keys`, `OldImage`, `NewImage`, gzipped under `data/`) holding a like,
//! an unlike, a bare child and a lone ADD. Exactly the two drifts are named, each with its
//! record; a full export's line and an export without old images are refused before anything.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn s(text: &str) -> Value {
    json!({ "S": text })
}

fn n(text: &str) -> Value {
    json!({ "N": text })
}

/// A record: the item `(pk, sk)` at `micros`, its old and new `likeTally` (a parent) or its
/// presence (a child) at the window's ends.
fn record(pk: &str, sk: &str, micros: u64, old: Option<Value>, new: Option<Value>) -> Value {
    let image = |extra: Value| {
        let mut item = json!({"PK": s(pk), "SK": s(sk)});
        if let (Value::Object(item), Value::Object(extra)) = (&mut item, extra) {
            item.extend(extra);
        }
        item
    };
    let mut out = json!({
        "Metadata": {"WriteTimestampMicros": n(&micros.to_string())},
        "Keys": {"PK": s(pk), "SK": s(sk)},
    });
    if let Some(old) = old {
        out["OldImage"] = image(old);
    }
    if let Some(new) = new {
        out["NewImage"] = image(new);
    }
    out
}

fn tally(value: &str) -> Option<Value> {
    Some(json!({ "likeTally": n(value) }))
}

fn present() -> Option<Value> {
    Some(json!({ "likedAt": n("1764547200") }))
}

/// An export folder `AWSDynamoDB/<id>/` with its records gzipped in `data/`, and a manifest.
pub(crate) fn export(name: &str, records: &[Value]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("window-{name}-{}", std::process::id()))
        .join("AWSDynamoDB/01764547200000-a1b2c3d4");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("manifest-summary.json"),
        r#"{"exportType": "INCREMENTAL_EXPORT"}"#,
    )
    .unwrap();
    let file = std::fs::File::create(dir.join("data/part-0001.json.gz")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    for record in records {
        writeln!(gz, "{record}").unwrap();
    }
    gz.finish().unwrap();
    dir
}

fn window(dir: &Path, json: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
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
            "--incremental-export",
        ])
        .arg(dir)
        .env("AWS_EC2_METADATA_DISABLED", "true");
    if json {
        command.arg("--json");
    }
    command.output().unwrap()
}

pub(crate) fn the_window() -> Vec<Value> {
    vec![
        // A like: its child and its ADD.
        record(
            "POST#w1",
            "LIKE#USER#aa",
            1_764_547_201_000_000,
            None,
            present(),
        ),
        record(
            "POST#w1",
            "META",
            1_764_547_201_000_100,
            tally("4"),
            tally("5"),
        ),
        // An unlike: its child deleted and its ADD of -1.
        record(
            "POST#w2",
            "LIKE#USER#bb",
            1_764_547_202_000_000,
            present(),
            None,
        ),
        record(
            "POST#w2",
            "META",
            1_764_547_202_000_100,
            tally("7"),
            tally("6"),
        ),
        // A bare child: put without its ADD.
        record(
            "POST#w3",
            "LIKE#USER#cc",
            1_764_547_203_000_000,
            None,
            present(),
        ),
        // A lone ADD: the tally moved with no child.
        record(
            "POST#w4",
            "META",
            1_764_547_204_000_000,
            tally("10"),
            tally("11"),
        ),
        // Neither a parent nor a child under the rule.
        record(
            "VID#9f3a",
            "STATS#TOTAL",
            1_764_547_205_000_000,
            None,
            present(),
        ),
    ]
}

#[test]
fn a_windows_two_drifts_are_named_with_their_records() {
    let dir = export("drifts", &the_window());
    let out = window(&dir, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = dir.join("data/part-0001.json.gz");
    let expected = format!(
        "Read 7 records of an incremental export of Social (1 file), written \
         2025-12-01T00:00:01Z to 2025-12-01T00:00:05Z: 4 parents touched, 2 gained a drift in \
         the window.\n\
         POST#w3 gained a drift of -1 in the window: likeTally unchanged (no record of the \
         parent), children +1 (1 inserted, 0 removed)\n  {0}:5  LIKE#USER#cc inserted, written 2025-12-01T00:00:03Z\n\
         POST#w4 gained a drift of +1 in the window: likeTally 10 → 11 (+1), children +0 (0 \
         inserted, 0 removed)\n  {0}:6  likeTally 10 → 11, written 2025-12-01T00:00:04Z\n\
         1 record of items neither a parent nor a child under the rule.\n",
        data.display()
    );
    assert_eq!(stdout, expected);

    let out = window(&dir, true);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ending"], "refused");
    assert_eq!(
        (doc["records"].clone(), doc["parents_touched"].clone()),
        (json!(7), json!(4))
    );
    let drifted = doc["drifted"].as_array().unwrap();
    let named: Vec<(&str, &str, u64)> = drifted
        .iter()
        .map(|p| {
            let line = p["records"][0]["line"].as_u64().unwrap();
            (
                p["partition"].as_str().unwrap(),
                p["gained"].as_str().unwrap(),
                line,
            )
        })
        .collect();
    assert_eq!(named, [("POST#w3", "-1", 5), ("POST#w4", "1", 6)]);
}

#[test]
fn a_window_with_no_drift_says_so_and_exits_0() {
    let records = the_window();
    let dir = export("clean", &records[..4]);
    let out = window(&dir, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("2 parents touched, 0 gained a drift"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "No parent gained a drift in the window: every likeTally moved by its \
                         children's count."
        ),
        "{stdout}"
    );
}

#[test]
fn a_full_export_or_one_without_old_images_is_refused_with_the_way_out() {
    let full = export(
        "full",
        &[json!({"Item": {"PK": s("POST#w1"), "SK": s("META")}})],
    );
    let out = window(&full, false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 1: this is a full export's line"),
        "{stderr}"
    );

    let new_only = vec![
        record("POST#w1", "LIKE#USER#aa", 1, None, present()),
        record("POST#w1", "META", 2, None, tally("5")),
    ];
    let out = window(&export("new-images", &new_only), false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("new-and-old-images view"), "{stderr}");
    assert!(out.stdout.is_empty());
}
