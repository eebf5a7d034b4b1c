//! Input a hostile or careless user could give (issue 40): a FIFO or a device where a file is
//! read, escape sequences in keys, names DynamoDB would refuse, numbers out of range.

use std::time::Duration;

use super::{on, refused_with, scratch};
use crate::common::served::{Served, command, dynoscope, ended_within, text};

#[test]
fn a_price_file_that_is_a_fifo_is_refused_not_waited_on() {
    let served = Served::new();
    let dir = scratch("fifo-prices");
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("prices.json"))
        .status()
        .unwrap();
    assert!(made.success());
    for args in [&["tables"][..], &["cost", "--table", "Videos"]] {
        let mut all = vec!["--endpoint-url", served.url()];
        all.extend(args);
        let child = command(&all)
            .env("DYNOSCOPE_CONFIG_DIR", &dir)
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = ended_within(child, Duration::from_secs(30));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("prices.json is a FIFO, not a regular file"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_sandbox_database_is_a_regular_sqlite_file() {
    let dir = scratch("sandbox-db");
    let out = dynoscope(&["--sandbox-db", "/dev/null", "tables"]);
    refused_with(&out, 2, "/dev/null is a device, not a regular file");
    assert!(!std::path::Path::new("/dev/null-journal").exists());
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let out = dynoscope(&["--sandbox-db", folder.to_str().unwrap(), "tables"]);
    refused_with(&out, 2, "is a folder, not a regular file");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes, not a database\n").unwrap();
    let out = dynoscope(&["--sandbox-db", notes.to_str().unwrap(), "tables"]);
    refused_with(&out, 2, "is not a dynoscope sandbox database (not SQLite)");
    assert!(
        !text(&out.stderr).contains("encryption"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my notes, not a database\n"
    );
    // A new file is made and seeded; opened again, it is read.
    let db = dir.join("new.db");
    for _ in 0..2 {
        let out = dynoscope(&["--sandbox-db", db.to_str().unwrap(), "tables"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Videos"));
    }
}

/// Negative numbers given to flags that take none, and the words each is refused in.
const NEGATIVES: &[(&[&str], &str)] = &[
    (&["--timeout", "-1", "tables"], "a timeout is more than 0"),
    (&["tables", "--timeout", "-0.5"], "a timeout is more than 0"),
    (
        &[
            "items",
            "--table",
            "Videos",
            "--pk",
            "a",
            "--max-throttle-wait",
            "-1",
        ],
        "is not a number of seconds from 0 to 3600",
    ),
    (
        &["scan", "--table", "Videos", "--max-throttle-wait", "-5"],
        "is not a number of seconds from 0 to 3600",
    ),
    (
        &["scan", "--table", "Videos", "--limit", "-1"],
        "is negative",
    ),
    (
        &["scan", "--table", "Videos", "--segments", "-2"],
        "is negative",
    ),
    (
        &["metrics", "--table", "Videos", "--hours", "-1"],
        "is negative",
    ),
    (
        &["insights", "--table", "Videos", "--hours", "-3"],
        "is negative",
    ),
    (
        &[
            "shards-advice",
            "--writes-per-second",
            "-1",
            "--item-bytes",
            "10",
        ],
        "is negative",
    ),
    (
        &[
            "shards-advice",
            "--writes-per-second",
            "10",
            "--item-bytes",
            "-1",
        ],
        "is negative",
    ),
    (
        &[
            "table",
            "update",
            "--table",
            "Videos",
            "--billing",
            "provisioned",
            "--rcu",
            "-1",
        ],
        "is negative",
    ),
    (
        &[
            "table",
            "update",
            "--table",
            "Videos",
            "--billing",
            "provisioned",
            "--wcu",
            "-1",
        ],
        "is negative",
    ),
];

#[test]
fn a_negative_number_is_refused_in_words_not_taken_for_a_flag() {
    for (args, words) in NEGATIVES {
        let out = dynoscope(args);
        refused_with(&out, 2, words);
        assert!(
            !text(&out.stderr).contains("unexpected argument"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_table_name_dynamodb_would_refuse_is_refused_in_words_before_sending() {
    // Nothing listens there: a refusal before anything is sent is the only answer possible.
    let nowhere = "http://127.0.0.1:9";
    let long = "T".repeat(256);
    let cases: &[(&[&str], &str)] = &[
        (
            &["describe", "--table", ""],
            "table name ``: 3 to 255 characters, not 0",
        ),
        (&["describe", "--table", "ab"], "3 to 255 characters, not 2"),
        (
            &["items", "--table", "a b", "--pk", "x"],
            "` ` is not allowed",
        ),
        (&["scan", "--table", &long], "3 to 255 characters, not 256"),
        (&["get", "--table", "", "--key", "PK=a"], "table name ``"),
        (
            &["export", "--table", "", "--out", "x.jsonl"],
            "table name ``",
        ),
        (
            &["table", "delete", "--table", "", "--confirm", ""],
            "table name ``",
        ),
        (&["table", "backups", "--table", "é!"], "is not allowed"),
        (
            &[
                "clone",
                "--table",
                "Videos",
                "--to-table",
                "A1",
                "--to-endpoint",
                nowhere,
            ],
            "table name `A1`: 3 to 255 characters, not 2",
        ),
        (
            &[
                "table",
                "restore",
                "--backup-arn",
                "arn:x",
                "--to-table",
                "",
            ],
            "table name ``",
        ),
    ];
    for (args, words) in cases {
        let out = on(nowhere, args);
        refused_with(&out, 2, words);
        assert!(
            !text(&out.stderr).contains("interceptor"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn escape_sequences_in_keys_are_escaped_in_words_and_kept_in_data() {
    let served = Served::new();
    let item = r#"{"PK":{"S":"ESC#\u001b[2J"},"SK":{"S":"A"},"note":{"S":"a\u007fb\u202ec"}}"#;
    let out = on(served.url(), &["put", "--table", "Videos", "--item", item]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Words: the key named in an error is escaped, never sent to the terminal raw.
    let out = on(
        served.url(),
        &[
            "get",
            "--table",
            "Videos",
            "--key",
            "PK=ESC#\u{1b}[2J",
            "--key",
            "SK=B",
        ],
    );
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!said.contains('\u{1b}'), "raw ESC in: {said:?}");
    assert!(said.contains(r"ESC#\u001b[2J"), "{said:?}");
    // Data: the item as JSON lines, byte for byte what it holds.
    let out = on(
        served.url(),
        &["items", "--table", "Videos", "--pk", "ESC#\u{1b}[2J"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["note"], "a\u{7f}b\u{202e}c");
    assert!(out.stdout.contains(&0x7f), "DEL kept raw in data");
}
