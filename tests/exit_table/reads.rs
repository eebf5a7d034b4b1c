//! The rows of the reads and the checks: tables, describe, items, scan, check, size,
//! shards-advice.

use dynoscope_cli::Exit::{Done, Error as Bad, Refused};

use super::Via::{Direct, Proxy};
use super::{INVALID, Row, THROTTLED, row};
use crate::common::Fault;

pub(super) fn rows() -> Vec<Row> {
    let mut rows = tables_describe_get_rows();
    rows.extend(items_scan_rows());
    rows.extend(check_rows());
    rows.extend(size_rows());
    rows
}

/// The rows of `tables`, `describe` and `get`.
fn tables_describe_get_rows() -> Vec<Row> {
    vec![
        row("done", Direct, &["tables"], Done),
        row(
            "throttled out",
            Proxy(&["ListTables"], THROTTLED),
            &["tables"],
            Bad,
        ),
        row("bad input", Direct, &["--timeout", "0", "tables"], Bad),
        row("done", Direct, &["describe", "--table", "Social"], Done),
        row(
            "done",
            Direct,
            &[
                "get",
                "--table",
                "Social",
                "--key",
                "PK=POST#a91f",
                "--key",
                "SK=META",
            ],
            Done,
        ),
        row(
            "missing",
            Direct,
            &[
                "get",
                "--table",
                "Social",
                "--key",
                "PK=POST#none",
                "--key",
                "SK=META",
            ],
            Refused,
        ),
        row(
            "bad input",
            Direct,
            &["get", "--table", "Social", "--key", "PK=POST#a91f"],
            Bad,
        ),
        row("bad input", Direct, &["describe", "--table", "Nope"], Bad),
        row(
            "validation error",
            Proxy(&["DescribeTable"], INVALID),
            &["describe", "--table", "Social"],
            Bad,
        ),
    ]
}

/// The rows of `items` and `scan`.
fn items_scan_rows() -> Vec<Row> {
    vec![
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
            Bad,
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
            Bad,
        ),
        row(
            "validation error",
            Proxy(&["Scan"], INVALID),
            &["scan", "--table", "Videos"],
            Bad,
        ),
    ]
}

/// The rows of `check`.
fn check_rows() -> Vec<Row> {
    let mut rows = Vec::new();
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
            expect: Bad,
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
    rows
}

/// The rows of `size` and `shards-advice`.
fn size_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let size = |pk: &str| -> Vec<String> {
        ["size", "--table", "Social", "--pk", pk, "--sk", "META"]
            .map(str::to_owned)
            .to_vec()
    };
    rows.extend([
        Row {
            class: "done",
            via: Direct,
            args: size("POST#a91f"),
            expect: Done,
        },
        Row {
            class: "missing",
            via: Direct,
            args: size("POST#nope"),
            expect: Refused,
        },
        row(
            "bad input",
            Direct,
            &["size", "--item", "{\"n\": {\"N\": \"x\"}}"],
            Bad,
        ),
        Row {
            class: "throttled out",
            via: Proxy(&["GetItem"], THROTTLED),
            args: size("POST#a91f"),
            expect: Bad,
        },
        row(
            "done",
            Direct,
            &[
                "shards-advice",
                "--writes-per-second",
                "500",
                "--item-bytes",
                "200",
                "--table",
                "Social",
            ],
            Done,
        ),
        row(
            "bad input",
            Direct,
            &[
                "shards-advice",
                "--writes-per-second",
                "1",
                "--item-bytes",
                "500000",
            ],
            Bad,
        ),
    ]);
    rows
}
