//! Managing tables: create one from a [`TableSpec`], change one, delete one — each a
//! configuration write through the one gateway (asked about off this machine, refused when
//! read-only, sent once), then the table described again and followed until it has settled
//! (`ACTIVE`, no index backfilling) or is gone. On-demand backups (`backups.rs`) go the same
//! way: made, restored into a new table (followed until `ACTIVE`), deleted.

mod backups;

use std::time::Duration;

use aws_sdk_dynamodb::Client;

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::ending::Ending;
use crate::core::error::{Error, Result};
use crate::core::schema::{Described, TableChange, TableSpec, read_spec};
use crate::core::write::{self, Destination, Refusal, TableSetting, WriteOutcome, WritePlan};

pub use backups::{
    BackupInfo, backup_plan, delete_backup_plan, describe_backup, list_backups, restore_plan,
};

/// How often a table is described again while it settles.
pub const POLL: Duration = Duration::from_secs(2);

/// What a table management run says as it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminEvent {
    /// A request was sent and answered: what it did.
    Applied(String),
    /// The table as described again, while waiting: `UPDATING; index ByUser CREATING
    /// (backfilling)`.
    State(String),
}

/// How a table management run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminReport {
    /// Each write sent, in words, with how it ended.
    pub writes: Vec<(String, WriteOutcome)>,
    /// The table as described at the end; `None` once deleted, or when it could not be read.
    pub after: Option<Described>,
    /// Why the table was not described at the end, when it was not.
    pub unread: Option<String>,
    /// Whether following it was given up by a cancel (the change goes on on the server).
    pub stopped_following: bool,
    /// The backup a backup write made or deleted, as described again (`None` once gone).
    pub backup: Option<BackupInfo>,
    /// What else was read again, in words: a restored table's items, a backup gone.
    pub notes: Vec<String>,
}

impl AdminReport {
    /// The graver of the writes' endings; an error that applied nothing is handed back.
    pub fn ending(&self) -> Result<Ending> {
        let mut ending = Ending::Done;
        for (_, outcome) in &self.writes {
            ending = ending.graver(outcome.ending()?);
        }
        Ok(ending)
    }

    /// The report in lines: each write and how it ended, then the table as it is now. A
    /// refusal with an error is left to [`ending`](Self::ending), to be said once.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .writes
            .iter()
            .filter_map(|(what, outcome)| match outcome {
                WriteOutcome::Applied { .. } => Some(format!("applied: {what}")),
                WriteOutcome::Refused {
                    refusal: Refusal::Error(_),
                    ..
                } => None,
                WriteOutcome::Refused { .. } => Some(format!("refused: {what}")),
                WriteOutcome::Unknown { error, .. } => Some(format!(
                    "outcome unknown: {what} may have been applied; it was not sent again \
                     ({error})"
                )),
            })
            .collect();
        match (&self.after, &self.unread) {
            (Some(table), _) => {
                lines.push(format!("now: {} ({})", table.spec.summary(), table.state()));
                lines.extend(table.unread.iter().map(|u| format!("not read: {u}")));
            }
            (None, Some(why)) => lines.push(why.clone()),
            (None, None) => {}
        }
        lines.extend(self.backup.iter().map(|b| format!("backup: {}", b.line())));
        lines.extend(self.notes.iter().cloned());
        if self.stopped_following {
            lines.push(
                "stopped waiting: the change goes on on the server; describe the table to see"
                    .to_owned(),
            );
        }
        lines
    }
}

/// The plan creating `spec` on `connection`, refused in words when DynamoDB would refuse it.
pub fn create_plan(connection: &Connection, spec: &TableSpec) -> Result<WritePlan> {
    spec.check()?;
    Ok(WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::Create(Box::new(spec.clone())),
    ))
}

/// The plan making `change` to the table as `described`, refused when it cannot take it.
pub fn change_plan(
    connection: &Connection,
    described: &Described,
    change: TableChange,
) -> Result<WritePlan> {
    change.check(described)?;
    Ok(WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::Change {
            table: described.spec.name.clone(),
            change,
        },
    ))
}

/// The plan deleting the table as `described`: only when `typed` is its name, and never while
/// deletion protection is on.
pub fn delete_plan(
    connection: &Connection,
    described: &Described,
    typed: &str,
) -> Result<WritePlan> {
    let name = &described.spec.name;
    if typed != name {
        return Err(Error::Invalid(format!(
            "to delete table {name}, type its name exactly (`{typed}` is not `{name}`)"
        )));
    }
    if described.spec.deletion_protection {
        return Err(Error::Invalid(format!(
            "table {name} has deletion protection on: DynamoDB refuses to delete it until that \
             is turned off (a change of its own, so a table is never deleted by one slip)"
        )));
    }
    Ok(WritePlan::table_setting(
        Destination::of(connection),
        TableSetting::Delete {
            table: name.clone(),
        },
    ))
}

/// Send `plan` through the gateway, then describe its table again, following it until it
/// settles (or, for a delete, is gone) unless `stop` is cancelled.
pub async fn run(
    connection: &Connection,
    plan: &WritePlan,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> AdminReport {
    let write::WriteRequest::Table(setting) = &plan.request else {
        let error = Error::Invalid("not a change to a table".to_owned());
        return AdminReport {
            writes: vec![(plan.what(), WriteOutcome::not_sent(error))],
            after: None,
            unread: None,
            stopped_following: false,
            backup: None,
            notes: Vec::new(),
        };
    };
    let table = setting.table().to_owned();
    let deleting = matches!(setting, TableSetting::Delete { .. });
    let mut writes = Vec::new();
    // Planned from the table as a view last read it: read again, and held to it, first.
    let outcome = match still_holds(&connection.client, setting).await {
        Ok(()) => write::send(connection, plan, confirmed).await,
        Err(error) => WriteOutcome::not_sent(error),
    };
    let applied = outcome.applied();
    if applied {
        on_event(AdminEvent::Applied(plan.what()));
    }
    writes.push((plan.what(), outcome));
    let mut report = AdminReport {
        writes,
        after: None,
        unread: None,
        stopped_following: false,
        backup: None,
        notes: Vec::new(),
    };
    // A refusal before anything was sent leaves the table as it was: nothing to follow.
    if report.writes.iter().all(|(_, o)| o.attempts() == 0) {
        return report;
    }
    let followed = follow(&connection.client, &table, deleting, stop, on_event).await;
    let backup = matches!(
        setting,
        TableSetting::CreateBackup { .. }
            | TableSetting::DeleteBackup { .. }
            | TableSetting::Restore { .. }
    );
    match followed {
        Ok(Some(described)) => report.after = Some(described),
        Ok(None) => report.unread = Some(format!("table {table} is gone")),
        Err(Error::Cancelled { .. }) => report.stopped_following = true,
        // A backup outlives its table; a restore whose answer was lost may not have begun.
        Err(error) if backup && error.code() == Some("ResourceNotFoundException") => {
            report.unread = Some(format!("table {table} does not exist"));
        }
        Err(error) => report.unread = Some(format!("not described again: {error}")),
    }
    if let (TableSetting::Restore { .. }, Some(after)) = (setting, &report.after)
        && let Some(count) = after.item_count
    {
        report.notes.push(format!(
            "restored table {table} holds {count} items (DescribeTable's count, which AWS \
             refreshes about every six hours)"
        ));
    }
    if backup {
        let (described, notes) =
            backups::again(&connection.client, setting, &report.writes[0].1).await;
        report.backup = described;
        report.notes.extend(notes);
    }
    // What CreateTable cannot say is set once the new table is active, under the same
    // confirmation: TTL, then point-in-time recovery.
    if let (true, TableSetting::Create(spec), Some(_)) = (applied, setting, &report.after) {
        let mut then = Vec::new();
        if let Some(attribute) = &spec.ttl {
            then.push(TableChange::Ttl {
                attribute: attribute.clone(),
                enabled: true,
            });
        }
        if spec.pitr {
            then.push(TableChange::Pitr(true));
        }
        for change in then {
            let plan = WritePlan::table_setting(
                plan.destination.clone(),
                TableSetting::Change {
                    table: table.clone(),
                    change,
                },
            );
            let outcome = write::send(connection, &plan, confirmed).await;
            if outcome.applied() {
                on_event(AdminEvent::Applied(plan.what()));
            }
            report.writes.push((plan.what(), outcome));
        }
        if report.writes.len() > 1 {
            match read_spec(&connection.client, &table).await {
                Ok(described) => report.after = Some(described),
                Err(error) => report.unread = Some(format!("not described again: {error}")),
            }
        }
    }
    report
}

/// Whether a change or a delete planned from an earlier read still holds for the table as it
/// is now: another writer may have changed it since (a stream turned on, protection turned on).
async fn still_holds(client: &Client, setting: &TableSetting) -> Result<()> {
    match setting {
        TableSetting::Change { table, change } => change.check(&read_spec(client, table).await?),
        TableSetting::Delete { table } => {
            let now = read_spec(client, table).await?;
            if now.spec.deletion_protection {
                return Err(Error::Invalid(format!(
                    "table {table} has deletion protection on now: DynamoDB refuses to delete \
                     it until that is turned off"
                )));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Describe `table` until it has settled — or, when `gone` is wanted, until it no longer
/// exists (`None`) — every [`POLL`], saying each new state.
pub async fn follow(
    client: &Client,
    table: &str,
    gone: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> Result<Option<Described>> {
    let mut last = String::new();
    loop {
        let read =
            crate::core::cancel::unless_stopped(stop, "DescribeTable", read_spec(client, table))
                .await;
        match read {
            Err(error) if gone && error.code() == Some("ResourceNotFoundException") => {
                return Ok(None);
            }
            Err(error) => return Err(error),
            Ok(described) if !gone && described.settled() => return Ok(Some(described)),
            Ok(described) => {
                let state = described.state();
                if state != last {
                    on_event(AdminEvent::State(state.clone()));
                    last = state;
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(POLL) => {}
            () = stop.cancelled() => return Err(Error::Cancelled { op: "DescribeTable" }),
        }
    }
}
