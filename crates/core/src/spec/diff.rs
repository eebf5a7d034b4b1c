//! A comparison of two tables as asked, the same for the CLI and the MCP server: one partition
//! or every item, and, under a tally rule, the counters instead of the items.

use serde::{Deserialize, Serialize};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::diff::{DiffScope, TableDiff, TallyDiff, compare_tallies, diff};
use crate::error::{Error, Result};
use crate::read::describe_table;
use crate::report::Report;
use crate::spec::{PlanChoice, RuleSpec, TallySpec};
use crate::table::TableInfo;

/// Two tables to compare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffSpec {
    /// Side A's table.
    pub table: String,
    /// Side B's table.
    pub to_table: String,
    /// One partition's key value; absent: every item.
    #[serde(default)]
    pub pk: Option<String>,
    /// A tally rule: compare every parent's tally and counted children instead of the items.
    #[serde(default)]
    pub rule: Option<RuleSpec>,
}

impl DiffSpec {
    /// What is compared.
    pub fn scope(&self) -> DiffScope {
        match &self.pk {
            Some(pk) => DiffScope::Partition(pk.clone()),
            None => DiffScope::Table,
        }
    }

    /// Compare side `a` (a connection and this spec's table, described) with side `b` (its
    /// `to_table`), as the items or, under a rule, as the counters; refused in words before
    /// anything is read when the asking does not hold together.
    pub async fn run(
        &self,
        a: (&Connection, &TableInfo),
        b: (&Connection, &TableInfo),
        stop: &CancelToken,
    ) -> Result<Box<dyn Report + Send>> {
        Ok(match self.compare(a, b, stop).await? {
            Compared::Items(diff) => diff,
            Compared::Tallies(diff) => Box::new(diff),
        })
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

    /// [`run`](Self::run), its result kept as what it is (for a front end that lays the two
    /// sides out side by side).
    pub async fn compare(
        &self,
        a: (&Connection, &TableInfo),
        b: (&Connection, &TableInfo),
        stop: &CancelToken,
    ) -> Result<Compared> {
        let Some(rule) = &self.rule else {
            return Ok(Compared::Items(Box::new(
                diff(a, b, &self.scope(), stop).await?,
            )));
        };
        if self.pk.is_some() {
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

/// What a comparison found: two tables' items, or their counters.
#[derive(Debug)]
pub enum Compared {
    /// The items compared by key.
    Items(Box<TableDiff>),
    /// The counters compared by parent.
    Tallies(TallyDiff),
}
