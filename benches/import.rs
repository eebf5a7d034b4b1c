//! Importing, measured (run with `cargo bench --bench import`): a gzipped DynamoDB JSON file of
//! 1,000,000 likes (`ITEMS=200000` for a quick run) put into an empty table of an in-memory
//! sandbox by the release CLI, `dynoscope import`, run as a child process: its peak memory
//! (the kernel's `ru_maxrss` of the child, from `wait4`) and items per second, for a dry run
//! (the check pass alone) and for the import (both passes).
//!
//! Before the import was streamed (commit a341eab), 200,000 items (30 MB of DynamoDB JSON)
//! took 265,212 kB at peak, 8.6 s writing and 9.8 s in all (20,400 items/s). Goals: a peak of
//! at most 100 MB and at least 15,000 items/s for 1,000,000 items from a gzipped file.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

#[expect(
    dead_code,
    reason = "the benches share this module, each using a part of it"
)]
mod support;

use support::run;

use std::io::Write;
use std::path::Path;

use dynoscope_core::sandbox::Sandbox;

/// Likes per post.
const LIKES: usize = 100;

/// Write `items` likes to a gzipped DynamoDB JSON lines file at `path`; its text's size.
fn write_file(items: usize, path: &Path) -> u64 {
    let file = std::fs::File::create(path).expect("create");
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(file),
        flate2::Compression::default(),
    );
    let mut text_bytes = 0;
    for i in 0..items {
        let (post, user) = (i / LIKES, i % LIKES);
        let line = format!(
            concat!(
                r#"{{"PK":{{"S":"POST#{post:06}"}},"SK":{{"S":"LIKE#USER#{user:06}"}},"#,
                r#""userId":{{"S":"USER#{user:06}"}},"likedAt":{{"N":"17{post:06}{user:04}"}},"#,
                r#""device":{{"S":"ios-17.4.1/app-5.12.0"}}}}"#,
                "\n"
            ),
            post = post,
            user = user
        );
        text_bytes += line.len() as u64;
        gz.write_all(line.as_bytes()).expect("write");
    }
    gz.finish().expect("finish").flush().expect("flush");
    text_bytes
}

fn main() {
    support::start_launcher();
    let items: usize = std::env::var("ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("dynoscope-bench-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("likes.jsonl.gz");
    let text_bytes = write_file(items, &file);
    let gz_bytes = std::fs::metadata(&file)
        .map(|m| m.len())
        .unwrap_or_default();
    println!(
        "{items} items: {:.1} MB of DynamoDB JSON, {:.1} MB gzipped",
        text_bytes as f64 / 1e6,
        gz_bytes as f64 / 1e6
    );

    // The engine on a runtime of its own, as the app's would be; the CLI is another process.
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let sandbox = runtime.block_on(Sandbox::start(None, 0)).expect("sandbox");
    let url = sandbox.endpoint().to_owned();
    runtime.block_on(async {
        let client = support::sdk_client(&url);
        support::create_table(&client, "ImportBench").await;
    });
    let path = file.to_str().expect("path");
    let base = ["import", "--table", "ImportBench", "--format", "ddb-json"];

    let mut dry: Vec<&str> = base.to_vec();
    dry.extend(["--dry-run", path]);
    let check = run(&url, &dry, &dir);
    assert_eq!(check.code, 0, "the dry run");
    println!(
        "dry run (the check pass): {:.1} s, {:.0} items/s, peak RSS {} kB",
        check.wall_s,
        items as f64 / check.wall_s,
        check.peak_kb
    );

    let mut import: Vec<&str> = base.to_vec();
    import.push(path);
    let done = run(&url, &import, &dir);
    assert_eq!(done.code, 0, "the import");
    let summary = done
        .stdout
        .lines()
        .find(|l| l.starts_with("import: "))
        .unwrap_or_default()
        .to_owned();
    println!("{summary}");
    println!(
        "import (check, then write): {:.1} s in all, {:.0} items/s, peak RSS {} kB",
        done.wall_s,
        items as f64 / done.wall_s,
        done.peak_kb
    );
    println!(
        "before (a341eab, 200,000 items of 30 MB, not gzipped): 9.8 s, 20,400 items/s, peak RSS 265,212 kB"
    );
    println!(
        "goals: peak RSS ≤ 100 MB ({}), ≥ 15,000 items/s at 1,000,000 items ({})",
        if done.peak_kb.max(check.peak_kb) <= 100 * 1024 {
            "met"
        } else {
            "NOT met"
        },
        if items as f64 / done.wall_s >= 15_000.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
    drop(sandbox);
}
