//! Writes as typed: a counter edit, a like or an unlike, a storm of likes.

use serde::{Deserialize, Serialize};

use crate::counter::{self, Change, EditMode, EditRequest};
use crate::likes::{LikeTarget, MAX_STORM_USERS, StormPlan};
use crate::spec::{InputError, KeySpec, needed};
use crate::table::TableInfo;
use crate::value::Item;
use crate::write::Destination;

/// Add a number (negative to subtract) to one item's counter attribute.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddSpec {
    /// The table.
    pub table: String,
    /// The item's key, e.g. `{"PK": "VID#9f3a", "SK": "STATS#TOTAL"}`.
    pub key: KeySpec,
    /// The number attribute, e.g. `play_count`.
    pub attribute: String,
    /// The number to add, exactly as DynamoDB takes it (`1`, `-1`, `0.5`).
    pub delta: String,
    /// How the change is sent.
    #[serde(default)]
    pub mode: EditMode,
    /// Create the item when it does not exist yet.
    #[serde(default)]
    pub create: bool,
}

impl AddSpec {
    /// The item's key and the edit, checked before anything is read or sent.
    pub fn plan(&self, info: &TableInfo) -> Result<(Item, EditRequest), InputError> {
        let key = self.key.plan(info)?;
        let request = EditRequest {
            attribute: needed(
                "attribute",
                &self.attribute,
                "the number attribute to change",
            )?,
            change: Change::By(self.delta.clone()),
            from: None,
            create: self.create,
        };
        counter::check_request(&key, &request).map_err(|e| InputError::from_error("delta", e))?;
        Ok((key, request))
    }
}

fn meta() -> String {
    "META".to_owned()
}

fn like_tally() -> String {
    "likeTally".to_owned()
}

fn like_prefix() -> String {
    "LIKE#".to_owned()
}

/// A like or an unlike: the child `LIKE#USER#…` written or removed and the parent's tally moved,
/// in one transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LikeSpec {
    /// The table.
    pub table: String,
    /// The parent's partition key value, e.g. `POST#a91f`.
    pub pk: String,
    /// The parent's sort key.
    #[serde(default = "meta")]
    pub parent_sk: String,
    /// The parent's tally attribute.
    #[serde(default = "like_tally")]
    pub tally: String,
    /// The children's sort-key prefix (the child is this followed by the user).
    #[serde(default = "like_prefix")]
    pub child_prefix: String,
    /// Who likes, e.g. `USER#7c20`.
    pub user: String,
    /// The idempotency token (the same token sent twice applies once); none: a fresh one.
    #[serde(default)]
    pub token: Option<String>,
    /// Create the parent when it does not exist yet.
    #[serde(default)]
    pub create: bool,
}

impl LikeSpec {
    /// Where the like goes and who likes, checked against `info`.
    pub fn plan(&self, info: &TableInfo) -> Result<(LikeTarget, String), InputError> {
        let user = needed("user", &self.user, "the user who likes")?;
        Ok((self.target(info)?, user))
    }

    /// Where likes go (a storm's users are made up), checked against `info`.
    pub fn target(&self, info: &TableInfo) -> Result<LikeTarget, InputError> {
        let mut target = LikeTarget::new(
            info,
            &self.pk,
            &self.parent_sk,
            &self.tally,
            &self.child_prefix,
        )
        .map_err(|e| InputError::from_error("pk", e))?;
        target.create_parent = self.create;
        Ok(target)
    }
}

/// A storm: simulated users like one parent (every 5th twice, as a client retry; every 7th then
/// unlikes), some at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StormSpec {
    /// The parent liked: its table, key, tally and children's prefix (its `user` and `token`
    /// are not used: each simulated user has its own).
    pub target: LikeSpec,
    /// How many users like.
    pub users: usize,
    /// How many like at once (at most 64 run at a time).
    pub concurrency: usize,
}

impl StormSpec {
    /// The storm's plan on `info`, to `destination`, named `run_id`.
    pub fn plan(
        &self,
        info: &TableInfo,
        destination: &Destination,
        run_id: &str,
    ) -> Result<StormPlan, InputError> {
        let target = self.target.target(info)?;
        if self.users == 0 || self.users > MAX_STORM_USERS {
            return Err(InputError::new(
                "users",
                format!("a storm has 1 to {MAX_STORM_USERS} users"),
            ));
        }
        StormPlan::new(destination, &target, self.users, self.concurrency, run_id)
            .map_err(|e| InputError::from_error("concurrency", e))
    }
}
