//! Reconciling, measured (run with `cargo bench --bench reconcile`):
//!
//! 1. `check --all` on a "Bench" table of 1,000 posts with 100 likes each (101,000 items of
//!    about 150 bytes), through the real SDK client against the embedded engine: the true RCU
//!    of each plan — per parent (a scan to find the parents, then a COUNT query each) and one
//!    pass (a parallel scan) — and what the per-parent summary used to report (its queries
//!    only).
//! 2. A reconcile from a gzipped S3 export of 1,000,000 items (`ITEMS=…` to change; `LIKES=…`
//!    children per post, 100 by default): items per second (goal ≥ 500,000), the parents held,
//!    and the peak memory (`SKIP_LIVE=1` measures the export alone), which grows with the
//!    parents, not with the items.
//! 3. The same export read straight from S3 — moto's server (PyPI; `scripts/test.sh` installs
//!    it) — by the CLI (`check --from-export s3://…`), its objects several at once: items per
//!    second and the CLI's own peak memory (goal ≤ 100 MB), beside the local figure
//!    (`SKIP_S3=1` leaves it out). Never measured against AWS's S3.
//! 4. The route planner's estimate for 10,000,000 posts and 1,000,000,000 likes, printed.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

mod from_s3;
#[expect(
    dead_code,
    reason = "the benches share this module, each using a part of it"
)]
mod support;

use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::condition::ScalarType;
use dynoscope_core::connection::{self, ConnectOptions, ConnectionSpec};
use dynoscope_core::read;
use dynoscope_core::report::capacity;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::table::{KeyAttr, TableInfo};
use dynoscope_core::tally::{
    self, Checked, ChildSource, ParentMatch, ParentSource, ReconcileEvent, ReconcilePlan, TallyRule,
};
use dynoscope_core::transfer::{self, Format};
use dynoscope_core::value::Item;
use std::io::Write;

fn s(text: String) -> AttributeValue {
    AttributeValue::S(text)
}

fn rule() -> TallyRule {
    TallyRule {
        parents: ParentMatch {
            sort_key: "META".into(),
            partition_prefix: "POST#".into(),
        },
        tally: "likeTally".into(),
        children: ChildSource::SortKeyPrefix("LIKE#".into()),
    }
}

/// Post `p`'s likes and its META (the tally off by one on every 10th post).
fn post(p: usize, likes: usize) -> Vec<Item> {
    let pk = format!("POST#{p:05}");
    let mut items: Vec<Item> = (0..likes)
        .map(|u| {
            HashMap::from([
                ("PK".to_owned(), s(pk.clone())),
                ("SK".to_owned(), s(format!("LIKE#USER#{u:06}"))),
                ("userId".to_owned(), s(format!("USER#{u:06}"))),
                (
                    "likedAt".to_owned(),
                    AttributeValue::N(format!("17{p:04}{u:04}")),
                ),
                (
                    "device".to_owned(),
                    s("ios-17.4.1/app-5.12.0/build-20260412".into()),
                ),
                (
                    "source".to_owned(),
                    s("feed#home#recommended#slot-07".into()),
                ),
            ])
        })
        .collect();
    let tally = likes + usize::from(p.is_multiple_of(10));
    items.push(HashMap::from([
        ("PK".to_owned(), s(pk)),
        ("SK".to_owned(), s("META".into())),
        ("likeTally".to_owned(), AttributeValue::N(tally.to_string())),
        ("title".to_owned(), s(format!("Post number {p}"))),
    ]));
    items
}

/// 1,000 posts of 100 likes each written into `info`'s table as an import does: a file
/// checked, then read again and sent.
async fn seed_posts(
    conn: &dynoscope_core::connection::Connection,
    info: &dynoscope_core::table::TableInfo,
) {
    // The items go in as an import does: a file checked, then read again and sent.
    let file =
        std::env::temp_dir().join(format!("dynoscope-bench-seed-{}.jsonl", std::process::id()));
    let keys = info.key_names();
    let seed = std::fs::File::create(&file).expect("seed file");
    let mut out = std::io::BufWriter::new(seed);
    let items = (0..1_000).flat_map(|p| post(p, 100));
    transfer::write_items(items, &keys, &[], Format::DynamoDbJsonLines, &mut out).expect("seed");
    drop(out);
    let loading = Instant::now();
    let never = CancelToken::default();
    let sources = dynoscope_core::import::import_sources(&file, conn, &never).expect("sources");
    let checked = dynoscope_core::import::check_import(
        &sources,
        Format::DynamoDbJsonLines,
        &HashMap::new(),
        info,
        &[],
        dynoscope_core::import::CheckLimits::default(),
        &never,
        |_| {},
    )
    .expect("checked");
    let report =
        dynoscope_core::import::import(conn, info, &checked, 4, true, &never, |_| {}).await;
    let _ = std::fs::remove_file(&file);
    println!(
        "Bench: {} items written in {:.1} s",
        report.written,
        loading.elapsed().as_secs_f64()
    );
}

async fn live() {
    let sandbox = Sandbox::start_empty().await.expect("sandbox");
    let spec = ConnectionSpec::Endpoint {
        url: sandbox.endpoint().to_owned(),
        profile: None,
        region: None,
    };
    let options = ConnectOptions {
        timeout: std::time::Duration::from_secs(30),
        read_only: false,
    };
    let conn = connection::connect_with(spec, options)
        .await
        .expect("connects");
    support::create_table(&support::sdk_client(&conn.target), "Bench").await;
    let client = &conn.reader();
    let info = read::describe_table(client, "Bench")
        .await
        .expect("describe");
    seed_posts(&conn, &info).await;
    let info = read::describe_table(client, "Bench")
        .await
        .expect("describe");
    let pricing = conn.pricing(&info);
    for line in tally::estimate(&info, &ParentSource::Scan).lines("Bench", &pricing) {
        println!("  estimate: {line}");
    }
    for plan in [
        ReconcilePlan::PerParent { concurrency: 8 },
        ReconcilePlan::OnePass { segments: 8 },
    ] {
        let started = Instant::now();
        let mut checked = Checked::default();
        tally::reconcile(
            client,
            &info,
            &rule(),
            &ParentSource::Scan,
            plan,
            &CancelToken::default(),
            |e| match e {
                ReconcileEvent::Read(r) => checked.add_read(&r),
                ReconcileEvent::Checked(c) => checked.add(c.expect("check")),
                _ => {}
            },
        )
        .await
        .expect("reconcile");
        let queries: f64 = checked.checks.iter().map(|c| c.count.consumed_rcu).sum();
        println!(
            "{}: {} · true total {} RCU ({} pages, {} items read besides the queries; the COUNT queries alone {} RCU, what the summary reported before) · {} ms",
            plan.label(),
            checked.summary(),
            capacity(checked.totals.rcu),
            checked.totals.pages,
            checked.totals.items_read,
            capacity(queries),
            started.elapsed().as_millis()
        );
    }
}

/// A gzipped S3 export of `items` items (posts of 100 likes), as DynamoDB writes its data files.
fn export(items: usize, path: &std::path::Path) -> usize {
    let file = std::fs::File::create(path).expect("create");
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(file),
        flate2::Compression::default(),
    );
    let keys = vec!["PK".to_owned(), "SK".to_owned()];
    let columns = Vec::new();
    let mut written = 0;
    let likes: usize = std::env::var("LIKES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let mut p = 0;
    while written < items {
        let post = post(p, likes);
        written += post.len();
        transfer::write_items(post, &keys, &columns, Format::S3Export, &mut gz).expect("write");
        p += 1;
    }
    gz.finish().expect("finish").flush().expect("flush");
    written
}

fn from_export() {
    let wanted: usize = std::env::var("ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("dynoscope-bench-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("data.json.gz");
    let items = export(wanted, &path);
    let gz_bytes = std::fs::metadata(&path)
        .map(|m| m.len())
        .unwrap_or_default();
    let key = |name: &str| KeyAttr::new(name, ScalarType::S);
    let info = TableInfo::with_keys("Bench", key("PK"), Some(key("SK")));
    for run in 1..=3 {
        let started = Instant::now();
        let (checks, read) = tally::check_export(
            &info,
            &rule(),
            &transfer::export_files(&dir).expect("files").files,
            Format::S3Export,
            &CancelToken::default(),
            |_| {},
        )
        .expect("reconcile");
        let secs = started.elapsed().as_secs_f64();
        let checks = checks.expect("not cancelled");
        let drifted = checks
            .iter()
            .filter(|c| {
                c.as_ref()
                    .is_ok_and(dynoscope_core::tally::ParentCheck::drifted)
            })
            .count();
        println!(
            "export run {run}: {} items ({} MB gzipped, {} MB of text) in {:.0} ms = {:.0} items/s (goal ≥ 500000) · {} parents, {} drifted",
            read.items,
            gz_bytes / 1_000_000,
            read.bytes / 1_000_000,
            secs * 1e3,
            items as f64 / secs,
            checks.len(),
            drifted
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(str::to_owned)
        })
        .unwrap_or_default();
    println!("peak resident memory of the whole bench: {peak}");
}

/// The planner's routes for 10,000,000 posts and 1,000,000,000 likes of 135 bytes each.
fn planned() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["plan", "--items", "1010000000", "--bytes", "136350000000"])
        .output()
        .expect("plan");
    println!("the planner, for 10,000,000 posts and 1,000,000,000 likes:");
    print!("{}", String::from_utf8_lossy(&out.stdout));
}

fn main() {
    support::start_launcher();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    if std::env::var("SKIP_LIVE").is_err() {
        runtime.block_on(live());
    }
    from_export();
    if std::env::var("SKIP_S3").is_err() {
        runtime.block_on(from_s3::from_s3(export));
    }
    planned();
}
