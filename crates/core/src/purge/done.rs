//! A delete of many items as one run, the same for the app and the CLI: what the dry run counted
//! ([`CountedPurge`]), and then the delete with, when chosen, the repair of the tallies the deleted
//! children leave too high ([`PurgeRun`]) — said in one set of words and JSON keys.

use std::str::FromStr;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::purge::repaired::ParentRepairedDocument;
use crate::purge::{
    ParentRepaired, PurgeCount, PurgeReport, PurgeSource, purge, repair_tallies, repaired,
};
use crate::report::{Line, Report, Tone, capacity};
use crate::table::TableInfo;
use crate::tally::RepairAll;
use crate::value::{self, Item};

/// What happens to the tallies of parents whose counted children are deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TallyChoice {
    /// Count each parent again after the delete and set its tally (the guarded repair).
    Repair,
    /// Leave them too high.
    Leave,
}

impl FromStr for TallyChoice {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text.trim() {
            "repair" => Ok(Self::Repair),
            "leave" => Ok(Self::Leave),
            other => Err(Error::Invalid(format!(
                "`{other}` is not a choice for the tallies: repair or leave"
            ))),
        }
    }
}

/// What a dry run counted on a table, priced.
#[derive(Debug, Clone, PartialEq)]
pub struct CountedPurge {
    /// The count.
    pub count: PurgeCount,
    /// The table counted.
    pub table: String,
    /// Its key attributes, to show the first keys.
    pub key_names: Vec<String>,
    /// What its reads cost.
    pub pricing: Pricing,
}

impl CountedPurge {
    /// The count `count` of `info`'s table, priced by `connection`.
    pub fn new(count: PurgeCount, info: &TableInfo, connection: &Connection) -> Self {
        Self {
            count,
            table: info.name.clone(),
            key_names: info.key_names(),
            pricing: connection.pricing(info),
        }
    }

    /// The first keys, each in DynamoDB JSON.
    fn first_json(&self) -> Vec<Value> {
        self.count
            .first
            .iter()
            .map(|key| value::json::item_to_json(key, &self.key_names, value::Style::Typed))
            .collect()
    }

    /// Refused when the items are counted children and nothing says what becomes of their
    /// parents' tallies; nothing is deleted.
    pub fn check_choice(&self, choice: Option<TallyChoice>) -> Result<()> {
        if self.count.drifts() && choice.is_none() {
            return Err(Error::Invalid(
                "these items are counted children: choose what becomes of their parents' \
                 tallies, repair (count each parent again and set its tally after) or leave \
                 (they stay too high); nothing was deleted"
                    .to_owned(),
            ));
        }
        Ok(())
    }
}

/// What a purge's dry run counted.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CountedPurgeDocument {
    /// The items that would be deleted.
    pub(crate) items: u64,
    /// The first keys, each in DynamoDB JSON.
    pub(crate) first: Vec<Value>,
    /// The read capacity units counting consumed.
    pub(crate) rcu: f64,
    /// What deleting them does to the counters of the rules, a line each.
    pub(crate) tallies: Vec<String>,
}

impl CountedPurge {
    /// The count's document.
    pub(crate) fn document(&self) -> CountedPurgeDocument {
        CountedPurgeDocument {
            items: self.count.items,
            first: self.first_json(),
            rcu: self.count.rcu,
            tallies: self.count.tallies.deleted_lines(),
        }
    }
}

crate::document_as!(CountedPurge => CountedPurgeDocument, document);

impl Report for CountedPurge {
    /// The count, the first keys, the counters, and what counting read.
    fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = self
            .count
            .lines(&self.table, &self.key_names)
            .into_iter()
            .map(|text| Line::new(Tone::Plain, text))
            .collect();
        if let Some(first) = lines.first_mut() {
            first.tone = Tone::Title;
        }
        lines.push(Line::new(
            Tone::Quiet,
            format!(
                "counting read {} RCU ({})",
                capacity(self.count.rcu),
                self.pricing.read(self.count.rcu).money_text()
            ),
        ));
        lines
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}

/// A delete of what was counted, and the tallies repaired after it when chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct PurgeRun {
    /// What was counted and confirmed.
    pub counted: CountedPurge,
    /// The delete pass.
    pub report: PurgeReport,
    /// Each tally attribute repaired after it, with how its repair went.
    pub repaired: Vec<(String, Result<RepairAll>)>,
    /// Each parent a repair was sent for: before and after.
    pub parents: Vec<ParentRepaired>,
}

/// Delete what `counted` counted from `info`'s table (never more than its count; `confirmed`:
/// the count was typed back or `--yes` given), then, when `choice` is repair and something was
/// deleted with no outcome unknown, repair the tallies of the parents whose children went.
/// `progress` hears the delete pass after each batch.
pub async fn delete_counted(
    connection: &Connection,
    info: &TableInfo,
    source: &PurgeSource,
    counted: CountedPurge,
    choice: Option<TallyChoice>,
    confirmed: bool,
    stop: &CancelToken,
    progress: impl FnMut(&PurgeReport),
) -> Result<PurgeRun> {
    counted.check_choice(choice)?;
    let items = counted.count.items;
    let report = purge(connection, info, source, items, confirmed, stop, progress).await;
    let (mut repaired, mut parents) = (Vec::new(), Vec::new());
    if choice == Some(TallyChoice::Repair) && report.deleted > 0 && report.unknown == 0 {
        (repaired, parents) =
            repair_tallies(connection, info, &counted.count, confirmed, stop).await;
    }
    Ok(PurgeRun {
        counted,
        report,
        repaired,
        parents,
    })
}

impl PurgeRun {
    /// Each tally's repair in words.
    fn repair_lines(&self) -> Vec<String> {
        self.repaired
            .iter()
            .map(|(tally, run)| match run {
                Ok(all) => format!("tally `{tally}` repaired: {}", all.summary()),
                Err(error) => format!("tally `{tally}` not repaired: {error}"),
            })
            .collect()
    }

    /// Every item the run wrote to besides the deleted ones: the parents whose tallies a repair
    /// was sent for, to be read back into what is shown.
    pub fn parents_written(&self) -> Vec<Item> {
        self.parents.iter().map(|p| p.key.clone()).collect()
    }
}

/// A purge: what was counted, what the delete did and cost, and the tallies repaired after it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct PurgeDocument {
    /// The items counted and confirmed.
    pub(crate) items: u64,
    /// The first keys counted, each in DynamoDB JSON.
    pub(crate) first: Vec<Value>,
    /// Items deleted.
    pub(crate) deleted: u64,
    /// Items the server did not delete (refused, or left unprocessed after the re-sends).
    pub(crate) not_deleted: u64,
    /// Items whose delete may or may not have happened.
    pub(crate) unknown: u64,
    /// The write capacity units the delete consumed.
    pub(crate) wcu: f64,
    /// The read capacity units counting and deleting consumed.
    pub(crate) rcu: f64,
    /// What the delete's writes cost in US dollars at the table's price.
    pub(crate) usd: Usd,
    /// Each tally attribute's repair, in words.
    pub(crate) tallies: Vec<String>,
    /// Each parent a repair was sent for: its tally before and after.
    pub(crate) parents_repaired: Vec<ParentRepairedDocument>,
}

impl PurgeRun {
    /// The run's document.
    pub(crate) fn document(&self) -> PurgeDocument {
        let (c, r) = (&self.counted, &self.report);
        PurgeDocument {
            items: c.count.items,
            first: c.first_json(),
            deleted: r.deleted,
            not_deleted: r.not_deleted,
            unknown: r.unknown,
            wcu: r.wcu,
            rcu: r.rcu + c.count.rcu,
            usd: Usd::from(c.pricing.write(r.wcu)),
            tallies: self.repair_lines(),
            parents_repaired: self.parents.iter().map(ParentRepaired::document).collect(),
        }
    }
}

crate::document_as!(PurgeRun => PurgeDocument, document);

impl Report for PurgeRun {
    /// What the delete did and cost, then each tally's repair.
    fn lines(&self) -> Vec<Line> {
        let tone = match self.ending() {
            Ending::Done => Tone::Good,
            _ => Tone::Warn,
        };
        let c = &self.counted;
        let mut lines: Vec<Line> = self
            .report
            .lines(&c.table, &c.pricing)
            .into_iter()
            .map(|text| Line::new(Tone::Plain, text))
            .collect();
        if let Some(first) = lines.first_mut() {
            first.tone = tone;
        }
        lines.extend(
            self.repair_lines()
                .into_iter()
                .map(|text| Line::new(Tone::Plain, text)),
        );
        lines.extend(
            repaired::lines(&self.parents)
                .into_iter()
                .map(|text| Line::new(Tone::Plain, text)),
        );
        lines
    }

    /// The delete's ending, made graver by each repair that did not end done. Repairs run only
    /// after items were deleted, so one refused with an error is a refusal, never an error
    /// before anything applied.
    fn ending(&self) -> Ending {
        let after_deleting = |ending: Ending| match ending {
            Ending::BadInput => Ending::Refused,
            other => other,
        };
        self.repaired
            .iter()
            .fold(self.report.ending(), |ending, (_, run)| match run {
                Ok(all) => ending.graver(after_deleting(all.ending())),
                Err(error) => ending.graver(after_deleting(Ending::of_error(error))),
            })
    }
}
