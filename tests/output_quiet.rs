//! `--quiet` prints the result alone and never cuts it; hostile values stay escaped in every
//! output; an output that does not apply, or disagrees, is refused before anything is sent, and
//! said as JSON when JSON was asked for.

use serde_json::Value;

use crate::common::{LIKES_RULE, served::Served};
use crate::output_forms::{add_play_count, json_lines, ran};

#[test]
fn quiet_prints_the_result_alone() {
    let served = Served::new();
    let add = add_play_count("5");
    let before: Value =
        serde_json::from_str(served.item("Videos", "VID#9f3a", "STATS#TOTAL").trim()).unwrap();
    let before: i128 = before["play_count"].to_string().parse().unwrap();
    let args: Vec<&str> = add.iter().copied().chain(["--quiet"]).collect();
    let (status, stdout, stderr) = ran(&served, &args, &[]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        format!("{}\n", before + 5),
        "the server's new value alone"
    );
    // An error is still said, in JSON with JSON output.
    let (status, stdout, stderr) = ran(
        &served,
        &["describe", "--table", "Nope", "-q", "--output", "jsonl"],
        &[],
    );
    assert_eq!((status, stdout.as_str()), (2, ""));
    let error: Value = serde_json::from_str(stderr.trim()).unwrap();
    assert_eq!(error["exit"], 2);
}

#[test]
fn a_bad_output_is_refused_before_anything_is_sent() {
    let served = Served::new();
    let add = add_play_count("5");
    let before = served.item("Videos", "VID#9f3a", "STATS#TOTAL");
    let (status, stdout, stderr) = ran(&served, &add, &[("DYNOSCOPE_OUTPUT", "yaml")]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains(
            r#"DYNOSCOPE_OUTPUT="yaml" is not an output: give json, jsonl, table or text"#
        ),
        "{stderr}"
    );
    let args: Vec<&str> = add
        .iter()
        .copied()
        .chain(["--json", "--output", "table"])
        .collect();
    let (status, _, stderr) = ran(&served, &args, &[]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("--json and --output table disagree"),
        "{stderr}"
    );
    let (status, _, stderr) = ran(&served, &["tables", "--output", "yaml"], &[]);
    assert_eq!(status, 2, "{stderr}");
    // What prints no read or report refuses --output, and DYNOSCOPE_OUTPUT leaves it alone.
    let (status, _, stderr) = ran(&served, &["completions", "bash", "--output", "json"], &[]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("completions prints a script: --output json does not apply"),
        "{stderr}"
    );
    // Asked for JSON, the refusal is JSON too.
    let error: Value = serde_json::from_str(stderr.trim()).unwrap();
    assert_eq!(error["exit"], 2);
    let iac = [
        "table",
        "iac",
        "--table",
        "Social",
        "--format",
        "terraform",
        "--output",
        "text",
    ];
    let (status, _, stderr) = ran(&served, &iac, &[]);
    assert_eq!(status, 2);
    assert!(stderr.contains("table iac prints code"), "{stderr}");
    let (status, _, stderr) = ran(&served, &["--output", "table"], &[]);
    assert_eq!(status, 2, "no window is opened: {stderr}");
    let (status, script, _) = ran(
        &served,
        &["completions", "bash"],
        &[("DYNOSCOPE_OUTPUT", "yaml")],
    );
    assert!(status == 0 && script.contains("_dynoscope"), "{status}");
    assert_eq!(
        served.item("Videos", "VID#9f3a", "STATS#TOTAL"),
        before,
        "nothing was written"
    );
}

#[test]
fn quiet_words_are_never_cut_and_results_are_figures() {
    let served = Served::new();
    let (_, words, _) = ran(&served, &["paths", "-q"], &[("COLUMNS", "30")]);
    assert!(
        words.lines().count() >= 8 && !words.contains('…'),
        "{words}"
    );
    assert!(
        words
            .lines()
            .all(|l| l.contains("dynoscope") || l.contains(".aws")),
        "{words}"
    );
    let advice = [
        "shards-advice",
        "--writes-per-second",
        "5000",
        "--item-bytes",
        "100",
        "-q",
    ];
    let (status, shards, stderr) = ran(&served, &advice, &[]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(shards.trim().parse::<u64>().unwrap() >= 5, "{shards}");
    // A delete's dry run is a report too: JSON with either spelling, nothing sent.
    let delete = [
        "delete",
        "--table",
        "Social",
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=META",
    ];
    for json in [
        &["--dry-run", "--json"][..],
        &["--dry-run", "--output", "json"],
    ] {
        let args: Vec<&str> = delete.iter().chain(json).copied().collect();
        let (status, out, stderr) = ran(&served, &args, &[]);
        assert_eq!(status, 0, "{stderr}");
        let document: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (document["dry_run"].clone(), document["exists"].clone()),
            (true.into(), true.into())
        );
    }
    let (_, meta, _) = ran(
        &served,
        &[
            "get",
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ],
        &[],
    );
    assert!(meta.contains("likeTally"), "still there: {meta}");
}

#[test]
fn a_hostile_key_stays_escaped_in_every_output() {
    let served = Served::new();
    let evil = r"POST#\u001b[2J\u202eevil\u009b";
    let item = format!(r#"{{"PK":{{"S":"{evil}"}},"SK":{{"S":"META"}},"likeTally":{{"N":"1"}}}}"#);
    let (status, _, stderr) = ran(&served, &["put", "--table", "Social", "--item", &item], &[]);
    assert_eq!(status, 0, "{stderr}");
    let check = ["check", "--table", "Social", "--all"];
    for form in ["json", "jsonl", "table", "text"] {
        let args: Vec<&str> = check
            .iter()
            .copied()
            .chain(LIKES_RULE)
            .chain(["--output", form])
            .collect();
        let (status, out, _) = ran(&served, &args, &[]);
        assert_eq!(status, 1, "{form}");
        assert!(
            !out.contains(['\u{1b}', '\u{202e}', '\u{9b}']),
            "{form}: {out:?}"
        );
        assert!(
            out.contains(r"\u001b[2J\u202eevil\u009b"),
            "{form}: {out:?}"
        );
        if form == "jsonl" {
            // Escaped, the JSON is still the same value.
            let parents = json_lines(&out);
            assert!(
                parents
                    .iter()
                    .any(|p| p["pk"] == "POST#\u{1b}[2J\u{202e}evil\u{9b}")
            );
        }
    }
}
