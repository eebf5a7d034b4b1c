//! ElectroDB 3 (`--as electrodb`), run by Node.js with `electrodb`, `@aws-sdk/lib-dynamodb`
//! and `@aws-sdk/client-dynamodb` from npm against the sandbox over HTTP, with an empty
//! environment and home: an update written for it leaves the item as the low-level client's
//! does, plus exactly the two attributes ElectroDB writes into every item (and says so); what it
//! cannot say is refused in words; the counter program and the like say each outcome as the
//! other programs do (the like's other runs are in `programs_runs.rs` and
//! `programs_outcomes.rs`).

use serde_json::Value;

use crate::common::Fault;
use crate::common::runtimes::{electrodb_runtime, like_tally, printed_like, text};
use crate::common::served::{Served, dynoscope, play_count};
use crate::programs::printed;
use crate::toolbox::{js, refused_in_words, run_written, written};

/// The updates, each sent by ElectroDB's code to one sandbox and by the low-level client's to
/// another: `ADD` of a number and of a set, `SET` of a value, `if_not_exists(x, 0) - d`,
/// `REMOVE`, a set's `DELETE`, under conditions of every kind ElectroDB's `where` has.
const UPDATES: [(&str, &str, &str); 2] = [
    (
        "ADD likeTally :one, labels :ss SET title = :t, c2 = if_not_exists(c2, :z) - :d",
        "attribute_exists(PK) AND likeTally BETWEEN :lo AND :hi AND begins_with(author, :a) AND NOT contains(editors, :x)",
        r#"{":one":{"N":"1"},":ss":{"SS":["a","b","c"]},":t":{"S":"a \"quoted\" $(x) `y` ${z}"},":z":{"N":"0"},":d":{"N":"0.25"},":lo":{"N":"0"},":hi":{"N":"100"},":a":{"S":"an"},":x":{"S":"zed"}}"#,
    ),
    (
        "REMOVE pinned DELETE labels :b",
        "pinned IN (:yes, :no) AND attribute_type(likeTally, :N) AND likeTally >= :four",
        r#"{":b":{"SS":["b"]},":yes":{"BOOL":true},":no":{"BOOL":false},":N":{"S":"N"},":four":{"N":"4"}}"#,
    ),
];

#[test]
fn an_update_written_for_electrodb_leaves_the_item_as_the_request_does_and_says_what_else() {
    let (electro, js) = (electrodb_runtime(), js());
    let (ours, theirs) = (Served::new(), Served::new());
    for (update, condition, values) in UPDATES {
        let args = [
            "update",
            update,
            "--condition",
            condition,
            "--values",
            values,
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=META",
        ];
        for (runtime, served) in [(&electro, &ours), (&js, &theirs)] {
            run_written(runtime, served, &args);
        }
    }
    let item = |served: &Served| -> Value {
        serde_json::from_str(served.item("Social", "POST#a91f", "META").trim()).unwrap()
    };
    let (mut ours, theirs) = (item(&ours), item(&theirs));
    let object = ours.as_object_mut().unwrap();
    assert_eq!(object.shift_remove("__edb_e__"), Some(Value::from("item")));
    assert_eq!(object.shift_remove("__edb_v__"), Some(Value::from("1")));
    assert_eq!(
        ours, theirs,
        "besides its own two attributes, what the request does"
    );
    assert_eq!(ours["likeTally"].to_string(), "4");
    assert_eq!(ours["c2"].to_string(), "-0.25");
    assert_eq!(ours["labels"], serde_json::json!(["a", "c"]));
    // It says so at its top.
    let code = written(
        "electrodb",
        "http://localhost:8000",
        &[
            "delete",
            "attribute_exists(PK)",
            "--table",
            "Social",
            "--key",
            "PK=a",
            "--key",
            "SK=b",
        ],
    );
    assert!(
        code.starts_with("// ElectroDB also writes __edb_e__"),
        "{code}"
    );
}

/// Requests ElectroDB cannot say (after `expr`), and the words that say why.
const REFUSED: [(&[&str], &str); 9] = [
    (
        &[
            "update",
            "SET n = :new",
            "--condition",
            "n_u = :old",
            "--values",
            r#"{":new":{"S":"a"},":old":{"S":"b"}}"#,
        ],
        "share a placeholder",
    ),
    (
        &[
            "update",
            "SET #d = :n",
            "--names",
            r##"{"#d":"a.b"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "as a path",
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
            "SET n = n + :d",
            "--values",
            r#"{":d":{"N":"1"}}"#,
        ],
        "SET n",
    ),
    (
        &[
            "update",
            "SET l = list_append(l, :v)",
            "--values",
            r#"{":v":{"L":[]}}"#,
        ],
        "SET l",
    ),
    (
        &["update", "SET b = :b", "--values", r#"{":b":{"B":"AQI="}}"#],
        "binary",
    ),
    (
        &[
            "update",
            "SET n = :n",
            "--values",
            r#"{":n":{"N":"12345678901234567890"}}"#,
        ],
        "not exact",
    ),
    (
        &[
            "update",
            "SET #e = :n",
            "--names",
            r##"{"#e":"__edb_e__"}"##,
            "--values",
            r#"{":n":{"N":"1"}}"#,
        ],
        "keeps for itself",
    ),
    (
        &["query", "PK = :p", "--values", r#"{":p":{"S":"x"}}"#],
        "__edb_e__",
    ),
];

#[test]
fn what_electrodb_cannot_say_is_refused_in_words_before_anything() {
    refused_in_words("electrodb", "ElectroDB", &REFUSED);
}

#[test]
fn the_electrodb_counter_program_moves_the_value_and_says_each_outcome() {
    let runtime = electrodb_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let count = |served: &Served| -> i64 { play_count(served).parse().unwrap() };
    let before = count(&served);
    let out = runtime.run(
        "counter",
        &printed("electrodb", ("5", "1000000"), &url, true),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(count(&served), before + 5);
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["play_count"], before + 5, "the server's value");
    // The condition fails: exit 1, the item read again, nothing written.
    let out = runtime.run(
        "counter",
        &printed("electrodb", ("5", "10"), &url, true),
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("the item now: {{\"play_count\":{}", before + 5))
            || stderr.contains(&format!("\"play_count\":{}", before + 5)),
        "{stderr}"
    );
    assert_eq!(count(&served), before + 5);
    // An answer lost after the write applied: unknown, sent once, counted once.
    let proxy = served.fault(&["UpdateItem"], Fault::HtmlAfterApply);
    let lost = proxy.url.replace("127.0.0.1", "localhost");
    let program = printed("electrodb", ("5", "1000000"), &lost, true);
    let out = runtime.run("counter", &program, &[("AWS_MAX_ATTEMPTS", "3")]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!((proxy.arrived(), count(&served)), (1, before + 10));
}

#[test]
fn the_electrodb_like_counts_once_per_token_says_its_reasons_and_resends_a_lost_answer() {
    let runtime = electrodb_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let before = like_tally(&served);
    let program = printed_like("electrodb", "USER#el", &url, Some("token-el"));
    for _ in 0..2 {
        let out = runtime.run("like", &program, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    assert_eq!(like_tally(&served), before + 1, "one token, counted once");
    let out = runtime.run(
        "like",
        &printed_like("electrodb", "USER#el", &url, None),
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            r#"already liked; nothing was written; reasons: ["ConditionalCheckFailed","None"]"#
        ),
        "{stderr}"
    );
    let proxy = served.fault(&["TransactWriteItems"], Fault::HtmlAfterApplyOnce);
    let lost = proxy.url.replace("127.0.0.1", "localhost");
    let out = runtime.run(
        "like",
        &printed_like("electrodb", "USER#el-lost", &lost, None),
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("sending again with the same token"),
        "{stderr}"
    );
    assert_eq!((proxy.arrived(), like_tally(&served)), (2, before + 2));
}

/// A key and an attribute name holding quotes, `$(…)`, backquotes, `${x}`, `#{}`, a new line
/// and U+2028 are written exactly by ElectroDB's code; the canary is untouched.
#[test]
fn hostile_keys_and_names_stay_inside_electrodbs_strings() {
    let runtime = electrodb_runtime();
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let canary = runtime.dir.join("CANARY");
    let hostile = "K'\"\\\" $(touch CANARY) `touch CANARY` ${x} #{}\u{2028}\\n\n\"); require('fs').writeFileSync('CANARY', ''); //";
    let name = "n\"'`${x}` $(touch CANARY) #{y}\n\u{2028}";
    let names = serde_json::json!({ "#h": name }).to_string();
    let key = format!("PK={hostile}");
    let args = [
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
        "--program",
    ];
    let out = runtime.run("hostile", &written("electrodb", &url, &args), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!canary.exists(), "the canary was touched");
    let got = dynoscope(&[
        "--endpoint-url",
        served.url(),
        "get",
        "--table",
        "Videos",
        "--key",
        &key,
        "--key",
        "SK=x",
    ]);
    let item: Value = serde_json::from_slice(&got.stdout).unwrap();
    assert_eq!(item["PK"], hostile);
    assert_eq!(item[name].to_string(), "7");
}
