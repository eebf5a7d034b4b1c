//! A storm: simulated users liking, liking twice (a client retry) and unliking at once, then
//! the tally compared with the counted children.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::hot::KeyRate;
use crate::cost::{Kind, Pricing, units};
use crate::error::{Error, Result};
use crate::likes::{LikeOp, LikeOutcome, LikeTarget, Sent, like_request, send};
use crate::limits::AtOnce;
use crate::report::{Line, Tone};
use crate::write::{CancelReason, Confirmation, Destination};

/// Tenths of a second a storm's load is kept in (its first 10 s).
pub(crate) const TENTHS_KEPT: usize = 100;

/// A storm's progress or result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StormStats {
    /// Operations planned.
    pub planned: usize,
    /// Operations finished.
    pub done: usize,
    /// Committed transactions.
    pub committed: usize,
    /// Cancellations by reason list, e.g. `[ConditionalCheckFailed, None]`.
    pub cancelled: BTreeMap<String, usize>,
    /// Transactions sent again after a refusal that wrote nothing (conflict, throttling).
    pub resent: u32,
    /// Refused by an error (a simulated user whose task died counts as one).
    pub failed: usize,
    /// The first of those errors, which says whether the refusals were the input's fault
    /// (`ValidationException`) or the server's load (throttling).
    pub first_failure: Option<Error>,
    /// Outcome unknown: may or may not have been applied.
    pub unknown: usize,
    /// Write capacity consumed.
    pub consumed_wcu: f64,
    /// Write capacity consumed in each second since the start (the parent's partition's load
    /// over time).
    pub wcu_by_second: Vec<f64>,
    /// The same in tenths of a second, for the first [`TENTHS_KEPT`] of them: a storm of
    /// under a second is drawn in milliseconds, not as one point.
    pub wcu_by_tenth: Vec<f64>,
    /// Milliseconds since the start.
    pub elapsed_ms: u128,
}

impl StormStats {
    /// Operations per second so far.
    pub fn ops_per_sec(&self) -> f64 {
        if self.elapsed_ms == 0 {
            0.0
        } else {
            self.done as f64 * 1000.0 / self.elapsed_ms as f64
        }
    }

    /// Progress in one line: `120 of 135 operations · 950 ops/s · 110 committed · 440 WCU ≈
    /// $0.000275 on demand`.
    pub fn progress(&self, pricing: &Pricing) -> String {
        format!(
            "{} of {} operations · {:.0} ops/s · {} committed · {}",
            self.done,
            self.planned,
            self.ops_per_sec(),
            self.committed,
            pricing
                .charge_reported(Kind::Write, self.consumed_wcu)
                .text()
        )
    }

    /// The busiest second of the storm on the parent's partition key, against one partition's
    /// ceiling: `Busiest second (the 1st): POST#a91f: 856 WCU in 1 s = …`.
    pub fn busiest(&self, key: &str) -> Option<Line> {
        let (second, units) = self
            .wcu_by_second
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))?;
        let line = KeyRate::new(key, Kind::Write, *units, 1000).line();
        Some(Line::new(
            line.tone,
            format!(
                "In its busiest second (second {}), not on average: {}",
                second + 1,
                line.text
            ),
        ))
    }

    /// The write rate on the parent's partition key against one partition's ceiling.
    pub fn load(&self, key: &str) -> KeyRate {
        KeyRate::new(key, Kind::Write, self.consumed_wcu, self.elapsed_ms)
    }

    /// Cancellations by reason, conflicts retried and failures, a line each.
    pub fn details(&self) -> Vec<Line> {
        // Each kind of cancellation in words (its codes stay the key of the JSON): a like or
        // an unlike writes the child first, the tally second.
        let writes = ["the like".to_owned(), "the tally".to_owned()];
        let mut lines: Vec<Line> = self
            .cancelled
            .iter()
            .map(|(reasons, count)| {
                let reasons: Vec<CancelReason> = (reasons.trim_matches(['[', ']']).split(", "))
                    .map(|code| CancelReason::from_code(Some(code)))
                    .collect();
                let words = CancelReason::cancelled_words(&reasons, &writes);
                Line::new(Tone::Plain, format!("{count} cancelled — {words}"))
            })
            .collect();
        if self.resent > 0 {
            lines.push(Line::new(
                Tone::Plain,
                format!(
                    "Sent again after a refusal that wrote nothing (TransactionConflict, throttling): {}",
                    self.resent
                ),
            ));
        }
        if self.failed > 0 {
            lines.push(Line::new(Tone::Bad, format!("Failed: {}", self.failed)));
        }
        if self.unknown > 0 {
            lines.push(Line::new(
                Tone::Warn,
                format!("Outcome unknown (not sent again): {}", self.unknown),
            ));
        }
        lines
    }
}

/// An id for a storm (or lab) run, different from every earlier one: its simulated users and
/// scratch items never meet those of another run.
pub fn run_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{nanos:x}")
}

/// The most users a storm simulates.
pub(crate) const MAX_STORM_USERS: usize = 10_000;

/// The operations of user `i` of a storm: a like; every fifth user sends it twice (a client
/// retry, cancelled by the condition); every seventh user then unlikes.
pub fn storm_plan(i: usize) -> Vec<LikeOp> {
    let mut ops = vec![LikeOp::Like];
    if i.is_multiple_of(5) {
        ops.push(LikeOp::Like);
    }
    if i.is_multiple_of(7) {
        ops.push(LikeOp::Unlike);
    }
    ops
}

/// A storm as planned: where, on what, how many users, how many at once.
#[derive(Debug, Clone, PartialEq)]
pub struct StormPlan {
    /// The connection it was planned on.
    pub destination: Destination,
    /// The parent liked.
    pub target: LikeTarget,
    /// Simulated users.
    pub users: usize,
    /// Users at once.
    pub at_once: AtOnce,
    /// This run's id: its users never meet another run's.
    pub run_id: String,
}

impl StormPlan {
    /// A storm of `users` (1 to [`MAX_STORM_USERS`]), `concurrency` at a time (at least 1; at
    /// most [`crate::limits::MAX_AT_ONCE`] run at once).
    pub fn new(
        destination: &Destination,
        target: &LikeTarget,
        users: usize,
        concurrency: usize,
        run_id: &str,
    ) -> Result<Self> {
        if users == 0 || users > MAX_STORM_USERS {
            return Err(Error::Invalid(format!(
                "a storm has 1 to {MAX_STORM_USERS} users"
            )));
        }
        Ok(Self {
            destination: destination.clone(),
            target: target.clone(),
            users,
            at_once: AtOnce::new(concurrency, "concurrency")?,
            run_id: run_id.to_owned(),
        })
    }

    /// What the storm will cost before it starts: each of its transactions writes the child and
    /// the parent (up to 1 KB each), twice the units of a plain write, so 4 WCU; a retried like
    /// that is cancelled is counted as if it wrote, the most it can cost.
    pub fn estimate(&self, pricing: &Pricing) -> Vec<Line> {
        let mut ops = (0, 0, 0);
        for i in 0..self.users {
            ops.0 += 1;
            ops.1 += usize::from(i.is_multiple_of(5));
            ops.2 += usize::from(i.is_multiple_of(7));
        }
        let transactions = ops.0 + ops.1 + ops.2;
        let one = units::write_units(units::WRITE_UNIT_BYTES, units::WriteKind::Transactional);
        let like = pricing.charge(Kind::Write, &(&one + &one));
        let storm = pricing.times(&like, transactions as u64);
        vec![
            Line::new(
                Tone::Plain,
                format!(
                    "Estimate: {} transactions ({} likes, {} sent twice, {} unlikes) × {} = {}",
                    transactions,
                    ops.0,
                    ops.1,
                    ops.2,
                    like.text(),
                    storm.text()
                ),
            ),
            Line::new(
                Tone::Quiet,
                format!(
                    "At 1,000,000 likes: {}",
                    pricing.times(&like, 1_000_000).text()
                ),
            ),
        ]
    }

    /// What the storm needs before it starts: one confirmation for all its writes.
    pub fn confirmation(&self) -> Confirmation {
        self.destination.confirmation(&format!(
            "table {}: {} simulated users like and unlike {}",
            self.target.table,
            self.users,
            self.target.parent_shown()
        ))
    }
}

/// Run the storm `plan` on `connection`, `confirmed` by the user. `progress` is called after
/// each user's operations; `cancel` stops every send from then on: no user starts, and a user
/// started sends nothing more (the like in flight is waited for). Every like goes through the
/// write gateway.
pub async fn storm(
    connection: &Connection,
    plan: &StormPlan,
    confirmed: bool,
    cancel: &CancelToken,
    mut progress: impl FnMut(&StormStats),
) -> Result<StormStats> {
    plan.confirmation().check(confirmed)?;
    let started = Instant::now();
    let permits = Arc::new(tokio::sync::Semaphore::new(plan.at_once.at_once));
    let mut stats = StormStats {
        planned: (0..plan.users).map(|i| storm_plan(i).len()).sum(),
        ..StormStats::default()
    };
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..plan.users {
        if cancel.is_cancelled() {
            break;
        }
        // A cancel while waiting for a free place starts no one more.
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => {
                permit.map_err(|e| Error::Invalid(e.to_string()))?
            }
            () = cancel.cancelled() => break,
        };
        let (connection, plan, cancel) = (connection.clone(), plan.clone(), cancel.clone());
        let user = format!("USER#storm-{}-{i:05}", plan.run_id);
        tasks.spawn(async move {
            let _permit = permit;
            let mut results = Vec::new();
            for op in storm_plan(i) {
                // Nothing more leaves once the run is stopped: a user's next like (or its
                // retry, or its unlike) is not sent, and counts as not sent.
                if cancel.is_cancelled() {
                    break;
                }
                let request = like_request(
                    &plan.destination,
                    op,
                    &plan.target,
                    &user,
                    None,
                    1_750_636_800 + i as u64,
                );
                let sent = match request {
                    Ok(request) => send(&connection, &request, confirmed, &cancel).await,
                    Err(e) => Sent {
                        outcome: LikeOutcome::Failed(e),
                        attempts: 0,
                    },
                };
                results.push(sent);
            }
            results
        });
        while let Some(done) = tasks.try_join_next() {
            record(&mut stats, done, started);
            progress(&stats);
        }
    }
    while let Some(done) = tasks.join_next().await {
        record(&mut stats, done, started);
        progress(&stats);
    }
    Ok(stats)
}

fn record(
    stats: &mut StormStats,
    done: std::result::Result<Vec<Sent>, tokio::task::JoinError>,
    started: Instant,
) {
    match done {
        Ok(sent) => {
            for sent in sent {
                stats.done += 1;
                stats.resent += sent.attempts.saturating_sub(1);
                match sent.outcome {
                    LikeOutcome::Committed { consumed_wcu } => {
                        stats.committed += 1;
                        stats.consumed_wcu += consumed_wcu;
                        let second = usize::try_from(started.elapsed().as_secs())
                            .unwrap_or(usize::MAX)
                            .min(3_600);
                        if stats.wcu_by_second.len() <= second {
                            stats.wcu_by_second.resize(second + 1, 0.0);
                        }
                        stats.wcu_by_second[second] += consumed_wcu;
                        let tenth = usize::try_from(started.elapsed().as_millis() / 100)
                            .unwrap_or(usize::MAX);
                        if tenth < TENTHS_KEPT {
                            if stats.wcu_by_tenth.len() <= tenth {
                                stats.wcu_by_tenth.resize(tenth + 1, 0.0);
                            }
                            stats.wcu_by_tenth[tenth] += consumed_wcu;
                        }
                    }
                    LikeOutcome::Cancelled { reasons } => {
                        *stats
                            .cancelled
                            .entry(format!("[{}]", crate::write::CancelReason::list(&reasons)))
                            .or_default() += 1;
                    }
                    LikeOutcome::Failed(error) => {
                        stats.failed += 1;
                        stats.first_failure.get_or_insert(error);
                    }
                    LikeOutcome::Unknown(_) => stats.unknown += 1,
                }
            }
        }
        // A simulated user whose task died may have sent writes: their outcome is unknown.
        Err(_) => stats.unknown += 1,
    }
    stats.elapsed_ms = started.elapsed().as_millis();
}
