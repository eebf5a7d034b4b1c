//! On-demand backups: listed (a read, every page), made, restored into a new table, deleted.
//! Each write is a [`TableSetting`] through the one gateway, planned and checked here before
//! anything is sent; [`run`](super::run) sends it, follows the table (a restore's new table
//! until `ACTIVE`) and describes the backup again.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::primitives::{DateTime, DateTimeFormat};
use aws_sdk_dynamodb::types::{AttributeValue, BackupDetails, BackupSummary};
use serde_json::{Value, json};

use crate::connection::Connection;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::schema::{Described, name_problem};
use crate::write::{Destination, TableSetting, WriteOutcome, WritePlan};

/// An on-demand backup as the server lists or describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupInfo {
    /// Its name (not unique).
    pub name: String,
    /// Its ARN (unique: what a restore or a delete names).
    pub arn: String,
    /// The table it was made of.
    pub table: String,
    /// `CREATING`, `AVAILABLE`, `DELETED`.
    pub status: String,
    /// When it was made, as RFC 3339 text (`2026-12-03T07:18:01.141Z`), when said.
    pub created: Option<String>,
    /// Its size in bytes, when said.
    pub size_bytes: Option<i64>,
    /// `USER` (on demand), `SYSTEM`, `AWS_BACKUP`.
    pub kind: String,
}

impl BackupInfo {
    /// One line: `bk1 of table T: AVAILABLE, USER, 123 bytes, made 2026-… (arn:…)`.
    pub fn line(&self) -> String {
        let size = self
            .size_bytes
            .map_or(String::new(), |b| format!(", {b} bytes"));
        let made = self
            .created
            .as_ref()
            .map_or(String::new(), |c| format!(", made {c}"));
        format!(
            "{} of table {}: {}, {}{size}{made} ({})",
            self.name, self.table, self.status, self.kind, self.arn
        )
    }

    /// The backups of `table` as one report.
    pub fn listed(table: &str, backups: &[Self]) -> crate::listed::Listed {
        crate::listed::Listed {
            table: table.to_owned(),
            noun: "backups",
            lines: backups.iter().map(Self::line).collect(),
            objects: backups.iter().map(Self::json).collect(),
            columns: &["name", "status", "created", "size_bytes", "type", "arn"],
        }
    }

    /// As JSON: `name`, `arn`, `table`, `status`, `created`, `size_bytes`, `type`.
    pub fn json(&self) -> Value {
        json!({
            "name": self.name,
            "arn": self.arn,
            "table": self.table,
            "status": self.status,
            "created": self.created,
            "size_bytes": self.size_bytes,
            "type": self.kind,
        })
    }

    fn of_summary(s: &BackupSummary) -> Self {
        Self {
            name: s.backup_name().unwrap_or_default().to_owned(),
            arn: s.backup_arn().unwrap_or_default().to_owned(),
            table: s.table_name().unwrap_or_default().to_owned(),
            status: s.backup_status().map_or("", |x| x.as_str()).to_owned(),
            created: s.backup_creation_date_time().and_then(text),
            size_bytes: s.backup_size_bytes(),
            kind: s.backup_type().map_or("", |x| x.as_str()).to_owned(),
        }
    }

    fn of_details(d: &BackupDetails, table: &str) -> Self {
        Self {
            name: d.backup_name().to_owned(),
            arn: d.backup_arn().to_owned(),
            table: table.to_owned(),
            status: d.backup_status().as_str().to_owned(),
            created: text(d.backup_creation_date_time()),
            size_bytes: d.backup_size_bytes(),
            kind: d.backup_type().as_str().to_owned(),
        }
    }
}

fn text(time: &DateTime) -> Option<String> {
    time.fmt(DateTimeFormat::DateTime).ok()
}

/// Every on-demand backup of `table` the server lists, page after page.
pub async fn list_backups(reader: &Reader, table: &str) -> Result<Vec<BackupInfo>> {
    let client = reader.sdk();
    let mut backups = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let out = client
            .list_backups()
            .table_name(table)
            .set_exclusive_start_backup_arn(start.clone())
            .send()
            .await
            .map_err(|e| Error::from_sdk("ListBackups", e))?;
        backups.extend(out.backup_summaries().iter().map(BackupInfo::of_summary));
        match out.last_evaluated_backup_arn() {
            // A server that names the same page again would be read forever.
            Some(last) if start.as_deref() == Some(last) => {
                return Err(Error::Service {
                    op: "ListBackups",
                    code: "RepeatedPage".into(),
                    message: format!("the server named {last} as the next page twice"),
                    throttled: Vec::new(),
                });
            }
            Some(last) => start = Some(last.to_owned()),
            None => return Ok(backups),
        }
    }
}

/// The backup of `arn`, described (`DescribeBackup`).
pub async fn describe_backup(reader: &Reader, arn: &str) -> Result<BackupInfo> {
    let client = reader.sdk();
    let out = client
        .describe_backup()
        .backup_arn(arn)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeBackup", e))?;
    let description = out.backup_description();
    let table = description
        .and_then(|d| d.source_table_details())
        .map_or("", |s| s.table_name());
    description
        .and_then(|d| d.backup_details())
        .map(|d| BackupInfo::of_details(d, table))
        .ok_or_else(|| Error::Service {
            op: "DescribeBackup",
            code: "IncompleteDescription".into(),
            message: format!("the server described {arn} without its details"),
            throttled: Vec::new(),
        })
}

fn check_name(what: &str, name: &str) -> Result<()> {
    let mut problems = Vec::new();
    name_problem(what, name, &mut problems);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(problems.join("; ")))
    }
}

/// The plan making an on-demand backup named `name` of the table as `described`: the name is
/// 3–255 characters of `a-z A-Z 0-9 _ - .`.
pub fn backup_plan(
    connection: &Connection,
    described: &Described,
    name: &str,
) -> Result<WritePlan> {
    check_name("backup", name)?;
    Ok(WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::CreateBackup {
            table: described.spec.name.clone(),
            name: name.to_owned(),
        },
    ))
}

/// The plan restoring `backup` into a new table `to_table`: only an `AVAILABLE` backup, only
/// into a table name that is free (read first, with `DescribeTable`).
pub async fn restore_plan(
    connection: &Connection,
    backup: &BackupInfo,
    to_table: &str,
) -> Result<WritePlan> {
    check_name("table", to_table)?;
    if backup.status != "AVAILABLE" {
        return Err(Error::Invalid(format!(
            "backup {} is {}: only an AVAILABLE backup can be restored",
            backup.name, backup.status
        )));
    }
    match connection
        .client
        .describe_table()
        .table_name(to_table)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeTable", e))
    {
        Ok(_) => Err(Error::Invalid(format!(
            "table {to_table} exists: a backup is restored into a new table, never over one"
        ))),
        Err(error) if error.code() == Some("ResourceNotFoundException") => {
            Ok(WritePlan::table_setting(
                Destination::of(connection),
                TableSetting::Restore {
                    backup_arn: backup.arn.clone(),
                    backup: backup.name.clone(),
                    source: backup.table.clone(),
                    table: to_table.to_owned(),
                },
            ))
        }
        Err(error) => Err(error),
    }
}

/// Whether `typed` names `backup` back (its name or its ARN, exactly), as deleting it for good
/// asks: a backup deleted cannot be had again, so one slip of an ARN deletes nothing.
pub fn check_backup_named(backup: &BackupInfo, typed: &str) -> Result<()> {
    if typed == backup.name || typed == backup.arn {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "to delete backup {} of table {} for good, type its name or its ARN exactly (`{typed}` \
         is neither); nothing was deleted",
        backup.name, backup.table
    )))
}

/// The plan deleting `backup` for good.
pub fn delete_backup_plan(connection: &Connection, backup: &BackupInfo) -> Result<WritePlan> {
    if backup.status == "DELETED" {
        return Err(Error::Invalid(format!(
            "backup {} is already deleted",
            backup.name
        )));
    }
    Ok(WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::DeleteBackup {
            arn: backup.arn.clone(),
            name: backup.name.clone(),
            table: backup.table.clone(),
        },
    ))
}

/// The backup a backup write made or deleted, described again after it was sent: `(the
/// backup, a note)`. A made backup is described by the ARN the server answered; when the
/// answer was lost, the table's backups of that name are listed instead. A deleted one is
/// described by its ARN (gone, on a server that forgets it at once).
pub(super) async fn again(
    client: &Client,
    setting: &TableSetting,
    outcome: &WriteOutcome,
) -> (Option<BackupInfo>, Vec<String>) {
    let arn = match (setting, outcome) {
        (TableSetting::CreateBackup { .. }, WriteOutcome::Applied { returned, .. }) => {
            match returned.as_ref().and_then(|r| r.get("BackupArn")) {
                Some(AttributeValue::S(arn)) => arn.clone(),
                _ => return (None, vec!["the server named no backup ARN".to_owned()]),
            }
        }
        (TableSetting::CreateBackup { table, name }, WriteOutcome::Unknown { .. }) => {
            return named(client, table, name).await;
        }
        (TableSetting::DeleteBackup { arn, .. }, _) => arn.clone(),
        _ => return (None, Vec::new()),
    };
    match describe_backup(&Reader::of(client), &arn).await {
        Ok(backup) => (Some(backup), Vec::new()),
        Err(e) if e.code() == Some("BackupNotFoundException") => {
            (None, vec![format!("backup {arn} is gone")])
        }
        Err(e) => (None, vec![format!("backup not described again: {e}")]),
    }
}

/// After a lost answer to a backup named `name`: the table's backups of that name now.
async fn named(client: &Client, table: &str, name: &str) -> (Option<BackupInfo>, Vec<String>) {
    match list_backups(&Reader::of(client), table).await {
        Ok(all) => {
            let mut same: Vec<BackupInfo> = all.into_iter().filter(|b| b.name == name).collect();
            same.sort_by(|a, b| a.created.cmp(&b.created));
            let note = format!(
                "backups of table {table} named {name} now: {} (the newest may be the one sent, \
                 or an older one of the same name)",
                same.len()
            );
            (same.pop(), vec![note])
        }
        Err(e) => (None, vec![format!("backups not listed again: {e}")]),
    }
}
