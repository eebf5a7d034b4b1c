//! One parent's drifted tally repaired from its spec, the same run for the CLI and the MCP
//! server: its children counted, the tally set to the count only if it still holds the value
//! read (a conditional `SET`, never sent blindly again), and the parent checked again.

use serde_json::{Value, json};

use crate::cancel::{CancelToken, not_stopped, unless_stopped};
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::counter::EditReport;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Report, Tone};
use crate::spec::TallySpec;
use crate::table::TableInfo;
use crate::tally::{self, ParentCheck, RepairReport};
use crate::write::Destination;

/// How a repair of one parent ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TallyRepair {
    /// The check made first.
    pub check: ParentCheck,
    /// What the table's reads and writes cost.
    pub pricing: Pricing,
    /// The conditional `SET` sent, as a counter edit is said, and the repair with the check
    /// made after it; `None` when the tally already equalled the children (nothing sent).
    pub sent: Option<(EditReport, RepairReport)>,
}

/// Said when a repair finds nothing to repair.
const AGREES: &str = "The tally equals the children: nothing to repair.";

impl TallySpec {
    /// Repair the tally of the one parent of `pk` on `info`'s table (`confirmed`: the user
    /// said yes beforehand); stopped before the write, nothing is sent.
    pub async fn repair(
        &self,
        connection: &Connection,
        info: &TableInfo,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<TallyRepair> {
        let rule = self.rule.tally_rule()?;
        let partition = self.one_partition(info)?;
        let reader = connection.reader();
        let checked = tally::check_partition(&reader, info, &rule, partition);
        let (check, _) = unless_stopped(stop, "Query", checked).await?;
        let pricing = connection.pricing(info);
        if !check.drifted() {
            // Done already (a repair asked again, or no drift): nothing is sent.
            return Ok(TallyRepair {
                check,
                pricing,
                sent: None,
            });
        }
        let plan = tally::repair_plan(&Destination::of(connection), info, &rule, &check)?;
        not_stopped(stop, "UpdateItem")?;
        let repair = tally::repair(connection, info, &rule, &plan, confirmed).await;
        let edit = EditReport {
            plan,
            outcome: repair.outcome.clone(),
            pricing: pricing.clone(),
        };
        Ok(TallyRepair {
            check,
            pricing,
            sent: Some((edit, repair)),
        })
    }
}

impl Report for TallyRepair {
    fn lines(&self) -> Vec<Line> {
        match &self.sent {
            None => vec![Line::new(Tone::Good, AGREES)],
            Some((_, repair)) => vec![repair.line()],
        }
    }

    /// The check (nothing repaired), or the edit with the line and the check after it.
    fn to_json(&self) -> Value {
        match &self.sent {
            None => {
                let mut value = self.check.to_json(&self.pricing);
                value["repaired"] = json!(false);
                value["line"] = json!(AGREES);
                value
            }
            Some((edit, repair)) => {
                let mut value = edit.to_json();
                value["line"] = json!(repair.line().text);
                value["after"] = repair
                    .recheck
                    .as_ref()
                    .map_or(json!(null), |(check, _)| check.to_json(&self.pricing));
                value
            }
        }
    }

    fn ending(&self) -> Ending {
        self.sent
            .as_ref()
            .map_or(Ending::Done, |(edit, _)| edit.ending())
    }

    fn failure(&self) -> Option<&Error> {
        self.sent.as_ref().and_then(|(edit, _)| edit.failure())
    }
}

/// One parent's tally checked against its counted children.
#[derive(Debug, Clone, PartialEq)]
pub struct TallyCheck {
    /// The check.
    pub check: ParentCheck,
    /// What the table's reads cost.
    pub pricing: Pricing,
}

impl TallySpec {
    /// Check the tally of the one parent of `pk` on `info`'s table; nothing is written.
    pub async fn check(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<TallyCheck> {
        let rule = self.rule.tally_rule()?;
        let partition = self.one_partition(info)?;
        let reader = connection.reader();
        let checked = tally::check_partition(&reader, info, &rule, partition);
        let (check, _) = unless_stopped(stop, "Query", checked).await?;
        Ok(TallyCheck {
            check,
            pricing: connection.pricing(info),
        })
    }
}

impl Report for TallyCheck {
    /// `POST#a91f\tstored 3\tcounted 3\tdrift 0`, then the verdict.
    fn lines(&self) -> Vec<Line> {
        let c = &self.check;
        let tone = if c.drifted() { Tone::Warn } else { Tone::Good };
        vec![
            Line::new(Tone::Figure, c.line()),
            Line::new(tone, c.verdict()),
        ]
    }

    fn to_json(&self) -> Value {
        let mut value = self.check.to_json(&self.pricing);
        value["verdict"] = json!(self.check.verdict());
        value
    }

    /// Refused when the tally drifted.
    fn ending(&self) -> Ending {
        if self.check.drifted() {
            Ending::Refused
        } else {
            Ending::Done
        }
    }
}
