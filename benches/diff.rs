//! Two tables compared, measured (run with `cargo bench --bench diff`): 1,000,000 likes on one
//! engine against the same on another with 1,000 differences planted (a third of them deleted
//! on B, a third changed, a third added; `ITEMS=100000` for a quick run), compared by the
//! release CLI (`dynoscope diff --all --json`, a child process): its wall time, items per
//! second per side and peak memory (the kernel's `ru_maxrss` of the child, from `wait4`) —
//! goals ≤ 200 MB and ≥ 100,000 items/s per side — beside the naive way measured in the same
//! run on the same tables: scan both sides whole, sort each, and walk them together (this
//! bench run again as a child, so its memory is measured alone too). Then both tables are
//! exported (S3 export format) and the two files compared: the comparison's own speed, with no
//! engine serving pages. Every child is started by a small launcher (see `support`), so its
//! peak is its own, never this process's two engines.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::sandbox::Sandbox;

const TABLE: &str = "DiffBench";
const DIFFERENCES: usize = 1_000;

/// The naive child's environment variable: `FROM_URL TO_URL`.
const NAIVE: &str = "DYNOSCOPE_DIFF_BENCH_NAIVE";

/// Plant the differences on `b`: every `items / 1000`-th like deleted, changed or added.
async fn plant(b: &Client, items: usize) -> (usize, usize, usize) {
    let step = items / DIFFERENCES;
    let (mut deleted, mut changed, mut added) = (0, 0, 0);
    for n in 0..DIFFERENCES {
        let i = n * step;
        let mut item = support::like(i);
        match n % 3 {
            0 => {
                let key = item.into_iter().filter(|(k, _)| k == "PK" || k == "SK");
                let request = b.delete_item().table_name(TABLE);
                request.set_key(Some(key.collect())).send().await.unwrap();
                deleted += 1;
            }
            1 => {
                item.insert("device".into(), AttributeValue::S("android-15".into()));
                b.put_item()
                    .table_name(TABLE)
                    .set_item(Some(item))
                    .send()
                    .await
                    .unwrap();
                changed += 1;
            }
            _ => {
                let extra = support::like(items + n);
                b.put_item()
                    .table_name(TABLE)
                    .set_item(Some(extra))
                    .send()
                    .await
                    .unwrap();
                added += 1;
            }
        }
    }
    (deleted, changed, added)
}

/// The naive comparison, in this process (run as a child): scan, sort, walk together; prints
/// how many lines are only on one side.
#[expect(
    clippy::many_single_char_names,
    reason = "a merge walk's usual names: sides a and b, their positions i and j, items x and y"
)]
fn naive(urls: &str) {
    let (from, to) = urls.split_once(' ').expect("two URLs");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (a, b) = runtime.block_on(async {
        let (a, b) = (support::sdk_client(from), support::sdk_client(to));
        tokio::join!(
            support::every_item(&a, TABLE),
            support::every_item(&b, TABLE)
        )
    });
    let (mut i, mut j, mut differ) = (0, 0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => (i, j) = (i + 1, j + 1),
            (Some(x), Some(y)) if x < y => (i, differ) = (i + 1, differ + 1),
            (Some(_) | None, Some(_)) => (j, differ) = (j + 1, differ + 1),
            (Some(_), None) => (i, differ) = (i + 1, differ + 1),
            (None, None) => break,
        }
    }
    println!(
        "naive: {} and {} items, {differ} lines on one side only",
        a.len(),
        b.len()
    );
}

/// The same two tables written out as S3 exports (gzipped), then compared as files: the
/// comparison's own speed, with no engine serving pages while it runs.
fn exports(url_a: &str, url_b: &str, items: usize, planted: (usize, usize, usize), dir: &Path) {
    let files = [dir.join("a.json.gz"), dir.join("b.json.gz")];
    for (url, file) in [url_a, url_b].into_iter().zip(&files) {
        let out = file.to_string_lossy();
        let args = [
            "export",
            "--table",
            TABLE,
            "--format",
            "s3-export",
            "--gzip",
            "--out",
            &out,
        ];
        let written = support::run(url, &args, dir);
        assert_eq!(written.code, 0, "the export of {url}");
    }
    let (from, to) = (files[0].to_string_lossy(), files[1].to_string_lossy());
    let args = [
        "diff",
        "--table",
        TABLE,
        "--all",
        "--from-export",
        &from,
        "--to-export",
        &to,
        "--json",
    ];
    let done = support::run(url_a, &args, dir);
    assert_eq!(done.code, 1, "the two exports differ");
    let json: HashMap<String, serde_json::Value> = serde_json::from_str(&done.stdout).unwrap();
    let count = |key: &str| json[key]["count"].as_u64().unwrap() as usize;
    let found = (count("only_in_a"), count("different"), count("only_in_b"));
    assert_eq!(found, planted, "the exports' differences are the tables'");
    println!(
        "dynoscope diff of the two exports: {:.1} s, {:.0} items/s per side, peak RSS {} kB \
         ({:.0} MB), CPU {:.1} s",
        done.wall_s,
        items as f64 / done.wall_s,
        done.peak_kb,
        done.peak_kb as f64 / 1024.0,
        done.cpu_s,
    );
}

fn main() {
    if let Ok(urls) = std::env::var(NAIVE) {
        naive(&urls);
        return;
    }
    support::start_launcher();
    let items: usize = std::env::var("ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("dynoscope-bench-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let a = runtime.block_on(Sandbox::start_empty()).expect("engine A");
    let b = runtime.block_on(Sandbox::start_empty()).expect("engine B");
    let (url_a, url_b) = (a.endpoint().to_owned(), b.endpoint().to_owned());
    let started = Instant::now();
    let planted = runtime.block_on(async {
        let (ca, cb) = (support::sdk_client(&url_a), support::sdk_client(&url_b));
        support::create_table(&ca, TABLE).await;
        support::create_table(&cb, TABLE).await;
        tokio::join!(
            support::fill_likes(&ca, TABLE, 0..items),
            support::fill_likes(&cb, TABLE, 0..items)
        );
        plant(&cb, items).await
    });
    println!(
        "{items} likes on each engine, {} deleted / {} changed / {} added on B, put in {:.1} s",
        planted.0,
        planted.1,
        planted.2,
        started.elapsed().as_secs_f64()
    );

    let args = [
        "diff",
        "--table",
        TABLE,
        "--to-endpoint",
        &url_b,
        "--all",
        "--json",
    ];
    let done = support::run(&url_a, &args, &dir);
    assert_eq!(done.code, 1, "the two sides differ");
    let json: HashMap<String, serde_json::Value> = serde_json::from_str(&done.stdout).unwrap();
    let count = |key: &str| json[key]["count"].as_u64().unwrap() as usize;
    let found = (count("only_in_a"), count("different"), count("only_in_b"));
    assert_eq!(
        found, planted,
        "every planted difference found, nothing else"
    );
    println!(
        "dynoscope diff: {:.1} s, {:.0} items/s per side, peak RSS {} kB ({:.0} MB), CPU {:.1} s \
         ({:.0} items per side per CPU-second): {found:?} only in A / different / only in B",
        done.wall_s,
        items as f64 / done.wall_s,
        done.peak_kb,
        done.peak_kb as f64 / 1024.0,
        done.cpu_s,
        items as f64 / done.cpu_s,
    );

    exports(&url_a, &url_b, items, planted, &dir);

    let mut command = Command::new(std::env::current_exe().expect("this bench"));
    command.env(NAIVE, format!("{url_a} {url_b}"));
    let naive = support::measured(&command, &dir);
    assert_eq!(naive.code, 0, "the naive comparison");
    println!(
        "naive (scan both, sort, walk): {:.1} s, {:.0} items/s per side, peak RSS {} kB ({:.0} \
         MB), CPU {:.1} s; {}",
        naive.wall_s,
        items as f64 / naive.wall_s,
        naive.peak_kb,
        naive.peak_kb as f64 / 1024.0,
        naive.cpu_s,
        naive.stdout.trim()
    );
    let _ = std::fs::remove_dir_all(&dir);
    drop((a, b));
}
