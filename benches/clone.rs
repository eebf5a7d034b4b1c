//! Cloning, measured (run with `cargo bench --bench clone`): a table of 100,000 likes
//! (`ITEMS=20000` for a quick run) cloned from one in-memory engine to another by the release
//! CLI, `dynoscope clone`, run as a child process — its peak memory (the kernel's `ru_maxrss`
//! of the child, from `wait4`) and items per second, for a tenth of the items and for all of
//! them. Memory stays bounded when the peak does not grow with the table: the pages and batches
//! on their way are held, never the table.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

mod support;

use support::run;

use std::time::Instant;

use dynoscope_core::sandbox::Sandbox;

/// The source tables, one of each size in `sizes`, created and filled on the engine at
/// `from_url`.
fn fill_sources(runtime: &tokio::runtime::Runtime, from_url: &str, sizes: &[usize]) {
    runtime.block_on(async {
        let client = support::sdk_client(from_url);
        for (n, size) in sizes.iter().enumerate() {
            let table = format!("CloneBench{n}");
            support::create_table(&client, &table).await;
            support::fill_likes(&client, &table, 0..*size).await;
        }
    });
}

/// Every item of `table` on both engines, not only the clone's own sample.
fn every_item_on_both(
    runtime: &tokio::runtime::Runtime,
    from_url: &str,
    to_url: &str,
    table: &str,
) -> (Vec<String>, Vec<String>) {
    runtime.block_on(async {
        let from = support::sdk_client(from_url);
        let to = support::sdk_client(to_url);
        (
            support::every_item(&from, table).await,
            support::every_item(&to, table).await,
        )
    })
}

fn main() {
    support::start_launcher();
    let items: usize = std::env::var("ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let dir = std::env::temp_dir().join(format!("dynoscope-bench-clone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");

    // Two engines, each on a runtime of its own as the app's would be; the CLI is another
    // process between them.
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let from = runtime.block_on(Sandbox::start_empty()).expect("source");
    let to = runtime
        .block_on(Sandbox::start_empty())
        .expect("destination");
    let (from_url, to_url) = (from.endpoint().to_owned(), to.endpoint().to_owned());
    let sizes = [items / 10, items];
    let started = Instant::now();
    fill_sources(&runtime, &from_url, &sizes);
    println!(
        "source: {} and {} likes ({} per post) put in {:.1} s",
        sizes[0],
        sizes[1],
        support::LIKES,
        started.elapsed().as_secs_f64()
    );

    let mut peaks = Vec::new();
    for (n, size) in sizes.iter().enumerate() {
        let table = format!("CloneBench{n}");
        let args = [
            "clone",
            "--table",
            &table,
            "--to-endpoint",
            &to_url,
            "--segments",
            "4",
        ];
        let done = run(&from_url, &args, &dir);
        assert_eq!(done.code, 0, "the clone of {size}");
        let summary = done
            .stdout
            .lines()
            .find(|l| l.starts_with("items: "))
            .unwrap_or_default()
            .to_owned();
        println!("{summary}");
        // Every item, not only the clone's own sample: both tables scanned and compared.
        let (source, copy) = every_item_on_both(&runtime, &from_url, &to_url, &table);
        assert_eq!(source.len(), *size, "the source of {size}");
        assert!(source == copy, "the clone of {size} differs item by item");
        println!("item by item: {} items equal on both sides", copy.len());
        println!(
            "clone of {size} items (schema, items, check): {:.1} s in all, {:.0} items/s, peak RSS {} kB",
            done.wall_s,
            *size as f64 / done.wall_s,
            done.peak_kb
        );
        peaks.push(done.peak_kb);
    }
    let growth = peaks[1] as f64 / peaks[0].max(1) as f64;
    println!(
        "peak RSS: {} kB at {} items, {} kB at {} ({growth:.2}×): {}",
        peaks[0],
        sizes[0],
        peaks[1],
        sizes[1],
        if growth < 1.5 {
            "bounded, the pages and batches on their way held, never the table"
        } else {
            "grows: run again with MALLOC_ARENA_MAX=2 to tell the program's memory from what \
             glibc's per-thread arenas keep of memory already freed"
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
    drop((from, to));
}
