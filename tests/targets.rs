//! Every language a request is copied as, checked by its own tools. Go: one request of each
//! kind (update, put of every type, delete, query, scan, a transaction, a PartiQL statement) is
//! formatted by gofmt, built with Debian's SDK and run against the sandbox, and what it wrote
//! is read back. Java, .NET, Kotlin and PHP, whose SDKs no registry here serves: golden files,
//! and tree-sitter's grammar of each language (from PyPI) parses the code without an error and
//! finds the operation called and every table, expression, name and value of the request in its
//! string literals, escapes decoded by the language's rules. A shell command holding quotes,
//! `$(…)`, backquotes, new lines and unicode runs in bash and touches no canary.

mod partiql;
mod requests;

use std::path::{Path, PathBuf};
use std::process::Command;

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::expr::codegen::{Operation, Target};
use serde_json::Value;

use crate::common::runtimes::go_runtime;
use crate::common::served::{Served, text};
use requests::{
    HOSTILE, body_strings, counter, delete, every_type, golden_requests, like, local, put, query,
    scan, statement, stored, typed,
};

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
            structure_matches(&path, grammar, (target, operation), &body, &code);
            checked += 1;
        }
    }
    assert_eq!(checked, 20);
}

/// The code in `path`, read by tree-sitter's `grammar`: no parse error; every string of the
/// request's `body` among its literals; `operation` called as `target` names it; its options
/// spelled; printable ASCII; labelled as not compiled here.
fn structure_matches(
    path: &Path,
    grammar: &str,
    (target, operation): (Target, &str),
    body: &Value,
    code: &str,
) {
    let mut wanted = Vec::new();
    body_strings(body, &mut wanted);
    let read = parsed(grammar, path);
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
