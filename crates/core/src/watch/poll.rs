//! A watch without a stream: the parent read and its children counted every few seconds, each
//! poll a sample of the fold (a divergence it finds names no write).

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::Result;
use crate::stream::{Until, now_ms};
use crate::table::TableInfo;
use crate::watch::check::start_check;
use crate::watch::plan::start_lines;
use crate::watch::{CounterFold, FoldConfig, WatchPlan, WatchProgress, Watched};

/// What a watch runs over: where, what, until when, and what stops it.
pub(super) struct Over<'a> {
    pub connection: &'a Connection,
    pub info: &'a TableInfo,
    pub plan: &'a WatchPlan,
    pub until: Until,
    pub for_time: Option<Duration>,
    pub cancel: &'a CancelToken,
}

/// The one parent a watch follows, when it follows one.
#[derive(Debug, Clone)]
pub(super) struct OneParent {
    /// Its id, as the fold names it: its partition key, or the rule's id attribute.
    pub id: String,
    /// Its partition key, as typed.
    pub pk: String,
    /// Its partition key's value.
    pub partition: AttributeValue,
}

/// Poll `one` parent every `every`, as `over` says.
pub(super) async fn poll(
    over: &Over<'_>,
    config: FoldConfig,
    one: &OneParent,
    every: Duration,
    mut on: impl FnMut(WatchProgress),
) -> Result<Watched> {
    let (id, pk, partition) = (one.id.as_str(), one.pk.as_str(), &one.partition);
    let (connection, info, plan, cancel) = (over.connection, over.info, over.plan, over.cancel);
    let (until, for_time) = (over.until, over.for_time);
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
