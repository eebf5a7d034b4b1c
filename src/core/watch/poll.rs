//! A watch without a stream: the parent read and its children counted every few seconds, each
//! poll a sample of the fold (a divergence it finds names no write).

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::Result;
use crate::core::stream::{Until, now_ms};
use crate::core::table::TableInfo;
use crate::core::watch::check::start_check;
use crate::core::watch::plan::start_lines;
use crate::core::watch::{CounterFold, FoldConfig, WatchPlan, WatchProgress, Watched};

#[allow(clippy::too_many_arguments)]
pub(super) async fn poll(
    connection: &Connection,
    info: &TableInfo,
    plan: &WatchPlan,
    config: FoldConfig,
    (id, pk, partition): (&str, &str, AttributeValue),
    every: Duration,
    until: Until,
    for_time: Option<Duration>,
    cancel: &CancelToken,
    mut on: impl FnMut(WatchProgress),
) -> Result<Watched> {
    let started_ms = now_ms();
    let mut fold = CounterFold::new(config);
    let mut consumed_rcu = 0.0;
    let mut polls = 0u64;
    let began = tokio::time::Instant::now();
    loop {
        // Stopped during a poll: the watch ends with what it saw, as a stream watch does.
        let (tally, count, used) = tokio::select! {
            read = start_check(connection, info, plan, pk, partition.clone()) => read?,
            () = cancel.cancelled() => break,
        };
        polls += 1;
        consumed_rcu += used;
        if polls == 1 {
            on(WatchProgress::Started(start_lines(
                info,
                plan,
                "",
                &plan.rule.tally,
            )));
        }
        for event in fold.sample(id, pk, tally, count, now_ms(), polls) {
            on(WatchProgress::Event(event));
        }
        on(WatchProgress::Polled {
            poll: polls,
            consumed_rcu: used,
        });
        let time_up = for_time.is_none_or(|t| began.elapsed() + every > t);
        if until == Until::CaughtUp || (for_time.is_some() && time_up) {
            break;
        }
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = cancel.cancelled() => break,
        }
    }
    for event in fold.finish(now_ms()) {
        on(WatchProgress::Event(event));
    }
    Ok(Watched {
        fold,
        followed: None,
        polls,
        consumed_rcu,
        started_ms,
        ended_ms: now_ms(),
        pricing: connection.pricing(info),
    })
}
