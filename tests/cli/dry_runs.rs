//! A dry run sends no write anywhere: every subcommand that takes `--dry-run` (found in the
//! CLI's own definition, so a new one cannot be missed) is run with it through a proxy that
//! counts every write arriving, and 0 arrive. A delete by `--key` refuses the flags of a delete
//! of many items rather than ignoring them.

use clap::CommandFactory;

use super::common::files::{dynoscope, scratch};
use super::common::{Fault, create_table, empty_engine, fault_proxy, put_all, s, table_name};

const WRITES: &[&str] = &[
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "ExecuteStatement",
    "BatchExecuteStatement",
    "ExecuteTransaction",
    "CreateTable",
    "UpdateTable",
    "DeleteTable",
    "UpdateTimeToLive",
    "UpdateContinuousBackups",
    "TagResource",
    "CreateBackup",
    "DeleteBackup",
    "RestoreTableFromBackup",
];

/// Every subcommand path (`delete`, `table create`…) whose arguments include `--dry-run`.
fn takes_dry_run(command: &clap::Command, path: &str, found: &mut Vec<String>) {
    if command
        .get_arguments()
        .any(|a| a.get_long() == Some("dry-run"))
    {
        found.push(path.trim().to_owned());
    }
    for sub in command.get_subcommands() {
        takes_dry_run(sub, &format!("{path} {}", sub.get_name()), found);
    }
}

/// Each subcommand that takes `--dry-run`, by its name, with its arguments on `table` (a new
/// table: `new_table`; an import: the file at `path`).
fn dry_runs<'a>(
    table: &'a str,
    new_table: &'a str,
    path: &'a str,
) -> Vec<(&'static str, Vec<&'a str>)> {
    vec![
        (
            "delete",
            vec![
                "delete",
                "--table",
                table,
                "--key",
                "PK=P#1",
                "--key",
                "SK=META",
                "--dry-run",
            ],
        ),
        (
            "delete",
            vec![
                "delete",
                "--table",
                table,
                "--from-query",
                "--pk",
                "P#1",
                "--dry-run",
            ],
        ),
        ("truncate", vec!["truncate", "--table", table, "--dry-run"]),
        (
            "table create",
            vec![
                "table",
                "create",
                "--table",
                new_table,
                "--pk",
                "id:S",
                "--dry-run",
            ],
        ),
        (
            "import",
            vec![
                "import",
                "--table",
                table,
                "--format",
                "ddb-json",
                "--dry-run",
                path,
            ],
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_dry_run_sends_a_write() {
    let engine = empty_engine().await;
    let table = table_name("dry");
    create_table(&engine.client, &table).await;
    let item = |pk: &str, sk: &str| {
        std::collections::HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
    };
    put_all(
        &engine.client,
        &table,
        vec![
            item("P#1", "META"),
            item("P#1", "LIKE#1"),
            item("P#2", "META"),
        ],
    )
    .await;
    let file = scratch("dry-run").join("items.jsonl");
    std::fs::write(&file, "{\"PK\":{\"S\":\"P#9\"},\"SK\":{\"S\":\"META\"}}\n").unwrap();
    let path = file.to_str().unwrap();
    let proxy = fault_proxy(
        engine.sandbox.addr(),
        WRITES,
        Fault::Refuse("ValidationException"),
    )
    .await;
    let new_table = table_name("dry-new");
    let runs = dry_runs(&table, &new_table, path);
    for (_, args) in &runs {
        let (code, out, err) = dynoscope(&proxy.url, args).await;
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert_eq!(proxy.arrived(), 0, "{args:?} sent a write: {out}{err}");
    }
    let (_, out, _) = dynoscope(&proxy.url, &runs[0].1).await;
    assert!(out.contains("it would delete the item stored now"), "{out}");
    let stored = super::common::files::scan(&engine, &table).await;
    assert_eq!(stored.len(), 3, "nothing deleted");

    let mut found = Vec::new();
    takes_dry_run(&dynoscope_cli::Cli::command(), "", &mut found);
    found.sort();
    found.dedup();
    let mut tried: Vec<String> = runs.iter().map(|(name, _)| (*name).to_owned()).collect();
    tried.sort();
    tried.dedup();
    assert_eq!(
        found, tried,
        "every subcommand that takes --dry-run is tried here"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_by_key_refuses_the_flags_of_a_bulk_delete() {
    let engine = empty_engine().await;
    let table = table_name("dry-flags");
    create_table(&engine.client, &table).await;
    put_all(
        &engine.client,
        &table,
        vec![std::collections::HashMap::from([
            ("PK".to_owned(), s("P#1")),
            ("SK".to_owned(), s("META")),
        ])],
    )
    .await;
    let proxy = fault_proxy(
        engine.sandbox.addr(),
        WRITES,
        Fault::Refuse("ValidationException"),
    )
    .await;
    let key = [
        "delete", "--table", &table, "--key", "PK=P#1", "--key", "SK=META",
    ];
    for (extra, named) in [
        (&["--pk", "P#1"][..], "--pk"),
        (&["--tally", "likeTally"][..], "--tally"),
        (&["--tallies", "repair"][..], "--tallies"),
    ] {
        let args = [&key[..], extra].concat();
        let (code, out, err) = dynoscope(&proxy.url, &args).await;
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(named), "{args:?}: {err}");
        assert!(err.contains("nothing was sent"), "{args:?}: {err}");
    }
    let args = [&key[..], &["--sk-begins-with", "M"][..]].concat();
    let (code, _, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 2, "{err}");
    // --json is every subcommand's JSON output, a single delete's too: its dry run, as JSON.
    let args = [&key[..], &["--dry-run", "--json"][..]].concat();
    let (code, out, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 0, "{err}");
    let planned: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(planned["exists"], true, "{out}");
    assert_eq!(proxy.arrived(), 0, "nothing sent");
    assert_eq!(super::common::files::scan(&engine, &table).await.len(), 1);
}
