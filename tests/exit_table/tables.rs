//! `table create|update|delete|iac`, `truncate` and `delete --from-query` through each class: done, bad input (caught by dynoscope, or
//! the server's validation), throttled out, and an answer lost after the server applied it.

use crate::common::Fault;
use crate::{INVALID, Row, THROTTLED, Via, row};
use dynoscope::cli::Exit;

pub fn rows() -> Vec<Row> {
    use Via::{Direct, Proxy};
    let create = |name: &'static str| vec!["table", "create", "--table", name, "--pk", "PK:S"];
    let a = |v: Vec<&'static str>| v;
    vec![
        row("done", Direct, &create("ExitMade"), Exit::Done),
        row(
            "bad input",
            Direct,
            &a(vec!["table", "create", "--table", "x", "--pk", "PK:S"]),
            Exit::Error,
        ),
        row(
            "validation error",
            Proxy(&["CreateTable"], INVALID),
            &create("ExitRefused"),
            Exit::Error,
        ),
        row(
            "throttled out",
            Proxy(&["CreateTable"], THROTTLED),
            &create("ExitThrottled"),
            Exit::Refused,
        ),
        row(
            "unknown",
            Proxy(&["CreateTable"], Fault::HtmlAfterApply),
            &create("ExitLost"),
            Exit::Unknown,
        ),
        row(
            "done",
            Direct,
            &[
                "table",
                "update",
                "--table",
                "ExitMade",
                "--stream",
                "keys-only",
            ],
            Exit::Done,
        ),
        row(
            "bad input",
            Direct,
            &["table", "update", "--table", "ExitMade", "--no-ttl"],
            Exit::Error,
        ),
        row(
            "unknown",
            Proxy(&["UpdateTable"], Fault::HtmlAfterApply),
            &[
                "table",
                "update",
                "--table",
                "ExitMade",
                "--deletion-protection",
            ],
            Exit::Unknown,
        ),
        row(
            "bad input",
            Direct,
            &[
                "table",
                "delete",
                "--table",
                "ExitMade",
                "--confirm",
                "ExitMade",
            ],
            Exit::Error,
        ),
        row(
            "done",
            Direct,
            &[
                "table",
                "delete",
                "--table",
                "ExitLost",
                "--confirm",
                "ExitLost",
            ],
            Exit::Done,
        ),
    ]
}
