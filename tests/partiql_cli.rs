//! `dynoscope partiql` against a served sandbox: items one per line with every page followed,
//! and the one exit-code table (0 read or applied, 1 refused, 2 bad input or error before
//! sending, 3 outcome unknown), `--yes` off this machine.

use crate::common;

use std::process::{Command, Output};

use common::Fault;
use dynoscope_core::sandbox::Sandbox;

fn dynoscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env_remove("AWS_PROFILE")
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn partiql(url: &str, statement: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--endpoint-url", url, "partiql", statement];
    args.extend(extra);
    dynoscope(&args)
}

const PLAYS: &str =
    r#"SELECT play_count FROM "Videos" WHERE PK = 'VID#9f3a' AND SK = 'STATS#TOTAL'"#;

const ADD_ONE: &str = r#"UPDATE "Videos" SET play_count = play_count + ? WHERE PK = ? AND SK = ?"#;

const ADD_ONE_PARAMS: [&str; 6] = [
    "--param",
    r#"{"N": "1"}"#,
    "--param",
    r#"{"S": "VID#9f3a"}"#,
    "--param",
    r#"{"S": "STATS#TOTAL"}"#,
];

fn plays(url: &str) -> String {
    text(&partiql(url, PLAYS, &[]).stdout).trim().to_owned()
}

/// 1: refused by the data, with the server's code; as JSON with `--json`.
fn refused_by_the_data(url: &str) {
    // 1: refused by the data, with the server's code; as JSON with --json.
    let insert = r#"INSERT INTO "Videos" VALUE {'PK': 'VID#9f3a', 'SK': 'META'}"#;
    let out = partiql(url, insert, &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["outcome"], "refused");
    assert_eq!(report["code"], "DuplicateItemException");
    let guarded = r#"UPDATE "Videos" SET play_count = 0 WHERE PK = 'VID#9f3a' AND SK = 'STATS#TOTAL' AND play_count = 7"#;
    let out = partiql(url, guarded, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("ConditionalCheckFailedException"));
    assert!(
        text(&out.stdout).contains(r#""play_count":{"N":"42"}"#),
        "{}",
        text(&out.stdout)
    );
}

/// 2: bad input, said once on stderr, nothing sent; read-only, and a server that refuses the
/// statement.
fn bad_input_read_only_and_refused(url: &str) {
    // 2: bad input, said once on stderr, nothing sent.
    for (statement, extra, said) in [
        (ADD_ONE, &ADD_ONE_PARAMS[..4], "has no parameter"),
        (
            ADD_ONE,
            &["--param", "{\"N\": 1}", "--param", "{}", "--param", "{}"][..],
            "parameter 1: N needs a string",
        ),
        ("MERGE INTO x", &[][..], "`MERGE`"),
        (
            ADD_ONE,
            &[&ADD_ONE_PARAMS[..], &["--limit", "3"]].concat()[..],
            "for SELECT",
        ),
    ] {
        let out = partiql(url, statement, extra);
        assert_eq!(out.status.code(), Some(2), "{statement} {extra:?}");
        assert!(out.stdout.is_empty());
        let stderr = text(&out.stderr);
        assert!(stderr.contains(said), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "said once: {stderr}");
    }
    // 2: read-only, and a server that refuses the statement.
    let out = dynoscope(
        &[
            &["--endpoint-url", url, "--read-only", "partiql", ADD_ONE],
            &ADD_ONE_PARAMS[..],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("read-only"));
    let out = partiql(url, r#"SELECT * FROM "NoSuchTable""#, &["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["code"], "ResourceNotFoundException");
    assert_eq!(plays(url), r#"{"play_count":42}"#, "nothing was written");
}

#[test]
fn partiql_reads_every_page_and_uses_the_exit_table() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime.block_on(Sandbox::start(None, 0)).unwrap();
    let url = sandbox.endpoint().to_owned();

    // 0: a SELECT, every page followed, one item per line, the summary on stderr.
    let out = partiql(&url, r#"SELECT * FROM "Videos""#, &["--page-size", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines = text(&out.stdout).lines().count();
    let all = partiql(&url, r#"SELECT * FROM "Videos""#, &[]);
    assert_eq!(
        text(&all.stdout).lines().count(),
        lines,
        "the same items, paged"
    );
    assert!(lines > 2, "{lines}");
    let summary = text(&out.stderr);
    assert!(summary.contains(&format!("{lines} items")), "{summary}");
    let pages: usize = summary
        .split(" · ")
        .find_map(|part| part.strip_suffix(" pages"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    assert!(
        pages >= lines.div_ceil(2),
        "every page was followed: {summary}"
    );
    // --limit stops after that many items; --json prints DynamoDB JSON, numbers exact.
    let out = partiql(
        &url,
        r#"SELECT * FROM "Videos" WHERE PK = ?"#,
        &["--param", r#"{"S": "VID#9f3a"}"#, "--json", "--limit", "1"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"PK\":{\"S\":\"VID#9f3a\"},\"SK\":{\"S\":\"META\"},\"bytes_served\":{\"N\":\"98765432109876543210987654321098765432\"},\"title\":{\"S\":\"Atomic counters, explained\"}}\n"
    );
    assert_eq!(plays(&url), r#"{"play_count":41}"#);

    // 0: a write applied.
    let out = partiql(&url, ADD_ONE, &ADD_ONE_PARAMS);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("UPDATE applied"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(plays(&url), r#"{"play_count":42}"#);

    refused_by_the_data(&url);

    bad_input_read_only_and_refused(&url);

    // 2 without --yes off this machine (nothing sent); 0 with it.
    let remote = format!("http://0.0.0.0:{}", sandbox.addr().port());
    let out = partiql(&remote, ADD_ONE, &ADD_ONE_PARAMS);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--yes"), "{}", text(&out.stderr));
    assert_eq!(plays(&url), r#"{"play_count":42}"#);
    let out = partiql(
        &remote,
        ADD_ONE,
        &[&ADD_ONE_PARAMS[..], &["--yes"]].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(plays(&url), r#"{"play_count":43}"#);

    // 3: the answer was lost after the server applied it; not sent again.
    let proxy = runtime.block_on(common::fault_proxy(
        sandbox.addr(),
        &["ExecuteStatement"],
        Fault::ResetAfterApply,
    ));
    let out = partiql(&proxy.url, ADD_ONE, &ADD_ONE_PARAMS);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("outcome unknown"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(proxy.forwarded(), 1, "sent once");
    assert_eq!(plays(&url), r#"{"play_count":44}"#, "applied once");
}
