//! Every language a request is copied as, checked by its own tools. Go: one request of each
//! kind (update, put of every type, delete, query, scan, a transaction, a PartiQL statement) is
//! formatted by gofmt, built with Debian's SDK and run against the sandbox, and what it wrote
//! is read back. Java, .NET, Kotlin and PHP, whose SDKs no registry here serves: golden files,
//! and tree-sitter's grammar of each language (from PyPI) parses the code without an error and
//! finds the operation called and every table, expression, name and value of the request in its
//! string literals, escapes decoded by the language's rules. A shell command holding quotes,
//! `$(…)`, backquotes, new lines and unicode runs in bash and touches no canary.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::expr::codegen::{
    ClientSetup, Operation, Request, ReturnOptions, ReturnValues, Target, Transaction,
};
use dynoscope_core::statement::Statement;
use dynoscope_core::value::Style;
use serde_json::Value;

use crate::common::served::{Served, dynoscope, text};
use crate::programs::go_runtime;

/// Text that ends every kind of string it can: quotes, `$`, `${…}`, `#{}`, a command
/// substitution, backquotes, a new line, a bidirectional override, an emoji, a control.
const HOSTILE: &str =
    "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}";

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

fn request(table: &str, operation: Operation) -> Request {
    Request {
        table: table.to_owned(),
        operation,
        update: None,
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::new(),
        values: HashMap::new(),
        returns: ReturnOptions::default(),
    }
}

fn key(pk: &str, sk: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

/// An item of every type, the hostile text in a value and in an attribute name.
fn every_type(pk: &str) -> HashMap<String, AttributeValue> {
    let mut item = key(pk, "ITEM");
    let blob = |b: &[u8]| Blob::new(b.to_vec());
    item.extend([
        ("text".to_owned(), s(HOSTILE)),
        (HOSTILE.to_owned(), n("1")),
        (
            "big".to_owned(),
            n("12345678901234567890123456789012345678"),
        ),
        (
            "fraction".to_owned(),
            n("-0.000000000000000000000000000000000001"),
        ),
        (
            "bytes".to_owned(),
            AttributeValue::B(blob(&[0, 1, 0xff, b'"'])),
        ),
        ("yes".to_owned(), AttributeValue::Bool(true)),
        ("nothing".to_owned(), AttributeValue::Null(true)),
        (
            "tags".to_owned(),
            AttributeValue::Ss(vec!["a".into(), HOSTILE.into()]),
        ),
        (
            "scores".to_owned(),
            AttributeValue::Ns(vec!["1".into(), "2.5".into()]),
        ),
        (
            "blobs".to_owned(),
            AttributeValue::Bs(vec![blob(b"x"), blob(&[0])]),
        ),
        (
            "list".to_owned(),
            AttributeValue::L(vec![n("1"), s("two"), AttributeValue::L(vec![])]),
        ),
        (
            "map".to_owned(),
            AttributeValue::M(HashMap::from([
                ("inner".to_owned(), s(HOSTILE)),
                ("empty".to_owned(), AttributeValue::M(HashMap::new())),
            ])),
        ),
    ]);
    item
}

/// The counter write: ADD under a condition, every return option.
fn counter() -> Request {
    let mut r = request("Videos", Operation::Update(key("VID#9f3a", "STATS#TOTAL")));
    r.update = Some("ADD #n0 :d".into());
    r.condition = Some("#n0 < :max".into());
    r.names = HashMap::from([("#n0".into(), "play_count".into())]);
    r.values = HashMap::from([(":d".into(), n("5")), (":max".into(), n("1000000000"))]);
    r.returns = ReturnOptions {
        values: Some(ReturnValues::UpdatedNew),
        consumed_capacity: true,
        old_item_on_condition_failure: true,
    };
    r
}

fn put(pk: &str) -> Request {
    let mut r = request("Videos", Operation::Put(every_type(pk)));
    r.condition = Some("attribute_not_exists(#pk)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r.returns.consumed_capacity = true;
    r
}

fn query() -> Request {
    let mut r = request("Social", Operation::Query(None));
    r.key_condition = Some("#pk = :p AND begins_with(#sk, :c)".into());
    r.filter = Some("#at > :t".into());
    r.projection = Some("#pk, #sk, #at".into());
    r.names = HashMap::from([
        ("#pk".into(), "PK".into()),
        ("#sk".into(), "SK".into()),
        ("#at".into(), "likedAt".into()),
    ]);
    r.values = HashMap::from([
        (":p".into(), s("POST#a91f")),
        (":c".into(), s("LIKE#")),
        (":t".into(), n("0")),
    ]);
    r
}

fn scan() -> Request {
    let mut r = request("Videos", Operation::Scan(None));
    r.filter = Some("begins_with(#pk, :v)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r.values = HashMap::from([(":v".into(), s("VID#"))]);
    r
}

fn delete(pk: &str) -> Request {
    let mut r = request("Videos", Operation::Delete(key(pk, "ITEM")));
    r.condition = Some("attribute_exists(#pk)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r
}

/// The like of `user` on POST#a91f: the tally's ADD and the child's conditional put.
fn like(user: &str, token: &str) -> Transaction {
    let mut tally = request("Social", Operation::Update(key("POST#a91f", "META")));
    tally.update = Some("ADD #t :one".into());
    tally.names = HashMap::from([("#t".into(), "likeTally".into())]);
    tally.values = HashMap::from([(":one".into(), n("1"))]);
    let mut child = request(
        "Social",
        Operation::Put(key("POST#a91f", &format!("LIKE#{user}"))),
    );
    child.condition = Some("attribute_not_exists(#sk)".into());
    child.names = HashMap::from([("#sk".into(), "SK".into())]);
    Transaction {
        writes: vec![tally, child],
        token: Some(token.to_owned()),
        consumed_capacity: true,
    }
}

fn statement() -> Statement {
    Statement {
        text: "SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)".into(),
        params: vec![s("POST#a91f"), s("LIKE#")],
    }
}

/// An item in DynamoDB JSON, as `get --json` prints it.
fn typed(item: &HashMap<String, AttributeValue>) -> Value {
    sets_sorted(dynoscope_core::value::json::item_to_json(
        item,
        &[],
        Style::Typed,
    ))
}

fn local(url: &str) -> ClientSetup {
    ClientSetup {
        endpoint_url: Some(url.to_owned()),
        region: None,
        profile: None,
    }
}

/// `value` with every set's members sorted: a set has no order.
fn sets_sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("SS" | "NS" | "BS", Value::Array(mut members)) => {
                        members.sort_by_key(Value::to_string);
                        (k, Value::Array(members))
                    }
                    (_, v) => (k, sets_sorted(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(sets_sorted).collect()),
        other => other,
    }
}

/// The item `pk`/`sk` of `table` in DynamoDB JSON, as `dynoscope get --json` reads it, sets
/// sorted.
fn stored(url: &str, table: &str, pk: &str, sk: &str) -> Value {
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "get",
        "--table",
        table,
        "--key",
        &format!("PK={pk}"),
        "--key",
        &format!("SK={sk}"),
        "--json",
    ]);
    sets_sorted(serde_json::from_slice(&out.stdout).unwrap_or(Value::Null))
}

#[test]
fn go_code_of_every_kind_of_request_is_gofmt_clean_builds_and_does_what_it_says() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let setup = local(&url);
    let go = go_runtime();
    let run = |name: &str, code: String| {
        let out = go.run(name, &code, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}:\n{code}\n{}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), "sent\n", "{name}");
    };
    let play = || {
        stored(&url, "Videos", "VID#9f3a", "STATS#TOTAL")["play_count"]["N"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
    };
    // Go's SDK as Debian has it (v1.17) has no ReturnValuesOnConditionCheckFailure on a
    // single write: the request is sent without it here.
    let mut write = counter();
    write.returns.old_item_on_condition_failure = false;
    let before = play();
    run("counter", write.render(Target::Go, &setup));
    assert_eq!(play(), before + 5, "moved by exactly its delta");
    let pk = format!("GO#{HOSTILE}");
    run("put", put(&pk).render(Target::Go, &setup));
    assert_eq!(
        stored(&url, "Videos", &pk, "ITEM"),
        typed(&every_type(&pk)),
        "stored exactly"
    );
    run("query", query().render(Target::Go, &setup));
    run("scan", scan().render(Target::Go, &setup));
    run("statement", statement().render(Target::Go, &setup));
    let tally = || {
        stored(&url, "Social", "POST#a91f", "META")["likeTally"]["N"]
            .as_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
    };
    let likes = tally();
    let transaction = like("USER#go-target", "go-target-token").render(Target::Go, &setup);
    run("like", transaction.clone());
    run("like-again", transaction);
    assert_eq!(tally(), likes + 1, "the same token twice: applied once");
    run("delete", delete(&pk).render(Target::Go, &setup));
    assert_eq!(stored(&url, "Videos", &pk, "ITEM"), Value::Null, "deleted");
}

/// The words a request's body holds that code must carry as strings: texts, every name and
/// value (binary as base64), the key's and the item's attribute names. Not the field names,
/// type tags or options, which each SDK spells its own way.
fn body_strings(body: &Value, into: &mut Vec<String>) {
    for (field, value) in body.as_object().unwrap() {
        match field.as_str() {
            "TransactItems" => {
                for write in value.as_array().unwrap() {
                    for fields in write.as_object().unwrap().values() {
                        body_strings(fields, into);
                    }
                }
            }
            "Key" | "Item" | "ExpressionAttributeValues" => item_strings(value, into),
            "ExpressionAttributeNames" => {
                for (k, v) in value.as_object().unwrap() {
                    into.extend([k.clone(), v.as_str().unwrap().to_owned()]);
                }
            }
            "Parameters" => value
                .as_array()
                .unwrap()
                .iter()
                .for_each(|v| value_strings(v, into)),
            "ReturnValues" | "ReturnConsumedCapacity" | "ReturnValuesOnConditionCheckFailure" => {}
            _ => into.push(value.as_str().unwrap().to_owned()),
        }
    }
}

fn item_strings(item: &Value, into: &mut Vec<String>) {
    for (name, value) in item.as_object().unwrap() {
        into.push(name.clone());
        value_strings(value, into);
    }
}

fn value_strings(typed: &Value, into: &mut Vec<String>) {
    for (tag, inner) in typed.as_object().unwrap() {
        match (tag.as_str(), inner) {
            ("L", Value::Array(items)) => items.iter().for_each(|v| value_strings(v, into)),
            ("M", map) => item_strings(map, into),
            (_, Value::String(t)) => into.push(t.clone()),
            (_, Value::Array(items)) => {
                into.extend(items.iter().map(|v| v.as_str().unwrap().to_owned()))
            }
            _ => {}
        }
    }
}

/// A request of any kind the golden files hold.
enum Copied {
    One(Request),
    Transaction(Transaction),
    Statement(Statement),
}

impl Copied {
    fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match self {
            Self::One(r) => r.render(target, setup),
            Self::Transaction(t) => t.render(target, setup),
            Self::Statement(s) => s.render(target, setup),
        }
    }

    fn json(&self) -> Value {
        match self {
            Self::One(r) => r.json(),
            Self::Transaction(t) => t.json(),
            Self::Statement(s) => s.json(),
        }
    }
}

/// The requests of the golden files: name, operation, request, where it connects (the
/// sandbox; AWS with a profile and a region; a region alone).
fn golden_requests() -> Vec<(&'static str, &'static str, Copied, ClientSetup)> {
    let sandbox = local("http://localhost:8000");
    let aws = ClientSetup {
        endpoint_url: None,
        region: Some("eu-west-1".into()),
        profile: Some(format!("prod {HOSTILE}")),
    };
    let region = ClientSetup {
        region: Some("us-west-2".into()),
        ..ClientSetup::default()
    };
    vec![
        (
            "counter",
            "UpdateItem",
            Copied::One(counter()),
            sandbox.clone(),
        ),
        (
            "put",
            "PutItem",
            Copied::One(put(&format!("P#{HOSTILE}"))),
            aws,
        ),
        ("query", "Query", Copied::One(query()), region),
        (
            "like",
            "TransactWriteItems",
            Copied::Transaction(like("USER#7c20", "tok-1")),
            sandbox.clone(),
        ),
        (
            "statement",
            "ExecuteStatement",
            Copied::Statement(statement()),
            sandbox,
        ),
    ]
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/targets/golden")
}

#[test]
fn java_dotnet_kotlin_and_php_match_their_golden_files_and_parse_to_the_request() {
    let languages = [
        (Target::Java, "java", "java"),
        (Target::DotNet, "cs", "csharp"),
        (Target::Kotlin, "kt", "kotlin"),
        (Target::Php, "php", "php"),
    ];
    let bless = std::env::var_os("DYNOSCOPE_BLESS").is_some();
    let mut checked = 0;
    for (name, operation, copied, setup) in golden_requests() {
        let body = copied.json();
        let mut wanted = Vec::new();
        body_strings(&body, &mut wanted);
        for (target, extension, grammar) in languages {
            let code = copied.render(target, &setup);
            let path = golden_dir().join(format!("{name}.{extension}"));
            if bless {
                std::fs::write(&path, &code).unwrap();
            }
            let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!("{}: {e} (DYNOSCOPE_BLESS=1 writes it)", path.display())
            });
            assert_eq!(
                code,
                golden,
                "{} changed (DYNOSCOPE_BLESS=1 rewrites it)",
                path.display()
            );
            let read = parsed(grammar, &path);
            assert_eq!(
                read["errors"],
                serde_json::json!([]),
                "{}: {read}",
                path.display()
            );
            let found: Vec<String> = (read["strings"].as_array().unwrap().iter())
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            for text in &wanted {
                assert!(
                    found.contains(text),
                    "{}: {text:?} is not in its strings: {found:?}",
                    path.display()
                );
            }
            let calls = read["calls"].to_string();
            let method = match target {
                Target::DotNet => format!("{operation}Async"),
                _ => format!("{}{}", operation[..1].to_lowercase(), &operation[1..]),
            };
            assert!(
                calls.contains(&format!("\"{method}\"")),
                "{}: {method} in {calls}",
                path.display()
            );
            for option in ["UPDATED_NEW", "TOTAL", "ALL_OLD"] {
                if body.to_string().contains(&format!("\"{option}\"")) {
                    let kotlin = option
                        .split('_')
                        .map(|w| w[..1].to_owned() + &w[1..].to_lowercase())
                        .collect::<String>();
                    assert!(
                        code.contains(option) || code.contains(&kotlin),
                        "{}: {option}",
                        path.display()
                    );
                }
            }
            assert!(
                code.is_ascii(),
                "{}: every string escaped to ASCII",
                path.display()
            );
            assert!(
                code.contains("not compiled here"),
                "{}: labelled",
                path.display()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 20);
}

/// tree-sitter's reading of `path` in `grammar` (tests/targets/structure.py).
fn parsed(grammar: &str, path: &Path) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/targets/structure.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(grammar)
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tree-sitter (scripts/test-tools.txt installs it): {}",
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_shell_command_with_hostile_text_runs_in_bash_and_touches_nothing() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("targets-canary");
    std::fs::create_dir_all(&dir).unwrap();
    let canary = dir.join("CANARY");
    let _ = std::fs::remove_file(&canary);
    let pasted = |command: &str| {
        let home = dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        Command::new("bash")
            .arg("-c")
            .arg(command)
            .current_dir(&dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home)
            .output()
            .unwrap()
    };
    // Every type but binary: written exactly.
    let pk = format!("CLI#{HOSTILE}");
    let mut request = put(&pk);
    let Operation::Put(item) = &mut request.operation else {
        unreachable!()
    };
    item.retain(|_, v| !matches!(v, AttributeValue::B(_) | AttributeValue::Bs(_)));
    let written = item.clone();
    let command = request.render(Target::Cli, &local(&url));
    let out = pasted(&command);
    assert!(out.status.success(), "{command}\n{}", text(&out.stderr));
    assert!(!canary.exists(), "the canary was touched by:\n{command}");
    assert_eq!(
        stored(&url, "Videos", &pk, "ITEM"),
        typed(&written),
        "stored exactly"
    );
    // With binary values: AWS CLI v2 takes their base64 as the bytes (`--cli-binary-format
    // base64`); v1, the only one PyPI serves, does not know the flag and refuses it, where
    // without it it would store the base64 text as the bytes.
    let pk = format!("CLI-B#{HOSTILE}");
    let command = put(&pk).render(Target::Cli, &local(&url));
    assert!(command.contains("--cli-binary-format base64"), "{command}");
    let out = pasted(&command);
    assert!(!canary.exists(), "the canary was touched by:\n{command}");
    let version = pasted("aws --version");
    let version = text(&version.stdout) + &text(&version.stderr);
    if version.starts_with("aws-cli/1.") {
        assert!(!out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            stored(&url, "Videos", &pk, "ITEM"),
            Value::Null,
            "nothing written"
        );
    } else {
        assert!(out.status.success(), "{version}: {}", text(&out.stderr));
        assert_eq!(stored(&url, "Videos", &pk, "ITEM"), typed(&every_type(&pk)));
    }
}
