//! A like storm on the seeded sandbox, measured (run with `cargo bench --bench storm`): 3,000
//! users (`USERS=…` for another count) like POST#d71e, 16 at once, through the write gateway
//! and the engine's stream, as the Like lab's storm sends them. The write rate over the first
//! 500 users and over the last 500 is printed: the goal is that they are within 20 % of each
//! other, so that a stream growing with every like does not make each write slower than the one
//! before (the engine numbers every stream record by the largest so far, and without the index
//! the sandbox adds, that read the whole stream).

#![expect(
    clippy::expect_used,
    reason = "bench code: a failed expect is a failed measurement"
)]

use std::time::{Duration, Instant};

use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::{ConnectOptions, ConnectionSpec, connect_with};
use dynoscope_core::likes::{LikeTarget, StormPlan, run_id, storm};
use dynoscope_core::read;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::write::Destination;

/// Users measured at each end.
const END: usize = 500;

fn main() {
    let users: usize = std::env::var("USERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3_000)
        .max(2 * END);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    // Each user's end: when, and the write units spent by then.
    let marks: Vec<(Instant, f64)> = runtime.block_on(async {
        let sandbox = Sandbox::start(None, 0).await.expect("sandbox");
        let spec = ConnectionSpec::Endpoint {
            url: sandbox.endpoint().to_owned(),
            profile: None,
            region: None,
        };
        let options = ConnectOptions {
            timeout: Duration::from_secs(30),
            read_only: false,
        };
        let connection = connect_with(spec, options).await.expect("connected");
        let info = read::describe_table(&connection.reader(), "Social")
            .await
            .expect("Social");
        let target =
            LikeTarget::new(&info, "POST#d71e", "META", "likeTally", "LIKE#").expect("the target");
        let destination = Destination::of(&connection);
        let plan = StormPlan::new(&destination, &target, users, 16, &run_id()).expect("plan");
        let mut marks = Vec::with_capacity(users);
        let started = Instant::now();
        storm(&connection, &plan, true, &CancelToken::default(), |stats| {
            marks.push((Instant::now(), stats.consumed_wcu));
        })
        .await
        .expect("the storm");
        println!(
            "storm: {users} users on POST#d71e in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        drop(sandbox);
        marks
    });
    let rate = |from: usize, to: usize| {
        let (start, wcu_start) = marks[from];
        let (end, wcu_end) = marks[to];
        (wcu_end - wcu_start) / end.duration_since(start).as_secs_f64().max(1e-9)
    };
    let last = marks.len() - 1;
    // The rate along the run, a tenth at a time: a slope shows where writes get slower.
    let tenth = last / 10;
    let along: Vec<String> = (0..10)
        .map(|k| format!("{:.0}", rate(k * tenth, (k + 1) * tenth)))
        .collect();
    println!(
        "write rate by tenth of the users (WCU/s): {}",
        along.join(" ")
    );
    let (first, later) = (rate(0, END), rate(last - END, last));
    let apart = (first - later).abs() / first.max(later) * 100.0;
    println!(
        "write rate: first {END} users {first:.0} WCU/s, last {END} users {later:.0} WCU/s: \
         {apart:.0} % apart (goal: within 20 %) {}",
        if apart <= 20.0 { "ok" } else { "MISSED" }
    );
}
