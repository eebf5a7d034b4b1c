//! The one reconcile job, for the app, the CLI and the MCP server alike: the plan (one pass or
//! per parent, how many at once) made here from the spec, its estimate, the parents checked as
//! they arrive (events a front end draws or prints), then one report — every parent, the worst
//! drifts, the parents not checked, the totals, and the repair of the drifted when asked for.
//! Its document is what the CLI's `check --all --json` prints and the MCP server's `reconcile`
//! answers, value for value.

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::ending::Ending;
use crate::error::document::ErrorDocument;
use crate::error::{Error, Result};
use crate::report::{Line, Listing, Report, Tone};
use crate::spec::TallySpec;
use crate::spec::{ReconcileDocument, RepairAllDocument};
use crate::table::TableInfo;
use crate::tally::{
    self, ExportAt, ParentDocument, ParentSource, PassRead, ReconcileEvent, ReconcilePlan,
    Reconciled, RepairAll, TotalsDocument,
};
use crate::transfer::{S3Location, StreamProgress};

/// The drifted parents (and those not checked) a document lists, the worst first; the totals
/// count them all, and the CLI's `--output jsonl` prints every parent.
pub(crate) const MAX_LISTED: usize = 100;

/// Where a reconcile finds its parents.
#[derive(Debug, Clone)]
pub enum ReconcileFrom {
    /// Reads of the table: every parent (a Scan, or one pass over every item), the parents
    /// among rows already read, or those an index query finds.
    Table(ParentSource),
    /// The files of a DynamoDB export here, or its objects in S3: no request to the table, no
    /// read capacity.
    Export(ExportAt),
}

/// A reconcile, finished or stopped.
#[derive(Debug)]
pub struct ReconcileRun {
    /// The table reconciled.
    pub table: String,
    /// How it read, in words.
    pub plan: String,
    /// What each plan was estimated to cost, a line each (none for an export).
    pub estimate: Vec<String>,
    /// Every parent's check, those that could not be checked, and whether it was stopped.
    pub all: Reconciled,
    /// What the table's reads and writes cost.
    pub pricing: Pricing,
    /// The repair of every drifted parent, when it was asked for.
    pub repair: Option<RepairAll>,
}

impl TallySpec {
    /// How a reconcile of every parent reads: the estimate of each plan over `info`'s table,
    /// and the plan the spec's choice and concurrency make of it (auto: the cheaper).
    pub fn reconcile_plan(&self, info: &TableInfo) -> Result<(tally::Estimate, ReconcilePlan)> {
        self.plan_for(info, &ParentSource::Scan)
    }

    /// [`reconcile_plan`](Self::reconcile_plan) for the parents `source` names.
    fn plan_for(
        &self,
        info: &TableInfo,
        source: &ParentSource,
    ) -> Result<(tally::Estimate, ReconcilePlan)> {
        let at_once = self.at_once()?;
        let estimate = tally::estimate(info, source);
        let plan = self.plan.plan(at_once, estimate.plan(at_once));
        Ok((estimate, plan))
    }

    /// Reconcile every parent of the rule on `info`'s table that `from` names, telling
    /// `on_event` how it reads and each parent's check as it arrives. A stop keeps what was
    /// checked (`all.cancelled`); [`ReconcileRun::finished`] makes that an error for a front end
    /// that reports only whole runs.
    pub async fn reconcile_job(
        &self,
        connection: &Connection,
        info: &TableInfo,
        from: &ReconcileFrom,
        stop: &CancelToken,
        mut on_event: impl FnMut(ReconcileEvent) + Send,
    ) -> Result<ReconcileRun> {
        if self.pk.is_some() {
            return Err(Error::Invalid(
                "a reconcile checks every parent: leave the partition key out (a check of one \
                 parent takes it)"
                    .into(),
            ));
        }
        let rule = self.rule.tally_rule()?;
        let pricing = connection.pricing(info);
        let mut all = Reconciled::default();
        let (plan, estimate) = match from {
            ReconcileFrom::Table(source) => {
                let (estimate, plan) = self.plan_for(info, source)?;
                let (label, lines) = (plan.label(), estimate.lines(&info.name, &pricing));
                on_event(planned(&label, &lines));
                let reader = connection.reader();
                let on_read = |event| take(&mut all, event, &mut on_event);
                let stopped = tally::reconcile(&reader, info, &rule, source, plan, stop, on_read);
                all.cancelled = stopped.await?;
                (label, lines)
            }
            ReconcileFrom::Export(export) => {
                let label = export_plan(&export.location);
                on_event(planned(&label, &[]));
                let read = export_checks(connection, info, &rule, export, stop, &mut on_event);
                let (checks, stopped) = read.await?;
                for check in checks {
                    all.add(check);
                }
                all.cancelled = stopped;
                (label, Vec::new())
            }
        };
        Ok(ReconcileRun {
            table: info.name.clone(),
            plan,
            estimate,
            all,
            pricing,
            repair: None,
        })
    }

    /// [`reconcile_job`](Self::reconcile_job) of every parent of the table (a Scan or one pass),
    /// whole: a stop ends it as cancelled. What the MCP server's `reconcile` answers.
    pub async fn reconcile(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<ReconcileRun> {
        let from = ReconcileFrom::Table(ParentSource::Scan);
        let run = self.reconcile_job(connection, info, &from, stop, |_| {});
        run.await?.finished()
    }
}

/// The plan's event.
fn planned(plan: &str, estimate: &[String]) -> ReconcileEvent {
    ReconcileEvent::Planned {
        plan: plan.to_owned(),
        estimate: estimate.to_vec(),
    }
}

/// Take in one event of the table's reads, and hand it on.
fn take(all: &mut Reconciled, event: ReconcileEvent, on_event: &mut impl FnMut(ReconcileEvent)) {
    match &event {
        ReconcileEvent::Read(read) => all.checked.add_read(read),
        ReconcileEvent::Checked(check) => all.add((**check).clone()),
        _ => {}
    }
    on_event(event);
}

/// How a reconcile from an export reads, in words.
fn export_plan(location: &str) -> String {
    if matches!(S3Location::parse(location), Ok(Some(_))) {
        "one pass over the export's objects in S3".to_owned()
    } else {
        "one pass over the export's files".to_owned()
    }
}

/// The checks of every parent in `export`, said as events as they are read: the items read
/// (progress), what was read and skipped (words), then each parent's check. The checks, and
/// whether it was stopped.
async fn export_checks(
    connection: &Connection,
    info: &TableInfo,
    rule: &tally::TallyRule,
    export: &ExportAt,
    stop: &CancelToken,
    on_event: &mut impl FnMut(ReconcileEvent),
) -> Result<(Vec<Result<tally::ParentCheck>>, bool)> {
    // The export is read on a thread of its own: its progress comes back as the latest count.
    let (seen, mut latest) = tokio::sync::watch::channel(0_u64);
    let on_progress = move |read: StreamProgress| {
        seen.send_replace(read.items);
    };
    let table = tally::RuledTable { info, rule };
    let checked = tally::check_export_at(connection, table, export, stop, on_progress);
    tokio::pin!(checked);
    let mut told = 0_u64;
    let mut read_items = |items: u64, on_event: &mut dyn FnMut(ReconcileEvent)| {
        on_event(ReconcileEvent::Read(PassRead {
            items: items.saturating_sub(told),
            ..PassRead::default()
        }));
        told = told.max(items);
    };
    let read = loop {
        tokio::select! {
            read = &mut checked => break read?,
            changed = latest.changed() => {
                if changed.is_err() {
                    break (&mut checked).await?;
                }
                let items = *latest.borrow_and_update();
                read_items(items, on_event);
            }
        }
    };
    read_items(read.read.items, on_event);
    for skipped in &read.skipped {
        on_event(ReconcileEvent::Noted(skipped.clone()));
    }
    on_event(ReconcileEvent::Noted(read.source_line()));
    for source in &read.sources {
        on_event(ReconcileEvent::Noted(format!("  {source}")));
    }
    on_event(ReconcileEvent::Noted(read.read_line()));
    let Some(checks) = read.checks else {
        return Ok((Vec::new(), true));
    };
    on_event(ReconcileEvent::Found(checks.len()));
    for check in &checks {
        on_event(ReconcileEvent::Checked(Box::new(check.clone())));
    }
    Ok((checks, false))
}

impl ReconcileRun {
    /// The run if it finished; a stopped run is the error `cancelled`, after which a front end
    /// that shows only whole runs says nothing else.
    pub fn finished(self) -> Result<Self> {
        if self.all.cancelled {
            return Err(Error::Cancelled { op: "reconcile" });
        }
        Ok(self)
    }

    /// Repair every drifted parent (`confirmed`: the user agreed to the one question of
    /// `tally::repair_all_confirmation` beforehand), each checked again afterwards; the report
    /// then holds the repairs, and its checks are the ones made after them.
    pub async fn repair(
        &mut self,
        connection: &Connection,
        info: &TableInfo,
        spec: &TallySpec,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<()> {
        if self.all.checked.totals.drifted == 0 {
            return Ok(());
        }
        let rule = spec.rule.tally_rule()?;
        let checks = &self.all.checked.checks;
        let repaired =
            tally::repair_all(connection, info, &rule, checks, confirmed, stop, |_, _| {}).await?;
        for (_, report) in &repaired.reports {
            if let Ok((check, _)) = &report.recheck {
                self.all.checked.replace(check.clone());
            }
        }
        self.repair = Some(repaired);
        Ok(())
    }

    /// The run's one document.
    pub fn document(&self) -> ReconcileDocument {
        let checked = &self.all.checked;
        ReconcileDocument {
            plan: self.plan.clone(),
            estimate: self.estimate.clone(),
            parents: checked.checks.len(),
            // The worst first (as checked sorts them): the totals count them all.
            drifted: (checked.checks.iter())
                .filter(|c| c.drifted())
                .take(MAX_LISTED)
                .map(|c| ParentDocument::of(c, &self.pricing))
                .collect(),
            not_checked: (self.all.failures.iter().take(MAX_LISTED))
                .map(ErrorDocument::from)
                .collect(),
            totals: TotalsDocument::of(&self.all, &self.pricing),
            summary: self.all.summary(),
            repair: (self.repair.as_ref()).map(|all| RepairAllDocument::of(all, &self.pricing)),
        }
    }
}

crate::document_as!(ReconcileRun => ReconcileDocument, document);

impl ReconcileRun {
    /// The repair in one line, when there was one: `Repair: 3 parents repaired.`
    fn repair_line(&self) -> Option<Line> {
        let repair = self.repair.as_ref()?;
        Some(Line::new(
            Tone::Quiet,
            format!("Repair: {}.", repair.summary()),
        ))
    }
}

impl Report for ReconcileRun {
    /// Every parent checked, a line each; the parents not checked; the repairs; the summary.
    fn lines(&self) -> Vec<Line> {
        let checks = &self.all.checked.checks;
        let mut lines: Vec<Line> = (checks.iter())
            .map(|c| {
                let tone = if c.drifted() { Tone::Warn } else { Tone::Plain };
                Line::new(tone, c.line())
            })
            .collect();
        let failures = self.all.failures.iter();
        lines.extend(failures.map(|f| Line::new(Tone::Bad, format!("error\t{f}"))));
        if let Some(repair) = &self.repair {
            lines.extend(repair.reports.iter().map(|(pk, report)| {
                let line = report.line();
                Line::new(line.tone, format!("{pk}\trepair: {}", line.text))
            }));
        }
        lines.extend(self.repair_line());
        lines.push(Line::new(Tone::Figure, self.all.summary()));
        if checks.is_empty() && self.all.failures.is_empty() {
            // No drift found is not a tally that matches: a typo in a prefix or a sort key.
            lines.push(Line::new(Tone::Warn, NOTHING_MATCHED));
        }
        lines
    }

    /// Every parent checked as a row (`pk`, `stored`, `counted`, `drift`; each row's object
    /// the one the document lists a drifted parent as), the parents not checked and the
    /// summary beside them.
    fn listing(&self) -> Option<Listing> {
        let mut listing = self.all.listing(&self.pricing);
        listing.summary = (self.all.failures.iter())
            .map(|f| Line::new(Tone::Bad, format!("not checked: {f}")))
            .chain(self.repair_line())
            .chain([Line::new(Tone::Figure, self.all.summary())])
            .collect();
        Some(listing)
    }

    /// Refused when any parent drifted or could not be checked, or none matched the rule; with
    /// a repair, the gravest of the repairs and of the parents still unchecked.
    fn ending(&self) -> Ending {
        match &self.repair {
            None => self.all.ending(),
            Some(repair) if self.all.failures.is_empty() => repair.ending(),
            Some(repair) => repair.ending().graver(self.all.ending()),
        }
    }
}

/// Said when no parent matched the rule.
const NOTHING_MATCHED: &str = "no parent matched the rule, so nothing was checked (look at the \
     parents' sort key and prefix, and the tally)";
