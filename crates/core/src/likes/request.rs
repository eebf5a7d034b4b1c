//! The like and unlike transactions of the article: a like is one `TransactWriteItems` with a
//! `Put` of the child guarded by `attribute_not_exists` and an `ADD` of 1 to the parent's tally;
//! an unlike is the mirror. Built here once, sent as SDK items, copied through the code generator.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::expr::codegen::{
    ClientSetup, Operation, Program, Request, ReturnOptions, Target, Transaction,
};
use crate::table::{KeyAttr, TableInfo};
use crate::tally::{ChildSource, ParentMatch, TallyRule};
use crate::validate;
use crate::value::Item;
use crate::write::{self, CancelReason, Destination, WritePlan};

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

    /// The placeholder and the delta added to the tally.
    fn delta(self) -> (&'static str, &'static str) {
        match self {
            Self::Like => (":one", "1"),
            Self::Unlike => (":minusOne", "-1"),
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
    /// Create the parent when it does not exist. Off (the default), the parent's update is
    /// conditional on the parent existing, and a like on a missing parent writes nothing.
    pub create_parent: bool,
}

impl LikeTarget {
    /// The target in table `info`, from what the user typed (trimmed; none may be empty but
    /// the child prefix). Likes need a sort key.
    pub fn new(
        info: &TableInfo,
        parent: &str,
        parent_sk: &str,
        tally: &str,
        child_prefix: &str,
    ) -> Result<Self> {
        let sort = info.sort.as_ref().ok_or_else(|| {
            Error::Invalid(format!("{} has no sort key: likes need one", info.name))
        })?;
        // A like writes `PK = <parent>` and `SK = <prefix><user>`: text, whatever is typed.
        for key in [&info.partition, sort] {
            if key.kind != ScalarType::S {
                return Err(Error::Invalid(format!(
                    "likes are keyed by text (a parent id and LIKE#<user>), but `{}` of {} is {}; nothing was sent",
                    key.name, info.name, key.kind
                )));
            }
        }
        let need = |value: &str, what: &str| {
            let value = value.trim();
            if value.is_empty() {
                Err(Error::Invalid(format!("type the {what}")))
            } else {
                Ok(value.to_owned())
            }
        };
        Ok(Self {
            table: info.name.clone(),
            pk_name: info.partition.name.clone(),
            sk_name: sort.name.clone(),
            parent: need(parent, "parent")?,
            parent_sk: need(parent_sk, "parent's sort key")?,
            tally: need(tally, "tally attribute")?,
            child_prefix: child_prefix.trim().to_owned(),
            create_parent: false,
        })
    }

    /// The tally rule this target checks against.
    pub fn rule(&self) -> TallyRule {
        TallyRule {
            parents: ParentMatch {
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

    /// The parent in words: `POST#a91f / META`.
    pub(crate) fn parent_shown(&self) -> String {
        format!("{} / {}", self.parent, self.parent_sk)
    }
}

/// A like or unlike transaction, exactly as sent (and as re-sent by "Send again").
#[derive(Debug, Clone, PartialEq)]
pub struct LikeRequest {
    /// The connection it was built for: it is sent there or nowhere.
    pub destination: Destination,
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

/// Seconds since the epoch, for a like's `likedAt`.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// A ClientRequestToken no other request of this process uses: `like-`, the time in
/// microseconds and a counter, in hex.
pub fn fresh_token() -> String {
    write::fresh_token("like")
}

/// Build the transaction for `user`, sent to `destination`; `now_secs` stamps a like's
/// `likedAt`.
pub fn like_request(
    destination: &Destination,
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
    // A key DynamoDB would refuse (too long) is said before anything is sent.
    let keys = TableInfo::with_keys(
        &target.table,
        KeyAttr::new(&target.pk_name, ScalarType::S),
        Some(KeyAttr::new(&target.sk_name, ScalarType::S)),
    );
    validate::check_key(&target.key(&target.parent_sk), &keys).map_err(|e| e.at("the parent"))?;
    validate::check_key(&child, &keys).map_err(|e| e.at("the like"))?;
    if op == LikeOp::Like {
        child.insert("likedAt".into(), AttributeValue::N(now_secs.to_string()));
    }
    Ok(LikeRequest {
        destination: destination.clone(),
        op,
        user: user.to_owned(),
        target: target.clone(),
        child,
        token,
    })
}

impl LikeRequest {
    /// The keys of the items it writes: the parent and the child.
    pub fn keys(&self) -> Vec<Item> {
        let child_key = self
            .child
            .iter()
            .filter(|(name, _)| **name == self.target.pk_name || **name == self.target.sk_name)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        vec![self.target.parent_key(), child_key]
    }

    /// The child's write, guarded by its sort key's existence.
    fn child_write(&self) -> Request {
        let (operation, condition) = match self.op {
            LikeOp::Like => (
                Operation::Put(self.child.clone()),
                "attribute_not_exists(#sk)",
            ),
            LikeOp::Unlike => (
                Operation::Delete(self.child.clone()),
                "attribute_exists(#sk)",
            ),
        };
        Request {
            table: self.target.table.clone(),
            operation,
            update: None,
            condition: Some(condition.to_owned()),
            key_condition: None,
            filter: None,
            projection: None,
            names: HashMap::from([("#sk".to_owned(), self.target.sk_name.clone())]),
            values: HashMap::new(),
            returns: ReturnOptions::default(),
        }
    }

    /// The parent's `ADD` of 1 or −1 to its tally, on the condition that the parent exists
    /// (unless the target creates parents).
    pub fn parent_update(&self) -> Request {
        let (placeholder, delta) = self.op.delta();
        let mut names = HashMap::from([("#t".to_owned(), self.target.tally.clone())]);
        let condition = (!self.target.create_parent).then(|| {
            names.insert("#pk".to_owned(), self.target.pk_name.clone());
            "attribute_exists(#pk)".to_owned()
        });
        Request {
            table: self.target.table.clone(),
            operation: Operation::Update(self.target.parent_key()),
            update: Some(format!("ADD #t {placeholder}")),
            condition,
            key_condition: None,
            filter: None,
            projection: None,
            names,
            values: HashMap::from([(placeholder.to_owned(), AttributeValue::N(delta.into()))]),
            returns: ReturnOptions::default(),
        }
    }

    /// The transaction in the code generator's terms.
    pub fn transaction(&self) -> Transaction {
        Transaction {
            writes: vec![self.child_write(), self.parent_update()],
            token: self.token.clone(),
            consumed_capacity: true,
        }
    }

    /// The transaction for the write gateway: repeatable with a token, sent once without.
    pub fn write_plan(&self) -> WritePlan {
        WritePlan::transaction(
            self.destination.clone(),
            self.transaction(),
            vec![self.target.pk_name.clone(), self.target.sk_name.clone()],
        )
    }

    /// Whether `reasons` say the child's own condition failed: for a like, the user already
    /// likes the parent; for an unlike, the user has no like on it.
    pub(crate) fn child_refused(reasons: &[CancelReason]) -> bool {
        reasons.first() == Some(&CancelReason::ConditionalCheckFailed)
    }

    /// What a refused child condition means, in the user's words: `USER#new1 has no like on
    /// POST#a91f; nothing was written`.
    pub(crate) fn child_refused_words(&self) -> String {
        let parent = &self.target.parent;
        match self.op {
            LikeOp::Like => format!("{} already likes {parent}; nothing was written", self.user),
            LikeOp::Unlike => format!("{} has no like on {parent}; nothing was written", self.user),
        }
    }

    /// Whether cancellation `reasons` say the parent does not exist: its update, the second
    /// write, failed its only condition.
    pub(crate) fn parent_missing(&self, reasons: &[CancelReason]) -> bool {
        !self.target.create_parent && reasons.get(1) == Some(&CancelReason::ConditionalCheckFailed)
    }

    /// The like (or unlike) as a whole program in `target`, aimed at the connection it was
    /// built for: with its own token when `keep_token` (one given to be used), else a fresh
    /// token each run.
    pub fn program(&self, target: Target, keep_token: bool) -> Result<Program> {
        let refused = match self.op {
            LikeOp::Like => "already liked",
            LikeOp::Unlike => "no like to take back",
        };
        let mut transaction = self.transaction();
        if !keep_token {
            transaction.token = None;
        }
        // A like's likedAt is the moment the program runs, not the moment it was written —
        // with a fresh token each run. A token kept sends the same request every time (DynamoDB
        // refuses a token reused for another request).
        let liked_at = match self.child.get("likedAt") {
            Some(AttributeValue::N(secs))
                if self.op == LikeOp::Like && (self.token.is_none() || !keep_token) =>
            {
                Some(secs.as_str())
            }
            _ => None,
        };
        let now = liked_at.map(|secs| ("likedAt", secs));
        transaction.like_program(target, &self.destination.client_setup(), refused, now)
    }

    /// The request as low-level JSON (`TransactItems`), as the article shows it.
    pub fn to_json(&self) -> String {
        self.transaction()
            .render(Target::Json, &ClientSetup::default())
    }

    /// The request as an AWS CLI command (bash quoting), aimed at the connection the like was
    /// built for (its endpoint, region and profile).
    pub fn to_aws_cli(&self) -> String {
        self.transaction()
            .render(Target::Cli, &self.destination.client_setup())
    }
}
