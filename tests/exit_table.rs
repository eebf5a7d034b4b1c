//! The one exit-code table, proved by one table: every subcommand run through each outcome class
//! that applies to it (done, refused, missing, drift, bad input, throttled out, a server
//! validation error, unknown), its status checked against `cli::Exit`. A class that cannot
//! happen to a subcommand (a read has no unknown outcome) has no row.

mod common;

use common::Fault;
use common::served::{Served, dynoscope, text};
use dynoscope::cli::Exit;

/// Where a row's command goes: the sandbox itself, or a fault proxy in front of it.
enum Via {
    Direct,
    Proxy(&'static [&'static str], Fault),
}

/// One row: a subcommand, the outcome class it is run into, and the status the table gives.
struct Row {
    class: &'static str,
    via: Via,
    args: Vec<String>,
    expect: Exit,
}

fn row(class: &'static str, via: Via, args: &[&str], expect: Exit) -> Row {
    Row {
        class,
        via,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        expect,
    }
}

const THROTTLED: Fault = Fault::Throttle(1_000_000);
const INVALID: Fault = Fault::Refuse("ValidationException");

fn rows(dir: &std::path::Path) -> Vec<Row> {
    use Exit::{Done, Error as Bad, Refused, Unknown};
    use Via::{Direct, Proxy};
    let path = |name: &str| dir.join(name).display().to_string();
    let import_file = path("import.jsonl");
    let bad_file = path("bad.jsonl");
    let out_file = path("out.jsonl");
    let stats = [
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
    ];
    let add = |extra: &[&str]| {
        let mut args = vec!["add"];
        args.extend(stats);
        args.extend(["--attr", "play_count", "--delta", "1"]);
        args.extend(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let a = |v: Vec<String>| {
        v.iter()
            .map(String::as_str)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let mut rows = vec![
        row("done", Direct, &["tables"], Done),
        row(
            "throttled out",
            Proxy(&["ListTables"], THROTTLED),
            &["tables"],
            Refused,
        ),
        row("bad input", Direct, &["--timeout", "0", "tables"], Bad),
        row("done", Direct, &["describe", "--table", "Social"], Done),
        row("bad input", Direct, &["describe", "--table", "Nope"], Bad),
        row(
            "validation error",
            Proxy(&["DescribeTable"], INVALID),
            &["describe", "--table", "Social"],
            Bad,
        ),
        row(
            "done",
            Direct,
            &["items", "--table", "Social", "--pk", "POST#a91f"],
            Done,
        ),
        row(
            "bad input",
            Direct,
            &[
                "items",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--limit",
                "0",
            ],
            Bad,
        ),
        row(
            "throttled out",
            Proxy(
                &["Query"],
                Fault::ThrottleReads {
                    pass: 0,
                    refuse: 1_000_000,
                },
            ),
            &[
                "items",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--max-throttle-wait",
                "0",
            ],
            Refused,
        ),
        row(
            "validation error",
            Proxy(&["Query"], INVALID),
            &["items", "--table", "Social", "--pk", "POST#a91f"],
            Bad,
        ),
        row("done", Direct, &["scan", "--table", "Videos"], Done),
        row(
            "bad input",
            Direct,
            &["scan", "--table", "Videos", "--segments", "0"],
            Bad,
        ),
        row(
            "throttled out",
            Proxy(
                &["Scan"],
                Fault::ThrottleReads {
                    pass: 0,
                    refuse: 1_000_000,
                },
            ),
            &["scan", "--table", "Videos", "--max-throttle-wait", "0"],
            Refused,
        ),
        row(
            "validation error",
            Proxy(&["Scan"], INVALID),
            &["scan", "--table", "Videos"],
            Bad,
        ),
    ];
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: a(add(&[])),
            expect: Done,
        },
        row(
            "missing",
            Direct,
            &[
                "add",
                "--table",
                "Videos",
                "--key",
                "PK=VID#nope",
                "--key",
                "SK=STATS#TOTAL",
                "--attr",
                "play_count",
                "--delta",
                "1",
            ],
            Refused,
        ),
        Row {
            class: "bad input",
            via: Direct,
            args: a(add(&["--key", "PK=VID#other"])),
            expect: Bad,
        },
        Row {
            class: "throttled out",
            via: Proxy(&["UpdateItem"], THROTTLED),
            args: a(add(&[])),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["UpdateItem"], INVALID),
            args: a(add(&[])),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["UpdateItem"], Fault::HtmlAfterApply),
            args: a(add(&[])),
            expect: Unknown,
        },
    ]);
    let check = |pk: &str| {
        vec![
            "check",
            "--table",
            "Social",
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--pk",
            pk,
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: check("POST#a91f"),
            expect: Done,
        },
        Row {
            class: "drift",
            via: Direct,
            args: check("POST#d71e"),
            expect: Refused,
        },
        Row {
            class: "missing",
            via: Direct,
            args: check("POST#nope"),
            expect: Refused,
        },
        row(
            "bad input",
            Direct,
            &[
                "check",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--pk",
                "POST#a91f",
            ],
            Bad,
        ),
        Row {
            class: "throttled out",
            via: Proxy(&["GetItem"], THROTTLED),
            args: check("POST#a91f"),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["GetItem"], INVALID),
            args: check("POST#a91f"),
            expect: Bad,
        },
        row(
            "done",
            Direct,
            &[
                "check",
                "--table",
                "Social",
                "--tally",
                "likeTally",
                "--child-prefix",
                "LIKE#",
                "--all",
            ],
            Refused,
        ),
    ]);
    let like = |op: &str, pk: &str, user: &str| {
        vec![op, "--table", "Social", "--pk", pk, "--user", user]
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: like("like", "POST#a91f", "USER#table"),
            expect: Done,
        },
        Row {
            class: "refused",
            via: Direct,
            args: like("like", "POST#a91f", "USER#table"),
            expect: Refused,
        },
        Row {
            class: "done",
            via: Direct,
            args: like("unlike", "POST#a91f", "USER#table"),
            expect: Done,
        },
        Row {
            class: "refused",
            via: Direct,
            args: like("unlike", "POST#a91f", "USER#never"),
            expect: Refused,
        },
        Row {
            class: "missing",
            via: Direct,
            args: like("like", "POST#nope", "USER#table"),
            expect: Refused,
        },
        Row {
            class: "bad input",
            via: Direct,
            args: like("like", "POST#a91f", " "),
            expect: Bad,
        },
        Row {
            class: "throttled out",
            via: Proxy(&["TransactWriteItems"], THROTTLED),
            args: like("like", "POST#a91f", "USER#t2"),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["TransactWriteItems"], INVALID),
            args: like("like", "POST#a91f", "USER#t3"),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["TransactWriteItems"], Fault::GarbageAfterApply),
            args: like("like", "POST#a91f", "USER#t4"),
            expect: Unknown,
        },
    ]);
    let storm = |pk: &str, users: &str| {
        vec!["storm", "--table", "Social", "--pk", pk, "--users", users]
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: storm("POST#a91f", "10"),
            expect: Done,
        },
        Row {
            class: "missing",
            via: Direct,
            args: storm("POST#nope", "10"),
            expect: Refused,
        },
        Row {
            class: "bad input",
            via: Direct,
            args: storm("POST#a91f", "0"),
            expect: Bad,
        },
        Row {
            class: "throttled out",
            via: Proxy(&["TransactWriteItems"], THROTTLED),
            args: storm("POST#a91f", "4"),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["TransactWriteItems"], INVALID),
            args: storm("POST#a91f", "4"),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["TransactWriteItems"], Fault::HtmlAfterApply),
            args: storm("POST#a91f", "4"),
            expect: Unknown,
        },
        row(
            "done",
            Direct,
            &[
                "expr",
                "update",
                "SET a = :v",
                "--values",
                r#"{":v":{"SS":["x"]}}"#,
            ],
            Done,
        ),
        row(
            "bad input",
            Direct,
            &[
                "expr",
                "update",
                "SET a = :v",
                "--values",
                r#"{":v":{"SS":[]}}"#,
            ],
            Bad,
        ),
        row(
            "bad input",
            Direct,
            &[
                "expr",
                "update",
                "SET a = :v",
                "--values",
                r#"{":v":{"SS":["x","x"]}}"#,
            ],
            Bad,
        ),
    ]);
    let insert = |pk: &str| {
        vec![
            "partiql".to_owned(),
            format!(r#"INSERT INTO "Social" VALUE {{'PK': '{pk}', 'SK': 'A'}}"#),
        ]
    };
    rows.extend([
        row(
            "done",
            Direct,
            &["partiql", r#"SELECT * FROM "Videos""#],
            Done,
        ),
        Row {
            class: "done",
            via: Direct,
            args: insert("PQ#1"),
            expect: Done,
        },
        Row {
            class: "refused",
            via: Direct,
            args: insert("PQ#1"),
            expect: Refused,
        },
        row(
            "bad input",
            Direct,
            &[
                "partiql",
                r#"SELECT * FROM "Videos" WHERE PK = ?"#,
                "--param",
                r#"{"SS":[]}"#,
            ],
            Bad,
        ),
        Row {
            class: "throttled out",
            via: Proxy(&["ExecuteStatement"], THROTTLED),
            args: insert("PQ#2"),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["ExecuteStatement"], INVALID),
            args: insert("PQ#3"),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["ExecuteStatement"], Fault::HtmlAfterApply),
            args: insert("PQ#4"),
            expect: Unknown,
        },
        row(
            "validation error",
            Proxy(&["ExecuteStatement"], INVALID),
            &["partiql", r#"SELECT * FROM "Videos""#],
            Bad,
        ),
        row(
            "done",
            Direct,
            &["sql", "--load", "v=Videos", "SELECT count(*) AS n FROM v"],
            Done,
        ),
        row("bad input", Direct, &["sql", "SELEC 1"], Bad),
        row(
            "done",
            Direct,
            &["export", "--table", "Videos", "--out", &out_file],
            Done,
        ),
        row(
            "bad input",
            Direct,
            &[
                "export", "--table", "Videos", "--format", "nope", "--out", &out_file,
            ],
            Bad,
        ),
        row(
            "done",
            Direct,
            &[
                "import",
                "--table",
                "Social",
                "--format",
                "ddb-json",
                &import_file,
            ],
            Done,
        ),
        row(
            "bad input",
            Direct,
            &[
                "import", "--table", "Social", "--format", "ddb-json", &bad_file,
            ],
            Bad,
        ),
        row(
            "throttled out",
            Proxy(&["BatchWriteItem"], THROTTLED),
            &[
                "import",
                "--table",
                "Social",
                "--format",
                "ddb-json",
                &import_file,
            ],
            Refused,
        ),
        row(
            "validation error",
            Proxy(&["BatchWriteItem"], INVALID),
            &[
                "import",
                "--table",
                "Social",
                "--format",
                "ddb-json",
                &import_file,
            ],
            Bad,
        ),
        row(
            "unknown",
            Proxy(&["BatchWriteItem"], Fault::HtmlAfterApply),
            &[
                "import",
                "--table",
                "Social",
                "--format",
                "ddb-json",
                &import_file,
            ],
            Unknown,
        ),
    ]);
    let put = |pk: &str, extra: &[&str]| {
        let mut args = vec![
            "put".to_owned(),
            "--table".into(),
            "Social".into(),
            "--item".into(),
        ];
        args.push(format!(r#"{{"PK":{{"S":"{pk}"}},"SK":{{"S":"A"}}}}"#));
        args.extend(extra.iter().map(|e| (*e).to_owned()));
        args
    };
    let delete = |pk: &str| {
        vec![
            "delete",
            "--table",
            "Social",
            "--key",
            &format!("PK={pk}"),
            "--key",
            "SK=A",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: put("PUT#1", &["--create-only"]),
            expect: Done,
        },
        Row {
            class: "refused",
            via: Direct,
            args: put("PUT#1", &["--create-only"]),
            expect: Refused,
        },
        row(
            "bad input",
            Direct,
            &[
                "put",
                "--table",
                "Social",
                "--item",
                r#"{"PK":{"S":"DP#4"},"PK":{"S":"DP#5"},"SK":{"S":"A"}}"#,
            ],
            Bad,
        ),
        row(
            "bad input",
            Direct,
            &[
                "put",
                "--table",
                "Social",
                "--item",
                r#"{"PK":{"S":"P"},"SK":{"S":"A"},"s":{"SS":[]}}"#,
            ],
            Bad,
        ),
        Row {
            class: "throttled out",
            via: Proxy(&["PutItem"], THROTTLED),
            args: put("PUT#2", &[]),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["PutItem"], INVALID),
            args: put("PUT#3", &[]),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["PutItem"], Fault::HtmlAfterApply),
            args: put("PUT#4", &[]),
            expect: Unknown,
        },
        Row {
            class: "done",
            via: Direct,
            args: delete("PUT#1"),
            expect: Done,
        },
        row(
            "bad input",
            Direct,
            &[
                "delete", "--table", "Social", "--key", "PK=A", "--key", "SK=A", "--key", "PK=B",
            ],
            Bad,
        ),
        Row {
            class: "throttled out",
            via: Proxy(&["DeleteItem"], THROTTLED),
            args: delete("PUT#4"),
            expect: Refused,
        },
        Row {
            class: "validation error",
            via: Proxy(&["DeleteItem"], INVALID),
            args: delete("PUT#4"),
            expect: Bad,
        },
        Row {
            class: "unknown",
            via: Proxy(&["DeleteItem"], Fault::HtmlAfterApply),
            args: delete("PUT#4"),
            expect: Unknown,
        },
    ]);
    rows
}

#[test]
fn every_subcommand_exits_by_the_one_table() {
    // The table as the README and --help print it: the statuses below are these numbers.
    let statuses = [Exit::Done, Exit::Refused, Exit::Error, Exit::Unknown].map(Exit::status);
    assert_eq!(statuses, [0, 1, 2, 3]);
    let served = Served::new();
    let dir = std::env::temp_dir().join(format!("dynoscope-exit-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines: String = (0..30)
        .map(|i| format!("{{\"PK\":{{\"S\":\"IMP#{i}\"}},\"SK\":{{\"S\":\"A\"}}}}\n"))
        .collect();
    std::fs::write(dir.join("import.jsonl"), lines).unwrap();
    std::fs::write(dir.join("bad.jsonl"), "{\"PK\":{\"S\":\"x\"}\n").unwrap();
    let mut failures = Vec::new();
    let mut proxies = Vec::new();
    for row in rows(&dir) {
        let url = match row.via {
            Via::Direct => served.url().to_owned(),
            Via::Proxy(targets, fault) => {
                let proxy = served.fault(targets, fault);
                let url = proxy.url.clone();
                proxies.push(proxy);
                url
            }
        };
        // An export writes a new file each time.
        let _ = std::fs::remove_file(dir.join("out.jsonl"));
        let mut args = vec!["--endpoint-url".to_owned(), url];
        args.extend(row.args.iter().cloned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = dynoscope(&refs);
        let status = out.status.code();
        let expected = i32::from(row.expect.status());
        let shown = row.args.join(" ");
        eprintln!("{status:?}\t{}\t{shown}", row.class);
        if status != Some(expected) {
            failures.push(format!(
                "{shown} ({}): exit {status:?}, the table says {expected}\n  stdout: {}\n  stderr: {}",
                row.class,
                text(&out.stdout).trim(),
                text(&out.stderr).trim()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
