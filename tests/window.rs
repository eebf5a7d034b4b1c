//! A window's writes from an incremental export (`check --incremental-export`), as the CLI runs
//! it against its sandbox's Social table: records in the documented format (`Metadata.
//! WriteTimestampMicros`, `Keys`, `OldImage`, `NewImage`, gzipped under `data/`) holding a like,
//! an unlike, a bare child and a lone ADD. Exactly the two drifts are named, each with its
//! record; a full export's line and an export without old images are refused before anything.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::common::LIKES_RULE;

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

fn tally(value: &str) -> Value {
    json!({ "likeTally": n(value) })
}

fn present() -> Value {
    json!({ "likedAt": n("1764547200") })
}

/// An incremental export as DynamoDB lays it out under a prefix: `AWSDynamoDB/<id>/` with its
/// summary (`view`, when given) and `manifest-files.json`, its records gzipped in the shared
/// `AWSDynamoDB/data/` — beside another window's file, which its manifest does not name. The
/// export's folder.
pub(crate) fn export(name: &str, records: &[Value], view: Option<&str>) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("window-{name}-{}", std::process::id()))
        .join("AWSDynamoDB");
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("01764547200000-a1b2c3d4");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(root.join("data")).unwrap();
    let mut summary = json!({"exportType": "INCREMENTAL_EXPORT"});
    if let Some(view) = view {
        summary["outputView"] = json!(view);
    }
    std::fs::write(dir.join("manifest-summary.json"), summary.to_string()).unwrap();
    let files = [
        ("part-0001", records.to_vec()),
        ("other-window", other_window()),
    ];
    for (file, lines) in files {
        let data = std::fs::File::create(root.join(format!("data/{file}.json.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(data, flate2::Compression::default());
        for record in lines {
            writeln!(gz, "{record}").unwrap();
        }
        gz.finish().unwrap();
    }
    let listed = json!({"itemCount": records.len(), "md5Checksum": "x", "etag": "y",
        "dataFileS3Key": "exports/AWSDynamoDB/data/part-0001.json.gz"});
    std::fs::write(dir.join("manifest-files.json"), format!("{listed}\n")).unwrap();
    dir
}

/// Another window's records in the shared folder: a lone ADD that must not be counted.
fn other_window() -> Vec<Value> {
    vec![record(
        "POST#w1",
        "META",
        1,
        Some(tally("5")),
        Some(tally("9")),
    )]
}

fn window(dir: &Path, json: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .args(["--sandbox", "check", "--table", "Social"])
        .args(LIKES_RULE)
        .arg("--incremental-export")
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
            Some(present()),
        ),
        record(
            "POST#w1",
            "META",
            1_764_547_201_000_100,
            Some(tally("4")),
            Some(tally("5")),
        ),
        // An unlike: its child deleted and its ADD of -1.
        record(
            "POST#w2",
            "LIKE#USER#bb",
            1_764_547_202_000_000,
            Some(present()),
            None,
        ),
        record(
            "POST#w2",
            "META",
            1_764_547_202_000_100,
            Some(tally("7")),
            Some(tally("6")),
        ),
        // A bare child: put without its ADD.
        record(
            "POST#w3",
            "LIKE#USER#cc",
            1_764_547_203_000_000,
            None,
            Some(present()),
        ),
        // A lone ADD: the tally moved with no child.
        record(
            "POST#w4",
            "META",
            1_764_547_204_000_000,
            Some(tally("10")),
            Some(tally("11")),
        ),
        // Neither a parent nor a child under the rule.
        record(
            "VID#9f3a",
            "STATS#TOTAL",
            1_764_547_205_000_000,
            None,
            Some(present()),
        ),
    ]
}

#[test]
fn a_windows_two_drifts_are_named_with_their_records() {
    let dir = export("drifts", &the_window(), Some("NEW_AND_OLD_IMAGES"));
    let out = window(&dir, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = dir.parent().unwrap().join("data/part-0001.json.gz");
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
    let dir = export("clean", &records[..4], Some("NEW_AND_OLD_IMAGES"));
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
fn what_is_not_one_incremental_export_with_old_images_is_refused_with_the_way_out() {
    let refused = |dir: &Path, says: &str| {
        let out = window(dir, false);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert!(out.stdout.is_empty());
    };
    let full = [json!({"Item": {"PK": s("POST#w1"), "SK": s("META")}})];
    refused(
        &export("full", &full, None),
        "line 1: this is a full export's line",
    );
    let records = the_window();
    refused(
        &export("new-images", &records, Some("NEW_IMAGE")),
        "the new-images view",
    );
    // Another table's export: its keys are not the table's.
    let other = [json!({"Keys": {"id": n("7")}, "NewImage": {"id": n("7")}})];
    refused(
        &export("other-table", &other, None),
        "the record's Keys have no PK",
    );
    // The prefix's folder holds the exports' folders, not one export.
    refused(
        &export("prefix", &records, None).join(".."),
        "give one export's folder",
    );
    // Two records of one parent: two exports mixed.
    let twice = [records[1].clone(), records[1].clone()];
    refused(
        &export("twice", &twice, None),
        "a second record of parent POST#w1 META",
    );
}

#[test]
fn a_window_of_inserts_only_is_summed_and_its_missing_old_images_said() {
    let inserts = vec![
        record("POST#w5", "LIKE#USER#aa", 1, None, Some(present())),
        record("POST#w5", "META", 2, None, Some(tally("1"))),
    ];
    let out = window(&export("inserts", &inserts, None), false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("No record has an old image"), "{stdout}");
}
