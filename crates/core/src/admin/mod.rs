//! Managing tables: create one from a [`TableSpec`], change one, delete one — each a
//! configuration write through the one gateway (asked about off this machine, refused when
//! read-only, sent once), then the table described again and followed until it has settled
//! (`ACTIVE`, no index backfilling) or is gone. On-demand backups (`backups.rs`) go the same
//! way: made, restored into a new table (followed until `ACTIVE`), deleted.

mod backups;
mod document;
mod follow;
mod report;

use aws_sdk_dynamodb::Client;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::schema::{Described, TableChange, TableSpec, read_spec};
use crate::throttle::Deadline;
use crate::write::{self, Destination, TableSetting, WriteOutcome, WritePlan};

pub use backups::{
    BackupInfo, backup_plan, check_backup_named, delete_backup_plan, describe_backup, list_backups,
    restore_plan,
};
pub use follow::follow;
pub use report::{ChangeRun, change_all};

use follow::{Followed, Within, follow_within};

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
    /// The report of one write, before its table is described again.
    fn of(what: String, outcome: WriteOutcome) -> Self {
        Self {
            writes: vec![(what, outcome)],
            after: None,
            unread: None,
            stopped_following: false,
            backup: None,
            notes: Vec::new(),
        }
    }

    /// The table as `followed` found it, into the report; true when a delete's table is gone,
    /// or being deleted (`DELETING`, which nothing undoes). `missing_ok`: a table not found
    /// is said as such (a backup outlives its table; a lost create may not have begun).
    fn described(
        &mut self,
        followed: Result<Followed>,
        table: &str,
        deleting: bool,
        missing_ok: bool,
    ) -> bool {
        match followed {
            Ok(Followed::Settled(described)) => self.after = Some(described),
            Ok(Followed::Gone) => {
                self.unread = Some(format!("table {table} is gone"));
                return true;
            }
            Ok(Followed::Unsettled(described)) => {
                let going = deleting && described.status == "DELETING";
                if !going {
                    self.notes.push(unsettled(table, deleting, &described));
                }
                self.after = Some(described);
                return going;
            }
            Err(Error::Cancelled { .. }) => self.stopped_following = true,
            Err(error) if missing_ok && error.code() == Some("ResourceNotFoundException") => {
                self.unread = Some(format!("table {table} does not exist"));
            }
            Err(error) => self.unread = Some(format!("not described again: {error}")),
        }
        false
    }

    /// A delete whose answer was lost, its table described again and gone: it applied.
    fn lost_then_gone(&mut self, table: &str) {
        let (_, outcome) = &mut self.writes[0];
        if let WriteOutcome::Unknown {
            error, attempts, ..
        } = outcome
        {
            self.notes.push(format!(
                "the answer to the delete was lost ({error}); table {table}, described again, \
                 is gone or going: the delete applied"
            ));
            *outcome = WriteOutcome::Applied {
                returned: None,
                consumed_wcu: 0.0,
                attempts: *attempts,
                unwritten: None,
                throttled: Vec::new(),
            };
        }
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

/// Send `plan` through the gateway, then describe its table again: followed until it settles
/// (or, for a delete, is gone) unless `stop` is cancelled, once applied; not at all once
/// refused (the table is as it was); within the run's deadline once the outcome is unknown.
/// The connection's timeout is one deadline for the send and what follows an unknown outcome.
pub async fn run(
    connection: &Connection,
    plan: &WritePlan,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> AdminReport {
    let write::WriteRequest::Table(setting) = &plan.request else {
        let error = Error::Invalid("not a change to a table".to_owned());
        return AdminReport::of(plan.what(), WriteOutcome::not_sent(error));
    };
    let table = setting.table().to_owned();
    let deleting = matches!(setting, TableSetting::Delete { .. });
    // Planned from the table as a view last read it: read again, and held to it, first.
    let held = still_holds(&connection.client, setting).await;
    let deadline = Deadline::after(connection.timeout);
    let outcome = match held {
        Ok(()) => write::send(connection, plan, confirmed).await,
        Err(error) => WriteOutcome::not_sent(error),
    };
    let applied = outcome.applied();
    if applied {
        on_event(AdminEvent::Applied(plan.what()));
    }
    let mut report = AdminReport::of(plan.what(), outcome);
    // A refusal leaves the table as it was: nothing to follow, and its error is said at once.
    if matches!(report.writes[0].1, WriteOutcome::Refused { .. }) {
        return report;
    }
    let within = (!applied).then(|| Within::new(deadline, connection.timeout));
    let followed =
        follow_within(&connection.client, &table, deleting, within, stop, on_event).await;
    let backup = matches!(
        setting,
        TableSetting::CreateBackup { .. }
            | TableSetting::DeleteBackup { .. }
            | TableSetting::Restore { .. }
    );
    // A backup outlives its table; a create or restore whose answer was lost may not have
    // begun.
    let missing_ok = backup || !applied;
    // Described again and gone (or going), a delete whose answer was lost applied.
    if report.described(followed, &table, deleting, missing_ok) && !applied {
        report.lost_then_gone(&table);
        on_event(AdminEvent::Applied(plan.what()));
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
    if let (true, TableSetting::Create(spec), Some(_)) = (applied, setting, &report.after) {
        then_set(connection, plan, spec, confirmed, &mut report, on_event).await;
    }
    report
}

/// What a table not settled within the deadline after a lost answer says.
fn unsettled(table: &str, deleting: bool, described: &Described) -> String {
    let state = described.state();
    if deleting {
        format!(
            "table {table} is still there ({state}) after the lost answer: the delete may not \
             have reached the server; it was not sent again (describe the table to see)"
        )
    } else {
        format!(
            "table {table} is {state}: not followed past the timeout, since whether the change \
             was applied is unknown (describe the table to see)"
        )
    }
}

/// What `CreateTable` cannot say, set once the new table is active, under the same
/// confirmation: TTL, then point-in-time recovery; the table described again after.
async fn then_set(
    connection: &Connection,
    plan: &WritePlan,
    spec: &TableSpec,
    confirmed: bool,
    report: &mut AdminReport,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) {
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
    if then.is_empty() {
        return;
    }
    for change in then {
        let plan = WritePlan::table_setting(
            plan.destination.clone(),
            TableSetting::Change {
                table: spec.name.clone(),
                change,
            },
        );
        let outcome = write::send(connection, &plan, confirmed).await;
        if outcome.applied() {
            on_event(AdminEvent::Applied(plan.what()));
        }
        report.writes.push((plan.what(), outcome));
    }
    match read_spec(&connection.reader(), &spec.name).await {
        Ok(described) => report.after = Some(described),
        Err(error) => report.unread = Some(format!("not described again: {error}")),
    }
}

/// Whether a change or a delete planned from an earlier read still holds for the table as it
/// is now: another writer may have changed it since (a stream turned on, protection turned on).
async fn still_holds(client: &Client, setting: &TableSetting) -> Result<()> {
    match setting {
        TableSetting::Change { table, change } => {
            change.check(&read_spec(&Reader::of(client), table).await?)
        }
        TableSetting::Delete { table } => {
            let now = read_spec(&Reader::of(client), table).await?;
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
