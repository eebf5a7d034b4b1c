//! What a comparison may take and what it may say. A tally snapshot holds DynamoDB numbers and
//! each parent once (read through the one number validator: `1e999999999`, 39 digits, `1E+126`,
//! `" 5"`, `0x10` are refused at once, exit 2); a snapshot of no parent is neither written nor
//! read; two places are said when they differ, and a newer side that matches no parent of the
//! older one is not a pass. A key asked for that neither side holds is not a match. A read
//! throttled out is a comparison that could not finish (2), never "they differ" (1). An answer
//! changed on the way (one digit of a GetItem's body, its `x-amz-crc32` as the server sent it)
//! is garbled, never a drift.

use std::path::Path;

use serde_json::Value;

use crate::common::files::{dynoscope, scratch};
use crate::common::{Fault, LIKES_RULE, fault_proxy};
use dynoscope_core::sandbox::Sandbox;

/// `snapshot --table Social --out PATH` under the likes rule.
async fn snapshot(url: &str, table: &str, path: &Path) -> (i32, String, String) {
    let out = path.display().to_string();
    let mut args = vec!["snapshot", "--table", table, "--out", &out];
    args.extend(LIKES_RULE);
    dynoscope(url, &args).await
}

/// The snapshot at `path` with `change` made to its JSON, written to `to`.
fn changed(path: &Path, to: &Path, change: impl FnOnce(&mut Value)) -> String {
    let mut json: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    change(&mut json);
    std::fs::write(to, serde_json::to_vec(&json).unwrap()).unwrap();
    to.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_holds_dynamodb_numbers_each_parent_once_and_some_parent() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let dir = scratch("snapshots-checked");
    let good = dir.join("good.json");
    let (code, out, err) = snapshot(url, "Social", &good).await;
    assert_eq!(code, 0, "{out}{err}");
    let good_text = good.display().to_string();

    let tallies = [
        "1e999999999",
        "123456789012345678901234567890123456789",
        "1E+126",
        " 5",
        "0x10",
    ];
    for tally in tallies {
        let bad = changed(&good, &dir.join("bad.json"), |json| {
            json["parents"][0]["tally"] = Value::String(tally.to_owned());
        });
        let started = std::time::Instant::now();
        let (code, out, err) =
            dynoscope(url, &["diff", "--snapshot", &bad, "--snapshot", &good_text]).await;
        assert_eq!(code, 2, "{tally}: {out}{err}");
        assert!(err.contains("the tally of `"), "{tally}: {err}");
        assert!(out.is_empty(), "{tally}: {out}");
        // Refused as it is read, not after a computation: well within the test's deadline.
        assert!(started.elapsed() < std::time::Duration::from_mins(1));
    }
    let twice = changed(&good, &dir.join("twice.json"), |json| {
        let first = json["parents"][0].clone();
        json["parents"].as_array_mut().unwrap().push(first);
    });
    let (code, _, err) = dynoscope(
        url,
        &["diff", "--snapshot", &twice, "--snapshot", &good_text],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is listed twice"), "{err}");
    let none = changed(&good, &dir.join("none.json"), |json| {
        json["parents"] = Value::Array(Vec::new());
    });
    let (code, _, err) = dynoscope(url, &["diff", "--snapshot", &none]).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds no parent"), "{err}");

    // A table with no parent under the rule: no snapshot is written (the data disagrees: 1).
    let empty = dir.join("empty.json");
    let (code, out, err) = snapshot(url, "Videos", &empty).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("no snapshot was taken"), "{err}");
    assert!(!empty.exists(), "nothing written");

    // Taken at one place, compared with another's now: said, and a table whose parents are
    // none of the snapshot's is no pass.
    let other = Sandbox::start(None, 0).await.unwrap();
    let (code, out, err) = dynoscope(other.endpoint(), &["diff", "--snapshot", &good_text]).await;
    assert_eq!(code, 0, "the same seed: {out}{err}");
    assert!(out.contains("were read at different places"), "{out}");
    let renamed = changed(&good, &dir.join("renamed.json"), |json| {
        for parent in json["parents"].as_array_mut().unwrap() {
            let name = format!("OLD{}", parent["parent"].as_str().unwrap());
            parent["parent"] = Value::String(name);
        }
    });
    let (code, out, err) = dynoscope(url, &["diff", "--snapshot", &renamed, "--json"]).await;
    assert_eq!(code, 1, "{out}{err}");
    let json: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["in_both"], 0, "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_on_neither_side_and_a_throttled_read_are_not_answers() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let nowhere = [
        "diff",
        "--table",
        "Social",
        "--key",
        r#"{"PK":"POST#nowhere","SK":"META"}"#,
    ];
    let (code, out, err) = dynoscope(url, &nowhere).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 on neither side"), "{out}");

    // Every GetItem refused as throttled: the diff could not finish (2), and says no difference.
    let throttled = Fault::ThrottleReads {
        pass: 0,
        refuse: 1_000,
    };
    let proxy = fault_proxy(sandbox.addr(), &["GetItem"], throttled).await;
    let args = [
        "diff",
        "--table",
        "Social",
        "--key",
        r#"{"PK":"POST#a91f","SK":"META"}"#,
    ];
    let (code, out, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("ProvisionedThroughputExceededException"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_changed_on_the_way_is_garbled_not_a_drift() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let straight = ["check", "--table", "Social", "--pk", "POST#a91f"];
    let mut args = straight.to_vec();
    args.extend(LIKES_RULE);
    let (code, out, err) = dynoscope(sandbox.endpoint(), &args).await;
    assert_eq!(code, 0, "POST#a91f is in step: {out}{err}");

    let proxy = fault_proxy(sandbox.addr(), &["GetItem"], Fault::DigitChangedAfterApply).await;
    let (code, out, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(proxy.arrived() > 0, "the GetItem went through the proxy");
    assert!(err.contains("x-amz-crc32"), "{err}");
    assert!(
        !out.contains("drift"),
        "no drift is said from a changed answer: {out}"
    );
}

/// A key value that begins with `-` is a value, as the user gave it: `items --pk -5` queries
/// the partition `-5`, `diff --pk -1` compares it; neither is taken for a flag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_value_beginning_with_a_dash_is_a_value() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let (code, out, err) = dynoscope(url, &["items", "--table", "Social", "--pk", "-5"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "no partition -5: {out}");
    let (code, out, err) = dynoscope(url, &["diff", "--table", "Social", "--pk", "-1"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}
