//! The CLI says what its reads and writes cost, as a process against a served sandbox: `usd`
//! beside the units in `--json`, dollars in the notes, `--price-region`, a user's price file
//! over the shipped one, a price file that cannot be used said once without changing the exit
//! status, and `cost --live` off AWS (a note: live prices are only read on AWS).

use crate::common;

use std::path::Path;
use std::str::FromStr;

use bigdecimal::BigDecimal;
use common::served::{Served, command, text};

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

/// The CLI with its config folder at `config` (where a user's `prices.json` is read).
fn run(config: &Path, args: &[&str]) -> std::process::Output {
    command(args)
        .env("DYNOSCOPE_CONFIG_DIR", config)
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .output()
        .unwrap()
}

fn config_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dynoscope-cost-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn json_reports_carry_usd_beside_their_units() {
    let served = Served::new();
    let config = config_dir("json");
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "like",
            "--table",
            "Social",
            "--pk",
            "POST#a91f",
            "--user",
            "USER#usd",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let units = d(&json["consumed_wcu"].to_string());
    assert_eq!(
        d(&json["usd"].to_string()),
        units * d("0.625") / d("1000000"),
        "{json}"
    );

    // A scan's note: its read units in dollars.
    let out = run(
        &config,
        &["--endpoint-url", served.url(), "scan", "--table", "Social"],
    );
    assert_eq!(out.status.code(), Some(0));
    let note = text(&out.stderr);
    assert!(
        note.contains(" RCU ≈ $") && note.contains("on demand"),
        "{note}"
    );

    // Priced as a region with no on-demand price shipped: said, not made up.
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "--price-region",
            "cn-north-1",
            "scan",
            "--table",
            "Social",
        ],
    );
    let note = text(&out.stderr);
    assert!(
        note.contains("RCU (no on-demand price for cn-north-1)"),
        "{note}"
    );
    std::fs::remove_dir_all(&config).unwrap();
}

#[test]
fn a_users_price_file_is_used_and_a_broken_one_said_once() {
    let served = Served::new();
    let config = config_dir("file");
    std::fs::write(
        config.join("prices.json"),
        r#"{"regions":[{"region":"us-east-1","currency":"USD","source":"our negotiated rate",
            "as_of":"2026-12-01","standard":{"write_request_per_million":"1","read_request_per_million":"0.2"}}]}"#,
    )
    .unwrap();
    let like = |user: &str| {
        run(
            &config,
            &[
                "--endpoint-url",
                served.url(),
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                user,
                "--json",
            ],
        )
    };
    let out = like("USER#file1");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let units = d(&json["consumed_wcu"].to_string());
    assert_eq!(d(&json["usd"].to_string()), units / d("1000000"), "{json}");

    std::fs::write(config.join("prices.json"), "{ not json").unwrap();
    let out = like("USER#file2");
    assert_eq!(
        out.status.code(),
        Some(0),
        "a price file changes no outcome"
    );
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("the shipped prices are used").count(),
        1,
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let units = d(&json["consumed_wcu"].to_string());
    assert_eq!(
        d(&json["usd"].to_string()),
        units * d("0.625") / d("1000000")
    );
    std::fs::remove_dir_all(&config).unwrap();
}

#[test]
fn a_reconcile_and_an_export_say_their_cost_before_they_read() {
    let served = Served::new();
    let config = config_dir("plan");
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "check",
            "--table",
            "Social",
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--all",
        ],
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("One pass: a parallel scan of Social"),
        "{stderr}"
    );
    assert!(stderr.contains("RCU ≈ $"), "{stderr}");
    let file = config.join("social.jsonl");
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "export",
            "--table",
            "Social",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Reading all of it (as last reported: ") && stderr.contains("): about "),
        "{stderr}"
    );
    std::fs::remove_dir_all(&config).unwrap();
}

#[test]
fn cost_prints_the_tables_card() {
    let served = Served::new();
    let config = config_dir("card");
    let out = run(
        &config,
        &["--endpoint-url", served.url(), "cost", "--table", "Social"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let card = text(&out.stdout);
    for expected in [
        "Priced as us-east-1, on demand, Standard\n",
        "this connection has no AWS region of its own",
        "A write of up to 1 KB: 1 WCU ≈ $0.000000625 on demand",
        "A like (a transaction of two writes): 4 WCU ≈ $0.0000025 on demand; at 1,000,000 likes: 4,000,000 WCU ≈ $2.50 on demand",
        "Reading all of it (",
    ] {
        assert!(card.contains(expected), "{expected}: {card}");
    }
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "cost",
            "--table",
            "Social",
            "--json",
        ],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["write_unit_usd"].to_string(), "0.000000625");
    assert_eq!(json["like_usd"].to_string(), "0.0000025");
    assert_eq!(json["region"], "us-east-1");
    let out = run(
        &config,
        &["--endpoint-url", served.url(), "cost", "--table", "Nope"],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "no such table: an error before anything"
    );
    // Live prices off AWS: a note, not an error, and the shipped card.
    let out = run(
        &config,
        &[
            "--endpoint-url",
            served.url(),
            "cost",
            "--table",
            "Social",
            "--live",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("live prices are only read on AWS"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("1 WCU ≈ $0.000000625 on demand"));
    std::fs::remove_dir_all(&config).unwrap();
}

/// With no table, `plan` and `size` price by the shipped prices when the user's price file
/// cannot be used, and say so once, as every subcommand with a connection does; a negative
/// count is a value refused in words, not a flag.
#[test]
fn a_broken_price_file_falls_back_for_plan_too() {
    let config = config_dir("broken-plan");
    std::fs::write(config.join("prices.json"), "{not json").unwrap();
    let out = run(&config, &["plan", "--items", "1000", "--bytes", "100000"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the shipped prices are used"), "{stderr}");
    assert!(
        text(&out.stdout).contains("no table given, so priced on demand in us-east-1"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&config, &["plan", "--items", "-1", "--bytes", "100000"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        !stderr.contains("unexpected argument"),
        "a value, not a flag: {stderr}"
    );
    assert!(stderr.contains("-1"), "{stderr}");
    std::fs::remove_dir_all(&config).unwrap();
}
