//! The sandbox seeds in under 2 s (run with `cargo bench --bench speed`). The grid, the row
//! store, sorting, find and loading speed are measured by `cargo bench --bench rows`.

#![expect(
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

use std::time::Instant;

fn main() {
    let db = dynoxide::Database::memory().expect("engine");
    let started = Instant::now();
    let report = dynoscope_core::seed::seed(&db).expect("seed");
    println!(
        "seed: {} items in {:.0} ms (goal < 2000 ms)",
        report.items,
        started.elapsed().as_secs_f64() * 1e3
    );
}
