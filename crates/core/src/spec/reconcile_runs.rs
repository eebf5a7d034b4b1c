//! Every parent of a rule reconciled from its spec: the plan (one pass or per parent, and how
//! many at once) made in one place for the CLI and the MCP server, and the answer an agent gets
//! — the worst drifts, the parents that could not be checked, and the totals object the CLI's
//! `check --all --json` ends with.

use serde_json::{Value, json};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Report, Tone};
use crate::spec::TallySpec;
use crate::table::TableInfo;
use crate::tally::{self, Estimate, ParentSource, ReconcilePlan, Reconciled};

/// The drifted parents (and those not checked) an answer lists, the worst first; the totals
/// count them all.
pub(crate) const MAX_LISTED: usize = 100;

/// A reconcile of every parent, finished.
#[derive(Debug)]
pub struct ReconcileRun {
    /// The table reconciled.
    pub table: String,
    /// How it read.
    pub plan: ReconcilePlan,
    /// What the plans were estimated to cost.
    pub estimate: Estimate,
    /// Every parent's check, and those that could not be checked.
    pub all: Reconciled,
    /// What the table's reads cost.
    pub pricing: Pricing,
}

impl TallySpec {
    /// How a reconcile of every parent reads: the estimate of each plan over `info`'s table,
    /// and the plan the spec's choice and concurrency make of it (auto: the cheaper).
    pub fn reconcile_plan(&self, info: &TableInfo) -> Result<(Estimate, ReconcilePlan)> {
        let at_once = self.at_once()?;
        let estimate = tally::estimate(info, &ParentSource::Scan);
        let plan = self.plan.plan(at_once, estimate.plan(at_once));
        Ok((estimate, plan))
    }

    /// Reconcile every parent of the rule on `info`'s table; a stop ends it as cancelled.
    pub async fn reconcile(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<ReconcileRun> {
        if self.pk.is_some() {
            return Err(Error::Invalid(
                "a reconcile checks every parent: leave the partition key out (a check of one \
                 parent takes it)"
                    .into(),
            ));
        }
        let rule = self.rule.tally_rule()?;
        let (estimate, plan) = self.reconcile_plan(info)?;
        let reader = connection.reader();
        let all = tally::reconcile_checked(&reader, info, &rule, plan, stop).await?;
        if all.cancelled {
            return Err(Error::Cancelled { op: "reconcile" });
        }
        Ok(ReconcileRun {
            table: info.name.clone(),
            plan,
            estimate,
            all,
            pricing: connection.pricing(info),
        })
    }
}

impl Report for ReconcileRun {
    /// The plan and its estimate, the worst drifts, the parents not checked, the summary.
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Title,
            format!("Plan: {}.", self.plan.label()),
        )];
        let estimate = self.estimate.lines(&self.table, &self.pricing);
        lines.extend(
            estimate
                .into_iter()
                .map(|text| Line::new(Tone::Quiet, text)),
        );
        let checks = &self.all.checked.checks;
        lines.extend(
            checks
                .iter()
                .filter(|c| c.drifted())
                .take(MAX_LISTED)
                .map(|c| Line::new(Tone::Warn, c.line())),
        );
        let failures = self.all.failures.iter().take(MAX_LISTED);
        lines.extend(failures.map(|f| Line::new(Tone::Bad, format!("error\t{f}"))));
        lines.push(Line::new(Tone::Figure, self.all.summary()));
        lines
    }

    fn to_json(&self) -> Value {
        let checked = &self.all.checked;
        // The worst first (as checked sorts them): the totals count them all.
        let drifted: Vec<Value> = checked
            .checks
            .iter()
            .filter(|c| c.drifted())
            .take(MAX_LISTED)
            .map(|c| c.to_json(&self.pricing))
            .collect();
        let not_checked: Vec<Value> = self
            .all
            .failures
            .iter()
            .take(MAX_LISTED)
            .map(Error::to_json)
            .collect();
        json!({
            "plan": self.plan.label(),
            "estimate": self.estimate.lines(&self.table, &self.pricing),
            "parents": checked.checks.len(),
            "drifted": drifted,
            "not_checked": not_checked,
            "totals": self.all.totals_json(&self.pricing),
            "summary": self.all.summary(),
        })
    }

    /// Refused when any parent drifted or could not be checked.
    fn ending(&self) -> Ending {
        self.all.ending()
    }
}
