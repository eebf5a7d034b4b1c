//! Reconciling many parents: where they come from, checking them `concurrency` at a time with a
//! cancel, the results sorted by severity with running totals, and the export of them.

use std::collections::HashSet;
use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::sync::Semaphore;

use crate::cancel::CancelToken;
use crate::condition::{FilterClause, FilterOp, SortOp};
use crate::connection::Reader;
use crate::cost::Pricing;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::read::{self, BrowseMode, BrowseRequest, Until};
use crate::table::TableInfo;
use crate::tally::plan::{ParentSource, PassRead, ReconcilePlan, scan_method, scan_pass};
use crate::tally::{Checked, ParentCheck, TallyRule, check_parent, load_parent_costed};
use crate::value::{Item, whole_text};

/// The parents `rule` names, from `source`, and what reading them cost.
pub async fn find_parents(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    cancel: &CancelToken,
) -> Result<(Vec<Item>, PassRead)> {
    let sort_name = info
        .sort
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let is_parent = |item: &Item| rule.parents.matches(item, &info.partition.name, &sort_name);
    let request = match source {
        ParentSource::Loaded(items) => {
            let parents = items.items().filter(|i| is_parent(i)).collect();
            return Ok((parents, PassRead::default()));
        }
        ParentSource::Scan => {
            let mut request = BrowseRequest::scan(info, None)?;
            request.filter.push(FilterClause {
                attribute: sort_name.clone(),
                op: FilterOp::Sort(SortOp::Eq),
                values: vec![AttributeValue::S(rule.parents.sort_key.clone())],
            });
            if !rule.parents.partition_prefix.is_empty() {
                request.filter.push(FilterClause {
                    attribute: info.partition.name.clone(),
                    op: FilterOp::Sort(SortOp::BeginsWith),
                    values: vec![AttributeValue::S(rule.parents.partition_prefix.clone())],
                });
            }
            request
        }
        ParentSource::IndexQuery { index, partition } => {
            BrowseRequest::query(info, Some(index), partition.clone(), None, true)?
        }
    };
    let (mut parents, mut cost) = (Vec::new(), PassRead::default());
    read::read_pages(reader, &request, None, Until::LastPage, cancel, |page| {
        // Items read, the ones a filter dropped included.
        cost.items += u64::try_from(page.scanned_count).unwrap_or_default();
        cost.pages += 1;
        cost.rcu += page.consumed_rcu;
        parents.extend(page.items.into_iter().filter(|i| is_parent(i)));
    })
    .await?;
    // An index may hold only keys: read each parent for its tally.
    if matches!(request.mode, BrowseMode::Query { .. })
        && parents.iter().any(|p| !p.contains_key(&rule.tally))
    {
        let mut full = Vec::with_capacity(parents.len());
        for parent in parents {
            match parent.get(&info.partition.name).cloned() {
                Some(pk) => {
                    let (read, rcu) = load_parent_costed(reader, info, rule, pk).await?;
                    cost.rcu += rcu;
                    full.extend(read);
                }
                None => full.push(parent),
            }
        }
        parents = full;
    }
    Ok((parents, cost))
}

/// What a reconcile run reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ReconcileEvent {
    /// How the run reads, in words (`one pass (a parallel scan in 8 segments)`), and what
    /// each plan was estimated to cost (none for an export, which reads no table).
    Planned {
        /// The plan in words.
        plan: String,
        /// The estimate, a line each.
        estimate: Vec<String>,
    },
    /// Words about what is read (an export's files, what was skipped), said as they come.
    Noted(String),
    /// Items read to find the parents, or in a one pass (counted into the totals' RCU).
    Read(PassRead),
    /// The parents were found; this many will be checked.
    Found(usize),
    /// One parent checked, or why it could not be.
    Checked(Box<Result<ParentCheck>>),
}

/// Check the parents `rule` names in `source` as `plan` says, reporting through `on_event` as
/// results arrive. Per parent: the parents are found, then each checked, `concurrency` at a
/// time; `cancel` stops starting new checks and the finished ones are kept. One pass: every
/// item is read once in a parallel scan, then every parent (of those `source` names) is
/// reported; a cancelled pass reports none. Returns whether the run was cancelled.
pub async fn reconcile(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    plan: ReconcilePlan,
    cancel: &CancelToken,
    mut on_event: impl FnMut(ReconcileEvent),
) -> Result<bool> {
    let concurrency = match plan {
        ReconcilePlan::PerParent { concurrency } => concurrency,
        ReconcilePlan::OnePass { segments } => {
            return reconcile_in_one_pass(reader, info, rule, source, segments, cancel, on_event)
                .await;
        }
    };
    let (parents, cost) = find_parents(reader, info, rule, source, cancel).await?;
    on_event(ReconcileEvent::Read(cost));
    on_event(ReconcileEvent::Found(parents.len()));
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut stopped = false;
    for parent in parents {
        if cancel.is_cancelled() {
            stopped = true;
            break;
        }
        // Wait for a free slot, handing finished results on meanwhile.
        let permit = loop {
            if let Ok(permit) = Arc::clone(&permits).try_acquire_owned() {
                break permit;
            }
            match tasks.join_next().await {
                Some(done) => on_event(ReconcileEvent::Checked(Box::new(flatten(done)))),
                None => {
                    if let Ok(permit) = Arc::clone(&permits).acquire_owned().await {
                        break permit;
                    }
                }
            }
        };
        let (reader, info, rule) = (reader.clone(), info.clone(), rule.clone());
        tasks.spawn(async move {
            let _permit = permit;
            check_parent(&reader, &info, &rule, &parent).await
        });
    }
    while let Some(done) = tasks.join_next().await {
        on_event(ReconcileEvent::Checked(Box::new(flatten(done))));
    }
    Ok(stopped || cancel.is_cancelled())
}

/// The one-pass plan of [`reconcile`].
async fn reconcile_in_one_pass(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    segments: usize,
    cancel: &CancelToken,
    mut on_event: impl FnMut(ReconcileEvent),
) -> Result<bool> {
    // Only the parents the source names, when it names fewer than all.
    let only: Option<HashSet<String>> = match source {
        ParentSource::Scan => None,
        other => {
            let (parents, cost) = find_parents(reader, info, rule, other, cancel).await?;
            on_event(ReconcileEvent::Read(cost));
            let keys = parents.iter().filter_map(|p| p.get(&info.partition.name));
            Some(keys.map(whole_text).collect())
        }
    };
    let pass = scan_pass(reader, info, rule, segments, cancel, |read| {
        on_event(ReconcileEvent::Read(read));
    })
    .await?;
    let Some(mut pass) = pass else {
        return Ok(true);
    };
    if let Some(only) = &only {
        pass.keep_parents(|partition| only.contains(partition));
    }
    let checks: Vec<Result<ParentCheck>> = pass.finish(info, &scan_method(info, segments));
    on_event(ReconcileEvent::Found(checks.len()));
    for check in checks {
        on_event(ReconcileEvent::Checked(Box::new(check)));
    }
    Ok(cancel.is_cancelled())
}

fn flatten(
    done: std::result::Result<Result<ParentCheck>, tokio::task::JoinError>,
) -> Result<ParentCheck> {
    done.unwrap_or_else(|e| {
        Err(Error::TaskDied {
            op: "Query",
            detail: e.to_string(),
        })
    })
}

/// A whole reconcile's results: the parents checked, those that could not be (each with why:
/// a tally that is not a number, a count that failed), and whether it was cancelled.
#[derive(Debug, Default)]
pub struct Reconciled {
    /// The parents checked, most severe first, with totals.
    pub checked: Checked,
    /// The parents that could not be checked, in the order they failed.
    pub failures: Vec<Error>,
    /// Whether the run was cancelled (what was checked before is kept).
    pub cancelled: bool,
}

impl Reconciled {
    /// Take in one parent's result.
    pub fn add(&mut self, result: Result<ParentCheck>) {
        match result {
            Ok(check) => self.checked.add(check),
            Err(error) => self.failures.push(error),
        }
    }

    /// How the run ended: done when every parent was checked and matches; refused when any
    /// drifted, any parent's data could not be checked (a tally that is not a number), or no
    /// parent matched the rule at all; an error when a read failed for a parent.
    pub fn ending(&self) -> Ending {
        if self
            .failures
            .iter()
            .any(|e| !matches!(e, Error::Invalid(_)))
        {
            Ending::BadInput
        } else if self.checked.totals.drifted > 0
            || !self.failures.is_empty()
            || self.checked.checks.is_empty()
        {
            Ending::Refused
        } else {
            Ending::Done
        }
    }

    /// Every parent checked as a row: `pk`, `stored`, `counted`, `drift` (each row's object the
    /// one the CLI's `--json` prints a line of, and the MCP server answers in its list).
    pub fn listing(&self, pricing: &Pricing) -> crate::report::Listing {
        let objects = (self.checked.checks.iter())
            .map(|check| check.to_json(pricing))
            .collect();
        let keys = ["pk", "stored", "counted", "drift"];
        crate::report::Listing::of_objects(objects, &keys, Vec::new())
    }

    /// The totals in one line, the parents that could not be checked included.
    pub fn summary(&self) -> String {
        let summary = self.checked.summary();
        match self.failures.len() {
            0 => summary,
            n => format!(
                "{summary} · {} not checked",
                crate::report::plural(n, "parent")
            ),
        }
    }
}

/// [`reconcile`] of every parent of the table, every result gathered into one [`Reconciled`]:
/// what the CLI's `check --all` and the MCP server's `reconcile` report. A parent that cannot
/// be checked is listed and the run goes on.
pub async fn reconcile_checked(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    plan: ReconcilePlan,
    cancel: &CancelToken,
) -> Result<Reconciled> {
    let mut all = Reconciled::default();
    all.cancelled = reconcile(
        reader,
        info,
        rule,
        &ParentSource::Scan,
        plan,
        cancel,
        |event| match event {
            ReconcileEvent::Checked(result) => all.add(*result),
            ReconcileEvent::Read(read) => all.checked.add_read(&read),
            ReconcileEvent::Planned { .. }
            | ReconcileEvent::Noted(_)
            | ReconcileEvent::Found(_) => {}
        },
    )
    .await?;
    Ok(all)
}
