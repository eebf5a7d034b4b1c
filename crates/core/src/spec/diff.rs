//! A comparison of two tables as asked, the same for the CLI and the MCP server: one partition
//! or every item, and, under a tally rule, the counters instead of the items.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::diff::{DiffScope, Source, TableDiff, TallyDiff, compare_tallies, diff, diff_sources};
use crate::error::{Error, Result};
use crate::read::describe_table;
use crate::report::Report;
use crate::spec::{KeySpec, PlanChoice, RuleSpec, TallySpec};
use crate::table::TableInfo;

/// Two tables to compare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffSpec {
    /// Side A's table.
    pub table: String,
    /// Side B's table.
    pub to_table: String,
    /// One partition's key value; absent (and no keys): every item.
    #[serde(default)]
    pub pk: Option<String>,
    /// Only these items, by key (at most 100): each read by key on both sides.
    #[serde(default)]
    pub keys: Vec<KeySpec>,
    /// A tally rule: compare every parent's tally and counted children instead of the items.
    #[serde(default)]
    pub rule: Option<RuleSpec>,
    /// Side A is this export's file or folder (S3 export format) instead of the table (the
    /// table gives the key). The shell's alone: an agent does not name files to read.
    #[serde(skip)]
    #[schemars(skip)]
    pub from_export: Option<PathBuf>,
    /// Side B is this export's file or folder instead of `to_table`.
    #[serde(skip)]
    #[schemars(skip)]
    pub to_export: Option<PathBuf>,
}

impl DiffSpec {
    /// What is compared, the keys checked against side A's table: one scope at most.
    pub fn scope(&self, info: &TableInfo) -> Result<DiffScope> {
        match (&self.pk, self.keys.as_slice()) {
            (Some(_), [_, ..]) => Err(Error::Invalid(
                "compare one partition or a list of keys, not both".into(),
            )),
            (Some(pk), []) => Ok(DiffScope::Partition(pk.clone())),
            (None, []) => Ok(DiffScope::Table),
            (None, keys) if keys.len() > MAX_KEYS => Err(Error::Invalid(format!(
                "at most {MAX_KEYS} keys are compared by key ({} given): compare the partition \
                 or the whole table instead",
                keys.len()
            ))),
            (None, keys) => {
                let planned = keys.iter().map(|k| k.plan(info).map_err(Error::from));
                Ok(DiffScope::Keys(planned.collect::<Result<_>>()?))
            }
        }
    }

    /// Compare this spec's table on `a` with its `to_table` on `b`, each described first (one
    /// DescribeTable a side), for a front end holding only the two connections.
    pub async fn compare_on(
        &self,
        a: &Connection,
        b: &Connection,
        stop: &CancelToken,
    ) -> Result<Compared> {
        let info_a = describe_table(&a.reader(), &self.table).await?;
        let info_b = describe_table(&b.reader(), &self.to_table).await?;
        self.compare((a, &info_a), (b, &info_b), stop).await
    }

    /// Compare side `a` (a connection and this spec's table, described) with side `b` (its
    /// `to_table`), as the items or, under a rule, as the counters; refused in words before
    /// anything is read when the asking does not hold together.
    pub async fn compare(
        &self,
        a: (&Connection, &TableInfo),
        b: (&Connection, &TableInfo),
        stop: &CancelToken,
    ) -> Result<Compared> {
        if self.from_export.is_some() || self.to_export.is_some() {
            return self.compare_exports(a, b, stop).await;
        }
        let Some(rule) = &self.rule else {
            let scope = self.scope(a.1)?;
            return Ok(Compared::Items(Box::new(diff(a, b, &scope, stop).await?)));
        };
        if self.pk.is_some() || !self.keys.is_empty() {
            return Err(Error::Invalid(
                "counters are compared over every parent: leave the partition key out".into(),
            ));
        }
        let spec = TallySpec {
            table: self.table.clone(),
            pk: None,
            rule: rule.clone(),
            plan: PlanChoice::Auto,
            concurrency: 8,
        };
        let tally_rule = spec.rule.tally_rule()?;
        let (_, plan) = spec.reconcile_plan(a.1)?;
        Ok(Compared::Tallies(
            compare_tallies(a, b, &tally_rule, plan, stop).await?,
        ))
    }
}

impl DiffSpec {
    /// Either side an export's files: every item compared, the export read from disk.
    async fn compare_exports(
        &self,
        a: (&Connection, &TableInfo),
        b: (&Connection, &TableInfo),
        stop: &CancelToken,
    ) -> Result<Compared> {
        if self.pk.is_some() || !self.keys.is_empty() || self.rule.is_some() {
            return Err(Error::Invalid(
                "an export is compared whole, item by item: leave the partition, the keys and \
                 the rule out (check --from-export reconciles an export's counters)"
                    .into(),
            ));
        }
        let pricing = a.0.pricing(a.1);
        let side_a = match &self.from_export {
            Some(path) => Source::Export(path, &pricing, a.0),
            None => Source::Live(a.0, a.1),
        };
        let side_b = match &self.to_export {
            Some(path) => Source::Export(path, &pricing, b.0),
            None => Source::Live(b.0, b.1),
        };
        let found = diff_sources(side_a, side_b, a.1, stop).await?;
        Ok(Compared::Items(Box::new(found)))
    }
}

/// The most keys one comparison reads by key.
pub(super) const MAX_KEYS: usize = 100;

/// Two tables' counters to compare, parent by parent, under one tally rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareTalliesSpec {
    /// Side A's table.
    pub table: String,
    /// Side B's table.
    pub to_table: String,
    /// The tally rule.
    pub rule: RuleSpec,
}

impl CompareTalliesSpec {
    /// The comparison it asks for.
    pub fn diff_spec(&self) -> DiffSpec {
        DiffSpec {
            table: self.table.clone(),
            to_table: self.to_table.clone(),
            pk: None,
            keys: Vec::new(),
            rule: Some(self.rule.clone()),
            from_export: None,
            to_export: None,
        }
    }
}

/// What a comparison found: two tables' items, or their counters; its document is the one
/// it holds.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Compared {
    /// The items compared by key.
    Items(Box<TableDiff>),
    /// The counters compared by parent.
    Tallies(TallyDiff),
}

impl Compared {
    /// The report it holds.
    fn report(&self) -> &dyn Report {
        match self {
            Self::Items(diff) => diff.as_ref(),
            Self::Tallies(diff) => diff,
        }
    }
}

impl Report for Compared {
    fn lines(&self) -> Vec<crate::report::Line> {
        self.report().lines()
    }

    fn ending(&self) -> crate::ending::Ending {
        self.report().ending()
    }

    fn failure(&self) -> Option<&crate::error::Error> {
        self.report().failure()
    }

    fn listing(&self) -> Option<crate::report::Listing> {
        self.report().listing()
    }

    fn result(&self) -> Vec<String> {
        self.report().result()
    }
}
