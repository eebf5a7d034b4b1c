//! The comparison narrowed to a list of keys (each read by key on both sides, nothing else), the
//! counters' verdict in words (`A has an extra ADD`), and counters over time: a tally snapshot
//! before a like storm and one after it with a drift planted behind it, compared — the planted
//! parent named as having started drifting, the stormed one as moved in step — from two files
//! and from one file against the table now.

use std::time::Duration;

use aws_sdk_dynamodb::Client;

use crate::common::{self, Said, n, s};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::diff::{DiffScope, diff};
use dynoscope_core::ending::Ending;
use dynoscope_core::read;
use dynoscope_core::report::Report;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::value::Item;

fn key(pk: &str, sk: &str) -> Item {
    Item::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

/// ADD `delta` to `pk`'s likeTally behind everyone's back.
async fn add_to_tally(client: &Client, pk: &str, delta: &str) {
    client
        .update_item()
        .table_name("Social")
        .set_key(Some(key(pk, "META")))
        .update_expression("ADD likeTally :d")
        .expression_attribute_values(":d", n(delta))
        .send()
        .await
        .unwrap();
}

/// Behind everyone's back: POST#a91f loses its like by USER#7c20 and its tally gains 1.
async fn lose_a_like_and_bump(client: &Client) {
    client
        .delete_item()
        .table_name("Social")
        .set_key(Some(key("POST#a91f", "LIKE#USER#7c20")))
        .send()
        .await
        .unwrap();
    add_to_tally(client, "POST#a91f", "1").await;
}

const RULE: [&str; 6] = [
    "--tally",
    "likeTally",
    "--child-prefix",
    "LIKE#",
    "--parent-prefix",
    "POST#",
];

/// Two seeded copies; B has one like of POST#a91f deleted and an extra ADD on its META. Four
/// keys compared: the META differs (likeTally), the like is only on A, POST#d71e's META is the
/// same, and a key on neither side is said so; only those items were read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_of_keys_is_compared_by_key_and_nothing_else_is_read() {
    let (sa, sb) = (
        Sandbox::start(None, 0).await.unwrap(),
        Sandbox::start(None, 0).await.unwrap(),
    );
    let a = common::connect_to(sa.endpoint(), Duration::from_secs(10)).await;
    let b = common::connect_to(sb.endpoint(), Duration::from_secs(10)).await;
    lose_a_like_and_bump(&common::sdk_client(sb.endpoint())).await;
    let info_a = read::describe_table(&a.reader(), "Social").await.unwrap();
    let info_b = read::describe_table(&b.reader(), "Social").await.unwrap();
    let keys = vec![
        key("POST#a91f", "META"),
        key("POST#a91f", "LIKE#USER#7c20"),
        key("POST#d71e", "META"),
        key("POST#none", "META"),
    ];
    let stop = CancelToken::default();
    let found = diff((&a, &info_a), (&b, &info_b), &DiffScope::Keys(keys), &stop)
        .await
        .unwrap();
    let words = found.texts().join("\n");
    assert!(
        words.starts_with(
            "4 keys: 1 only in A, 0 only in B, 1 different, 1 the same, 1 on neither side"
        ),
        "{words}"
    );
    assert_eq!(found.changed[0].1[0].name, "likeTally", "{words}");
    assert_eq!(
        (found.a.read, found.b.read),
        (3, 2),
        "only the keys were read"
    );
    assert_eq!(found.ending(), Ending::Refused);

    // From the shell: --key as JSON, repeated; a key that is not the table's is refused.
    let args = [
        "diff",
        "--table",
        "Social",
        "--to-endpoint",
        sb.endpoint(),
        "--key",
        r#"{"PK":"POST#a91f","SK":"META"}"#,
        "--key",
        r#"{"PK":"POST#d71e","SK":"META"}"#,
    ];
    let (code, out, err) = common::files::dynoscope(sa.endpoint(), &args).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("2 keys: 0 only in A, 0 only in B, 1 different, 1 the same"),
        "{out}"
    );
    let args = [
        "diff",
        "--table",
        "Social",
        "--key",
        r#"{"PK":"POST#a91f"}"#,
    ];
    let (code, _, err) = common::files::dynoscope(sa.endpoint(), &args).await;
    assert_eq!(code, 2);
    assert!(err.contains("needs `SK` too"), "{err}");
}

/// POST#d71e's extra ADD on A only: the counters' verdict says so in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_counters_verdict_names_the_side_with_the_extra_add() {
    let (sa, sb) = (
        Sandbox::start(None, 0).await.unwrap(),
        Sandbox::start(None, 0).await.unwrap(),
    );
    add_to_tally(&common::sdk_client(sb.endpoint()), "POST#d71e", "-1").await;
    let mut args = vec![
        "diff",
        "--table",
        "Social",
        "--to-endpoint",
        sb.endpoint(),
        "--all",
    ];
    args.extend(RULE);
    let (code, out, err) = common::files::dynoscope(sa.endpoint(), &args).await;
    assert_eq!(code, 1, "{out}{err}");
    let d71e = out.lines().find(|l| l.starts_with("POST#d71e")).unwrap();
    assert!(d71e.ends_with("— A has an extra ADD"), "{d71e}");
    let b3b0c = out.lines().find(|l| l.starts_with("POST#3b0c")).unwrap();
    assert!(b3b0c.ends_with("— both drifted"), "{b3b0c}");
}

/// A snapshot before a storm of 40 likes on POST#a91f and one after, with POST#f00d's tally
/// bumped behind the storm's back: the viral POST#f00d started drifting (+1), POST#a91f moved with its
/// children (drift 0 both times); exit 1. The old snapshot against now says the same; an
/// existing file is not overwritten without --force.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshots_before_and_after_a_storm_name_the_parent_that_started_drifting() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let dir = std::env::temp_dir().join(format!("dynoscope-snapshots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (before, after) = (dir.join("before.json"), dir.join("after.json"));
    let snapshot = |path: &std::path::Path| {
        let mut args = vec!["snapshot", "--table", "Social", "--out"];
        args.push(Box::leak(path.display().to_string().into_boxed_str()));
        args.extend(RULE);
        args
    };
    let (code, out, err) = common::files::dynoscope(url, &snapshot(&before)).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("Snapshot of 45 parents of Social (`likeTally`)"),
        "{out}"
    );
    let args = [
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "40",
    ];
    let (code, out, err) = common::files::dynoscope(url, &args).await;
    assert_eq!(code, 0, "{out}{err}");
    add_to_tally(&common::sdk_client(url), "POST#f00d", "1").await;
    let (code, _, err) = common::files::dynoscope(url, &snapshot(&after)).await;
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = common::files::dynoscope(url, &snapshot(&after)).await;
    assert_eq!(code, 2, "an existing file is kept: {err}");

    let (old, new) = (before.display().to_string(), after.display().to_string());
    let two = ["diff", "--snapshot", &old, "--snapshot", &new, "--json"];
    let now = ["diff", "--snapshot", &old, "--json"];
    for args in [&two[..], &now[..]] {
        let (code, out, err) = common::files::dynoscope(url, args).await;
        assert_eq!(code, 1, "{out}{err}");
        let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(json["started_drifting"], 1, "{json}");
        let moved = json["moved"].as_array().unwrap();
        let parents: Vec<&str> = moved
            .iter()
            .map(|m| m["parent"].as_str().unwrap())
            .collect();
        assert_eq!(parents, ["POST#a91f", "POST#f00d"], "{json}");
        assert_eq!(moved[0]["started_drifting"], false);
        assert_eq!(
            moved[0]["new"]["drift"], "0",
            "the storm kept POST#a91f in step"
        );
        assert_eq!(moved[1]["started_drifting"], true);
        assert_eq!(moved[1]["new"]["drift"], "1");
    }
    let (code, out, _) = common::files::dynoscope(url, &["diff", "--snapshot", &old]).await;
    assert_eq!(code, 1);
    let f00d = out.lines().find(|l| l.starts_with("POST#f00d")).unwrap();
    assert!(
        f00d.starts_with("POST#f00d: started drifting: tally "),
        "{f00d}"
    );
    assert!(f00d.ends_with("(+1)"), "{f00d}");
}

/// Social exported to a gzipped S3-export file in a folder of its own: the folder and the file.
async fn exported(url: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("dynoscope-diff-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("social.json.gz").display().to_string();
    let export = [
        "export",
        "--table",
        "Social",
        "--format",
        "s3-export",
        "--gzip",
        "--out",
        &file,
    ];
    let (code, _, err) = common::files::dynoscope(url, &export).await;
    assert_eq!(code, 0, "{err}");
    (dir, file)
}

/// An export as a side: Social exported (S3 export format, gzipped), then a like deleted and a
/// tally bumped on the live table: the table against its export finds exactly those two, the
/// export side spending no read unit; the export against itself is the same; an export with
/// --pk is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_compared_with_its_export_and_two_exports_with_each_other() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let url = sandbox.endpoint();
    let (dir, file) = exported(url).await;
    lose_a_like_and_bump(&common::sdk_client(url)).await;

    let args = [
        "diff",
        "--table",
        "Social",
        "--to-export",
        &file,
        "--all",
        "--json",
    ];
    let (code, out, err) = common::files::dynoscope(url, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["only_in_a"]["count"], 0, "{json}");
    assert_eq!(
        json["only_in_b"]["keys"][0]["SK"]["S"], "LIKE#USER#7c20",
        "{json}"
    );
    assert_eq!(
        json["different"]["items"][0]["attributes"][0]["attribute"],
        "likeTally"
    );
    assert_eq!(
        json["b"]["consumed_rcu"], 0.0,
        "the export spends no read unit"
    );
    assert_eq!(json["a"]["read"], json["b"]["read"].as_u64().unwrap() - 1);

    let both = [
        "diff",
        "--table",
        "Social",
        "--from-export",
        &file,
        "--to-export",
        &file,
        "--all",
    ];
    let (code, out, err) = common::files::dynoscope(url, &both).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("0 only in A, 0 only in B, 0 different"),
        "{out}"
    );
    let partition = [
        "diff",
        "--table",
        "Social",
        "--to-export",
        &file,
        "--pk",
        "POST#a91f",
    ];
    let (code, _, err) = common::files::dynoscope(url, &partition).await;
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
