//! Whole programs of the like and the reconcile, run as they are by Python and Node.js against
//! the sandbox (`programs.rs` has the runtimes): a like sent again with its token counts once,
//! a second like is cancelled with its reasons, a lost answer is sent again with the same
//! token; the reconcile prints exactly the drifts `dynoscope check` finds; hostile keys and
//! names stay inside their strings.

use std::path::Path;

use serde_json::Value;

use crate::common::runtimes::{
    bash_runtime, document_runtime, electrodb_runtime, like_tally, printed_like, runtimes, text,
    toolbox_runtime,
};
use crate::common::{self, Fault, served::Served, served::succeeded};

#[test]
fn a_like_sent_again_with_its_token_counts_once_and_a_second_like_is_cancelled_with_reasons() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in runtimes().into_iter().chain([document_runtime()]) {
        let before = like_tally(&served);
        // The same token twice: applied once.
        let user = format!("USER#p-{}", runtime.target);
        let token = format!("token-{}", runtime.target);
        let program = printed_like(runtime.target, &user, &url, Some(&token));
        for _ in 0..2 {
            let out = runtime.run("like-token", &program, &[]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let said: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(said["token"], token.as_str());
        }
        assert_eq!(
            like_tally(&served),
            before + 1,
            "{}: counted once",
            runtime.target
        );
        // A fresh token each run: the second like of the same user is cancelled, its reasons said.
        let program = printed_like(runtime.target, &user, &url, None);
        let out = runtime.run("like-fresh", &program, &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(
                r#"already liked; nothing was written; reasons: ["ConditionalCheckFailed","#
            ),
            "{stderr}"
        );
        assert_eq!(like_tally(&served), before + 1);
    }
}

#[test]
fn a_like_whose_answer_is_lost_is_sent_again_with_its_token_and_counted_once() {
    let served = Served::new();
    for runtime in runtimes().into_iter().chain([document_runtime()]) {
        let proxy = served.fault(&["TransactWriteItems"], Fault::HtmlAfterApplyOnce);
        let url = proxy.url.replace("127.0.0.1", "localhost");
        let before = like_tally(&served);
        let user = format!("USER#lost-{}", runtime.target);
        let program = printed_like(runtime.target, &user, &url, None);
        let out = runtime.run("like-lost", &program, &[("AWS_MAX_ATTEMPTS", "5")]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains("sending again with the same token"),
            "{stderr}"
        );
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(said["sends"], 2);
        assert_eq!(
            proxy.arrived(),
            2,
            "sent twice, by the program, with one token"
        );
        assert_eq!(
            like_tally(&served),
            before + 1,
            "{}: counted once",
            runtime.target
        );
        assert!(
            served
                .item("Social", "POST#a91f", &format!("LIKE#{user}"))
                .contains(&user)
        );
    }
}

#[test]
fn the_reconcile_prints_exactly_the_drifts_dynoscope_finds() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let rule = common::LIKES_RULE;
    let check = |extra: &[&str], code: i32| -> Vec<String> {
        let mut args = vec!["--endpoint-url", &url, "check", "--table", "Social"];
        args.extend(rule);
        args.extend(extra);
        let out = common::served::dynoscope(&args);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        text(&out.stdout).lines().map(str::to_owned).collect()
    };
    // dynoscope's own drifted parents, as JSON objects of the same four keys.
    let found: Vec<Value> = (check(&["--all", "--output", "jsonl"], 1).iter())
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|p| p["drift"] != "0")
        .map(|p| serde_json::json!({"pk": p["pk"], "stored": p["stored"], "counted": p["counted"], "drift": p["drift"]}))
        .collect();
    let mut found = found;
    // The programs print parents in key order.
    found.sort_by(|a, b| a["pk"].as_str().cmp(&b["pk"].as_str()));
    let pks: Vec<&str> = found.iter().map(|p| p["pk"].as_str().unwrap()).collect();
    assert_eq!(
        pks,
        ["POST#3b0c", "POST#77f1", "POST#d71e"],
        "the sandbox's three seeded drifts"
    );
    let others = [
        bash_runtime(),
        document_runtime(),
        toolbox_runtime(),
        electrodb_runtime(),
    ];
    for runtime in runtimes().into_iter().chain(others) {
        let program = check(&["--all", "--program", runtime.target], 0).join("\n") + "\n";
        let out = runtime.run("reconcile", &program, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let printed: Vec<Value> = (text(&out.stdout).lines())
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(printed, found, "{}", runtime.target);
        assert!(
            text(&out.stderr).contains("45 parents checked, 3 drifted"),
            "{}",
            text(&out.stderr)
        );
        // One parent: its COUNT query, every page.
        let program =
            check(&["--pk", "POST#d71e", "--program", runtime.target], 0).join("\n") + "\n";
        let out = runtime.run("reconcile-one", &program, &[]);
        assert_eq!(out.status.code(), Some(1));
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(printed, found[2], "{}", runtime.target);
    }
}

#[test]
fn hostile_keys_and_names_stay_inside_their_strings() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-canary");
    std::fs::create_dir_all(&dir).unwrap();
    let canary = dir.join("touched");
    let _ = std::fs::remove_file(&canary);
    let c = canary.display();
    let hostile = format!(
        "K'\"\\\" $(touch {c}) `touch {c}` ${{x}} #{{}}\u{2028}\\n\n\"); require('fs').writeFileSync('{c}', ''); //"
    );
    let names = serde_json::json!({"#h": format!("n\"'); import os; os.system('touch {c}') #")})
        .to_string();
    // ElectroDB reads a name holding `.` as a path: its hostile text is in electrodb.rs.
    for runtime in runtimes().into_iter().chain([toolbox_runtime()]) {
        let key = format!("PK={hostile}{}", runtime.target);
        let args = [
            "expr",
            "update",
            "ADD #h :d",
            "--names",
            &names,
            "--values",
            r#"{":d":{"N":"7"}}"#,
            "--table",
            "Videos",
            "--key",
            &key,
            "--key",
            "SK=x",
            "--as",
            runtime.target,
            "--program",
            "--endpoint-url",
            &url,
        ];
        let program = succeeded(&args).0;
        let out = runtime.run("hostile", &program, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{program}\n{}",
            text(&out.stderr)
        );
        assert!(
            !canary.exists(),
            "{}: the canary was touched",
            runtime.target
        );
        let pk = format!("{hostile}{}", runtime.target);
        let get = common::served::dynoscope(&[
            "--endpoint-url",
            &url,
            "get",
            "--table",
            "Videos",
            "--key",
            &format!("PK={pk}"),
            "--key",
            "SK=x",
            "--json",
        ]);
        let item: Value = serde_json::from_slice(&get.stdout).unwrap();
        assert_eq!(item["PK"]["S"], pk.as_str(), "the key written exactly");
        let name = format!("n\"'); import os; os.system('touch {c}') #");
        assert_eq!(item[&name]["N"], "7", "the name written exactly: {item}");
    }
}

/// A map key named `__proto__` is a key, not the object's prototype (JavaScript).
#[test]
fn a_map_key_named_proto_stays_a_key() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in runtimes() {
        let values = r#"{":m":{"M":{"__proto__":{"S":"kept"},"a":{"N":"1"}}}}"#;
        let key = format!("PK=proto-{}", runtime.target);
        let args = [
            "expr",
            "update",
            "SET proto = :m",
            "--values",
            values,
            "--table",
            "Videos",
            "--key",
            &key,
            "--key",
            "SK=x",
            "--as",
            runtime.target,
            "--program",
            "--endpoint-url",
            &url,
        ];
        let program = succeeded(&args).0;
        let out = runtime.run("proto", &program, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let get = common::served::dynoscope(&[
            "--endpoint-url",
            &url,
            "get",
            "--table",
            "Videos",
            "--key",
            &key,
            "--key",
            "SK=x",
            "--json",
        ]);
        let item: Value = serde_json::from_slice(&get.stdout).unwrap();
        assert_eq!(
            item["proto"]["M"]["__proto__"]["S"], "kept",
            "{}: {item}",
            runtime.target
        );
    }
}

#[test]
fn a_read_program_follows_every_page() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let collection = common::served::dynoscope(&[
        "--endpoint-url",
        &url,
        "items",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
    ]);
    let expected = text(&collection.stdout).lines().count();
    assert!(expected > 3, "{expected}");
    for runtime in runtimes().into_iter().chain([document_runtime()]) {
        let read = |args: &[&str]| -> String {
            let base = ["expr"].iter().chain(args).copied();
            let tail = ["--as", runtime.target, "--program", "--endpoint-url", &url];
            let all: Vec<&str> = base.chain(tail).collect();
            succeeded(&all).0
        };
        // The whole table: 2 MB, so more than one page.
        let program = read(&["scan", "", "--table", "Social"]);
        let out = runtime.run("scan", &program, &[]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(
            lines.len(),
            26_524,
            "{}: every item of Social",
            runtime.target
        );
        let pages: usize = stderr
            .rsplit_once("items, ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(pages >= 2, "{}: {stderr}", runtime.target);
        let first: Value = serde_json::from_str(lines[0]).unwrap();
        // DynamoDB JSON, or the DocumentClient's plain JSON.
        let plain = runtime.target == "js-doc";
        assert!(
            plain || first["PK"]["S"].is_string(),
            "DynamoDB JSON: {first}"
        );
        assert!(!plain || first["PK"].is_string(), "plain JSON: {first}");
        // One collection, as `dynoscope items` reads it.
        let values = r#"{":p":{"S":"POST#a91f"}}"#;
        let program = read(&["query", "PK = :p", "--values", values, "--table", "Social"]);
        let out = runtime.run("query", &program, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout).lines().count(),
            expected,
            "{}",
            runtime.target
        );
    }
}
