//! The CLI and the MCP server say one document: every tool an agent calls is run beside the CLI
//! subcommand that does the same, each on its own sandbox seeded alike (so the writes of one do
//! not move the other's data), the same runs in the same order, and what the CLI prints with
//! `--json` is compared with what the tool answers value for value — not key sets. The only
//! difference allowed is each sandbox's own address, which each document may name.

use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::seed::{DRIFTED, SAMPLE_POST};
use serde_json::{Value, json};

use super::reads::valid_by;
use super::{Agent, audit_path};
use crate::common;

/// How the CLI prints a run: its one document, or (for reads of items) one item a line, the
/// tool answering them under `items` (or `rows`) beside what the read cost.
#[derive(Clone, Copy)]
enum Printed {
    Document,
    Lines(&'static str),
    /// One item, the tool answering it under `item`.
    Item,
}

/// One run: the CLI's arguments (without `--json`), the tool and its arguments, the CLI's exit.
struct Case {
    cli: Vec<&'static str>,
    tool: &'static str,
    arguments: Value,
    printed: Printed,
}

fn case(cli: &[&'static str], tool: &'static str, arguments: Value) -> Case {
    Case {
        cli: cli.to_vec(),
        tool,
        arguments,
        printed: Printed::Document,
    }
}

const LIKES: [&str; 4] = ["--tally", "likeTally", "--child-prefix", "LIKE#"];

fn rule() -> Value {
    json!({"tally": "likeTally", "child_prefix": "LIKE#", "parent_prefix": "POST#"})
}

fn with(head: &[&'static str], tail: &[&'static str]) -> Vec<&'static str> {
    head.iter().chain(tail).copied().collect()
}

/// The runs, in order: the reads, the writes, then the reads of items (which see the writes).
fn cases() -> Vec<Case> {
    [reads(), writes(), item_writes(), item_reads()]
        .into_iter()
        .flatten()
        .collect()
}

fn reads() -> Vec<Case> {
    let rule = rule();
    vec![
        case(&["tables"], "list_tables", json!({})),
        case(
            &["describe", "--table", "Social"],
            "describe_table",
            json!({"table": "Social"}),
        ),
        Case {
            printed: Printed::Item,
            ..case(
                &[
                    "get",
                    "--table",
                    "Social",
                    "--key",
                    "PK=POST#a91f",
                    "--key",
                    "SK=META",
                ],
                "get_item",
                json!({"table": "Social", "key": {"PK": SAMPLE_POST, "SK": "META"}}),
            )
        },
        case(
            &with(&["check", "--table", "Social", "--pk", SAMPLE_POST], &LIKES),
            "check_tally",
            json!({"table": "Social", "pk": SAMPLE_POST, "rule": rule}),
        ),
        case(
            &with(
                &[
                    "check",
                    "--table",
                    "Social",
                    "--parent-prefix",
                    "POST#",
                    "--all",
                ],
                &LIKES,
            ),
            "reconcile",
            json!({"table": "Social", "rule": rule}),
        ),
        case(
            &[
                "check",
                "--table",
                "Videos",
                "--tally",
                "play_count",
                "--pk",
                "VID#c0de",
                "--shards",
                "STATS#TOTAL#",
            ],
            "sum_shards",
            json!({"table": "Videos", "pk": "VID#c0de", "rule": {"tally": "play_count", "shards": "STATS#TOTAL#"}}),
        ),
        case(
            &["plan", "--table", "Social"],
            "plan_routes",
            json!({"table": "Social"}),
        ),
        case(
            &["diff", "--table", "Social", "--to-table", "Social", "--all"],
            "diff",
            json!({"table": "Social", "to_table": "Social"}),
        ),
    ]
}

fn writes() -> Vec<Case> {
    let (rule, drifted) = (rule(), DRIFTED[0].0);
    vec![
        case(
            &[
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
                "1",
            ],
            "add",
            json!({"table": "Videos", "key": {"PK": "VID#9f3a", "SK": "STATS#TOTAL"}, "attribute": "play_count", "delta": "1"}),
        ),
        case(
            &[
                "like",
                "--table",
                "Social",
                "--pk",
                SAMPLE_POST,
                "--user",
                "USER#same",
            ],
            "like",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#same"}),
        ),
        case(
            &[
                "unlike",
                "--table",
                "Social",
                "--pk",
                SAMPLE_POST,
                "--user",
                "USER#same",
            ],
            "unlike",
            json!({"table": "Social", "pk": SAMPLE_POST, "user": "USER#same"}),
        ),
        case(
            &with(
                &["check", "--table", "Social", "--pk", drifted, "--repair"],
                &LIKES,
            ),
            "repair",
            json!({"table": "Social", "pk": drifted, "rule": rule}),
        ),
    ]
}

fn item_writes() -> Vec<Case> {
    vec![
        case(
            &[
                "put",
                "--table",
                "Videos",
                "--item",
                r#"{"PK":{"S":"VID#same"},"SK":{"S":"META"},"n":{"N":"1"}}"#,
            ],
            "put_item",
            json!({"table": "Videos", "item": r#"{"PK":{"S":"VID#same"},"SK":{"S":"META"},"n":{"N":"1"}}"#}),
        ),
        case(
            &[
                "delete",
                "--table",
                "Videos",
                "--key",
                "PK=VID#same",
                "--key",
                "SK=META",
            ],
            "delete_item",
            json!({"table": "Videos", "key": {"PK": "VID#same", "SK": "META"}}),
        ),
        case(
            &[
                "partiql",
                "UPDATE \"Videos\" SET play_count = play_count + 1 WHERE PK = 'VID#9f3a' AND SK = 'STATS#TOTAL'",
            ],
            "partiql_write",
            json!({"statement": "UPDATE \"Videos\" SET play_count = play_count + 1 WHERE PK = 'VID#9f3a' AND SK = 'STATS#TOTAL'"}),
        ),
    ]
}

fn item_reads() -> Vec<Case> {
    vec![
        Case {
            printed: Printed::Lines("items"),
            ..case(
                &["items", "--table", "Social", "--pk", SAMPLE_POST],
                "query",
                json!({"table": "Social", "pk": SAMPLE_POST}),
            )
        },
        Case {
            printed: Printed::Lines("items"),
            ..case(
                &["scan", "--table", "Videos"],
                "scan",
                json!({"table": "Videos"}),
            )
        },
        Case {
            printed: Printed::Lines("items"),
            ..case(
                &["partiql", "SELECT * FROM \"Social\" WHERE PK = 'POST#a91f'"],
                "partiql_select",
                json!({"statement": "SELECT * FROM \"Social\" WHERE PK = 'POST#a91f'"}),
            )
        },
        Case {
            printed: Printed::Lines("rows"),
            ..case(
                &[
                    "sql",
                    "--load",
                    "s=Social:POST#a91f",
                    "SELECT count(*) AS likes FROM s WHERE SK LIKE 'LIKE#%'",
                ],
                "sql",
                json!({"loads": ["s=Social:POST#a91f"], "sql": "SELECT count(*) AS likes FROM s WHERE SK LIKE 'LIKE#%'"}),
            )
        },
    ]
}

/// `value` with the sandbox's address `url` said as `URL`, so two sandboxes' documents compare.
fn placeless(value: &Value, url: &str) -> Value {
    let text = value.to_string().replace(url, "URL");
    serde_json::from_str(&text).expect("still JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_the_document_its_cli_twin_prints() {
    let (for_cli, for_agent) = (Sandbox::start(None, 0), Sandbox::start(None, 0));
    let (for_cli, for_agent) = (for_cli.await.unwrap(), for_agent.await.unwrap());
    let (cli_url, agent_url) = (
        for_cli.endpoint().to_owned(),
        for_agent.endpoint().to_owned(),
    );
    let audit = audit_path("same-document");
    let agent = Agent::start(&agent_url, &["--allow-writes"], &audit).await;
    let listed = agent.client.list_all_tools().await.unwrap();
    let schema = |tool: &str| -> Value {
        let listed = listed.iter().find(|t| t.name == tool).expect("listed");
        let schema = listed.output_schema.as_ref();
        Value::Object((**schema.unwrap_or_else(|| panic!("{tool} publishes its schema"))).clone())
    };
    let (mut compared, mut differ) = (Vec::new(), Vec::new());
    for Case {
        mut cli,
        tool,
        arguments,
        printed,
    } in cases()
    {
        cli.push("--json");
        let (code, out, err) = common::files::dynoscope(&cli_url, &cli).await;
        let answer = agent.call(tool, arguments).await;
        let Some(answered) = answer.structured_content.clone() else {
            panic!("{tool}: no document: {answer:?}");
        };
        // The answer is what the tool's published output schema says it is.
        valid_by(&schema(tool), &answered);
        let answered = placeless(&answered, &agent_url);
        let printed = match printed {
            Printed::Document => serde_json::from_str(out.trim())
                .unwrap_or_else(|e| panic!("{cli:?} prints one document ({e}): {out}\n{err}")),
            Printed::Lines(under) => {
                let lines: Vec<Value> = (out.lines())
                    .map(|line| serde_json::from_str(line).expect("a JSON line"))
                    .collect();
                if Value::Array(lines.clone()) != answered[under] {
                    differ.push(format!("{cli:?}: {lines:?}\n{tool}: {answered}\n{err}"));
                }
                compared.push(tool);
                continue;
            }
            Printed::Item => {
                let item: Value = serde_json::from_str(out.trim()).expect("one item");
                if item != answered["item"] {
                    differ.push(format!("{cli:?}: {item}\n{tool}: {answered}\n{err}"));
                }
                compared.push(tool);
                continue;
            }
        };
        let printed = placeless(&printed, &cli_url);
        if printed != answered {
            differ.push(format!("{cli:?}: {printed}\n{tool}: {answered}\n{err}"));
        }
        let exit = match printed["ending"].as_str() {
            Some("done") => 0,
            Some("refused") => 1,
            Some("error") => 2,
            _ => 3,
        };
        assert_eq!(code, exit, "{cli:?} exits by its ending: {err}");
        compared.push(tool);
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
    // Every tool the server lists is compared here, but two whose CLI twin reads what the
    // sandbox cannot hold alike: `check_window` an incremental export's files (compared in
    // tests/window.rs), `compare_tallies` a second table under one rule (in tests/diff.rs).
    let mut missing: Vec<String> = (listed.iter())
        .map(|tool| tool.name.to_string())
        .filter(|name| !compared.contains(&name.as_str()))
        .collect();
    missing.sort();
    assert_eq!(
        missing,
        ["check_window", "compare_tallies"],
        "tools not compared with the CLI"
    );
    agent.client.cancel().await.unwrap();
}
