//! The rows of the writes: add, like and unlike, storm, put, delete.

use dynoscope_cli::Exit::{Done, Error as Bad, Refused, Unknown};

use super::Via::{Direct, Proxy};
use super::{INVALID, Row, THROTTLED, row};
use crate::common::Fault;

pub(super) fn rows() -> Vec<Row> {
    let mut rows = add_rows();
    rows.extend(like_rows());
    rows.extend(storm_rows());
    rows.extend(expr_rows());
    rows.extend(put_rows());
    rows.extend(delete_rows());
    rows
}

/// The rows of `add`.
fn add_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
        args.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
    };
    let a = |v: Vec<String>| {
        v.iter()
            .map(String::as_str)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
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
    rows
}

/// The rows of `like` and `unlike`.
fn like_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
    rows
}

/// The rows of `storm`.
fn storm_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
    ]);
    rows
}

/// The rows of `expr`, which sends nothing.
fn expr_rows() -> Vec<Row> {
    vec![
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
    ]
}

/// The rows of `put`.
fn put_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
    ]);
    rows
}

/// The rows of `delete`.
fn delete_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
