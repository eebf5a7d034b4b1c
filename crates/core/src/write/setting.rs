//! A table's own settings changed through the gateway: created, changed (billing, indexes, TTL,
//! stream, deletion protection, class, point-in-time recovery, Contributor Insights) or
//! deleted; an on-demand backup made or deleted, or restored into a new table. Each is one
//! request, sent once: a lost answer is left unknown and the table is described again by the
//! caller.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, BackupDetails, ContributorInsightsAction};

use crate::error::Error;
use crate::schema::{TableChange, TableSpec, request};
use crate::throttle::one_attempt_within;
use crate::value::Item;
use crate::write::attempt::Failure;
use crate::write::export::{ExportRequest, start_export};
use crate::write::setting_change::change_setting;

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
    /// The table exported to S3 (`ExportTableToPointInTime`), with a token that makes a
    /// re-send name the export already started.
    Export(Box<ExportRequest>),
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
            Self::Export(export) => &export.table,
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
            Self::Export(export) => format!(
                "table {}, {} to {} (billed by the GB)",
                export.table,
                export.kind.words(),
                export.destination()
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
        TableSetting::Export(export) => start_export(client, export, budget).await,
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
        | TableSetting::Restore { .. }
        | TableSetting::Export(_) => Err(Failure::Error(Error::Invalid(
            "a backup or an export is not a setting of a table".to_owned(),
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
