//! One parent's drifted tally repaired from its spec, the same run for the CLI and the MCP
//! server: its children counted, the tally set to the count only if it still holds the value
//! read (a conditional `SET`, never sent blindly again), and the parent checked again.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cancel::{CancelToken, not_stopped, unless_stopped};
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::counter::EditReport;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Report, Tone};
use crate::spec::TallySpec;
use crate::table::TableInfo;
use crate::tally::{self, ParentCheck, ParentDocument, RepairReport};
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

    /// Refused when the tally drifted.
    fn ending(&self) -> Ending {
        if self.check.drifted() {
            Ending::Refused
        } else {
            Ending::Done
        }
    }
}

/// One parent's check as a document: the parent, and the verdict in words.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TallyCheckDocument {
    /// The parent checked.
    #[serde(flatten)]
    pub parent: ParentDocument,
    /// The verdict in words: whether the tally equals the children, or by how much it drifted.
    pub verdict: String,
}

impl TallyCheck {
    /// The check's document.
    pub fn document(&self) -> TallyCheckDocument {
        TallyCheckDocument {
            parent: ParentDocument::of(&self.check, &self.pricing),
            verdict: self.check.verdict(),
        }
    }
}

crate::document_as!(TallyCheck => TallyCheckDocument, document);

/// One parent's repair as a document: the check when nothing was sent, else the guarded `SET`
/// as a counter edit is said, with the repair in words and the check made after it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum TallyRepairDocument {
    /// The tally already equalled the children: nothing was sent.
    Agrees {
        /// The parent as checked.
        #[serde(flatten)]
        check: ParentDocument,
        /// Always `false`: nothing was repaired.
        repaired: bool,
        /// The verdict in words.
        line: String,
    },
    /// The guarded `SET` was sent.
    Sent {
        /// The edit sent, as `add` says an edit.
        #[serde(flatten)]
        edit: Box<EditReport>,
        /// The repair in words, with the check made after it.
        line: String,
        /// The parent checked again after the repair; `null` when it could not be.
        after: Option<ParentDocument>,
    },
}

impl TallyRepair {
    /// The repair's document.
    pub fn document(&self) -> TallyRepairDocument {
        match &self.sent {
            None => TallyRepairDocument::Agrees {
                check: ParentDocument::of(&self.check, &self.pricing),
                repaired: false,
                line: AGREES.to_owned(),
            },
            Some((edit, repair)) => TallyRepairDocument::Sent {
                edit: Box::new(edit.clone()),
                line: repair.line().text,
                after: (repair.recheck.as_ref().ok())
                    .map(|(check, _)| ParentDocument::of(check, &self.pricing)),
            },
        }
    }
}

crate::document_as!(TallyRepair => TallyRepairDocument, document);
