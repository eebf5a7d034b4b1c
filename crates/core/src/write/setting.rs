//! A table's own settings changed through the gateway: created, changed (billing, indexes, TTL,
//! stream, deletion protection, class, point-in-time recovery, Contributor Insights) or
//! deleted; an on-demand backup made or deleted, or restored into a new table. Each is one
//! request, sent once: a lost answer is left unknown and the table is described again by the
//! caller.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, BackupDetails, BillingMode, ContributorInsightsAction,
    DeleteGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate, PointInTimeRecoverySpecification,
    ProvisionedThroughput, StreamSpecification, StreamViewType, TableClass,
    TimeToLiveSpecification, UpdateGlobalSecondaryIndexAction,
};

use crate::error::Error;
use crate::schema::{BillingSpec, TableChange, TableSpec, request};
use crate::throttle::one_attempt_within;
use crate::value::Item;
use crate::write::attempt::Failure;

/// A change to a table itself rather than to its items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableSetting {
    /// A new table (`CreateTable`), checked against DynamoDB's rules when planned.
    Create(Box<TableSpec>),
    /// One change to an existing table.
    Change {
        /// The table.
        table: String,
        /// The change.
        change: TableChange,
    },
    /// The table deleted with all its items (`DeleteTable`).
    Delete {
        /// The table.
        table: String,
    },
    /// Turn Contributor Insights on or off for the table (it is billed by the events it
    /// analyses while on).
    ContributorInsights {
        /// The table.
        table: String,
        /// On (`ENABLE`) or off (`DISABLE`).
        enable: bool,
    },
    /// An on-demand backup of the table (`CreateBackup`), kept (and billed) until deleted.
    CreateBackup {
        /// The table.
        table: String,
        /// The backup's name (names need not be unique: the ARN is).
        name: String,
    },
    /// An on-demand backup deleted for good (`DeleteBackup`).
    DeleteBackup {
        /// The backup's ARN.
        arn: String,
        /// Its name, for words.
        name: String,
        /// The table it was made of (which may no longer exist).
        table: String,
    },
    /// A backup restored into a new table (`RestoreTableFromBackup`); the table must not exist.
    Restore {
        /// The backup's ARN.
        backup_arn: String,
        /// Its name, for words.
        backup: String,
        /// The table it was made of, for words.
        source: String,
        /// The new table.
        table: String,
    },
}

impl TableSetting {
    /// The table it changes.
    pub fn table(&self) -> &str {
        match self {
            Self::Create(spec) => &spec.name,
            Self::Change { table, .. }
            | Self::Delete { table }
            | Self::ContributorInsights { table, .. }
            | Self::CreateBackup { table, .. }
            | Self::DeleteBackup { table, .. }
            | Self::Restore { table, .. } => table,
        }
    }

    /// What it does, in words, naming the table: `the settings of table Social, a stream with
    /// NEW_AND_OLD_IMAGES turned on`.
    pub fn what(&self) -> String {
        match self {
            Self::Create(spec) => format!("a new table {}", spec.summary()),
            Self::Change { table, change } => {
                format!("the settings of table {table}, {}", change.words())
            }
            Self::Delete { table } => format!("table {table}, deleted with all its items"),
            Self::ContributorInsights { table, enable } => format!(
                "the settings of table {table}, Contributor Insights turned {}",
                if *enable {
                    "on (billed by the events it analyses)"
                } else {
                    "off"
                }
            ),
            Self::CreateBackup { table, name } => format!(
                "table {table}, an on-demand backup named {name} made (kept, and billed, until \
                 deleted)"
            ),
            Self::DeleteBackup { arn, name, table } => {
                format!("backup {name} of table {table} ({arn}), deleted for good")
            }
            Self::Restore {
                backup_arn,
                backup,
                source,
                table,
            } => format!(
                "a new table {table}, restored from backup {backup} of table {source} \
                 ({backup_arn})"
            ),
        }
    }
}

/// What `CreateBackup` answered, as an item: `BackupArn`, `BackupName`, `BackupStatus`.
fn backup_item(details: &BackupDetails) -> Item {
    let s = |text: &str| AttributeValue::S(text.to_owned());
    Item::from([
        ("BackupArn".to_owned(), s(details.backup_arn())),
        ("BackupName".to_owned(), s(details.backup_name())),
        (
            "BackupStatus".to_owned(),
            s(details.backup_status().as_str()),
        ),
    ])
}

fn invalid(what: &str) -> impl Fn(aws_sdk_dynamodb::error::BuildError) -> Failure + '_ {
    move |e| Failure::Error(Error::Invalid(format!("{what}: {e}")))
}

fn throughput(rcu: u64, wcu: u64) -> Result<ProvisionedThroughput, Failure> {
    ProvisionedThroughput::builder()
        .read_capacity_units(i64::try_from(rcu).unwrap_or(i64::MAX))
        .write_capacity_units(i64::try_from(wcu).unwrap_or(i64::MAX))
        .build()
        .map_err(invalid("provisioned throughput"))
}

/// Send `setting` once, within `budget`: what the server answered, as an item, for a backup
/// made (its ARN); nothing for the others.
pub(super) async fn table_setting(
    client: &Client,
    setting: &TableSetting,
    budget: Duration,
) -> std::result::Result<Option<Item>, Failure> {
    let once = || one_attempt_within(budget);
    match setting {
        TableSetting::CreateBackup { table, name } => client
            .create_backup()
            .table_name(table)
            .backup_name(name)
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|out| out.backup_details().map(backup_item))
            .map_err(|e| Failure::Error(Error::from_sdk("CreateBackup", e))),
        TableSetting::DeleteBackup { arn, .. } => client
            .delete_backup()
            .backup_arn(arn)
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| None)
            .map_err(|e| Failure::Error(Error::from_sdk("DeleteBackup", e))),
        TableSetting::Restore {
            backup_arn, table, ..
        } => client
            .restore_table_from_backup()
            .backup_arn(backup_arn)
            .target_table_name(table)
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| None)
            .map_err(|e| Failure::Error(Error::from_sdk("RestoreTableFromBackup", e))),
        other => other_setting(client, other, budget).await.map(|()| None),
    }
}

/// Send a table's own setting once, within `budget`.
async fn other_setting(
    client: &Client,
    setting: &TableSetting,
    budget: Duration,
) -> std::result::Result<(), Failure> {
    let once = || one_attempt_within(budget);
    match setting {
        TableSetting::CreateBackup { .. }
        | TableSetting::DeleteBackup { .. }
        | TableSetting::Restore { .. } => Err(Failure::Error(Error::Invalid(
            "a backup is not a setting of a table".to_owned(),
        ))),
        TableSetting::Create(spec) => request::create_table(client, spec)
            .map_err(Failure::Error)?
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("CreateTable", e))),
        TableSetting::Delete { table } => client
            .delete_table()
            .table_name(table)
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("DeleteTable", e))),
        TableSetting::ContributorInsights { table, enable } => client
            .update_contributor_insights()
            .table_name(table)
            .contributor_insights_action(if *enable {
                ContributorInsightsAction::Enable
            } else {
                ContributorInsightsAction::Disable
            })
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateContributorInsights", e))),
        TableSetting::Change { table, change } => {
            change_setting(client, table, change, budget).await
        }
    }
}

/// Send a change of the table `table` once, within `budget`: its TTL, its point-in-time
/// recovery, or an `UpdateTable`.
async fn change_setting(
    client: &Client,
    table: &str,
    change: &TableChange,
    budget: Duration,
) -> std::result::Result<(), Failure> {
    let once = || one_attempt_within(budget);
    match change {
        TableChange::Ttl { attribute, enabled } => client
            .update_time_to_live()
            .table_name(table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(attribute)
                    .enabled(*enabled)
                    .build()
                    .map_err(invalid("a TTL specification"))?,
            )
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateTimeToLive", e))),
        TableChange::Pitr(on) => client
            .update_continuous_backups()
            .table_name(table)
            .point_in_time_recovery_specification(
                PointInTimeRecoverySpecification::builder()
                    .point_in_time_recovery_enabled(*on)
                    .build()
                    .map_err(invalid("a point-in-time recovery specification"))?,
            )
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateContinuousBackups", e))),
        change => update_table(client, table, change)?
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateTable", e))),
    }
}

/// The `UpdateTable` request making `change`.
fn update_table(
    client: &Client,
    table: &str,
    change: &TableChange,
) -> Result<aws_sdk_dynamodb::operation::update_table::builders::UpdateTableFluentBuilder, Failure>
{
    let update = client.update_table().table_name(table);
    Ok(match change {
        TableChange::Billing {
            billing: BillingSpec::OnDemand,
            ..
        } => update.billing_mode(BillingMode::PayPerRequest),
        TableChange::Billing {
            billing: BillingSpec::Provisioned { rcu, wcu },
            indexes,
        } => {
            let mut updates = Vec::new();
            for name in indexes {
                let action = UpdateGlobalSecondaryIndexAction::builder()
                    .index_name(name)
                    .provisioned_throughput(throughput(*rcu, *wcu)?)
                    .build()
                    .map_err(invalid("an index's capacity"))?;
                updates.push(GlobalSecondaryIndexUpdate::builder().update(action).build());
            }
            update
                .billing_mode(BillingMode::Provisioned)
                .provisioned_throughput(throughput(*rcu, *wcu)?)
                .set_global_secondary_index_updates((!updates.is_empty()).then_some(updates))
        }
        TableChange::AddGlobal { index, billing } => {
            let definitions = [Some(&index.partition), index.sort.as_ref()]
                .into_iter()
                .flatten()
                .map(request::definition)
                .collect::<crate::error::Result<Vec<_>>>()
                .map_err(Failure::Error)?;
            let action = request::create_global(index, *billing).map_err(Failure::Error)?;
            update
                .set_attribute_definitions(Some(definitions))
                .global_secondary_index_updates(
                    GlobalSecondaryIndexUpdate::builder().create(action).build(),
                )
        }
        TableChange::DeleteGlobal(name) => update.global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder()
                .delete(
                    DeleteGlobalSecondaryIndexAction::builder()
                        .index_name(name)
                        .build()
                        .map_err(invalid("an index to delete"))?,
                )
                .build(),
        ),
        TableChange::Stream(view) => update.stream_specification(
            StreamSpecification::builder()
                .stream_enabled(view.is_some())
                .set_stream_view_type(view.map(|v| StreamViewType::from(v.name())))
                .build()
                .map_err(invalid("a stream specification"))?,
        ),
        TableChange::DeletionProtection(on) => update.deletion_protection_enabled(*on),
        TableChange::Class(class) => update.table_class(TableClass::from(class.name())),
        TableChange::Ttl { .. } | TableChange::Pitr(_) => {
            return Err(Failure::Error(Error::Invalid(format!(
                "{} is not made by UpdateTable",
                change.words()
            ))));
        }
    })
}
