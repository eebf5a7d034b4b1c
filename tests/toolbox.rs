//! dynamodb-toolbox v2 (`--as toolbox`), run by Node.js with `dynamodb-toolbox`,
//! `@aws-sdk/lib-dynamodb` and `@aws-sdk/client-dynamodb` from npm against the sandbox over
//! HTTP, with an empty environment and home: a request written for it leaves the item exactly
//! as the same request sent by the low-level client does; a query reads the same items; what it
//! cannot say is refused in words before anything; the counter program moves the value by its
//! delta, a 20-digit one too, and says each outcome as the other programs do.

use serde_json::Value;

use crate::common::runtimes::{Runtime, runtimes, text, toolbox_runtime};
use crate::common::served::{Served, dynoscope, succeeded};

/// `dynoscope expr ARGS --as target` for `url`.
pub(crate) fn written(target: &str, url: &str, args: &[&str]) -> String {
    let mut all = vec!["--endpoint-url", url, "expr"];
    all.extend(args);
    all.extend(["--as", target]);
    succeeded(&all).0
}

/// `args` written `--as runtime.target` for `served`, and run: it must succeed.
pub(crate) fn run_written(runtime: &Runtime, served: &Served, args: &[&str]) {
    let url = served.url().replace("127.0.0.1", "localhost");
    let code = written(runtime.target, &url, args);
    let out = runtime.run("written", &code, &[]);
    assert!(out.status.success(), "{code}\n{}", text(&out.stderr));
}

/// The low-level JavaScript client, whose requests the toolbox's are held to.
pub(crate) fn js() -> Runtime {
    runtimes().into_iter().find(|r| r.target == "js").unwrap()
}

/// A hostile attribute name: quotes, `$(…)`, backquotes, `${x}`, `#{}`, a new line, U+2028.
const HOSTILE: &str = "we\"ird $(touch CANARY) `touch CANARY` ${x} #{y}\n\u{2028}'";

/// The updates, each sent by the toolbox's code to one sandbox and by the low-level client's
/// to another: `ADD` of a number and of a set, `SET` of a value, of `if_not_exists(x, 0) + d`,
/// of `x - d`, of another attribute, `REMOVE`, a set's `DELETE`, under conditions of every kind.
fn updates() -> Vec<Vec<String>> {
    let names = serde_json::json!({ "#w": HOSTILE }).to_string();
    let update = |expression: &str, condition: &str, values: &str| {
        [
            "update",
            expression,
            "--condition",
            condition,
            "--values",
            values,
            "--names",
            &names,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    vec![
        update(
            "ADD likeTally :one, labels :ss, fresh :one SET #w = :t, c2 = if_not_exists(c2, :z) + :d",
            "attribute_exists(PK) AND likeTally BETWEEN :lo AND :hi AND attribute_type(likeTally, :N)",
            r#"{":one":{"N":"1"},":ss":{"SS":["a","b","c"]},":t":{"S":"a \"quoted\" $(x)"},":z":{"N":"0"},":d":{"N":"0.25"},":lo":{"N":"0"},":hi":{"N":"100"},":N":{"S":"N"}}"#,
        ),
        update(
            "SET c2 = c2 - :d, copied = likeTally, big = :big, hashtags = :l, stats = :m REMOVE pinned DELETE labels :b",
            "(size(title) > :zero OR NOT contains(labels, :x)) AND pinned IN (:yes, :no)",
            r#"{":d":{"N":"0.5"},":big":{"N":"12345678901234567890123"},":l":{"L":[{"S":"new"}]},":m":{"M":{"only":{"N":"1"}}},":b":{"SS":["b"]},":zero":{"N":"0"},":x":{"S":"zed"},":yes":{"BOOL":true},":no":{"BOOL":false}}"#,
        ),
    ]
}

#[test]
fn a_request_written_for_dynamodb_toolbox_leaves_the_item_as_the_request_does() {
    let (toolbox, js) = (toolbox_runtime(), js());
    let (ours, theirs) = (Served::new(), Served::new());
    for args in updates() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for (runtime, served) in [(&toolbox, &ours), (&js, &theirs)] {
            run_written(runtime, served, &args);
        }
        let item = |served: &Served| served.item("Social", "POST#a91f", "META");
        assert_eq!(item(&ours), item(&theirs), "{args:?}");
    }
    let item: Value =
        serde_json::from_str(ours.item("Social", "POST#a91f", "META").trim()).unwrap();
    assert_eq!(item["likeTally"].to_string(), "4");
    assert_eq!(
        item["fresh"].to_string(),
        "1",
        "an ADD starts a missing number at 0"
    );
    assert_eq!(item["c2"].to_string(), "-0.25");
    assert_eq!(item["big"].to_string(), "12345678901234567890123");
    assert_eq!(item["labels"], serde_json::json!(["a", "c"]));
    assert_eq!(item[HOSTILE], "a \"quoted\" $(x)");
    assert!(!toolbox.dir.join("CANARY").exists() && !js.dir.join("CANARY").exists());
    // A failed condition is DynamoDB's answer, not the toolbox's: nothing written.
    let url = ours.url().replace("127.0.0.1", "localhost");
    let code = written(
        "toolbox",
        &url,
        &[
            "update",
            "ADD likeTally :one",
            "--condition",
            "likeTally > :big",
            "--values",
            r#"{":one":{"N":"1"},":big":{"N":"1000"}}"#,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ],
    );
    let out = toolbox.run("update", &code, &[]);
    assert!(text(&out.stderr).contains("ConditionalCheckFailedException"));
    let after: Value =
        serde_json::from_str(ours.item("Social", "POST#a91f", "META").trim()).unwrap();
    assert_eq!(after["likeTally"].to_string(), "4");
}

#[test]
fn a_query_and_a_conditional_delete_do_what_the_low_level_requests_do() {
    let (toolbox, js) = (toolbox_runtime(), js());
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let query = [
        "query",
        "PK = :p AND begins_with(SK, :s)",
        "--filter",
        "attribute_exists(GSI1PK) AND likedAt > :t",
        "--values",
        r#"{":p":{"S":"POST#a91f"},":s":{"S":"LIKE#"},":t":{"N":"1750640000"}}"#,
        "--table",
        "Social",
    ];
    let toolbox_code = written("toolbox", &url, &query)
        + "console.log(JSON.stringify(response.Items.map((item) => item.SK)));\n";
    let js_code = written("js", &url, &query)
        + "console.log(JSON.stringify(response.Items.map((item) => item.SK.S)));\n";
    let read = |runtime: &Runtime, code: &str| {
        let out = runtime.run("query", code, &[]);
        assert!(out.status.success(), "{code}\n{}", text(&out.stderr));
        text(&out.stdout)
    };
    let keys = read(&toolbox, &toolbox_code);
    assert_eq!(keys, read(&js, &js_code));
    assert_eq!(keys.trim(), r#"["LIKE#USER#19be","LIKE#USER#e4d2"]"#);
    let delete = [
        "delete",
        "attribute_exists(likedAt)",
        "--table",
        "Social",
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=LIKE#USER#7c20",
    ];
    let out = toolbox.run("delete", &written("toolbox", &url, &delete), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        served.item("Social", "POST#a91f", "LIKE#USER#7c20").trim(),
        ""
    );
}

/// Requests dynamodb-toolbox cannot say (after `expr`), and the words that say why.
const REFUSED: [(&[&str], &str); 9] = [
    (
        &[
            "update",
            "SET a = :n",
            "--condition",
            "b IN (:n, :s)",
            "--values",
            r#"{":n":{"N":"1"},":s":{"S":"x"}}"#,
        ],
        "more than one type",
    ),
    (
        &[
            "update",
            "SET a = :n",
            "--condition",
            ":n = :n",
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "two values",
    ),
    (
        &[
            "update",
            "SET stats.words = :n",
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "nested path",
    ),
    (
        &[
            "update",
            "SET tags = list_append(tags, :l)",
            "--values",
            r#"{":l":{"L":[]}}"#,
        ],
        "list_append",
    ),
    (
        &[
            "update",
            "SET a = :n",
            "--values",
            r#"{":n":{"N":"0.12345678901234567891"}}"#,
        ],
        "would be rounded",
    ),
    (
        &[
            "update",
            "SET a = :n",
            "--condition",
            "attribute_exists(#w)",
            "--names",
            r##"{"#w":"a b"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "attribute path",
    ),
    (
        &[
            "update",
            "SET #p = :n",
            "--names",
            r##"{"#p":"__proto__"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "__proto__",
    ),
    (
        &[
            "update",
            "SET a = :n, b = :s",
            "--condition",
            "a = :s",
            "--values",
            r#"{":n":{"N":"1"},":s":{"S":"x"}}"#,
        ],
        "one type",
    ),
    (&["scan", "attribute_exists(PK)"], "a scan"),
];

/// Each of `cases` (`expr` arguments, the words that say why) printed `--as target` for
/// `POST#a91f`'s META (a query or a scan for the table alone) exits 2, saying that `library`
/// cannot say it and why, and prints nothing.
pub(crate) fn refused_in_words(target: &str, library: &str, cases: &[(&[&str], &str)]) {
    let key = [
        "--table",
        "Social",
        "--key",
        "PK=POST#a91f",
        "--key",
        "SK=META",
    ];
    for (args, words) in cases {
        let mut all = vec!["expr"];
        all.extend(*args);
        let read = matches!(args[0], "query" | "scan");
        all.extend(if read { &key[..2] } else { &key[..] });
        all.extend(["--as", target]);
        let out = dynoscope(&all);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        let said = format!("{library} cannot say this request");
        assert!(
            stderr.contains(&said) && stderr.contains(words),
            "{all:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn what_dynamodb_toolbox_cannot_say_is_refused_in_words_before_anything() {
    refused_in_words("toolbox", "dynamodb-toolbox", &REFUSED);
}

mod programs;
