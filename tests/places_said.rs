//! Where a run goes, said and stored without secrets, and only where it may: a user and
//! password in an endpoint URL are never printed or written (a diff's report, a snapshot file,
//! the MCP server's stderr and audit log); `--read-only` refuses a run in Athena (it makes a
//! Glue table and writes results to S3) before anything is sent; the printed Athena SQL cannot
//! be broken out of by a rule's text, and takes only what the export readers take as a place.

use std::process::Stdio;

use crate::common::LIKES_RULE;
use crate::common::files::{dynoscope, scratch};
use dynoscope_core::sandbox::Sandbox;

const SECRET: &str = "s3cr3t-pw";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_in_an_endpoint_url_is_never_said_nor_stored() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let with_password =
        sandbox
            .endpoint()
            .replacen("http://", &format!("http://admin:{SECRET}@"), 1);
    let dir = scratch("places-said");
    let file = dir.join("snap.json").display().to_string();
    let mut args = vec!["snapshot", "--table", "Social", "--out", &file];
    args.extend(LIKES_RULE);
    let (code, out, err) = dynoscope(&with_password, &args).await;
    assert_eq!(
        code, 0,
        "the endpoint is reached without its user information: {err}"
    );
    assert!(!out.contains(SECRET) && !err.contains(SECRET), "{out}{err}");
    assert!(!std::fs::read_to_string(&file).unwrap().contains(SECRET));
    let diff = ["diff", "--table", "Social", "--all", "--json"];
    let (code, out, err) = dynoscope(&with_password, &diff).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(SECRET) && !err.contains(SECRET), "{out}{err}");
    assert!(out.contains(sandbox.endpoint()), "the place is said: {out}");

    // The MCP server: its start line on stderr and in the audit log; it ends with stdin.
    let audit = dir.join("audit.jsonl");
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--endpoint-url", &with_password, "mcp", "--audit"])
        .arg(&audit)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(std::time::Duration::from_mins(1), run)
        .await
        .expect("the server ends when its input does")
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("serving"), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    let logged = std::fs::read_to_string(&audit).unwrap();
    assert!(logged.contains("\"start\""), "{logged}");
    assert!(!logged.contains(SECRET), "{logged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_refuses_athena_and_its_sql_cannot_be_broken_out_of() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let export = "s3://exports/nightly/AWSDynamoDB/01764547200000-a1b2c3d4/";
    let mut run = vec!["--read-only", "check", "--table", "Social"];
    run.extend(LIKES_RULE);
    run.extend([
        "--athena",
        export,
        "--run",
        "--athena-output",
        "s3://results/dynoscope/",
    ]);
    let (code, out, err) = dynoscope(url, &run).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is read-only"), "{err}");
    assert!(err.contains("Glue table"), "{err}");

    // A rule whose text ends the header's comment: every line of it stays a comment.
    let prefix = "LIKE#\nDROP TABLE social_export;\n--";
    let args = [
        "check",
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--parent-prefix",
        "POST#",
        "--child-prefix",
        prefix,
        "--athena",
        export,
    ];
    let (code, out, err) = dynoscope(url, &args).await;
    assert_eq!(code, 0, "{err}");
    // Its header is comments to the first statement, the rule's line breaks written out; in
    // the query the prefix stays inside its string literal.
    let header: Vec<&str> = out
        .lines()
        .take_while(|l| !l.starts_with("CREATE EXTERNAL TABLE"))
        .collect();
    assert!(header.len() >= 2, "{out}");
    assert!(header.iter().all(|l| l.starts_with("--")), "{out}");
    assert!(header[0].contains("\\u000aDROP TABLE"), "{out}");
    assert!(
        out.contains("starts_with(item.\"SK\".\"S\", 'LIKE#\nDROP"),
        "{out}"
    );
    for place in [
        "s3://",
        "s3://b/../",
        "s3://exports/a\nb/",
        "s3://exports/x/../y/",
    ] {
        let mut args = vec!["check", "--table", "Social"];
        args.extend(LIKES_RULE);
        args.extend(["--athena", place]);
        let (code, out, err) = dynoscope(url, &args).await;
        assert_eq!(code, 2, "{place:?}: {out}{err}");
        assert!(out.is_empty(), "{place:?}: {out}");
    }
}
