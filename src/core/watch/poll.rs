//! A watch without a stream: the parent read and its children counted every few seconds, each
//! poll a sample of the fold (a divergence it finds names no write).

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::number::parse;
use crate::core::stream::{Until, now_ms};
use crate::core::table::TableInfo;
use crate::core::tally;
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
        let read = async {
            let (parent, rcu) =
                tally::load_parent_costed(&connection.client, info, &plan.rule, partition.clone())
                    .await?;
            let parent = parent.ok_or_else(|| Error::NotFound {
                what: format!(
                    "parent item {pk} / {} in {}",
                    plan.rule.parents.sort_key, info.name
                ),
            })?;
            let check = tally::check_parent(&connection.client, info, &plan.rule, &parent).await?;
            Ok::<_, Error>((rcu, check))
        };
        let (rcu, check) = tokio::select! {
            read = read => read?,
            () = cancel.cancelled() => break,
        };
        polls += 1;
        let used = rcu + check.count.consumed_rcu;
        consumed_rcu += used;
        let tally = match check.stored.as_deref() {
            None => None,
            Some(text) => Some(parse(text).map_err(|e| {
                Error::Invalid(format!(
                    "the tally `{}` is not a number: {e}",
                    plan.rule.tally
                ))
            })?),
        };
        if polls == 1 {
            on(WatchProgress::Started(start_lines(
                info,
                plan,
                "",
                &plan.rule.tally,
            )));
        }
        for event in fold.sample(id, pk, tally, check.count.count, now_ms(), polls) {
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
    })
}
