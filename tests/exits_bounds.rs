//! Exits where the input or the endpoint is at fault, and the bounds that hold however much is
//! asked: a silent endpoint given up on within the timeout, one deadline for all of a write's
//! sends (a count of arrivals), segments bounded and a costly scan asked about with its cost, a
//! missing profile named with the files looked in, a name given twice, a number-keyed like.

use crate::common;

use dynoscope_cli::Exit;

use common::Fault;
use common::served::{Served, dynoscope, text};

const STATS: [&str; 4] = ["--key", "PK=VID#9f3a", "--key", "SK=STATS#TOTAL"];

#[test]
fn a_silent_endpoint_is_given_up_on_within_the_timeout() {
    // Accepts connections and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let out = dynoscope(&["--endpoint-url", &url, "--timeout", "1", "tables"]);
    // The process ended (it did not wait on the silent endpoint) and said so, once.
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("timed out"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    // One request, given up on: not sent again after its timeout.
    let accepted = std::iter::from_fn(|| listener.accept().ok()).count();
    assert_eq!(accepted, 1, "connections made");
}

#[test]
fn segments_are_bounded_and_a_costly_scan_is_asked_about_first() {
    let served = Served::new();
    // A pass-through proxy that counts the requests in flight at once.
    let proxy = served.fault(&["Scan"], Fault::Throttle(0));
    let scan = |segments: &str, extra: &[&str]| {
        let mut args = vec!["--endpoint-url", &proxy.url, "scan", "--table", "Videos"];
        args.extend(["--segments", segments, "--limit", "3"]);
        args.extend(extra);
        dynoscope(&args)
    };
    // Past the cap: bad input, nothing sent.
    let out = scan("1000000", &["--yes"]);
    assert_eq!(out.status.code(), Some(Exit::Error.status().into()));
    assert!(
        text(&out.stderr).contains("at most 1000 segments"),
        "{}",
        text(&out.stderr)
    );
    // More than a 12-item table can use: the cost said, nothing sent without --yes.
    let out = scan("1000", &[]);
    assert_eq!(out.status.code(), Some(Exit::Error.status().into()));
    let err = text(&out.stderr);
    assert!(
        err.contains("at least 1000 requests and reads at least 500 RCU"),
        "{err}"
    );
    assert!(err.contains("--yes"), "{err}");
    assert_eq!(proxy.arrived(), 0, "no Scan was sent");
    // Asked and answered: read at most 64 at a time.
    let out = scan("1000", &["--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 3);
    assert!(
        text(&out.stderr).contains("1000 segments asked for: at most 64 run at a time"),
        "{}",
        text(&out.stderr)
    );
    let most = proxy.most_at_once();
    assert!(
        (2..=64).contains(&most),
        "{most} requests in flight at once"
    );
    // A count is a whole number from 1, said in words.
    for bad in ["0", "-1", "ten"] {
        let out = dynoscope(&[
            "--endpoint-url",
            served.url(),
            "scan",
            "--table",
            "Videos",
            "--limit",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = text(&out.stderr);
        assert!(err.contains("whole number"), "{bad}: {err}");
    }
}

#[test]
fn a_write_is_given_one_deadline_for_all_its_sends() {
    let served = Served::new();
    let writes: [(&'static [&'static str], Vec<&str>); 4] = [
        (
            &["UpdateItem"],
            vec![
                "add",
                "--table",
                "Videos",
                "--attr",
                "play_count",
                "--delta",
                "1",
                "--mode",
                "exact",
            ],
        ),
        (
            &["PutItem"],
            vec![
                "put",
                "--table",
                "Social",
                "--item",
                r#"{"PK":{"S":"DL#1"},"SK":{"S":"A"}}"#,
            ],
        ),
        (
            &["DeleteItem"],
            vec![
                "delete", "--table", "Social", "--key", "PK=DL#1", "--key", "SK=A",
            ],
        ),
        (
            &["TransactWriteItems"],
            vec![
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#dl",
                "--token",
                "dl-1",
            ],
        ),
    ];
    for (target, mut args) in writes {
        if target == ["UpdateItem"] {
            args.extend(STATS);
        }
        // Applied, and never answered: a repeatable write could be sent again, but only within
        // the one deadline of 2 s, which its first attempt used up.
        let proxy = served.fault(target, Fault::SilentAfterApply);
        let mut full = vec!["--endpoint-url", proxy.url.as_str(), "--timeout", "2"];
        full.extend(&args);
        let out = dynoscope(&full);
        assert_eq!(
            out.status.code(),
            Some(3),
            "{target:?}: {}",
            text(&out.stdout)
        );
        assert_eq!(
            proxy.arrived(),
            1,
            "{target:?}: sent once within --timeout 2"
        );
    }
}

#[test]
fn a_missing_profile_names_the_files_looked_in() {
    let dir = std::env::temp_dir().join(format!("dynoscope-profiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let credentials = dir.join("credentials");
    std::fs::write(&credentials, "[ci]\naws_access_key_id = A\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--profile", "nosuch", "tables"])
        .env("AWS_CONFIG_FILE", dir.join("config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", &credentials)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let config = dir.join("config").display().to_string();
    assert!(err.contains(&format!("{config} (no such file)")), "{err}");
    assert!(err.contains(&credentials.display().to_string()), "{err}");
    assert!(!err.contains("~/.aws/config"), "{err}");
}

#[test]
fn a_name_given_twice_is_bad_input_with_its_place() {
    let served = Served::new();
    let url = served.url();
    let cases: [Vec<&str>; 5] = [
        vec![
            "partiql",
            r#"SELECT * FROM "Social" WHERE PK = ?"#,
            "--param",
            r#"{"S":"POST#a91f","S":"POST#d71e"}"#,
        ],
        vec![
            "scan",
            "--table",
            "Social",
            "--start-key",
            r#"{"PK":{"S":"a"},"SK":{"S":"x"},"PK":{"S":"b"}}"#,
        ],
        vec![
            "expr",
            "update",
            "SET #a = :v",
            "--names",
            r##"{"#a":"x","#a":"y"}"##,
            "--values",
            r#"{":v":{"N":"1"}}"#,
        ],
        vec![
            "expr",
            "update",
            "SET a = :v",
            "--values",
            r#"{":v":{"N":"1"},":v":{"N":"2"}}"#,
        ],
        vec![
            "put",
            "--table",
            "Social",
            "--item",
            r#"{"PK":{"S":"DP#4"},"SK":{"M":{"x":{"N":"1"},"x":{"N":"2"}}}}"#,
        ],
    ];
    for args in cases {
        let mut full = vec!["--endpoint-url", url];
        full.extend(&args);
        let out = dynoscope(&full);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("is given twice in one object"),
            "{args:?}: {err}"
        );
        assert!(err.contains("column"), "{args:?}: {err}");
    }
    assert_eq!(served.item("Social", "DP#4", "A"), "", "nothing was put");
    // A byte-order mark before a statement (a file saved by some editors) is no part of it.
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "partiql",
        "\u{feff}SELECT * FROM \"Videos\"",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_like_on_a_table_keyed_by_numbers_is_bad_input_caught_before_sending() {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    let served = Served::new();
    served.runtime.block_on(async {
        let client = common::sdk_client(served.url());
        let def = |name: &str| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::N)
                .build()
                .unwrap()
        };
        let key = |name: &str, kind| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(kind)
                .build()
                .unwrap()
        };
        client
            .create_table()
            .table_name("Numbered")
            .billing_mode(BillingMode::PayPerRequest)
            .attribute_definitions(def("id"))
            .attribute_definitions(def("n"))
            .key_schema(key("id", KeyType::Hash))
            .key_schema(key("n", KeyType::Range))
            .send()
            .await
            .unwrap();
    });
    let proxy = served.fault(&["TransactWriteItems"], Fault::Throttle(0));
    let out = dynoscope(&[
        "--endpoint-url",
        &proxy.url,
        "like",
        "--table",
        "Numbered",
        "--pk",
        "1",
        "--user",
        "u",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("likes are keyed by text"), "{err}");
    assert_eq!(proxy.arrived(), 0, "nothing was sent");
}
