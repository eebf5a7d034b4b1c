//! Cloning a table from one connection to another (AWS to AWS across accounts or regions, AWS
//! to the sandbox or a local endpoint, and back): its schema first (the source's
//! [`TableSpec`](crate::schema::TableSpec), renamed, adjusted where the destination cannot
//! take it and each adjustment said, created through [`admin::run`]), then its items — the
//! whole table in a parallel scan, or one partition — streamed into the write gateway's batches
//! with bounded memory ([`copy`]), then the destination checked against the source
//! ([`verify`]): counts per partition and a sample compared item by item.
//!
//! A clone that stops (Cancel, an unknown outcome, a refusal, a read that failed) says where
//! each segment goes on from: after the last page every item of which was written, so going on
//! re-sends at most the pages that were in flight (whole items put again, which changes
//! nothing).

mod copy;
mod document;
mod full;
mod identity;
mod report;
mod schema;
mod spec;
mod track;
mod verify;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::admin::{self, AdminEvent};
use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::{Connection, TableOn};
use crate::error::{Error, Result};
use crate::read::{self, SegmentStarts};
use crate::report::Report;
use crate::schema::{Described, StreamView, TableChange, read_spec};
use crate::value::Item;
use crate::value::key_shown;
use crate::write::{Confirmation, Destination};

pub use copy::{CopyProgress, CopyReport};
pub use copy::{PAGE_ITEMS, copy};
pub use full::Check;
pub use report::StreamStep;
pub use report::{CloneReport, SchemaStep};
pub use schema::Target;
pub(crate) use schema::target_of;
pub use spec::{CloneSpec, SEGMENTS};
pub use verify::PartitionCount;
pub use verify::Verified;
pub use verify::verify;

/// Items compared one by one at the end unless told otherwise.
pub const SAMPLE: usize = 100;

/// What a clone reads from the source.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// The whole table in a parallel scan, each segment from where it starts.
    Table(SegmentStarts),
    /// One partition (a Query of this partition key value), from its start or after a key.
    Partition {
        /// The partition key value, typed as the key.
        value: AttributeValue,
        /// Go on after this key (`None`: from the beginning).
        after: Option<Item>,
    },
}

/// The destination's name when none is given: the source's own name on another connection
/// (the same table elsewhere), `{table}-copy` on the same one (where the name is taken).
pub fn default_to_table(table: &str, same_connection: bool) -> String {
    if same_connection {
        format!("{table}-copy")
    } else {
        table.to_owned()
    }
}

/// A clone, as asked.
#[derive(Debug, Clone, PartialEq)]
pub struct ClonePlan {
    /// The source table.
    pub table: String,
    /// The destination table's name.
    pub to_table: String,
    /// What is read: the whole table, or a partition given as text (typed by the source's key).
    pub part: PartAsked,
    /// Batches in flight at once.
    pub batches_at_once: usize,
    /// Items compared one by one at the end (0: none); `None`: no check at all.
    pub sample: Option<usize>,
    /// Compare every item at the end instead (when a check is asked).
    pub full_check: bool,
}

/// What is read, as asked: before the source's key type is known.
#[derive(Debug, Clone, PartialEq)]
pub enum PartAsked {
    /// The whole table from these starts.
    Table(SegmentStarts),
    /// One partition, its key value as text, from the beginning or after a key.
    Partition(String, Option<Item>),
}

/// What a clone says as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum CloneEvent {
    /// The schema step: what was decided (adjustments, an existing table), in words.
    Note(String),
    /// Creating the destination table: a request applied, a state while it settles.
    Admin(AdminEvent),
    /// How far the items are.
    Progress(CopyProgress),
    /// The check at the end began.
    Verifying(String),
}

/// Clone as `plan` says from `source` to `target`: the schema (created, or an existing table
/// with the same keys), the items, then the check. `confirmed`: the user said yes to writes off
/// this machine (`--yes`). An error before anything was written is handed back (a read-only or
/// unconfirmed destination, an existing table with other keys, a source that cannot be read);
/// everything after is in the report.
pub async fn run(
    source: &Connection,
    target: &Connection,
    plan: &ClonePlan,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(CloneEvent) + Send),
) -> Result<CloneReport> {
    let destination = Destination::of(target);
    if destination.is(source) && plan.table == plan.to_table {
        return Err(Error::Invalid(format!(
            "the clone of {} would be written over itself: give --to-table another name, or \
             another connection",
            plan.table
        )));
    }
    let described = unless_stopped(
        stop,
        "DescribeTable",
        read_spec(&source.reader(), &plan.table),
    )
    .await?;
    let from = read::describe_unless_stopped(&source.reader(), &plan.table, stop).await?;
    let part = match &plan.part {
        PartAsked::Table(starts) => {
            crate::limits::check_segments(starts.total(), &from, confirmed)?;
            Part::Table(starts.clone())
        }
        PartAsked::Partition(text, after) => Part::Partition {
            value: from.partition.kind.parse(text)?,
            after: after.clone(),
        },
    };
    let found = asked(source, &described, target, plan, confirmed, stop).await?;
    let decided = target_of(&described, &plan.to_table, target, found)?;
    let (schema, stream_after, settled) =
        schema_step(target, plan, decided, confirmed, stop, on_event).await?;
    let mut report = CloneReport::new(plan, target, schema);
    if !settled {
        return Ok(report);
    }
    let to = read::describe_unless_stopped(&target.reader(), &plan.to_table, stop).await?;
    let progress = |progress| on_event(CloneEvent::Progress(progress));
    let (source_table, target_table) = (TableOn::new(source, &from), TableOn::new(target, &to));
    let copied = copy(
        source_table,
        target_table,
        part.clone(),
        plan.batches_at_once,
        confirmed,
        stop,
        progress,
    )
    .await?;
    let complete = copied.complete();
    report.prices = Some((source.pricing(&from), target.pricing(&to)));
    report.copy = Some(copied);
    if let Some(view) = stream_after {
        report.stream = Some(if complete {
            let mut said = |e| on_event(CloneEvent::Admin(e));
            stream_on(target, &plan.to_table, view, confirmed, stop, &mut said).await
        } else {
            StreamStep::Waiting(view)
        });
    }
    if let (true, Some(sample)) = (complete, plan.sample) {
        on_event(CloneEvent::Verifying(format!(
            "checking {} against {}: counts per partition, and {sample} items compared",
            plan.to_table, plan.table
        )));
        let segments = match &part {
            Part::Table(starts) => starts.total(),
            Part::Partition { .. } => 1,
        };
        report.verified = Some(if plan.full_check {
            full::full(source_table, target_table, &part, stop).await
        } else {
            verify(source_table, target_table, &part, segments, sample, stop)
                .await
                .map(Check::Sampled)
        });
    }
    Ok(report)
}

/// The destination on `target` described (`None`: no table of that name), once writing into it
/// is allowed: refused when read-only, asked off this machine or when it holds items already
/// (even on this machine), and refused when it is the source (on `source`, `described`) itself
/// reached another way.
async fn asked(
    source: &Connection,
    described: &Described,
    target: &Connection,
    plan: &ClonePlan,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<Option<Described>> {
    let destination = Destination::of(target);
    if let Confirmation::Refused(error) = destination.confirmation("") {
        return Err(error);
    }
    let found = unless_stopped(
        stop,
        "DescribeTable",
        schema::existing(&target.client, &plan.to_table),
    )
    .await?;
    let holds = match &found {
        Some(found) => {
            schema::check_keys(described, found, target)?;
            first_held(target, &plan.to_table, stop).await?
        }
        None => None,
    };
    let maybe_self = found
        .as_ref()
        .is_some_and(|found| identity::compare(described, found) == identity::Sameness::Undecided);
    question(&destination, plan, holds.as_deref(), maybe_self).check(confirmed)?;
    if let Some(found) = &found {
        identity::refuse_self(source, described, target, found, confirmed).await?;
    }
    Ok(found)
}

/// The destination's schema made ready: an existing table followed until it settles, or the
/// table created and followed until active; with the stream to turn on after the copy, and
/// whether it settled (a table that did not is not copied into).
async fn schema_step(
    target: &Connection,
    plan: &ClonePlan,
    decided: Target,
    confirmed: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(CloneEvent) + Send),
) -> Result<(SchemaStep, Option<StreamView>, bool)> {
    match decided {
        Target::Existing { described, note } => {
            on_event(CloneEvent::Note(note.clone()));
            if !described.settled() {
                let mut said = |e| on_event(CloneEvent::Admin(e));
                admin::follow(&target.client, &plan.to_table, false, stop, &mut said).await?;
            }
            Ok((SchemaStep::Existing { note }, None, true))
        }
        Target::Create {
            spec,
            adjusted,
            stream_after,
        } => {
            for line in &adjusted {
                on_event(CloneEvent::Note(line.clone()));
            }
            let create = admin::create_plan(target, &spec)?;
            let mut said = |e| on_event(CloneEvent::Admin(e));
            let report = admin::run(target, &create, confirmed, stop, &mut said).await;
            // A refusal before anything applied is an error said once.
            if let Some(error) = report.failure() {
                return Err(error.clone());
            }
            let settled = report.after.as_ref().is_some_and(Described::settled);
            let created = SchemaStep::Created {
                report: Box::new(report),
                adjusted,
            };
            Ok((created, stream_after, settled))
        }
    }
}

/// Turn on `table`'s stream with `view` once every item is in it: one table change through
/// the gateway, under the clone's confirmation, followed until the table settles.
async fn stream_on(
    target: &Connection,
    table: &str,
    view: StreamView,
    confirmed: bool,
    stop: &CancelToken,
    said: &mut (dyn FnMut(AdminEvent) + Send),
) -> StreamStep {
    let described = unless_stopped(stop, "DescribeTable", read_spec(&target.reader(), table)).await;
    let plan =
        described.and_then(|d| admin::change_plan(target, &d, TableChange::Stream(Some(view))));
    let plan = match plan {
        Ok(plan) => plan,
        Err(error) => return StreamStep::Failed(view, error.to_string()),
    };
    StreamStep::Sent(Box::new(
        admin::run(target, &plan, confirmed, stop, said).await,
    ))
}

/// The first item of `table` on `target`, its key in words, when it holds any.
async fn first_held(
    target: &Connection,
    table: &str,
    stop: &CancelToken,
) -> Result<Option<String>> {
    let info = read::describe_unless_stopped(&target.reader(), table, stop).await?;
    let request = read::BrowseRequest::scan(&info, None)?;
    let mut first = None;
    read::read_pages(
        &target.reader(),
        &request,
        None,
        read::Until::Items(1),
        stop,
        |page| {
            if first.is_none() {
                first = page.items.into_iter().next();
            }
        },
    )
    .await?;
    Ok(first.map(|item| key_shown(&item, &info.key_names())))
}

/// What writing the clone into `destination` needs: a question off this machine, and anywhere
/// when the destination holds items already (`holds`: the first one's key), since each item of
/// the source replaces the item of its key there. `maybe_self`: the destination has the
/// source's ARN and creation time, so the question says how that is settled before any copy.
fn question(
    destination: &Destination,
    plan: &ClonePlan,
    holds: Option<&str>,
    maybe_self: bool,
) -> Confirmation {
    let what = format!(
        "table {}, a clone of {} (created if missing, then its items put)",
        plan.to_table, plan.table
    );
    let confirmation = destination.confirmation(&what);
    let Some(first) = holds else {
        return confirmation;
    };
    let (asked, name) = match confirmation {
        Confirmation::Ask(question) => (question, None),
        Confirmation::Typed { question, name } => (question, Some(name)),
        Confirmation::NotNeeded => (
            format!("This writes to {what} at {}.", destination.place()),
            None,
        ),
        refused @ Confirmation::Refused(_) => return refused,
    };
    let probe = if maybe_self {
        " It has the source's ARN and creation time, so it may be the source itself: once \
         confirmed, a probe item is put there, looked for in the source and deleted again, and \
         a clone onto its own source is refused with nothing copied."
    } else {
        ""
    };
    let question = format!(
        "{asked} Table {} already holds items (the first read: {first}): each item of the \
         source replaces the item with its key there, and the others are kept.{probe}",
        plan.to_table
    );
    match name {
        Some(name) => Confirmation::Typed { question, name },
        None => Confirmation::Ask(question),
    }
}

#[cfg(test)]
mod tests;
