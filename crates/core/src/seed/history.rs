//! The writes that made the seeded drifts, made as writes after the bulk import so the
//! tables' streams hold the records that made them.

use dynoxide::Database;

use crate::error::{Error, Result};
use crate::seed::{DRIFTED, SOCIAL, VIDEOS};

/// Children the stream history writes, per post: the like of POST#d71e, the two bare puts of
/// POST#3b0c.
pub(super) const HISTORY_CHILDREN: [(&str, usize); 2] = [("POST#d71e", 1), ("POST#3b0c", 2)];

/// The request id both the like and its retry carry on POST#d71e: the retry counted twice.
pub const RETRIED_REQUEST: &str = "req-5d1e";

/// The child put on POST#3b0c without its tally (twice).
pub(crate) const BARE_LIKES: [&str; 2] = ["LIKE#USER#bare1", "LIKE#USER#bare2"];

/// The user whose like of POST#d71e had its ADD retried.
pub(crate) const RETRIED_LIKER: &str = "r3try";

/// Which request a history write is.
#[derive(Clone, Copy)]
enum Kind {
    Update,
    Put,
    Transact,
}

/// The writes that made the seeded drifts, made as writes so the stream records them:
/// POST#d71e a like whose `ADD` was retried (counted twice: +1), POST#3b0c two children put
/// without their tally (-2), POST#77f1 its META put again without the tally (missing); and a
/// play on VID#9f3a. Returns the items it added.
pub(super) fn history(db: &Database) -> Result<usize> {
    let run = |what: &str, kind: Kind, request: serde_json::Value| -> Result<()> {
        let fail = |e: String| Error::Sandbox(format!("seed history ({what}): {e}"));
        let sent = match kind {
            Kind::Update => serde_json::from_value(request)
                .map_err(|e| fail(e.to_string()))
                .map(|r| db.update_item(r).map(|_| ())),
            Kind::Put => serde_json::from_value(request)
                .map_err(|e| fail(e.to_string()))
                .map(|r| db.put_item(r).map(|_| ())),
            Kind::Transact => serde_json::from_value(request)
                .map_err(|e| fail(e.to_string()))
                .map(|r| db.transact_write_items(r).map(|_| ())),
        }?;
        sent.map_err(|e| fail(e.to_string()))
    };
    let key = |pk: &str, sk: &str| serde_json::json!({"PK": {"S": pk}, "SK": {"S": sk}});
    let add_tally = |pk: &str, by: i64| {
        serde_json::json!({
            "TableName": SOCIAL,
            "Key": key(pk, "META"),
            "UpdateExpression": "ADD likeTally :d SET lastRequestId = :r",
            "ExpressionAttributeValues": {":d": {"N": by.to_string()}, ":r": {"S": RETRIED_REQUEST}}
        })
    };
    let like_put = |pk: &str, user: &str| {
        serde_json::json!({"Put": {"TableName": SOCIAL, "Item": {
            "PK": {"S": pk}, "SK": {"S": format!("LIKE#USER#{user}")},
            "likedAt": {"N": "1750640400"}
        }}})
    };
    // POST#d71e: a like (child and ADD in one transaction), then its ADD sent again by a retry.
    let (d71e, _) = DRIFTED[0];
    let like = serde_json::json!({"TransactItems": [
        like_put(d71e, RETRIED_LIKER),
        {"Update": add_tally(d71e, 1)}
    ]});
    run("a like of POST#d71e", Kind::Transact, like)?;
    run("its retried ADD", Kind::Update, add_tally(d71e, 1))?;
    // POST#3b0c: two children put by a writer that forgot the tally.
    let (b0c, _) = DRIFTED[1];
    for child in BARE_LIKES {
        run(
            "a bare child of POST#3b0c",
            Kind::Put,
            serde_json::json!({"TableName": SOCIAL, "Item": {
                "PK": {"S": b0c}, "SK": {"S": child}, "likedAt": {"N": "1750640400"}
            }}),
        )?;
    }
    // POST#77f1: its META read and written again whole by a writer that left the tally out.
    let (f1, _) = DRIFTED[2];
    let read: serde_json::Value = serde_json::to_value(
        db.get_item(
            serde_json::from_value(
                serde_json::json!({"TableName": SOCIAL, "Key": key(f1, "META")}),
            )
            .map_err(|e| Error::Sandbox(format!("seed history: {e}")))?,
        )
        .map_err(|e| Error::Sandbox(format!("seed history: {e}")))?
        .item,
    )
    .map_err(|e| Error::Sandbox(format!("seed history: {e}")))?;
    let mut without = read;
    if let Some(item) = without.as_object_mut() {
        item.remove("likeTally");
    }
    run(
        "POST#77f1's META put without its tally",
        Kind::Put,
        serde_json::json!({"TableName": SOCIAL, "Item": without}),
    )?;
    // VID#9f3a: one play, an atomic ADD.
    run(
        "a play of VID#9f3a",
        Kind::Update,
        serde_json::json!({"TableName": VIDEOS, "Key": key("VID#9f3a", "STATS#TOTAL"),
            "UpdateExpression": "ADD play_count :one",
            "ExpressionAttributeValues": {":one": {"N": "1"}}}),
    )?;
    Ok(1 + BARE_LIKES.len())
}
