//! The guarded repair of a drifted tally: planned as a conditional `SET`, sent without a blind
//! retry, and the parent checked again afterwards, whatever happened.

use bigdecimal::BigDecimal;

use crate::core::connection::Connection;
use crate::core::counter::{self, EditMode, Outcome, Planned, UpdatePlan};
use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::report::{Line, Tone};
use crate::core::table::TableInfo;
use crate::core::tally::{ParentCheck, TallyRule, check_partition};
use crate::core::value::Item;
use crate::core::write::Destination;

/// The guarded repair of a drifted parent: `SET #t = :counted` on the condition that the tally
/// is still what was observed (`attribute_not_exists(#t)` when it was missing) and the parent
/// still exists, sent to `destination`.
pub fn repair_plan(
    destination: &Destination,
    info: &TableInfo,
    rule: &TallyRule,
    check: &ParentCheck,
) -> Result<UpdatePlan> {
    if !check.drifted() {
        return Err(Error::Invalid(
            "the tally equals the children: nothing to repair".into(),
        ));
    }
    let counted = BigDecimal::from(check.count.count);
    let current = check
        .stored
        .as_deref()
        .map(number::parse)
        .transpose()
        .map_err(|e| Error::Invalid(format!("the stored tally: {e}")))?;
    let planned = Planned {
        delta: &counted - current.clone().unwrap_or_default(),
        current,
        expected: counted,
        pinned: true,
    };
    counter::update_plan(
        destination,
        &info.name,
        check.key.clone(),
        &rule.tally,
        EditMode::Exact,
        planned,
        false,
    )
}

/// What a repair did, and the parent as checked again afterwards.
#[derive(Debug, Clone, PartialEq)]
pub struct RepairReport {
    /// How the conditional `SET` ended.
    pub outcome: Outcome,
    /// The parent checked again (also when the condition failed), or why it could not be.
    pub recheck: Result<(ParentCheck, Item)>,
}

impl RepairReport {
    /// A repair whose task stopped before it answered: its outcome is unknown.
    pub fn lost(error: Error) -> Self {
        Self {
            outcome: Outcome::Unknown {
                error: error.clone(),
                stored_now: Err(error.clone()),
                attempts: 0,
            },
            recheck: Err(error),
        }
    }

    /// The repair in one line, with the check made afterwards.
    pub fn line(&self) -> Line {
        let after = match &self.recheck {
            Ok((c, _)) => format!(
                " Checked again: stored {} · counted {} · drift {}.",
                c.stored_text(),
                c.count.count,
                c.drift_text()
            ),
            // After a lost task the outcome already names the error.
            Err(e) if matches!(&self.outcome, Outcome::Unknown { error, .. } if error == e) => {
                String::new()
            }
            Err(e) => format!(" It could not be checked again: {e}."),
        };
        match &self.outcome {
            Outcome::Applied { new_value, .. } => Line::new(
                Tone::Good,
                format!(
                    "Repaired: the tally is {} now.{after}",
                    new_value.as_deref().unwrap_or("(not returned)")
                ),
            ),
            Outcome::Missing => Line::new(
                Tone::Warn,
                format!(
                    "Not repaired: the parent no longer exists, so nothing was written.{after}"
                ),
            ),
            Outcome::ConditionFailed { current } => Line::new(
                Tone::Warn,
                format!(
                    "Not repaired: the tally moved meanwhile (it is {} now), so nothing was overwritten.{after}",
                    current.as_deref().unwrap_or("missing")
                ),
            ),
            Outcome::Unknown { error, .. } => Line::new(
                Tone::Warn,
                format!("Outcome unknown ({error}); not sent again.{after}"),
            ),
            Outcome::Failed(error) => Line::new(Tone::Bad, error.to_string()),
        }
    }
}

/// Send the repair `plan` through the write gateway (`confirmed`: the user agreed to its
/// question), then check the parent again: a repair is judged by what is stored afterwards,
/// not by the answer to the request.
pub async fn repair(
    connection: &Connection,
    info: &TableInfo,
    rule: &TallyRule,
    plan: &UpdatePlan,
    confirmed: bool,
) -> RepairReport {
    let outcome = counter::update_counter(connection, plan, confirmed).await;
    let client = &connection.client;
    let recheck = match plan.key.get(&info.partition.name) {
        Some(partition) => check_partition(client, info, rule, partition.clone()).await,
        None => Err(Error::Invalid("the repair had no partition key".into())),
    };
    RepairReport { outcome, recheck }
}
