//! Speed goals of SQL over loaded rows, measured (run with `cargo bench --bench sql`):
//! - loading 1,000,000 likes-shaped items (about 160 bytes each) from a result tab's row store
//!   into SQLite in ≤ 2 s;
//! - the shipped reconciliation (LEFT JOIN of parents to children, GROUP BY) over them in ≤ 1 s.

#![expect(
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::rows::Rows;
use dynoscope_core::sql::{RECONCILE_LIKES, SqlSession};
use dynoscope_core::value::{Item, item_to_plain_json};

const POSTS: usize = 5_000;
const LIKES_PER_POST: usize = 200;
/// Every 1,000th post has a tally one too high.
const DRIFT_EVERY: usize = 1_000;

fn s(text: String) -> AttributeValue {
    AttributeValue::S(text)
}

fn n(number: u64) -> AttributeValue {
    AttributeValue::N(number.to_string())
}

/// A like as the sandbox writes it, with longer ids: PK, SK, likedAt and the GSI1 keys.
fn like(post: usize, user: usize) -> Item {
    let user = format!(
        "{:020x}",
        (user as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    );
    HashMap::from([
        ("PK".to_owned(), s(format!("POST#{post:012x}"))),
        ("SK".to_owned(), s(format!("LIKE#USER#{user}"))),
        (
            "likedAt".to_owned(),
            n(1_750_636_800 + (post * 7 + user.len()) as u64),
        ),
        ("GSI1PK".to_owned(), s(format!("USER#{user}"))),
        ("GSI1SK".to_owned(), s(format!("LIKE#POST#{post:012x}"))),
    ])
}

fn parent(post: usize) -> Item {
    let drift = usize::from(post.is_multiple_of(DRIFT_EVERY));
    HashMap::from([
        ("PK".to_owned(), s(format!("POST#{post:012x}"))),
        ("SK".to_owned(), s("META".to_owned())),
        ("title".to_owned(), s(format!("Post number {post}"))),
        ("likeTally".to_owned(), n((LIKES_PER_POST + drift) as u64)),
    ])
}

fn items() -> Vec<Item> {
    let mut items = Vec::with_capacity(POSTS * (LIKES_PER_POST + 1));
    for post in 0..POSTS {
        items.push(parent(post));
        for i in 0..LIKES_PER_POST {
            items.push(like(post, post * LIKES_PER_POST + i));
        }
    }
    items
}

/// Time this thread has spent on a CPU (Linux), so that a figure taken on a shared machine
/// can be told apart from time spent waiting for a core.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Run `work`, then print how long it took (wall and CPU) against `goal`.
fn timed<T>(goal: Duration, work: impl FnOnce() -> T, what: impl FnOnce(&T) -> String) -> T {
    let (cpu, started) = (cpu_time(), Instant::now());
    let result = work();
    let took = started.elapsed();
    let cpu = cpu
        .zip(cpu_time())
        .map(|(before, after)| {
            format!(", {} ms on a CPU", after.saturating_sub(before).as_millis())
        })
        .unwrap_or_default();
    let verdict = if took <= goal { "ok" } else { "OVER GOAL" };
    println!(
        "{}: {} ms{cpu} (goal {} ms) {verdict}",
        what(&result),
        took.as_millis(),
        goal.as_millis()
    );
    result
}

fn main() {
    let items = items();
    let keys = ["PK".to_owned(), "SK".to_owned()];
    let likes = items.len() - POSTS;
    let sample = item_to_plain_json(&items[1], &keys, false);
    println!(
        "{} items ({likes} likes, {POSTS} posts); a like is {} bytes of JSON: {sample}",
        items.len(),
        sample.len()
    );

    let mut session = SqlSession::new().expect("session");
    // What the app loads: a result tab's rows, in the row store.
    let store = Rows::from_items(&items);
    timed(
        Duration::from_secs(2),
        || session.load_rows("social", &keys, &store).expect("loads"),
        |loaded| {
            format!(
                "load {} rows from a result tab (partition key indexed)",
                loaded.rows
            )
        },
    );
    let rows = timed(
        Duration::from_secs(1),
        || session.query(RECONCILE_LIKES.sql).expect("runs"),
        |rows| format!("reconciliation, {} drifted posts", rows.rows.len()),
    );
    assert_eq!(rows.rows.len(), POSTS / DRIFT_EVERY);
}
