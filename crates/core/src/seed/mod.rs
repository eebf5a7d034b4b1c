//! The sample data of the sandbox, modelled on the two articles dynoscope grew from:
//! reference counters (`POST#a91f` / `META` / `likeTally` with `LIKE#USER#…` children) and
//! atomic or sharded counters (`VID#9f3a` / `STATS#TOTAL` / `play_count`).
//!
//! Tables are created with streams (NEW_AND_OLD_IMAGES) and items written straight into the
//! engine (`import_items`, which writes no stream record), far faster than puts over HTTP.
//! Then the writes that made the seeded drifts are made as writes, so the stream holds the
//! records that made them and a watch from the start of the stream finds each one.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use dynoxide::AttributeValue as V;
use dynoxide::{Database, ImportOptions, Item};

use crate::error::{Error, Result};

mod history;
mod samples;

pub use history::RETRIED_REQUEST;
use history::{HISTORY_CHILDREN, history};
pub use samples::{SAMPLES, Sample};

/// The social table: posts, likes, a workspace and a comment.
pub const SOCIAL: &str = "Social";
/// The video table: a plain and a sharded play counter.
pub const VIDEOS: &str = "Videos";
/// The post of the article.
pub const SAMPLE_POST: &str = "POST#a91f";
/// The viral post whose likes span several 1 MB pages.
pub const VIRAL_POST: &str = "POST#f00d";
/// Likes of the viral post.
pub const VIRAL_LIKES: usize = 20_000;
/// Posts whose stored tally has drifted: (post, drift), `None` for a missing tally.
pub const DRIFTED: [(&str, Option<i64>); 3] = [
    ("POST#d71e", Some(1)),
    ("POST#3b0c", Some(-2)),
    ("POST#77f1", None),
];
/// The 38-significant-digit number stored on `VID#9f3a` / `META` as `bytes_served`.
pub const BIG_NUMBER: &str = "98765432109876543210987654321098765432";
/// Shards of the sharded counter on `VID#c0de`, the hot one being shard 3.
pub(crate) const SHARD_COUNTS: [u64; 8] = [1203, 1187, 1241, 9876, 1195, 1222, 1178, 1210];

/// What seeding wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedReport {
    /// Tables created.
    pub tables: usize,
    /// Items written.
    pub items: usize,
    /// How long it took.
    pub elapsed_ms: u128,
}

/// Create the sample tables in `db` and fill them.
pub fn seed(db: &Database) -> Result<SeedReport> {
    let started = Instant::now();
    create_table(db, SOCIAL, true)?;
    create_table(db, VIDEOS, false)?;
    let social = social_items();
    let videos = video_items();
    let items = social.len() + videos.len();
    import(db, SOCIAL, social)?;
    import(db, VIDEOS, videos)?;
    let history = history(db)?;
    Ok(SeedReport {
        tables: 2,
        items: items + history,
        elapsed_ms: started.elapsed().as_millis(),
    })
}

fn create_table(db: &Database, name: &str, with_gsi: bool) -> Result<()> {
    let mut request = serde_json::json!({
        "TableName": name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"}
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"}
        ],
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    });
    if with_gsi {
        if let Some(defs) = request["AttributeDefinitions"].as_array_mut() {
            defs.push(serde_json::json!({"AttributeName": "GSI1PK", "AttributeType": "S"}));
            defs.push(serde_json::json!({"AttributeName": "GSI1SK", "AttributeType": "S"}));
        }
        request["GlobalSecondaryIndexes"] = serde_json::json!([{
            "IndexName": "GSI1",
            "KeySchema": [
                {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                {"AttributeName": "GSI1SK", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "ALL"}
        }]);
    }
    let request = serde_json::from_value(request)
        .map_err(|e| Error::Sandbox(format!("create table {name}: {e}")))?;
    db.create_table(request)
        .map(|_| ())
        .map_err(|e| Error::Sandbox(format!("create table {name}: {e}")))
}

fn import(db: &Database, table: &str, items: Vec<Item>) -> Result<()> {
    db.import_items(table, items, ImportOptions::default())
        .map(|_| ())
        .map_err(|e| Error::Sandbox(format!("seed {table}: {e}")))
}

fn s(text: impl Into<String>) -> V {
    V::S(text.into())
}

fn n(number: impl ToString + Copy) -> V {
    V::N(number.to_string())
}

fn item(pairs: Vec<(&str, V)>) -> Item {
    pairs
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect::<HashMap<_, _>>()
}

/// A small deterministic generator so that every sandbox holds the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

/// The `i`-th user id of a post: distinct for every `i` below 65,536.
fn user_id(i: usize, salt: u64) -> String {
    let mixed = ((i as u64).wrapping_mul(40_503).wrapping_add(salt)) & 0xffff;
    format!("{mixed:04x}")
}

const AUTHORS: [&str; 6] = ["ana", "bruno", "carla", "diego", "elena", "fede"];
const TOPICS: [&str; 8] = [
    "Counting likes without COUNT(*)",
    "Atomic counters in practice",
    "Why my tally drifted",
    "Sharding a hot counter",
    "Transactions for two items",
    "Idempotent retries",
    "Single-table design notes",
    "Reading item collections",
];

fn like(post: &str, user: &str, liked_at: u64) -> Item {
    let post_id = post.trim_start_matches("POST#");
    item(vec![
        ("PK", s(post)),
        ("SK", s(format!("LIKE#USER#{user}"))),
        ("likedAt", n(liked_at)),
        ("GSI1PK", s(format!("USER#{user}"))),
        ("GSI1SK", s(format!("LIKE#POST#{post_id}"))),
    ])
}

fn post_meta(post: &str, title: &str, author: &str, tally: Option<i64>, created: u64) -> Item {
    let mut meta = item(vec![
        ("PK", s(post)),
        ("SK", s("META")),
        ("title", s(title)),
        ("author", s(author)),
        ("createdAt", n(created)),
    ]);
    if let Some(tally) = tally {
        meta.insert("likeTally".into(), n(tally));
    }
    meta
}

/// The time the social sample's items are dated from, in seconds.
const BASE_TIME: u64 = 1_750_636_800;

fn social_items() -> Vec<Item> {
    let mut items = Vec::new();
    sample_post_items(&mut items);
    more_posts_items(&mut items);
    // The viral post: its likes take well over 1 MB, so counting them needs several pages.
    items.push(post_meta(
        VIRAL_POST,
        "This post went viral",
        "fede",
        Some(VIRAL_LIKES as i64),
        BASE_TIME,
    ));
    for i in 0..VIRAL_LIKES {
        items.push(like(VIRAL_POST, &user_id(i, 7), BASE_TIME + i as u64));
    }

    workspace_items(&mut items);
    items
}

/// The article's post, with one attribute of every type, and its three likes.
fn sample_post_items(items: &mut Vec<Item>) {
    // The article's post: three likes, tally 3, and one attribute of every type.
    let mut meta = post_meta(
        SAMPLE_POST,
        "Reference counters in DynamoDB",
        "ana",
        Some(3),
        BASE_TIME - 86_400,
    );
    meta.insert("pinned".into(), V::BOOL(true));
    meta.insert("archivedAt".into(), V::NULL(true));
    meta.insert(
        "hashtags".into(),
        V::SS(vec!["dynamodb".into(), "counters".into()]),
    );
    meta.insert("ratings".into(), V::NS(vec!["4.5".into(), "5".into()]));
    meta.insert("thumbnail".into(), V::B(b"\x89PNG".to_vec()));
    meta.insert("checksums".into(), V::BS(vec![vec![1, 2], vec![3, 4]]));
    meta.insert(
        "stats".into(),
        V::M(HashMap::from([
            ("words".to_owned(), n(1834)),
            ("lang".to_owned(), s("es")),
        ])),
    );
    meta.insert("editors".into(), V::L(vec![s("ana"), s("bruno")]));
    items.push(meta);
    for (i, user) in ["7c20", "19be", "e4d2"].into_iter().enumerate() {
        items.push(like(SAMPLE_POST, user, BASE_TIME + 3_600 * i as u64));
    }
}

/// About forty more posts with 0 to 300 likes each, the drifted ones among them.
fn more_posts_items(items: &mut Vec<Item>) {
    // About forty more posts with 0–300 likes.
    let mut rng = Rng(0x0d15_ea5e_5eed_0001);
    let mut taken: HashSet<String> = [SAMPLE_POST, VIRAL_POST]
        .into_iter()
        .chain(DRIFTED.iter().map(|(p, _)| *p))
        .map(str::to_owned)
        .collect();
    let mut posts: Vec<(String, Option<i64>)> = Vec::new();
    while posts.len() < 40 {
        let id = format!("POST#{:04x}", rng.below(0x1_0000));
        if taken.insert(id.clone()) {
            posts.push((id, Some(0)));
        }
    }
    posts.extend(DRIFTED.iter().map(|(p, d)| ((*p).to_owned(), *d)));
    for (k, (post, _)) in posts.iter().enumerate() {
        let likes = rng.below(301) as usize;
        // Children the stream history adds (the like of POST#d71e, the bare puts of
        // POST#3b0c); the import holds the others, with a tally that agrees with them, so the
        // drifts are made by the history's writes.
        let later = HISTORY_CHILDREN
            .iter()
            .find(|(p, _)| p == post)
            .map_or(0, |(_, n)| *n);
        let imported = likes.saturating_sub(later);
        let tally = Some(imported as i64);
        let title = TOPICS[k % TOPICS.len()];
        let author = AUTHORS[k % AUTHORS.len()];
        let created = BASE_TIME - 1_000 * k as u64;
        let mut meta = post_meta(post, title, author, tally, created);
        let salt = rng.next();
        let mut updated = created;
        for i in 0..likes {
            let liked_at = BASE_TIME + rng.below(2_000_000);
            if i < imported {
                updated = updated.max(liked_at);
                items.push(like(post, &user_id(i, salt), liked_at));
            }
        }
        // When a like or unlike last touched the parent: what a repair wants to know.
        meta.insert("updatedAt".into(), n(updated));
        items.push(meta);
    }
}

/// A workspace with its members, and a comment with its replies.
fn workspace_items(items: &mut Vec<Item>) {
    // A workspace with members, and a comment with replies.
    let members = ["7c20", "19be", "e4d2", "a0a0"];
    items.push(item(vec![
        ("PK", s("WORKSPACE#acme")),
        ("SK", s("META")),
        ("name", s("Acme")),
        ("memberCount", n(members.len())),
    ]));
    for (i, user) in members.iter().enumerate() {
        items.push(item(vec![
            ("PK", s("WORKSPACE#acme")),
            ("SK", s(format!("MEMBER#USER#{user}"))),
            ("role", s(if i == 0 { "owner" } else { "member" })),
            ("joinedAt", n(BASE_TIME - 10_000 * i as u64)),
        ]));
    }
    items.push(item(vec![
        ("PK", s("COMMENT#c3d4")),
        ("SK", s("META")),
        ("post", s(SAMPLE_POST)),
        ("text", s("Great explanation of the retry footgun")),
        ("replyCount", n(2)),
    ]));
    for (i, reply) in ["r001", "r002"].iter().enumerate() {
        items.push(item(vec![
            ("PK", s("COMMENT#c3d4")),
            ("SK", s(format!("REPLY#{reply}"))),
            ("author", s(AUTHORS[i + 1])),
            ("text", s("Agreed")),
        ]));
    }
}

fn video_items() -> Vec<Item> {
    let mut items = vec![
        item(vec![
            ("PK", s("VID#9f3a")),
            ("SK", s("META")),
            ("title", s("Atomic counters, explained")),
            ("bytes_served", n(BIG_NUMBER)),
        ]),
        item(vec![
            ("PK", s("VID#9f3a")),
            ("SK", s("STATS#TOTAL")),
            // 41 once the stream history's play is added.
            ("play_count", n(40)),
        ]),
        item(vec![
            ("PK", s("VID#c0de")),
            ("SK", s("META")),
            ("title", s("A viral video with a sharded counter")),
            ("shards", n(SHARD_COUNTS.len())),
        ]),
        item(vec![
            ("PK", s("VID#b2b2")),
            ("SK", s("STATS#TOTAL")),
            ("play_count", n(7)),
            ("count", n(7)),
        ]),
    ];
    for (shard, plays) in SHARD_COUNTS.iter().enumerate() {
        items.push(item(vec![
            ("PK", s("VID#c0de")),
            ("SK", s(format!("STATS#TOTAL#{shard}"))),
            ("play_count", n(plays)),
        ]));
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_are_distinct() {
        let ids: HashSet<String> = (0..VIRAL_LIKES).map(|i| user_id(i, 7)).collect();
        assert_eq!(ids.len(), VIRAL_LIKES);
    }

    #[test]
    fn the_article_post_is_there() {
        let items = social_items();
        let post: Vec<&Item> = items
            .iter()
            .filter(|i| i.get("PK") == Some(&s(SAMPLE_POST)))
            .collect();
        assert_eq!(post.len(), 4);
        assert!(
            post.iter()
                .any(|i| i.get("SK") == Some(&s("LIKE#USER#7c20"))
                    && i.get("likedAt") == Some(&n(1_750_636_800u64)))
        );
    }
}
