//! The rows of statements and files: partiql, sql, export, import.

use dynoscope_cli::Exit::{Done, Error as Bad, Refused, Unknown};

use super::Via::{Direct, Proxy};
use super::{INVALID, Row, THROTTLED, row};
use crate::common::Fault;

pub(super) fn rows(dir: &std::path::Path) -> Vec<Row> {
    let mut rows = statement_rows();
    rows.extend(export_import_rows(dir));
    rows.extend(import_fault_rows(dir));
    rows
}

/// The rows of `partiql` and `sql`.
fn statement_rows() -> Vec<Row> {
    let insert = |pk: &str| {
        vec![
            "partiql".to_owned(),
            format!(r#"INSERT INTO "Social" VALUE {{'PK': '{pk}', 'SK': 'A'}}"#),
        ]
    };
    vec![
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
    ]
}

/// The rows of `export`, and of `import` read from this machine.
fn export_import_rows(dir: &std::path::Path) -> Vec<Row> {
    let path = |name: &str| dir.join(name).display().to_string();
    let import_file = path("import.jsonl");
    let bad_file = path("bad.jsonl");
    let mixed_file = path("mixed.jsonl");
    let out_file = path("out.jsonl");
    vec![
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
            "lines skipped",
            Direct,
            &[
                "import",
                "--table",
                "Social",
                "--format",
                "ddb-json",
                "--skip-invalid",
                &mixed_file,
            ],
            Refused,
        ),
    ]
}

/// The rows of `import` whose batches meet a fault.
fn import_fault_rows(dir: &std::path::Path) -> Vec<Row> {
    let path = |name: &str| dir.join(name).display().to_string();
    let import_file = path("import.jsonl");
    vec![
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
    ]
}
