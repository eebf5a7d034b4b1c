//! A watch run, the same for the app and the CLI: the stream walked by the one reader and folded
//! (one exact check of a single parent first when starting from now), or, without a stream, the
//! parent polled; every event handed on as it comes, the fold handed back at the end.

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::sync::mpsc;

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::stream::{StartAt, StreamEvent, StreamSource, Tuning, Until, follow, now_ms};
use crate::core::table::TableInfo;
use crate::core::tally::{self, ChildSource, TallyRule};
use crate::core::value::{cell_text, whole_text};
use crate::core::watch::check::start_check;
use crate::core::watch::plan::start_lines;
use crate::core::watch::{CounterFold, FoldConfig, WatchPlan, WatchProgress, WatchScope, Watched};

/// The one parent's id: its partition key, or the rule's id attribute read from it.
async fn one_id(
    connection: &Connection,
    info: &TableInfo,
    rule: &TallyRule,
    partition: &AttributeValue,
) -> Result<String> {
    match &rule.children {
        ChildSource::Index {
            id_attribute: Some(attr),
            ..
        } => {
            let parent = tally::load_parent(&connection.client, info, rule, partition.clone())
                .await?
                .ok_or_else(|| tally::missing_parent(info, rule, &cell_text(partition)))?;
            parent
                .get(attr)
                .map(whole_text)
                .ok_or_else(|| Error::Invalid(format!("the parent has no `{attr}`")))
        }
        _ => Ok(whole_text(partition)),
    }
}

/// Watch `plan` on `info`'s table until `until` (history to now, or until cancelled), for at
/// most `for_time` after it caught up with what the stream held at its start. Each event goes
/// to `on` as it comes.
pub async fn watch(
    connection: &Connection,
    info: &TableInfo,
    plan: &WatchPlan,
    until: Until,
    for_time: Option<Duration>,
    cancel: &CancelToken,
    mut on: impl FnMut(WatchProgress),
) -> Result<Watched> {
    let mut config = FoldConfig::new(info, &plan.rule, plan.settle_ms)?;
    let started_ms = now_ms();
    let one = match &plan.scope {
        WatchScope::One { partition, pk } => {
            let id = one_id(connection, info, &plan.rule, partition).await?;
            config.only = Some(id.clone());
            Some((id, pk.clone(), partition.clone()))
        }
        // Every parent: the front ends keep the record lists; the fold keeps only counters.
        WatchScope::Every => {
            config.keep_changes = 0;
            None
        }
    };
    if let Some(every) = plan.poll {
        let (id, pk, partition) = one.ok_or_else(|| {
            Error::Invalid("polling reads one parent: give its partition key".into())
        })?;
        return crate::core::watch::poll::poll(
            connection,
            info,
            plan,
            config,
            (&id, &pk, partition),
            every,
            until,
            for_time,
            cancel,
            on,
        )
        .await;
    }
    let source = StreamSource::of(info)?;
    let mut fold = CounterFold::new(config);
    let tally_name = plan.rule.tally.clone();
    let mut consumed_rcu = 0.0;
    let before = match &one {
        Some((_, pk, partition)) if plan.start == StartAt::Latest => {
            let check = start_check(connection, info, plan, pk, partition.clone()).await?;
            consumed_rcu += check.2;
            Some(check)
        }
        _ => None,
    };
    let inner = CancelToken::default();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let tuning = Tuning::default();
    let walk = async {
        let sender = tx;
        follow(
            &connection.streams,
            &source.arn,
            plan.start.clone(),
            until,
            &tuning,
            &inner,
            |event| {
                // The fold's side below is gone only once the walk ended.
                let _ = sender.send(event);
            },
        )
        .await
    };
    let fold_it = async {
        let folded = async {
            let checked = one.is_some() && plan.start == StartAt::Latest;
            let mut waiting: Vec<Vec<crate::core::stream::StreamRecord>> = Vec::new();
            let mut started = !checked;
            if started {
                on(WatchProgress::Started(start_lines(
                    info,
                    plan,
                    &source.view,
                    &tally_name,
                )));
            }
            let mut deadline: Option<tokio::time::Instant> = None;
            let mut quiet_start = true;
            // While caught up, stream time is this machine's clock: a gap that outlives the settle
            // window is named without waiting for the next record.
            let mut caught_up = false;
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            loop {
                let stop_at = async {
                    match deadline {
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                };
                let event = tokio::select! {
                    event = rx.recv() => event,
                    _ = tick.tick(), if caught_up => {
                        for event in fold.tick(now_ms()) {
                            on(WatchProgress::Event(event));
                        }
                        continue;
                    }
                    () = stop_at => { inner.cancel(); deadline = None; continue; }
                    () = cancel.cancelled(), if !inner.is_cancelled() => { inner.cancel(); continue; }
                };
                let Some(event) = event else { break };
                match event {
                    StreamEvent::Positioned if !started => {
                        if let Some((id, pk, partition)) = &one {
                            // Checked before and after the stream took its place: when both
                            // agree, no write landed in between, so none is counted twice.
                            let after =
                                start_check(connection, info, plan, pk, partition.clone()).await?;
                            consumed_rcu += after.2;
                            for event in
                                fold.start_checked(id, pk, after.0.clone(), after.1, now_ms())
                            {
                                on(WatchProgress::Event(event));
                            }
                            quiet_start = before.as_ref().map(|b| (&b.0, b.1))
                                == Some((&after.0, after.1));
                        }
                        started = true;
                        let mut lines = start_lines(info, plan, &source.view, &tally_name);
                        if let Some(parent) = fold.parents().next() {
                            lines.push(parent.start_text(&tally_name));
                            if !quiet_start {
                                lines.push(
                                    "writes landed while the watch started: one of them may be \
                                     counted twice (in the start check and as a record); check \
                                     a drift named in the first seconds again"
                                        .to_owned(),
                                );
                            }
                        }
                        // From now: the time counts from here (a busy table never goes idle).
                        if plan.start == StartAt::Latest {
                            deadline = for_time.map(|t| tokio::time::Instant::now() + t);
                        }
                        on(WatchProgress::Started(lines));
                        fold.note_wall(now_ms());
                        for records in waiting.drain(..) {
                            fold_records(&mut fold, &records, &mut on);
                        }
                    }
                    StreamEvent::Positioned => {}
                    StreamEvent::Records(records) if !started => waiting.push(records),
                    StreamEvent::Records(records) => {
                        caught_up = false;
                        fold.note_wall(now_ms());
                        fold_records(&mut fold, &records, &mut on);
                    }
                    StreamEvent::CaughtUp { now_ms } => {
                        caught_up = true;
                        for event in fold.tick(self::now_ms()) {
                            on(WatchProgress::Event(event));
                        }
                        if deadline.is_none() && !inner.is_cancelled() {
                            deadline = for_time.map(|t| tokio::time::Instant::now() + t);
                        }
                        on(WatchProgress::Stream(StreamEvent::CaughtUp { now_ms }));
                    }
                    other => on(WatchProgress::Stream(other)),
                }
            }
            // Read to now when caught up; else as far as the last record.
            let end_ms = if caught_up { now_ms() } else { fold.now_ms() };
            for event in fold.finish(end_ms) {
                on(WatchProgress::Event(event));
            }
            Ok::<_, Error>(())
        }
        .await;
        // However the fold ended (a failed start check included), the walk ends with it.
        inner.cancel();
        folded
    };
    let (followed, folded) = tokio::join!(walk, fold_it);
    folded?;
    let followed = followed?;
    Ok(Watched {
        fold,
        followed: Some(followed),
        polls: 0,
        consumed_rcu,
        started_ms,
        ended_ms: now_ms(),
        pricing: connection.pricing(info),
    })
}

fn fold_records(
    fold: &mut CounterFold,
    records: &[crate::core::stream::StreamRecord],
    on: &mut impl FnMut(WatchProgress),
) {
    for record in records {
        for event in fold.apply(record) {
            on(WatchProgress::Event(event));
        }
    }
}
