//! A storm: simulated users liking, liking twice (a client retry) and unliking at once, then
//! the tally compared with the counted children.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use aws_sdk_dynamodb::Client;

use crate::core::cancel::CancelToken;
use crate::core::error::{Error, Result};
use crate::core::likes::{
    LikeOp, LikeOutcome, LikeTarget, Sent, Snapshot, like_request, send, snapshot,
};
use crate::core::report::{Line, Tone, capacity};
use crate::core::table::TableInfo;

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
    /// Conflict cancellations that were retried.
    pub conflicts_retried: u32,
    /// Other failures (a simulated user whose task died counts as one).
    pub failed: usize,
    /// Write capacity consumed.
    pub consumed_wcu: f64,
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

    /// Progress in one line: `120 of 135 operations · 950 ops/s · 110 committed · 440 WCU`.
    pub fn progress(&self) -> String {
        format!(
            "{} of {} operations · {:.0} ops/s · {} committed · {} WCU",
            self.done,
            self.planned,
            self.ops_per_sec(),
            self.committed,
            capacity(self.consumed_wcu)
        )
    }

    /// Cancellations by reason, conflicts retried and failures, a line each.
    pub fn details(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = self
            .cancelled
            .iter()
            .map(|(reasons, count)| Line::new(Tone::Plain, format!("Cancelled {reasons}: {count}")))
            .collect();
        if self.conflicts_retried > 0 {
            lines.push(Line::new(
                Tone::Plain,
                format!("TransactionConflict retried: {}", self.conflicts_retried),
            ));
        }
        if self.failed > 0 {
            lines.push(Line::new(Tone::Bad, format!("Failed: {}", self.failed)));
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
pub const MAX_STORM_USERS: usize = 10_000;

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

/// Run a storm of `users` simulated users, `concurrency` at a time. `progress` is called after
/// each user's operations; `cancel` stops users from starting (those started finish).
pub async fn storm(
    client: &Client,
    target: &LikeTarget,
    users: usize,
    concurrency: usize,
    run_id: &str,
    cancel: &CancelToken,
    mut progress: impl FnMut(&StormStats),
) -> Result<StormStats> {
    if users == 0 || users > MAX_STORM_USERS {
        return Err(Error::Invalid(format!(
            "a storm has 1 to {MAX_STORM_USERS} users"
        )));
    }
    let started = Instant::now();
    let permits = Arc::new(tokio::sync::Semaphore::new(concurrency.clamp(1, 256)));
    let mut stats = StormStats {
        planned: (0..users).map(|i| storm_plan(i).len()).sum(),
        ..StormStats::default()
    };
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..users {
        if cancel.is_cancelled() {
            break;
        }
        let permit = Arc::clone(&permits)
            .acquire_owned()
            .await
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let (client, target) = (client.clone(), target.clone());
        let user = format!("USER#storm-{run_id}-{i:05}");
        tasks.spawn(async move {
            let _permit = permit;
            let mut results = Vec::new();
            for op in storm_plan(i) {
                let sent = match like_request(op, &target, &user, None, 1_750_636_800 + i as u64) {
                    Ok(request) => send(&client, &request).await,
                    Err(e) => Sent {
                        outcome: LikeOutcome::Failed(e),
                        attempts: 0,
                        conflicts: 0,
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
                stats.conflicts_retried += sent.conflicts;
                match sent.outcome {
                    LikeOutcome::Committed { consumed_wcu } => {
                        stats.committed += 1;
                        stats.consumed_wcu += consumed_wcu;
                    }
                    LikeOutcome::Cancelled { reasons } => {
                        *stats
                            .cancelled
                            .entry(format!("[{}]", reasons.join(", ")))
                            .or_default() += 1;
                    }
                    LikeOutcome::Failed(_) | LikeOutcome::Unknown(_) => stats.failed += 1,
                }
            }
        }
        Err(_) => stats.failed += 1,
    }
    stats.elapsed_ms = started.elapsed().as_millis();
}

/// A finished storm: its statistics and the tally and children before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct StormReport {
    /// What the storm did.
    pub stats: StormStats,
    /// Before it.
    pub before: Snapshot,
    /// After it.
    pub after: Snapshot,
}

impl StormReport {
    /// Whether the tally equals the counted children afterwards.
    pub fn equal(&self) -> bool {
        self.after.consistent()
    }

    /// The verdict: `Tally 3 → 131 · counted children 3 → 131 · EQUAL`.
    pub fn verdict(&self) -> Line {
        let (before, after) = (&self.before, &self.after);
        let text = format!(
            "Tally {} → {} · counted children {} → {} · {}",
            before.tally_text(),
            after.tally_text(),
            before.children,
            after.children,
            if self.equal() { "EQUAL" } else { "NOT EQUAL" }
        );
        Line::new(if self.equal() { Tone::Good } else { Tone::Bad }, text)
    }
}

/// Look, storm, look again.
#[allow(clippy::too_many_arguments)]
pub async fn run_storm(
    client: &Client,
    info: &TableInfo,
    target: &LikeTarget,
    users: usize,
    concurrency: usize,
    run_id: &str,
    cancel: &CancelToken,
    progress: impl FnMut(&StormStats),
) -> Result<StormReport> {
    let before = snapshot(client, info, target).await?;
    let stats = storm(client, target, users, concurrency, run_id, cancel, progress).await?;
    let after = snapshot(client, info, target).await?;
    Ok(StormReport {
        stats,
        before,
        after,
    })
}
