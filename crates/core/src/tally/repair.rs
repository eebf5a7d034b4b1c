//! The guarded repair of a drifted tally: planned as a conditional `SET`, sent without a blind
//! retry, and the parent checked again afterwards, whatever happened.

use bigdecimal::BigDecimal;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::counter::{self, EditMode, Outcome, Planned, UpdatePlan};
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::number;
use crate::report::{Line, Tone, sent_unknown};
use crate::table::TableInfo;
use crate::tally::{ParentCheck, TallyRule, check_partition};
use crate::value::Item;
use crate::write::{Confirmation, Destination};

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
    /// What the table's writes cost (none for a repair that was never answered: it reported
    /// no units).
    pub pricing: Option<Pricing>,
    /// The parent's key (`None`: the repair's task was lost before it said).
    pub key: Option<Item>,
    /// The tally it was planned from, as stored before the repair (`None`: missing, or not
    /// known).
    pub before: Option<String>,
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
            pricing: None,
            key: None,
            before: None,
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
            Outcome::Applied {
                new_value,
                consumed_wcu,
                ..
            } => Line::new(
                Tone::Good,
                format!(
                    "Repaired: the tally is {} now ({}).{after}",
                    new_value.as_deref().unwrap_or("(not returned)"),
                    match &self.pricing {
                        Some(pricing) => pricing.write(*consumed_wcu).text(),
                        None => format!("{} WCU", crate::report::capacity(*consumed_wcu)),
                    }
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
            Outcome::Unknown {
                error, attempts, ..
            } => Line::new(
                Tone::Warn,
                format!(
                    "Outcome unknown ({error}); {}.{after}",
                    sent_unknown(*attempts)
                ),
            ),
            Outcome::Failed(error) => Line::new(Tone::Bad, error.write_words()),
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
    let recheck = match plan.key.get(&info.partition.name) {
        Some(partition) => {
            check_partition(&connection.reader(), info, rule, partition.clone()).await
        }
        None => Err(Error::Invalid("the repair had no partition key".into())),
    };
    RepairReport {
        outcome,
        recheck,
        pricing: Some(connection.pricing(info)),
        key: Some(plan.key.clone()),
        before: plan.planned.current.as_ref().map(number::to_dynamodb),
    }
}

/// What repairing every drifted parent did: each parent's report in the order sent, and why
/// it stopped before the last, if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct RepairAll {
    /// Each parent sent (its partition key as text) and what its repair did.
    pub reports: Vec<(String, RepairReport)>,
    /// Drifted parents left unsent, and why (an unknown outcome, a cancel).
    pub stopped: Option<(usize, String)>,
}

impl RepairAll {
    /// How the whole run ended: the gravest of its repairs (an unknown outcome over an error
    /// over a refusal; a failure by its error's class), and refused when it stopped before the
    /// last.
    pub fn ending(&self) -> Ending {
        let mut ending = Ending::Done;
        let applied = self
            .reports
            .iter()
            .any(|(_, r)| matches!(r.outcome, Outcome::Applied { .. } | Outcome::Unknown { .. }));
        for (_, report) in &self.reports {
            // A failure by its error's class (throttled out is a refusal, not bad input); once
            // another repair applied (or may have), a failure is a refusal after it.
            ending = ending.graver(match report.outcome.ending() {
                Ending::BadInput if applied => Ending::Refused,
                other => other,
            });
        }
        if self.stopped.is_some() {
            ending = ending.graver(Ending::Refused);
        }
        ending
    }

    /// The run in one line: how many were repaired, refused, unknown, failed and left.
    pub fn summary(&self) -> String {
        let count =
            |f: fn(&Outcome) -> bool| self.reports.iter().filter(|(_, r)| f(&r.outcome)).count();
        let mut parts = vec![format!(
            "{} repaired",
            crate::report::plural(count(|o| matches!(o, Outcome::Applied { .. })), "parent")
        )];
        let refused = count(|o| matches!(o, Outcome::ConditionFailed { .. } | Outcome::Missing));
        let unknown = count(|o| matches!(o, Outcome::Unknown { .. }));
        let failed = count(|o| matches!(o, Outcome::Failed(_)));
        for (n, what) in [
            (refused, "not repaired (moved or gone)"),
            (unknown, "outcome unknown"),
            (failed, "failed"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        if let Some((left, why)) = &self.stopped {
            parts.push(format!("{left} not sent ({why})"));
        }
        parts.join(" · ")
    }
}

/// The one question asked before repairing `drifted` parents of `info` at `destination`.
pub fn repair_all_confirmation(
    destination: &Destination,
    info: &TableInfo,
    rule: &TallyRule,
    drifted: usize,
) -> Confirmation {
    destination.confirmation(&format!(
        "table {}, the `{}` of {} (a guarded SET each)",
        info.name,
        rule.tally,
        crate::report::plural(drifted, "drifted parent")
    ))
}

/// Repair every drifted parent of `checks`, one guarded `SET` after another through the
/// write gateway (`confirmed`: the one question of [`repair_all_confirmation`] was agreed to),
/// each parent checked again afterwards. Stops before the next parent on an unknown outcome
/// (what is stored is not known, so the run is not trusted further) or on `stop`. `on_report`
/// is told of each repair as it ends.
pub async fn repair_all(
    connection: &Connection,
    info: &TableInfo,
    rule: &TallyRule,
    checks: &[ParentCheck],
    confirmed: bool,
    stop: &CancelToken,
    mut on_report: impl FnMut(&str, &RepairReport),
) -> Result<RepairAll> {
    let destination = Destination::of(connection);
    let drifted: Vec<&ParentCheck> = checks.iter().filter(|c| c.drifted()).collect();
    repair_all_confirmation(&destination, info, rule, drifted.len()).check(confirmed)?;
    let mut all = RepairAll {
        reports: Vec::new(),
        stopped: None,
    };
    for (i, check) in drifted.iter().enumerate() {
        if stop.is_cancelled() {
            all.stopped = Some((drifted.len() - i, "cancelled".to_owned()));
            break;
        }
        let report = match repair_plan(&destination, info, rule, check) {
            Ok(plan) => repair(connection, info, rule, &plan, true).await,
            Err(error) => RepairReport {
                outcome: Outcome::Failed(error.clone()),
                recheck: Err(error),
                pricing: None,
                key: Some(check.key.clone()),
                before: check.stored.clone(),
            },
        };
        on_report(&check.partition, &report);
        let unknown = matches!(report.outcome, Outcome::Unknown { .. });
        all.reports.push((check.partition.clone(), report));
        if unknown && i + 1 < drifted.len() {
            all.stopped = Some((
                drifted.len() - i - 1,
                "stopped after an unknown outcome".to_owned(),
            ));
            break;
        }
    }
    Ok(all)
}
