//! The CLI's `expr`, run as a real process: the request printed and errors pointed at, a deep
//! expression refused, the connection flags written into the code.

use std::process::Command;

#[test]
fn expr_prints_the_request_and_points_at_errors() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .arg("expr")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "update",
        "ADD likeTally 1",
        "--condition",
        "attribute_exists(PK)",
        "--as",
        "json",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["UpdateExpression"], "ADD #n0 :v0");
    assert_eq!(json["ConditionExpression"], "attribute_exists(#n1)");
    assert_eq!(json["ExpressionAttributeNames"]["#n0"], "likeTally");
    assert_eq!(json["ExpressionAttributeValues"][":v0"]["N"], "1");
    for target in ["cli", "boto3", "js", "js-doc", "rust"] {
        let out = run(&["update", "ADD likeTally 1", "--as", target]);
        assert!(out.status.success(), "{target}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("ADD #n0 :v0"),
            "{target}"
        );
    }
    let out = run(&["update", "ADD count 1"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["UpdateExpression"], "ADD #n0 :v0");
    assert_eq!(json["ExpressionAttributeNames"]["#n0"], "count");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "note: `count` is a DynamoDB reserved word: sent as #n0\n"
    );
    let out = run(&["update", "ADD likeTally 1 SET n = :x"]);
    assert_eq!(out.status.code(), Some(2), "bad input");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":x is not in the expression attribute values"),
        "{err}"
    );
    assert!(
        err.contains("  ADD likeTally 1 SET n = :x\n                          ^"),
        "{err}"
    );
    let out = run(&[
        "query",
        "PK = 'POST#a91f' AND begins_with(SK, 'LIKE#')",
        "--as",
        "cli",
        "--table",
        "Social",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("--key-condition-expression '#n0 = :v0 AND begins_with(#n1, :v1)'"),
        "{text}"
    );
}

#[test]
fn expr_refuses_a_5000_deep_expression_with_exit_2() {
    let deep = format!("{}a = 1{}", "(".repeat(5000), ")".repeat(5000));
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["expr", "scan", &deep])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.starts_with("dynoscope: FilterExpression: the expression is 10005 bytes long; DynamoDB takes at most 4096"),
        "{err}"
    );
    // Shown around the place, with the caret under the token at byte 4096.
    assert!(
        err.contains(&format!("\n  …{}…\n  {}^", "(".repeat(60), " ".repeat(31))),
        "{err}"
    );
    // Under 4 KB but 2,000 deep: refused at the 33rd parenthesis.
    let deep = format!("{}a = 1{}", "(".repeat(2000), ")".repeat(2000));
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["expr", "scan", &deep])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("nested more than 32 levels"), "{err}");
    assert!(
        err.contains(&format!("\n  …{}…\n  {}^", "(".repeat(60), " ".repeat(31))),
        "{err}"
    );
}

#[test]
fn expr_code_carries_the_connection_flags() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let flags = [
        "--endpoint-url",
        "http://127.0.0.1:8000",
        "--region",
        "eu-west-2",
    ];
    // Before or after `expr`, as for every command.
    let after = run(&[
        &["expr", "update", "ADD likeTally 1", "--as", "cli"][..],
        &flags,
    ]
    .concat());
    let before = run(&[
        &flags[..],
        &["expr", "update", "ADD likeTally 1", "--as", "cli"],
    ]
    .concat());
    assert_eq!(after, before);
    assert!(
        after.starts_with("AWS_ACCESS_KEY_ID=dynoscope AWS_SECRET_ACCESS_KEY=dynoscope-local aws dynamodb update-item \\\n  --endpoint-url http://127.0.0.1:8000 \\\n  --region eu-west-2 \\\n"),
        "{after}"
    );
    let boto3 = run(&[
        &["expr", "scan", "a = 1", "--as", "boto3", "--profile", "dev"][..],
        &flags,
    ]
    .concat());
    assert!(
        boto3.contains(r#"session = boto3.Session(profile_name="dev")"#),
        "{boto3}"
    );
    // The JSON request body has no place for a connection.
    let json = run(&[&["expr", "scan", "a = 1"][..], &flags].concat());
    assert!(
        !json.contains("8000") && !json.contains("eu-west-2"),
        "{json}"
    );
}
