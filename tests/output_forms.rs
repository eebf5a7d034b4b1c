//! Output that fits a terminal: `--output json|jsonl|table|text` (and `DYNOSCOPE_OUTPUT`) on the
//! CLI's reads and reports, one run's rows the same in every form; a table cut to the width
//! (`COLUMNS`, or a real terminal's) with each cut marked; `text` one line a row for `cut`;
//! `--quiet` the result alone; colour only on a terminal (a pseudo-terminal made by `script`),
//! never with `NO_COLOR` or `TERM=dumb`.

use std::process::Output;

use serde_json::Value;
use unicode_width::UnicodeWidthStr as _;

use crate::common::{LIKES_RULE, served::Served, served::command, served::text};

/// Run the CLI on `served` with `args` and the environment `env`.
pub(crate) fn run(served: &Served, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = command(&["--endpoint-url", served.url()]);
    command
        .args(args)
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

/// (status, stdout, stderr).
pub(crate) fn ran(served: &Served, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = run(served, args, env);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// `add` of `delta` to the seeded `VID#9f3a` play_count.
pub(crate) fn add_play_count(delta: &'static str) -> Vec<&'static str> {
    let key = ["--key", "PK=VID#9f3a", "--key", "SK=STATS#TOTAL"];
    let attr = ["--attr", "play_count", "--delta", delta];
    ["add", "--table", "Videos"]
        .into_iter()
        .chain(key)
        .chain(attr)
        .collect()
}

pub(crate) fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_list_is_the_same_rows_in_every_form() {
    let served = Served::new();
    let (_, table, _) = ran(&served, &["tables", "--output", "table"], &[]);
    assert_eq!(table, "table\nSocial\nVideos\n");
    let (_, tsv, _) = ran(&served, &["tables", "--output", "text"], &[]);
    assert_eq!(tsv, "table\nSocial\nVideos\n");
    let (_, quiet, _) = ran(&served, &["tables", "--output", "text", "--quiet"], &[]);
    assert_eq!(quiet, "Social\nVideos\n");
    let (_, jsonl, _) = ran(&served, &["tables", "--output", "jsonl"], &[]);
    assert_eq!(
        json_lines(&jsonl),
        [
            serde_json::json!({"table": "Social"}),
            serde_json::json!({"table": "Videos"})
        ]
    );
    let (_, json, _) = ran(&served, &["tables", "--output", "json"], &[]);
    let document: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(document["tables"], serde_json::json!(["Social", "Videos"]));
    assert_eq!(document["ending"], "done");
    // The environment chooses when no flag does; a flag beats it.
    let (_, from_env, _) = ran(&served, &["tables"], &[("DYNOSCOPE_OUTPUT", "jsonl")]);
    assert_eq!(from_env, jsonl);
    let env = [("DYNOSCOPE_OUTPUT", "jsonl")];
    let (_, flag, _) = ran(&served, &["tables", "--output", "text"], &env);
    assert_eq!(flag, tsv);
    // describe: its facts as rows, and the MCP server's JSON.
    let (_, facts, _) = ran(
        &served,
        &["describe", "--table", "Social", "-q", "--output", "text"],
        &[],
    );
    assert!(
        facts.lines().any(|l| l == "Partition key\tPK (S)"),
        "{facts}"
    );
    let (_, json, _) = ran(
        &served,
        &["describe", "--table", "Social", "--output", "json"],
        &[],
    );
    let document: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(document["partition_key"]["name"], "PK");
    // The facts keyed in the one casing, their words the rows' values.
    assert_eq!(document["facts"]["partition_key"], "PK (S)", "{document}");
    assert_eq!(document["facts"]["status"], "ACTIVE", "{document}");
}

#[test]
fn the_check_says_the_same_parents_as_rows_as_json_and_aligned() {
    let served = Served::new();
    let check = ["check", "--table", "Social", "--all"];
    let args = |form: &[&'static str]| -> Vec<&str> {
        let rule = LIKES_RULE.iter().copied();
        check
            .iter()
            .copied()
            .chain(rule)
            .chain(form.iter().copied())
            .collect()
    };
    let (status, json, _) = ran(&served, &args(&["--output", "jsonl"]), &[]);
    assert_eq!(status, 1, "the sandbox's seeded drifts");
    let objects = json_lines(&json);
    let (status, tsv, stderr) = ran(&served, &args(&["--output", "text", "--quiet"]), &[]);
    assert_eq!(status, 1);
    assert_eq!(stderr, "", "--quiet says no summary");
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), objects.len());
    assert!(rows.len() > 20, "every parent: {}", rows.len());
    for (row, object) in rows.iter().zip(&objects) {
        let cell = |key: &str| object[key].as_str().unwrap_or("").to_owned();
        assert_eq!(
            row,
            &[cell("pk"), cell("stored"), cell("counted"), cell("drift")]
        );
    }
    let drifted: Vec<&str> = (rows.iter())
        .filter(|r| !r[3].is_empty() && r[3] != "0")
        .map(|r| r[0])
        .collect();
    assert_eq!(drifted, ["POST#3b0c", "POST#d71e"]);
    // Aligned: each column begins at the same place on every line.
    let (_, table, _) = ran(&served, &args(&["--output", "table"]), &[]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["pk", "stored", "counted", "drift"]
    );
    let counted_at = lines[0].find("counted").unwrap();
    let row = lines.iter().find(|l| l.starts_with("POST#3b0c")).unwrap();
    assert_eq!(&row[counted_at..counted_at + 3], "274", "{row:?}");
}

#[test]
fn a_table_fits_its_width_with_each_cut_marked_and_text_keeps_every_cell_whole() {
    let served = Served::new();
    let item = r#"{"PK":{"S":"OUT#1"},"SK":{"S":"A"},"note":{"S":"tab\there\nnew line, and a long tail that no narrow terminal shows whole"},"n":{"N":"12345678901234567890.5"}}"#;
    let (status, _, stderr) = ran(&served, &["put", "--table", "Social", "--item", item], &[]);
    assert_eq!(status, 0, "{stderr}");
    let items = ["items", "--table", "Social", "--pk", "OUT#1"];
    let with = |form: &[&'static str]| -> Vec<&str> { items.iter().chain(form).copied().collect() };
    let (_, table, _) = ran(&served, &with(&["--output", "table"]), &[("COLUMNS", "40")]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(lines.iter().all(|l| l.width() <= 40), "{table}");
    assert!(lines[1].starts_with("OUT#1  A"), "{table}");
    assert!(lines[1].contains('…'), "a cut is marked: {table}");
    assert!(lines[1].contains(r"tab\there\n"), "one line a row: {table}");
    // Wide enough, nothing is cut: the number is exact.
    let (_, wide, _) = ran(
        &served,
        &with(&["--output", "table"]),
        &[("COLUMNS", "200")],
    );
    assert!(
        !wide.contains('…') && wide.contains("12345678901234567890.5"),
        "{wide}"
    );
    // Too narrow for every column: those left out are named on stderr.
    let (_, narrow, stderr) = ran(&served, &with(&["--output", "table"]), &[("COLUMNS", "16")]);
    assert_eq!(narrow.lines().next(), Some("PK     SK"), "{narrow}");
    assert!(
        stderr.contains("2 more column(s) did not fit in 16 characters: n, note"),
        "{stderr}"
    );
    // text: whole cells, a tab or newline inside one written \t and \n.
    let (_, tsv, _) = ran(
        &served,
        &with(&["--output", "text", "-q"]),
        &[("COLUMNS", "16")],
    );
    assert_eq!(
        tsv,
        "OUT#1\tA\t12345678901234567890.5\ttab\\there\\nnew line, and a long tail that no narrow terminal shows whole\n"
    );
    // json: DynamoDB JSON, as --json; jsonl: plain JSON, as without --output.
    let (_, json, _) = ran(&served, &with(&["--output", "json"]), &[]);
    let (_, flag, _) = ran(&served, &with(&["--json"]), &[]);
    assert_eq!(json, flag);
    assert_eq!(json_lines(&json)[0]["n"]["N"], "12345678901234567890.5");
    let (_, jsonl, _) = ran(&served, &with(&["--output", "jsonl"]), &[]);
    let (_, plain, _) = ran(&served, &items, &[]);
    assert_eq!(jsonl, plain);
}

/// Run `args` on a pseudo-terminal `cols` wide (util-linux's `script`), with `env`; what the
/// terminal showed.
fn on_terminal(served: &Served, args: &[&str], cols: u16, env: &[(&str, &str)]) -> String {
    let binary = env!("CARGO_BIN_EXE_dynoscope");
    let words: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let line = format!(
        "stty rows 40 cols {cols}; '{binary}' --endpoint-url {} {}",
        served.url(),
        words.join(" ")
    );
    let mut command = std::process::Command::new("script");
    command
        .args(["-qec", &line, "/dev/null"])
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("TERM", "xterm")
        .env_remove("DYNOSCOPE_OUTPUT")
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().expect("script (util-linux) runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).replace('\r', "")
}

#[test]
fn colour_and_width_come_from_a_real_terminal_only() {
    let served = Served::new();
    let items = [
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--output",
        "table",
    ];
    let shown = on_terminal(&served, &items, 50, &[]);
    assert!(
        shown.starts_with("\u{1b}[1mPK "),
        "the header in bold: {shown:?}"
    );
    let rows: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("POST#a91f"))
        .collect();
    assert!(
        !rows.is_empty() && rows.iter().all(|l| l.width() <= 50),
        "{shown}"
    );
    assert!(
        shown.contains("more column(s) did not fit in 50 characters"),
        "{shown}"
    );
    for env in [("NO_COLOR", "1"), ("TERM", "dumb")] {
        let plain = on_terminal(&served, &items, 50, &[env]);
        assert!(!plain.contains('\u{1b}'), "{env:?}: {plain:?}");
    }
    // Words are coloured by tone on a terminal, never in a pipe.
    let add = add_play_count("1");
    assert!(on_terminal(&served, &add, 80, &[]).contains("\u{1b}[1mADD"));
    let (_, piped, _) = ran(&served, &add, &[("TERM", "xterm")]);
    assert!(!piped.contains('\u{1b}'), "{piped:?}");
}
