//! The one stream reader: a table's stream walked shard by shard in lineage order, each shard's
//! records read in order and handed on once, by sequence number. Throttling (GetRecords allows
//! about five calls a second per shard) and a lost connection are waited out on the one retry
//! policy; an expired iterator is taken again after the last record seen; records trimmed from
//! under the walk are said. Stopped by a [`CancelToken`], like every long run.

use std::time::Duration;

use aws_sdk_dynamodbstreams::Client as StreamsClient;

use crate::cancel::CancelToken;
use crate::error::Result;
use crate::stream::calls::{Read, Run, ShardReader};
use crate::stream::shards::ShardWalk;
use crate::stream::walk::{Followed, StartAt, StreamEvent, Tuning, Until, now_ms};

/// Walk the stream `arn` from `start` until `until`, handing each event to `on_event`.
pub async fn follow(
    streams: &StreamsClient,
    arn: &str,
    start: StartAt,
    until: Until,
    tuning: &Tuning,
    cancel: &CancelToken,
    mut on_event: impl FnMut(StreamEvent),
) -> Result<Followed> {
    let mut run = Run {
        streams,
        arn,
        tuning,
        cancel,
        followed: Followed::default(),
    };
    let Some(mut walk) = run.describe(&mut on_event).await? else {
        return Ok(run.cancelled());
    };
    let resume_shard = position(&mut walk, &start);
    let mut active: Vec<ShardReader> = Vec::new();
    let mut idle_for = Duration::ZERO;
    let mut said_caught_up = false;
    let mut first_round = true;
    let mut looked_again = false;
    loop {
        start_ready(
            &mut walk,
            &mut active,
            &start,
            resume_shard.as_deref(),
            first_round,
        );
        if active.is_empty() {
            // Every shard read to its end: a child split from the last one may not be listed
            // yet, so a follower looks once more after a pause; then the stream was disabled,
            // or holds nothing open.
            if until == Until::Cancelled && !looked_again {
                looked_again = true;
                if !pause(tuning.describe_every.min(Duration::from_secs(2)), cancel).await {
                    return Ok(run.cancelled());
                }
                let Some(fresh) = run.describe(&mut on_event).await? else {
                    return Ok(run.cancelled());
                };
                walk.learn(fresh.into_shards());
                continue;
            }
            on_event(StreamEvent::Positioned);
            return Ok(run.followed);
        }
        looked_again = false;
        let Some((handed, again, finished)) =
            read_round(&mut run, &mut active, &mut on_event).await?
        else {
            return Ok(run.cancelled());
        };
        if first_round {
            on_event(StreamEvent::Positioned);
        }
        first_round = false;
        active.retain(|r| !finished.contains(&r.id));
        for id in &finished {
            walk.finish(id);
        }
        let describe_now = !finished.is_empty() || idle_for >= tuning.describe_every;
        if handed > 0 || again {
            said_caught_up = false;
            idle_for = Duration::ZERO;
        } else if finished.is_empty() {
            if !said_caught_up {
                said_caught_up = true;
                on_event(StreamEvent::CaughtUp { now_ms: now_ms() });
            }
            if until == Until::CaughtUp {
                return Ok(run.followed);
            }
            if !pause(tuning.idle, cancel).await {
                return Ok(run.cancelled());
            }
            idle_for += tuning.idle;
        }
        if describe_now {
            idle_for = Duration::ZERO;
            let Some(fresh) = run.describe(&mut on_event).await? else {
                return Ok(run.cancelled());
            };
            walk.learn(fresh.into_shards());
        }
    }
}

/// Place the walk for `start`: from now, the closed shards skipped; from a sequence number, the
/// shards before it. Gives the shard holding that number, when resuming from one.
fn position(walk: &mut ShardWalk, start: &StartAt) -> Option<String> {
    match start {
        StartAt::Latest => walk.skip_closed(),
        StartAt::TrimHorizon => {}
        StartAt::At(sequence) | StartAt::After(sequence) => walk.skip_before(sequence),
    }
    match start {
        StartAt::At(s) | StartAt::After(s) => walk.holding(s).map(|i| i.id.clone()),
        _ => None,
    }
}

/// A reader added to `active` for each shard ready to be read, from where `start` says.
fn start_ready(
    walk: &mut ShardWalk,
    active: &mut Vec<ShardReader>,
    start: &StartAt,
    resume_shard: Option<&str>,
    first_round: bool,
) {
    for info in walk.ready() {
        walk.start(&info.id);
        let from = match start {
            // Only the shards open when the walk began start at their latest record: a
            // child found later is read from its first, or its records would be missed.
            StartAt::Latest if first_round => StartAt::Latest,
            StartAt::TrimHorizon => StartAt::TrimHorizon,
            resume if resume_shard == Some(info.id.as_str()) => resume.clone(),
            _ => StartAt::TrimHorizon,
        };
        active.push(ShardReader {
            id: info.id,
            iterator: None,
            last: None,
            from,
        });
    }
}

/// Read each active shard once: the records handed on, whether a shard is to be read again
/// soon, and the shards read to their end; `None` when cancelled.
async fn read_round(
    run: &mut Run<'_>,
    active: &mut [ShardReader],
    on_event: &mut impl FnMut(StreamEvent),
) -> Result<Option<(usize, bool, Vec<String>)>> {
    let mut handed = 0usize;
    let mut again = false;
    let mut finished = Vec::new();
    for reader in active.iter_mut() {
        match run.read_shard(reader, on_event).await? {
            Some(Read::Records(n)) => handed += n,
            Some(Read::Again) => again = true,
            Some(Read::Finished) => finished.push(reader.id.clone()),
            None => return Ok(None),
        }
    }
    Ok(Some((handed, again, finished)))
}

/// Wait `wait`; `false` when `cancel` was used first.
async fn pause(wait: Duration, cancel: &CancelToken) -> bool {
    tokio::select! {
        () = tokio::time::sleep(wait) => true,
        () = cancel.cancelled() => false,
    }
}
