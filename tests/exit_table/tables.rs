//! `table create|update|delete|iac`, `truncate`, `delete --from-query`, `check --repair` and
//! `watch --enable-stream` through each class: done, bad input (caught by dynoscope, or the
//! server's validation), throttled out, an answer lost before or after the server applied it,
//! and a write that applied while stdout was closed.

use super::{INVALID, Row, THROTTLED, Via, row};
use crate::common::Fault;
use dynoscope_cli::Exit;

pub(super) fn rows() -> Vec<Row> {
    let mut rows = create_rows();
    rows.extend(update_rows());
    rows.extend(lost_and_refused());
    rows.extend(bulk_and_stream());
    rows.extend(stream_rows());
    rows
}

/// The rows of `table create` and the first changes.
fn create_rows() -> Vec<Row> {
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
    ]
}

/// The rows of the later table changes.
fn update_rows() -> Vec<Row> {
    use Via::{Direct, Proxy};
    vec![
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

/// A delete throttled out is refused (1) at once, not followed; one whose answer was lost is
/// unknown (3) while the table is still there, and applied (0) once it is gone; each ends
/// within its timeout.
fn lost_and_refused() -> Vec<Row> {
    use Via::{Direct, Proxy};
    let drop = |via, expect| {
        let args = [
            "--timeout",
            "2",
            "table",
            "delete",
            "--table",
            "ExitStuck",
            "--confirm",
            "ExitStuck",
        ];
        row("lost or refused", via, &args, expect)
    };
    vec![
        row(
            "done",
            Direct,
            &["table", "create", "--table", "ExitStuck", "--pk", "PK:S"],
            Exit::Done,
        ),
        row(
            "throttled out",
            Proxy(&["UpdateTable"], THROTTLED),
            &[
                "table",
                "update",
                "--table",
                "ExitStuck",
                "--stream",
                "keys-only",
            ],
            Exit::Refused,
        ),
        drop(Proxy(&["DeleteTable"], THROTTLED), Exit::Refused),
        drop(
            Proxy(&["DeleteTable"], Fault::ResetBeforeApply),
            Exit::Unknown,
        ),
        drop(
            Proxy(&["DeleteTable"], Fault::SilentBeforeApply),
            Exit::Unknown,
        ),
        drop(Proxy(&["DeleteTable"], Fault::SilentAfterApply), Exit::Done),
    ]
}

/// Throttled bulk deletes and repairs wrote nothing: refused (1); the table a stream is turned
/// on for is made (0).
fn bulk_and_stream() -> Vec<Row> {
    use Via::{Direct, Proxy};
    let repair = [
        "check",
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--all",
        "--repair",
        "--yes",
    ];
    vec![
        row(
            "throttled out",
            Proxy(&["BatchWriteItem"], THROTTLED),
            &["truncate", "--table", "Videos", "--yes"],
            Exit::Refused,
        ),
        row(
            "throttled out",
            Proxy(&["BatchWriteItem"], THROTTLED),
            &[
                "delete",
                "--table",
                "Social",
                "--from-query",
                "--pk",
                "POST#a91f",
                "--yes",
            ],
            Exit::Refused,
        ),
        row(
            "throttled out",
            Proxy(&["UpdateItem"], THROTTLED),
            &repair,
            Exit::Refused,
        ),
        row(
            "done",
            Direct,
            &[
                "table",
                "create",
                "--table",
                "ExitWatch",
                "--pk",
                "PK:S",
                "--sk",
                "SK:S",
            ],
            Exit::Done,
        ),
    ]
}

/// Turning the stream on goes through the gateway: throttled out is refused (1), an answer lost
/// before it applied is unknown (3, not sent again); then it applies (0) however stdout fares.
fn stream_rows() -> Vec<Row> {
    use Via::{ClosedStdout, Proxy};
    let watch = [
        "watch",
        "--table",
        "ExitWatch",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--enable-stream",
        "--from",
        "trim-horizon",
        "--for",
        "0",
    ];
    vec![
        row(
            "throttled out",
            Proxy(&["UpdateTable"], THROTTLED),
            &watch,
            Exit::Refused,
        ),
        row(
            "unknown",
            Proxy(&["UpdateTable"], Fault::ResetBeforeApply),
            &watch,
            Exit::Unknown,
        ),
        row("applied, stdout closed", ClosedStdout, &watch, Exit::Done),
    ]
}
