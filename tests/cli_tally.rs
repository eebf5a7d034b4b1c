//! The CLI's counters, run as a real process against its own sandbox: `check` of one parent,
//! all parents (estimated first, from an export alike) and shards; `like` twice, then a storm.

use std::process::Command;

fn check_command(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--sandbox", "check"])
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap()
}

#[test]
fn check_one_parent_all_parents_and_shards() {
    let out = check_command(&[
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--pk",
        "POST#a91f",
    ]);
    assert_eq!(out.status.code(), Some(0));
    // One parent's check: its figures, then the verdict (the MCP check_tally's lines).
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "POST#a91f\tstored 3\tcounted 3\tdrift 0\nThe stored tally equals the 3 children.\n"
    );

    let out = check_command(&[
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
        "--all",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "drift found");
    // One document: the drifted parents, the worst first, and the totals over every parent.
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let top: Vec<&str> = (document["drifted"].as_array().unwrap().iter())
        .map(|l| l["pk"].as_str().unwrap())
        .collect();
    assert_eq!(
        top,
        ["POST#77f1", "POST#3b0c", "POST#d71e"],
        "missing first, then by |drift|"
    );
    assert_eq!(document["parents"], 45);
    assert_eq!(document["totals"]["parents"], 45);
    assert_eq!(document["totals"]["drifted"], 3);
    assert_eq!(document["ending"], "refused");

    let out = check_command(&[
        "--table",
        "Videos",
        "--tally",
        "play_count",
        "--pk",
        "VID#c0de",
        "--shards",
        "STATS#TOTAL#",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("STATS#TOTAL#3\t9876  <- hot"), "{text}");
    // The total is part of the report, after the shards.
    assert!(text.contains("total 18312 over 8 shards"), "{text}");

    let out = check_command(&[
        "--table",
        "Nope",
        "--tally",
        "t",
        "--child-prefix",
        "A#",
        "--pk",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2), "errors are 2");
}

/// What `check --json` found: each drifted parent's pk, stored, counted and drift, and the
/// totals over every parent (what was read and what it cost left out).
fn verdict_lines(out: &std::process::Output) -> Vec<String> {
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let totals = &document["totals"];
    (document["drifted"].as_array().unwrap().iter())
        .map(|l| {
            format!(
                "{} {} {} {}",
                l["pk"], l["stored"], l["counted"], l["drift"]
            )
        })
        .chain([format!(
            "{} parents, {} drifted, stored {}, counted {}",
            totals["parents"], totals["drifted"], totals["stored"], totals["counted"]
        )])
        .collect()
}

#[test]
fn check_all_estimates_first_and_reconciles_from_an_export_alike() {
    let rule = [
        "--table",
        "Social",
        "--tally",
        "likeTally",
        "--child-prefix",
        "LIKE#",
        "--parent-prefix",
        "POST#",
        "--json",
    ];
    let live = check_command(&[&rule[..], &["--all"]].concat());
    assert_eq!(live.status.code(), Some(1), "drift found");
    let err = String::from_utf8_lossy(&live.stderr);
    assert!(
        err.starts_with("One pass: a parallel scan of Social ("),
        "{err}"
    );
    assert!(
        err.contains("Plan: one pass: a parallel scan in 8 segments."),
        "{err}"
    );
    let per = check_command(&[&rule[..], &["--all", "--plan", "per-parent"]].concat());
    assert_eq!(verdict_lines(&per), verdict_lines(&live));
    let rcu = |out: &std::process::Output| {
        let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        document["totals"]["consumed_rcu"].as_f64().unwrap()
    };
    assert!(rcu(&live) > 0.0);
    assert!(
        rcu(&per) > rcu(&live),
        "a scan plus the queries costs more than one pass"
    );

    let dir = std::env::temp_dir().join(format!("dynoscope-cli-export-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let file = dir.join("data").join("part-0.json.gz");
    let export = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args([
            "--sandbox",
            "export",
            "--table",
            "Social",
            "--format",
            "s3-export",
            "--gzip",
        ])
        .arg("--out")
        .arg(&file)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    assert_eq!(export.status.code(), Some(0), "{export:?}");
    let path = dir.to_string_lossy().to_string();
    let offline = check_command(&[&rule[..], &["--from-export", &path]].concat());
    assert_eq!(offline.status.code(), Some(1));
    assert_eq!(verdict_lines(&offline), verdict_lines(&live));
    assert!(
        String::from_utf8_lossy(&offline.stderr)
            .contains("from the export; no item read from the table")
    );
    assert!(rcu(&offline).abs() < f64::EPSILON, "no read units");
    std::fs::remove_dir_all(&dir).unwrap();

    // SQL is printed, not a report: --json (the rule's last flag) does not apply to it.
    let athena = ["--athena", "s3://bkt/AWSDynamoDB/x/data/"];
    let refused = check_command(&[&rule[..], &athena].concat());
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--json does not apply"),
        "{refused:?}"
    );
    let sql = check_command(&[&rule[..rule.len() - 1], &athena].concat());
    assert_eq!(sql.status.code(), Some(0));
    let text = String::from_utf8_lossy(&sql.stdout);
    assert!(
        text.contains("CREATE EXTERNAL TABLE `social_export`"),
        "{text}"
    );
    assert!(text.contains("GROUP BY item.\"PK\".\"S\""), "{text}");
}

#[test]
fn like_twice_then_storm() {
    let dir = std::env::temp_dir().join(format!("dynoscope-cli-like-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("sandbox.db");
    let _ = std::fs::remove_file(&db);
    let db_arg = db.display().to_string();
    let like = || {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args([
                "--sandbox-db",
                &db_arg,
                "like",
                "--table",
                "Social",
                "--pk",
                "POST#a91f",
                "--user",
                "USER#cli",
            ])
            .output()
            .unwrap()
    };
    let first = like();
    let text = String::from_utf8_lossy(&first.stdout);
    assert_eq!(first.status.code(), Some(0), "{text}");
    assert!(text.contains("Committed · 4 WCU"), "{text}");
    assert!(text.contains("tally 3 → 4 · children 3 → 4"), "{text}");
    let again = like();
    let text = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(1), "cancelled: {text}");
    assert!(
        text.contains("USER#cli already likes POST#a91f; nothing was written"),
        "{text}"
    );
    assert!(text.contains("tally 4 → 4 · children 4 → 4"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);

    let storm = |pk: &str| {
        Command::new(env!("CARGO_BIN_EXE_dynoscope"))
            .args([
                "--sandbox",
                "storm",
                "--table",
                "Social",
                "--pk",
                pk,
                "--users",
                "100",
                "--concurrency",
                "8",
                "--json",
            ])
            .output()
            .unwrap()
    };
    let out = storm("POST#a91f");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(report["equal"], true);
    assert_eq!(report["operations"], 100 + 20 + 15);
    // On a post whose tally had already drifted, the storm's own change is consistent: exit 0,
    // with the earlier drift reported apart.
    let out = storm("POST#d71e");
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["storm_consistent"].clone(), report["equal"].clone()),
        (true.into(), false.into())
    );
}
