//! What a storm did: its statistics, its own change to the tally and the children, and the
//! drift that was there before it, apart.

use bigdecimal::BigDecimal;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::{Kind, Pricing};
use crate::error::{Error, Result};
use crate::likes::{Snapshot, StormPlan, StormStats, snapshot, storm};
use crate::number::{self, to_dynamodb};
use crate::read;
use crate::report::{Line, Tone};
use crate::table::TableInfo;

/// A finished storm: its statistics and the tally and children before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct StormReport {
    /// What the storm did.
    pub stats: StormStats,
    /// Before it.
    pub before: Snapshot,
    /// After it, or why the tally and children could not be read again (the storm ran all the
    /// same: its statistics stand).
    pub after: Result<Snapshot>,
    /// What the table's writes cost.
    pub pricing: Pricing,
    /// The parent's partition key, which every write of the storm fell on.
    pub parent: String,
    /// Simulated users.
    pub users: usize,
}

impl StormReport {
    /// What the storm cost and the load it put on the parent's partition: `440 WCU ≈
    /// $0.000275 on demand`, then `POST#a91f: 440 WCU in 0.9 s = 489 WCU/s, 49% of one
    /// partition's 1,000 WCU/s`.
    pub fn cost(&self) -> Vec<Line> {
        [
            Line::new(
                Tone::Plain,
                format!(
                    "Cost: {}",
                    self.pricing
                        .charge_reported(Kind::Write, self.stats.consumed_wcu)
                        .text()
                ),
            ),
            {
                // Said over its window, beside the busiest second's: the two rates differ.
                let line = self.stats.load(&self.parent).line();
                Line::new(
                    line.tone,
                    format!("On average over the whole storm: {}", line.text),
                )
            },
        ]
        .into_iter()
        .chain(self.stats.busiest(&self.parent))
        .collect()
    }

    /// Whether the tally equals the counted children afterwards.
    pub fn equal(&self) -> bool {
        self.after.as_ref().is_ok_and(Snapshot::consistent)
    }

    /// What the storm itself did to the tally and to the children: `(+428, +428)`. `None` when
    /// a tally is not a number.
    pub fn changes(&self) -> Option<(BigDecimal, BigDecimal)> {
        let tally = |s: &Snapshot| match &s.tally {
            None => Some(BigDecimal::default()),
            Some(t) => number::parse(t).ok(),
        };
        let children = |s: &Snapshot| BigDecimal::from(s.children);
        let after = self.after.as_ref().ok()?;
        Some((
            tally(after)? - tally(&self.before)?,
            children(after) - children(&self.before),
        ))
    }

    /// Whether the storm moved the tally exactly as much as the children: its own writes were
    /// consistent, whatever drift was there before.
    pub fn storm_consistent(&self) -> bool {
        self.changes().is_some_and(|(t, c)| t == c)
    }

    /// The verdict, the storm's own change first, then the drift before and after:
    /// `The storm: tally +428 · children +428 · consistent`, then
    /// `Tally 10 → 438 · counted children 3 → 431 · drift +7 before, +7 after (not the storm's)`.
    pub fn verdict(&self) -> Vec<Line> {
        let before = &self.before;
        let after = match &self.after {
            Ok(after) => after,
            Err(error) => {
                return vec![Line::new(
                    Tone::Bad,
                    format!(
                        "The storm ran, but the tally and the children could not be read afterwards, so it is not checked: {error}"
                    ),
                )];
            }
        };
        let signed = |d: &BigDecimal| {
            let text = to_dynamodb(d);
            if text.starts_with('-') {
                text
            } else {
                format!("+{text}")
            }
        };
        let own = match self.changes() {
            Some((t, c)) => Line::new(
                if t == c { Tone::Good } else { Tone::Bad },
                format!(
                    "The storm: tally {} · children {} · {}",
                    signed(&t),
                    signed(&c),
                    if t == c {
                        "consistent"
                    } else {
                        "NOT consistent"
                    }
                ),
            ),
            None => Line::new(
                Tone::Bad,
                "The storm: the tally is not a number, so it is not checked",
            ),
        };
        let drift = |s: &Snapshot| match &s.tally {
            Some(t) => number::parse(t)
                .ok()
                .map(|t| t - BigDecimal::from(s.children)),
            None => Some(-BigDecimal::from(s.children)),
        };
        let state = format!(
            "Tally {} → {} · counted children {} → {}",
            before.tally_text(),
            after.tally_text(),
            before.children,
            after.children,
        );
        let state = match (drift(before), drift(after)) {
            (_, _) if self.equal() => Line::new(Tone::Good, format!("{state} · EQUAL")),
            (Some(b), Some(a)) if b != BigDecimal::default() && b == a => Line::new(
                Tone::Warn,
                format!(
                    "{state} · drift {} before and after: it was there before the storm",
                    signed(&b)
                ),
            ),
            (_, Some(a)) => Line::new(
                Tone::Bad,
                format!("{state} · NOT EQUAL (drift {})", signed(&a)),
            ),
            _ => Line::new(Tone::Bad, format!("{state} · NOT EQUAL")),
        };
        vec![own, state]
    }
}

/// Look, check the parent exists (unless the plan creates parents), storm, look again.
pub async fn run_storm(
    connection: &Connection,
    info: &TableInfo,
    plan: &StormPlan,
    confirmed: bool,
    cancel: &CancelToken,
    progress: impl FnMut(&StormStats),
) -> Result<StormReport> {
    let reader = connection.reader();
    let target = &plan.target;
    if !target.create_parent
        && read::get_item(&reader, &target.table, target.parent_key())
            .await?
            .is_none()
    {
        return Err(Error::Missing {
            what: format!("The parent {}", target.parent_shown()),
            kind: "parent",
        });
    }
    // The read before the storm ends with a cancel, and then nothing is sent.
    let observe = || async {
        tokio::select! {
            seen = snapshot(&reader, info, target) => seen,
            () = cancel.cancelled() => Err(Error::Cancelled { op: "Query" }),
        }
    };
    let before = observe().await?;
    let stats = storm(connection, plan, confirmed, cancel, progress).await?;
    // Its writes are done, whatever this read says: a failure here is reported beside them.
    // It is made after an interrupt too, so that the report says what the storm did (a second
    // interrupt leaves at once).
    let after = snapshot(&reader, info, target).await;
    Ok(StormReport {
        stats,
        before,
        after,
        pricing: connection.pricing(info),
        parent: target.parent.clone(),
        users: plan.users,
    })
}
