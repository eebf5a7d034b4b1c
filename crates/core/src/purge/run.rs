//! The delete pass: the items read again, a page at a time, their keys deleted in batches of 25
//! (a few at once) through the gateway, never past the count that was confirmed; then, when
//! chosen, the tallies of the parents whose children went updated by the guarded repair.

use tokio::task::JoinSet;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::purge::{ParentRepaired, PurgeCount, PurgeReport, PurgeSource};
use crate::read::ReadPlan;
use crate::read::{Until, read_pages};
use crate::report::plural;
use crate::table::TableInfo;
use crate::tally::{self, RepairAll};
use crate::value::Item;
use crate::write::{self, Batch, Destination, WriteOutcome, WritePlan};

/// Batches in flight at once.
const BATCHES_AT_ONCE: usize = 4;

/// Delete what `source` holds from `info`'s table, at most `confirmed_count` items (the count
/// the user confirmed; more found means the table changed since: it stops there and says so).
/// `confirmed`: the user said yes to the question off this machine. `progress` hears the report
/// after each batch.
pub async fn purge(
    connection: &Connection,
    info: &TableInfo,
    source: &PurgeSource,
    confirmed_count: u64,
    confirmed: bool,
    stop: &CancelToken,
    mut progress: impl FnMut(&PurgeReport),
) -> PurgeReport {
    let mut report = PurgeReport::default();
    let destination = Destination::of(connection);
    let what = format!(
        "table {}, {} deleted",
        info.name,
        plural(
            usize::try_from(confirmed_count).unwrap_or(usize::MAX),
            "item"
        )
    );
    if let Err(error) = destination.confirmation(&what).check(confirmed) {
        report.error = Some(error);
        return report;
    }
    let mut pass = Pass {
        connection,
        info,
        destination,
        confirmed,
        limit: confirmed_count,
        report,
    };
    match source {
        PurgeSource::Read(plan) => pass.delete_read(plan, stop, &mut progress).await,
        PurgeSource::Keys(keys) => pass.delete_keys(keys, stop, &mut progress).await,
    }
    progress(&pass.report);
    pass.report
}

struct Pass<'a> {
    connection: &'a Connection,
    info: &'a TableInfo,
    destination: Destination,
    confirmed: bool,
    limit: u64,
    report: PurgeReport,
}

impl Pass<'_> {
    /// Delete what `plan` reads, a page at a time, until it is read to its end or the pass ends.
    async fn delete_read(
        &mut self,
        plan: &ReadPlan,
        stop: &CancelToken,
        progress: &mut impl FnMut(&PurgeReport),
    ) {
        let mut start = plan.start.clone();
        loop {
            if stop.is_cancelled() {
                self.report.cancelled = true;
                break;
            }
            let mut got = None;
            let read = read_pages(
                &self.connection.reader(),
                &plan.request,
                start.take(),
                Until::OnePage,
                stop,
                |page| got = Some(page),
            )
            .await;
            if let Err(error) = read {
                self.report.error = Some(error);
                break;
            }
            let Some(page) = got else {
                self.report.cancelled = stop.is_cancelled();
                break;
            };
            self.report.rcu += page.consumed_rcu;
            if !self.delete(page.items, stop, progress).await {
                break;
            }
            match page.last_key {
                Some(last) => start = Some(last),
                None => break,
            }
        }
    }

    /// Delete the items of `keys` that are still there, each read again first, a batch's worth
    /// at a time (only those are counted against the confirmed number).
    async fn delete_keys(
        &mut self,
        keys: &[Item],
        stop: &CancelToken,
        progress: &mut impl FnMut(&PurgeReport),
    ) {
        for chunk in keys.chunks(Batch::MAX) {
            if stop.is_cancelled() {
                self.report.cancelled = true;
                break;
            }
            let mut there = Vec::with_capacity(chunk.len());
            for key in chunk {
                let read = crate::read::get_item_costed(
                    &self.connection.reader(),
                    &self.info.name,
                    key.clone(),
                )
                .await;
                match read {
                    Ok((item, rcu)) => {
                        self.report.rcu += rcu;
                        there.extend(item);
                    }
                    Err(error) => {
                        self.report.error = Some(error);
                        break;
                    }
                }
            }
            if self.report.error.is_some() || !self.delete(there, stop, progress).await {
                break;
            }
        }
    }

    /// Delete the items of one page (by their keys); false when the pass ends here.
    async fn delete(
        &mut self,
        items: Vec<Item>,
        stop: &CancelToken,
        progress: &mut impl FnMut(&PurgeReport),
    ) -> bool {
        let room = self.limit.saturating_sub(self.report.read);
        let mut go_on = true;
        let mut keys = Vec::with_capacity(items.len());
        for item in &items {
            match self.info.key_of(item) {
                Ok(key) => keys.push(key),
                Err(error) => {
                    self.report.error = Some(error);
                    return false;
                }
            }
        }
        if keys.len() as u64 > room {
            keys.truncate(usize::try_from(room).unwrap_or(usize::MAX));
            self.report.stopped = Some(format!(
                "stopped at the {} items confirmed: more are there now than were counted; count \
                 again to delete the rest",
                self.limit
            ));
            go_on = false;
        }
        self.report.read += keys.len() as u64;
        let mut batches = keys.chunks(Batch::MAX).map(<[Item]>::to_vec);
        let mut flying: JoinSet<(Vec<Item>, WriteOutcome)> = JoinSet::new();
        let mut sending = true;
        loop {
            while sending && flying.len() < BATCHES_AT_ONCE {
                if stop.is_cancelled() {
                    self.report.cancelled = true;
                    sending = false;
                    break;
                }
                let Some(chunk) = batches.next() else {
                    sending = false;
                    break;
                };
                let sent = chunk.clone();
                let plan = match WritePlan::batch(
                    self.destination.clone(),
                    Batch::delete(&self.info.name, chunk),
                    self.info.key_names(),
                ) {
                    Ok(plan) => plan,
                    Err(error) => {
                        self.report.error = Some(error);
                        sending = false;
                        break;
                    }
                };
                let (connection, confirmed) = (self.connection.clone(), self.confirmed);
                flying
                    .spawn(async move { (sent, write::send(&connection, &plan, confirmed).await) });
            }
            let Some(done) = flying.join_next().await else {
                break;
            };
            let (sent, outcome) = done.unwrap_or_else(|e| {
                (
                    Vec::new(),
                    WriteOutcome::lost(Error::TaskDied {
                        op: "BatchWriteItem",
                        detail: e.to_string(),
                    }),
                )
            });
            if !self.report.count(&sent, outcome) {
                sending = false;
            }
            progress(&self.report);
        }
        // Keys read but never sent (a stop after a refusal or a cancel) were not deleted.
        let settled = self.report.deleted + self.report.not_deleted + self.report.unknown;
        let unsent = self.report.read.saturating_sub(settled);
        self.report.read -= unsent;
        go_on
            && !self.report.cancelled
            && self.report.error.is_none()
            && self.report.not_deleted == 0
    }
}

/// After a delete, update the tallies `counted` said it would leave too high: each parent's
/// children counted again and its tally set by the guarded repair (one question for all, off
/// this machine). Per rule, the repair's run, or why it could not be made.
pub(crate) async fn repair_tallies(
    connection: &Connection,
    info: &TableInfo,
    counted: &PurgeCount,
    confirmed: bool,
    stop: &CancelToken,
) -> (Vec<(String, Result<RepairAll>)>, Vec<ParentRepaired>) {
    let drifting = counted.tallies.drifting();
    let mut parents = Vec::new();
    let mut rules: Vec<&tally::TallyRule> = Vec::new();
    for (rule, _, _) in &drifting {
        if !rules.contains(rule) {
            rules.push(rule);
        }
    }
    let mut runs = Vec::new();
    for rule in rules {
        let mut checks = Vec::new();
        let mut failed = None;
        for (_, pk, _) in drifting.iter().filter(|(r, _, _)| *r == rule) {
            let checked = match info.partition.kind.parse(pk) {
                Ok(partition) => {
                    tally::check_partition(&connection.reader(), info, rule, partition).await
                }
                Err(error) => Err(error),
            };
            match checked {
                Ok((check, _)) => checks.push(check),
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
        }
        let run = match failed {
            Some(error) => Err(error),
            None => {
                tally::repair_all(connection, info, rule, &checks, confirmed, stop, |_, _| {}).await
            }
        };
        if let Ok(all) = &run {
            let deleted_of = |pk: &str| {
                (drifting.iter())
                    .find(|(r, p, _)| *r == rule && *p == pk)
                    .map_or(0, |(_, _, n)| *n)
            };
            parents.extend(ParentRepaired::of(&rule.tally, all, deleted_of));
        }
        runs.push((rule.tally.clone(), run));
    }
    (runs, parents)
}
