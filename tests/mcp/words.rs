//! For the same bad input, the MCP server's error is the CLI's stderr word for word: both check
//! it with the same spec.

use dynoscope_core::seed::SAMPLE_POST;
use serde_json::{Value, json};

use super::{Agent, audit_path};
use crate::common::served::{Served, dynoscope, text};

/// (CLI arguments after the connection, MCP tool, its arguments).
fn cases() -> Vec<(Vec<&'static str>, &'static str, Value)> {
    let mut cases = read_cases();
    cases.extend(statement_cases());
    cases.extend(write_cases());
    cases
}

/// The cases of the reads and the check: items, scan, check.
fn read_cases() -> Vec<(Vec<&'static str>, &'static str, Value)> {
    vec![
        (
            vec![
                "items",
                "--table",
                "Social",
                "--pk",
                SAMPLE_POST,
                "--index",
                "Nope",
            ],
            "query",
            json!({"table": "Social", "pk": SAMPLE_POST, "index": "Nope"}),
        ),
        (
            vec!["items", "--table", "Social", "--pk", ""],
            "query",
            json!({"table": "Social", "pk": ""}),
        ),
        (
            vec![
                "items",
                "--table",
                "Social",
                "--pk",
                "P",
                "--start-key",
                r#"{"PK":{"S":"P"}}"#,
            ],
            "query",
            json!({"table": "Social", "pk": "P", "start_key": r#"{"PK":{"S":"P"}}"#}),
        ),
        (
            vec!["items", "--table", "Nope", "--pk", "P"],
            "query",
            json!({"table": "Nope", "pk": "P"}),
        ),
        (
            vec!["scan", "--table", "Social", "--start-key", "{oops"],
            "scan",
            json!({"table": "Social", "start_key": "{oops"}),
        ),
        (
            vec![
                "check",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--pk",
                SAMPLE_POST,
            ],
            "check_tally",
            json!({"table": "Social", "pk": SAMPLE_POST, "rule": {"tally": "likeTally"}}),
        ),
        (
            vec![
                "check",
                "--table",
                "Social",
                "--tally",
                " ",
                "--child-prefix",
                "LIKE#",
                "--pk",
                SAMPLE_POST,
            ],
            "check_tally",
            json!({"table": "Social", "pk": SAMPLE_POST, "rule": {"tally": " ", "child_prefix": "LIKE#"}}),
        ),
    ]
}

/// The cases of the statements: partiql and sql.
fn statement_cases() -> Vec<(Vec<&'static str>, &'static str, Value)> {
    vec![
        (
            vec!["partiql", r#"SELECT * FROM "Social" WHERE PK = ?"#],
            "partiql_select",
            json!({"statement": r#"SELECT * FROM "Social" WHERE PK = ?"#}),
        ),
        (
            vec!["sql", "--load", "a-b=Social", "SELECT 1"],
            "sql",
            json!({"loads": ["a-b=Social"], "sql": "SELECT 1"}),
        ),
    ]
}

/// The cases of the writes: add, like, put, delete.
fn write_cases() -> Vec<(Vec<&'static str>, &'static str, Value)> {
    vec![
        (
            vec![
                "add",
                "--table",
                "Videos",
                "--key",
                "PK=VID#9f3a",
                "--attr",
                "play_count",
                "--delta",
                "1",
            ],
            "add",
            json!({"table": "Videos", "key": {"PK": "VID#9f3a"}, "attribute": "play_count", "delta": "1"}),
        ),
        (
            vec![
                "add",
                "--table",
                "Videos",
                "--key",
                "PK=VID#9f3a",
                "--key",
                "SK=STATS#TOTAL",
                "--attr",
                "play_count",
                "--delta",
                "one",
            ],
            "add",
            json!({"table": "Videos", "key": {"PK": "VID#9f3a", "SK": "STATS#TOTAL"}, "attribute": "play_count", "delta": "one"}),
        ),
        (
            vec![
                "like",
                "--table",
                "Social",
                "--pk",
                SAMPLE_POST,
                "--user",
                " ",
            ],
            "like",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": " "}),
        ),
        (
            vec!["put", "--table", "Videos", "--item", "{"],
            "put_item",
            json!({"table": "Videos", "item": "{"}),
        ),
        (
            vec![
                "delete",
                "--table",
                "Videos",
                "--key",
                "PK=VID#9f3a",
                "--key",
                "SK=META",
                "--key",
                "x=1",
            ],
            "delete_item",
            json!({"table": "Videos", "key": {"PK": "VID#9f3a", "SK": "META", "x": "1"}}),
        ),
    ]
}

#[test]
fn a_bad_input_gets_the_clis_words() {
    let served = Served::new();
    let url = served.url().to_owned();
    let agent = served.runtime.block_on(Agent::start(
        &url,
        &["--allow-writes"],
        &audit_path("words"),
    ));
    for (args, tool, arguments) in cases() {
        let mut cli = vec!["--endpoint-url", url.as_str()];
        cli.extend(&args);
        let out = dynoscope(&cli);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let said = served.runtime.block_on(agent.refused(tool, arguments));
        assert_eq!(
            text(&out.stderr),
            format!("dynoscope: {said}\n"),
            "{args:?} and {tool} say the same"
        );
    }
    served.runtime.block_on(agent.client.cancel()).unwrap();
}
