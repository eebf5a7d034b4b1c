//! `dynoscope watch` as a process against a served sandbox: the seeded drifts named from the
//! start of the stream (exit 1), a parent after a storm consistent (exit 0), a table without a
//! stream refused with its two ways out (exit 2), then its stream turned on with
//! --enable-stream, and polling.

use crate::common;

use common::served::{Served, dynoscope, text};

fn watch(url: &str, args: &[&str]) -> std::process::Output {
    let mut all = vec![
        "--endpoint-url",
        url,
        "watch",
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
    ];
    all.extend_from_slice(args);
    dynoscope(&all)
}

/// A storm on POST#a91f, then its watch from the start of the stream: consistent, each record
/// with its images.
fn a_stormed_parent_is_consistent(served: &Served) {
    let storm = dynoscope(&[
        "--endpoint-url",
        served.url(),
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "20",
    ]);
    assert_eq!(storm.status.code(), Some(0), "{}", text(&storm.stderr));
    let out = watch(
        served.url(),
        &[
            "--pk",
            "POST#a91f",
            "--from",
            "trim-horizon",
            "--for",
            "0",
            "--json",
            "--settle",
            "0",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().filter(|l| l["type"] == "record").count() >= 20);
    // Each record with its images, in DynamoDB JSON.
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "record" && l["new"]["PK"]["S"] == "POST#a91f"),
        "{stdout}"
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["ending"], "done");
    assert!(summary["open"].as_array().unwrap().is_empty());
}

/// Read-only: the stream is not turned on, nothing is sent.
fn read_only_turns_no_stream_on(served: &Served) {
    let other = common::table_name("readonly");
    served.runtime.block_on(async {
        let client = common::sdk_client(served.url());
        common::create_table(&client, &other).await;
    });
    let out = dynoscope(&[
        "--endpoint-url",
        served.url(),
        "--read-only",
        "watch",
        "--table",
        &other,
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--enable-stream",
        "--for",
        "0",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("read-only"), "{stderr}");
}

#[test]
fn the_seeded_drifts_are_named_and_a_stormed_parent_is_consistent() {
    let served = Served::new();
    // Without a settle window: the seeded writes are a moment old, none in flight.
    let out = watch(
        served.url(),
        &["--from", "trim-horizon", "--for", "0", "--settle", "0"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    for post in [
        "POST#d71e drift +1",
        "POST#3b0c drift -2",
        "POST#77f1 drift missing tally",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("DRIFT   {post}"))),
            "{post}: {stdout}"
        );
    }
    assert!(stdout.contains("3 divergences open:"), "{stdout}");
    // The busiest partition in one second of stream time, against one partition's ceiling.
    let busiest = stdout
        .lines()
        .find(|l| l.starts_with("Busiest second ("))
        .unwrap_or_else(|| panic!("a busiest second: {stdout}"));
    assert!(
        busiest.contains("of one partition's 1,000 WCU/s")
            && busiest.contains("write units from the item sizes in the records"),
        "{busiest}"
    );

    // A parent that is not there: the start check says so and the watch ends (it does not wait
    // on the stream forever).
    let out = watch(served.url(), &["--pk", "POST#nope", "--for", "1"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("there is no parent item POST#nope / META in Social"),
        "{stderr}"
    );

    a_stormed_parent_is_consistent(&served);
}

#[test]
fn a_table_without_a_stream_is_refused_with_the_ways_out_then_turned_on_or_polled() {
    let served = Served::new();
    let table = common::table_name("nostream");
    served.runtime.block_on(async {
        let client = common::sdk_client(served.url());
        common::create_table(&client, &table).await;
        client
            .put_item()
            .table_name(&table)
            .item("PK", common::s("POST#1"))
            .item("SK", common::s("META"))
            .item("likeTally", common::n("0"))
            .send()
            .await
            .unwrap();
    });
    let args = |extra: &[&str]| {
        let mut all = vec![
            "--endpoint-url",
            served.url(),
            "watch",
            "--table",
            &table,
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--pk",
            "POST#1",
        ];
        all.extend_from_slice(extra);
        dynoscope(&all)
    };
    let out = args(&["--for", "0"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("has no stream"), "{stderr}");
    assert!(
        stderr.contains("--enable-stream") && stderr.contains("--poll"),
        "{stderr}"
    );

    // Polling: one poll with --for 0, its RCU said, no divergence.
    let out = args(&["--poll", "1", "--for", "0"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("poll 1: "), "{stderr}");
    assert!(stderr.contains("polling every 1 s"), "{stderr}");

    // Turned on through the gateway, then watched.
    let out = args(&["--enable-stream", "--from", "trim-horizon", "--for", "0"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("turned on a stream (NEW_AND_OLD_IMAGES)"),
        "{stderr}"
    );
    let described = dynoscope(&[
        "--endpoint-url",
        served.url(),
        "describe",
        "--table",
        &table,
    ]);
    assert!(text(&described.stdout).contains("NEW_AND_OLD_IMAGES"));

    read_only_turns_no_stream_on(&served);
}
