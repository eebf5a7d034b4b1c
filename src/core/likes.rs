//! Likes as reference-counter transactions, from the article: a like is one
//! `TransactWriteItems` with a `Put` of the child guarded by `attribute_not_exists` and an
//! `ADD` of 1 to the parent's tally; an unlike is the mirror. Repeating one cancels the whole
//! transaction, so the tally never over-counts.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeValue, Delete, Put, ReturnConsumedCapacity, TransactWriteItem, Update,
};

use crate::core::counter::shell_quote;
use crate::core::error::{Error, Result};
use crate::core::table::TableInfo;
use crate::core::tally::{ChildSource, TallyRule};
use crate::core::tally_ops;
use crate::core::value::{self, Item};

/// Like or unlike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LikeOp {
    /// Put the child if absent and add 1 to the tally.
    Like,
    /// Delete the child if present and add −1 to the tally.
    Unlike,
}

impl LikeOp {
    /// `like` / `unlike`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Like => "like",
            Self::Unlike => "unlike",
        }
    }
}

/// Where likes go: the parent, its tally, and how a child's sort key is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LikeTarget {
    /// Table name.
    pub table: String,
    /// Partition and sort key attribute names.
    pub pk_name: String,
    /// The sort key attribute.
    pub sk_name: String,
    /// The parent's partition key value (`POST#a91f`).
    pub parent: String,
    /// The parent's sort key (`META`).
    pub parent_sk: String,
    /// The tally attribute (`likeTally`).
    pub tally: String,
    /// The children's sort-key prefix (`LIKE#`); a child is `{prefix}{user}`.
    pub child_prefix: String,
}

impl LikeTarget {
    /// The tally rule this target checks against.
    pub fn rule(&self) -> TallyRule {
        TallyRule {
            parents: crate::core::tally::ParentMatch {
                sort_key: self.parent_sk.clone(),
                partition_prefix: String::new(),
            },
            tally: self.tally.clone(),
            children: ChildSource::SortKeyPrefix(self.child_prefix.clone()),
        }
    }

    fn key(&self, sk: &str) -> Item {
        Item::from([
            (self.pk_name.clone(), AttributeValue::S(self.parent.clone())),
            (self.sk_name.clone(), AttributeValue::S(sk.to_owned())),
        ])
    }

    /// The parent's key.
    pub fn parent_key(&self) -> Item {
        self.key(&self.parent_sk)
    }
}

/// A like or unlike transaction, exactly as sent (and as re-sent by "Send again").
#[derive(Debug, Clone, PartialEq)]
pub struct LikeRequest {
    /// Like or unlike.
    pub op: LikeOp,
    /// The user.
    pub user: String,
    /// Where.
    pub target: LikeTarget,
    /// The child item (for a like) or its key (for an unlike).
    pub child: Item,
    /// `ClientRequestToken`, for an idempotent retry.
    pub token: Option<String>,
}

/// Build the transaction for `user`; `now_secs` stamps a like's `likedAt`.
pub fn like_request(
    op: LikeOp,
    target: &LikeTarget,
    user: &str,
    token: Option<String>,
    now_secs: u64,
) -> Result<LikeRequest> {
    let user = user.trim();
    if user.is_empty() {
        return Err(Error::Invalid("type a user id".into()));
    }
    if token
        .as_deref()
        .is_some_and(|t| t.is_empty() || t.len() > 36)
    {
        return Err(Error::Invalid(
            "a ClientRequestToken has 1 to 36 characters".into(),
        ));
    }
    let mut child = target.key(&format!("{}{user}", target.child_prefix));
    if op == LikeOp::Like {
        child.insert("likedAt".into(), AttributeValue::N(now_secs.to_string()));
    }
    Ok(LikeRequest {
        op,
        user: user.to_owned(),
        target: target.clone(),
        child,
        token,
    })
}

impl LikeRequest {
    /// The SDK's transaction items: the child write, then the parent's update.
    fn items(&self) -> Result<Vec<TransactWriteItem>> {
        let t = &self.target;
        let build = |e: aws_sdk_dynamodb::error::BuildError| Error::Invalid(e.to_string());
        let child = match self.op {
            LikeOp::Like => TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&t.table)
                        .set_item(Some(self.child.clone()))
                        .condition_expression("attribute_not_exists(#sk)")
                        .expression_attribute_names("#sk", &t.sk_name)
                        .build()
                        .map_err(build)?,
                )
                .build(),
            LikeOp::Unlike => TransactWriteItem::builder()
                .delete(
                    Delete::builder()
                        .table_name(&t.table)
                        .set_key(Some(self.child.clone()))
                        .condition_expression("attribute_exists(#sk)")
                        .expression_attribute_names("#sk", &t.sk_name)
                        .build()
                        .map_err(build)?,
                )
                .build(),
        };
        let (placeholder, delta) = self.delta();
        let parent = TransactWriteItem::builder()
            .update(
                Update::builder()
                    .table_name(&t.table)
                    .set_key(Some(t.parent_key()))
                    .update_expression(format!("ADD #t {placeholder}"))
                    .expression_attribute_names("#t", &t.tally)
                    .expression_attribute_values(placeholder, AttributeValue::N(delta.into()))
                    .build()
                    .map_err(build)?,
            )
            .build();
        Ok(vec![child, parent])
    }

    fn delta(&self) -> (&'static str, &'static str) {
        match self.op {
            LikeOp::Like => (":one", "1"),
            LikeOp::Unlike => (":minusOne", "-1"),
        }
    }

    /// The request as low-level JSON (`TransactItems`), as the article shows it.
    pub fn to_json(&self) -> String {
        let t = &self.target;
        let child = value::item_to_dynamodb_json(
            &self.child,
            &[t.pk_name.clone(), t.sk_name.clone()],
            false,
        );
        let first = match self.op {
            LikeOp::Like => format!(
                r##"{{"Put": {{"TableName": {}, "Item": {child}, "ConditionExpression": "attribute_not_exists(#sk)", "ExpressionAttributeNames": {{"#sk": {}}}}}}}"##,
                value::json_string(&t.table),
                value::json_string(&t.sk_name)
            ),
            LikeOp::Unlike => format!(
                r##"{{"Delete": {{"TableName": {}, "Key": {child}, "ConditionExpression": "attribute_exists(#sk)", "ExpressionAttributeNames": {{"#sk": {}}}}}}}"##,
                value::json_string(&t.table),
                value::json_string(&t.sk_name)
            ),
        };
        let (placeholder, delta) = self.delta();
        let parent_key = value::item_to_dynamodb_json(
            &t.parent_key(),
            &[t.pk_name.clone(), t.sk_name.clone()],
            false,
        );
        let second = format!(
            r##"{{"Update": {{"TableName": {}, "Key": {parent_key}, "UpdateExpression": "ADD #t {placeholder}", "ExpressionAttributeNames": {{"#t": {}}}, "ExpressionAttributeValues": {{"{placeholder}": {{"N": "{delta}"}}}}}}}}"##,
            value::json_string(&t.table),
            value::json_string(&t.tally)
        );
        let token = self
            .token
            .as_ref()
            .map(|tok| format!(",\n  \"ClientRequestToken\": {}", value::json_string(tok)))
            .unwrap_or_default();
        format!(
            "{{\n  \"TransactItems\": [\n    {first},\n    {second}\n  ],\n  \"ReturnConsumedCapacity\": \"TOTAL\"{token}\n}}"
        )
    }

    /// The request as an AWS CLI command (bash quoting).
    pub fn to_aws_cli(&self) -> String {
        let items: serde_json::Value = serde_json::from_str(&self.to_json()).unwrap_or_default();
        let mut cli = format!(
            "aws dynamodb transact-write-items \\\n  --transact-items {} \\\n  --return-consumed-capacity TOTAL",
            shell_quote(&items["TransactItems"].to_string())
        );
        if let Some(token) = &self.token {
            cli += &format!(" \\\n  --client-request-token {}", shell_quote(token));
        }
        cli
    }
}

/// How a like or unlike ended.
#[derive(Debug, Clone, PartialEq)]
pub enum LikeOutcome {
    /// Both writes happened.
    Committed {
        /// Write capacity consumed (about 4 for a like: 2 per transactional write).
        consumed_wcu: f64,
    },
    /// Nothing happened: each item's cancellation reason, in order (`ConditionalCheckFailed`,
    /// `None`, `TransactionConflict`, …).
    Cancelled {
        /// One reason per transaction item.
        reasons: Vec<String>,
    },
    /// The request failed otherwise (e.g. `IdempotentParameterMismatchException`).
    Failed(Error),
}

/// The outcome with how many times it was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    /// How it ended.
    pub outcome: LikeOutcome,
    /// Transactions sent (more than one after `TransactionConflict` cancellations).
    pub attempts: u32,
    /// `TransactionConflict` cancellations retried.
    pub conflicts: u32,
}

/// Conflict cancellations retried before reporting one.
const MAX_CONFLICT_RETRIES: u32 = 5;

/// Send `request`. A cancellation for `TransactionConflict` (another transaction held an item)
/// wrote nothing, so it is retried with a short backoff; other cancellations are reported.
pub async fn send(client: &Client, request: &LikeRequest) -> Sent {
    let items = match request.items() {
        Ok(items) => items,
        Err(e) => {
            return Sent {
                outcome: LikeOutcome::Failed(e),
                attempts: 0,
                conflicts: 0,
            };
        }
    };
    let mut attempts = 0;
    let mut conflicts = 0;
    loop {
        attempts += 1;
        let result = client
            .transact_write_items()
            .set_transact_items(Some(items.clone()))
            .set_client_request_token(request.token.clone())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        let outcome = match result {
            Ok(out) => LikeOutcome::Committed {
                consumed_wcu: out
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .sum(),
            },
            Err(SdkError::ServiceError(service)) => match service.err() {
                TransactWriteItemsError::TransactionCanceledException(cancelled) => {
                    LikeOutcome::Cancelled {
                        reasons: cancelled
                            .cancellation_reasons()
                            .iter()
                            .map(|r| r.code().unwrap_or("None").to_owned())
                            .collect(),
                    }
                }
                other => LikeOutcome::Failed(Error::Service {
                    op: "TransactWriteItems",
                    code: other.code().unwrap_or("UnknownError").to_owned(),
                    message: other.message().unwrap_or_default().to_owned(),
                }),
            },
            Err(e) => LikeOutcome::Failed(Error::from_sdk("TransactWriteItems", e)),
        };
        let conflicted = matches!(&outcome, LikeOutcome::Cancelled { reasons } if reasons.iter().any(|r| r == "TransactionConflict"));
        if conflicted && conflicts < MAX_CONFLICT_RETRIES {
            conflicts += 1;
            tokio::time::sleep(Duration::from_millis(20 << conflicts)).await;
            continue;
        }
        return Sent {
            outcome,
            attempts,
            conflicts,
        };
    }
}

/// The parent's tally and its counted children at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The stored tally (`None`: missing).
    pub tally: Option<String>,
    /// The children counted.
    pub children: u64,
}

/// Read the tally and count the children (consistent read, `Select: COUNT`).
pub async fn snapshot(client: &Client, info: &TableInfo, target: &LikeTarget) -> Result<Snapshot> {
    let rule = target.rule();
    let parent_key = target.parent_key();
    let stored =
        crate::core::ops::read_number(client, &target.table, &parent_key, &target.tally).await?;
    let count = tally_ops::count_children(client, info, &parent_key, &rule).await?;
    Ok(Snapshot {
        tally: stored,
        children: count.count,
    })
}

/// A like or unlike with the tally and the children before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct LikeReport {
    /// The request.
    pub request: LikeRequest,
    /// Before.
    pub before: Result<Snapshot>,
    /// The outcome.
    pub sent: Sent,
    /// After.
    pub after: Result<Snapshot>,
}

/// Observe, send, observe.
pub async fn like_and_observe(
    client: &Client,
    info: &TableInfo,
    request: LikeRequest,
) -> LikeReport {
    let before = snapshot(client, info, &request.target).await;
    let sent = send(client, &request).await;
    let after = snapshot(client, info, &request.target).await;
    LikeReport {
        request,
        before,
        sent,
        after,
    }
}

/// A storm's progress or result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StormStats {
    /// Operations planned.
    pub planned: usize,
    /// Operations finished.
    pub done: usize,
    /// Committed transactions.
    pub committed: usize,
    /// Cancellations by reason list, e.g. `[ConditionalCheckFailed, None]`.
    pub cancelled: BTreeMap<String, usize>,
    /// Conflict cancellations that were retried.
    pub conflicts_retried: u32,
    /// Other failures.
    pub failed: usize,
    /// Write capacity consumed.
    pub consumed_wcu: f64,
    /// Milliseconds since the start.
    pub elapsed_ms: u128,
}

impl StormStats {
    /// Operations per second so far.
    pub fn ops_per_sec(&self) -> f64 {
        if self.elapsed_ms == 0 {
            0.0
        } else {
            self.done as f64 * 1000.0 / self.elapsed_ms as f64
        }
    }
}

/// The most users a storm simulates.
pub const MAX_STORM_USERS: usize = 10_000;

/// The operations of user `i` of a storm: a like; every fifth user sends it twice (a client
/// retry, cancelled by the condition); every seventh user then unlikes.
pub fn storm_plan(i: usize) -> Vec<LikeOp> {
    let mut ops = vec![LikeOp::Like];
    if i.is_multiple_of(5) {
        ops.push(LikeOp::Like);
    }
    if i.is_multiple_of(7) {
        ops.push(LikeOp::Unlike);
    }
    ops
}

/// Run a storm of `users` simulated users, `concurrency` at a time. `progress` is called after
/// each operation; `cancelled` is asked before each user starts.
pub async fn storm(
    client: &Client,
    target: &LikeTarget,
    users: usize,
    concurrency: usize,
    run_id: &str,
    cancelled: impl Fn() -> bool,
    mut progress: impl FnMut(&StormStats),
) -> Result<StormStats> {
    if users == 0 || users > MAX_STORM_USERS {
        return Err(Error::Invalid(format!(
            "a storm has 1 to {MAX_STORM_USERS} users"
        )));
    }
    let started = Instant::now();
    let permits = std::sync::Arc::new(tokio::sync::Semaphore::new(concurrency.clamp(1, 256)));
    let mut stats = StormStats {
        planned: (0..users).map(|i| storm_plan(i).len()).sum(),
        ..StormStats::default()
    };
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..users {
        if cancelled() {
            break;
        }
        let permit = std::sync::Arc::clone(&permits)
            .acquire_owned()
            .await
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let (client, target) = (client.clone(), target.clone());
        let user = format!("USER#storm-{run_id}-{i:05}");
        tasks.spawn(async move {
            let _permit = permit;
            let mut results = Vec::new();
            for op in storm_plan(i) {
                let sent = match like_request(op, &target, &user, None, 1_750_636_800 + i as u64) {
                    Ok(request) => send(&client, &request).await,
                    Err(e) => Sent {
                        outcome: LikeOutcome::Failed(e),
                        attempts: 0,
                        conflicts: 0,
                    },
                };
                results.push(sent);
            }
            results
        });
        while let Some(done) = tasks.try_join_next() {
            record(&mut stats, done, started);
            progress(&stats);
        }
    }
    while let Some(done) = tasks.join_next().await {
        record(&mut stats, done, started);
        progress(&stats);
    }
    Ok(stats)
}

fn record(
    stats: &mut StormStats,
    done: std::result::Result<Vec<Sent>, tokio::task::JoinError>,
    started: Instant,
) {
    for sent in done.unwrap_or_default() {
        stats.done += 1;
        stats.conflicts_retried += sent.conflicts;
        match sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => {
                stats.committed += 1;
                stats.consumed_wcu += consumed_wcu;
            }
            LikeOutcome::Cancelled { reasons } => {
                *stats
                    .cancelled
                    .entry(format!("[{}]", reasons.join(", ")))
                    .or_default() += 1;
            }
            LikeOutcome::Failed(_) => stats.failed += 1,
        }
    }
    stats.elapsed_ms = started.elapsed().as_millis();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> LikeTarget {
        LikeTarget {
            table: "Social".into(),
            pk_name: "PK".into(),
            sk_name: "SK".into(),
            parent: "POST#a91f".into(),
            parent_sk: "META".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
        }
    }

    #[test]
    fn the_article_transaction_as_json() {
        let like = like_request(LikeOp::Like, &target(), "USER#7c20", None, 1_750_636_800).unwrap();
        let json: serde_json::Value = serde_json::from_str(&like.to_json()).unwrap();
        let put = &json["TransactItems"][0]["Put"];
        assert_eq!(put["Item"]["SK"]["S"], "LIKE#USER#7c20");
        assert_eq!(put["Item"]["likedAt"]["N"], "1750636800");
        assert_eq!(put["ConditionExpression"], "attribute_not_exists(#sk)");
        let update = &json["TransactItems"][1]["Update"];
        assert_eq!(update["UpdateExpression"], "ADD #t :one");
        assert_eq!(update["ExpressionAttributeValues"][":one"]["N"], "1");
        let unlike = like_request(
            LikeOp::Unlike,
            &target(),
            "USER#7c20",
            Some("tok-1".into()),
            0,
        )
        .unwrap();
        let json: serde_json::Value = serde_json::from_str(&unlike.to_json()).unwrap();
        assert_eq!(
            json["TransactItems"][0]["Delete"]["ConditionExpression"],
            "attribute_exists(#sk)"
        );
        assert_eq!(
            json["TransactItems"][1]["Update"]["ExpressionAttributeValues"][":minusOne"]["N"],
            "-1"
        );
        assert_eq!(json["ClientRequestToken"], "tok-1");
        assert!(
            unlike
                .to_aws_cli()
                .contains("--client-request-token 'tok-1'")
        );
    }

    #[test]
    fn storm_plans_duplicates_and_unlikes() {
        assert_eq!(storm_plan(0), [LikeOp::Like, LikeOp::Like, LikeOp::Unlike]);
        assert_eq!(storm_plan(1), [LikeOp::Like]);
        assert_eq!(storm_plan(5), [LikeOp::Like, LikeOp::Like]);
        assert!(like_request(LikeOp::Like, &target(), " ", None, 0).is_err());
        assert!(like_request(LikeOp::Like, &target(), "u", Some("x".repeat(37)), 0).is_err());
    }
}
