//! A watch run, the same for the app and the CLI: the stream walked by the one reader and folded
//! (one exact check of a single parent first when starting from now), or, without a stream, the
//! parent polled; every event handed on as it comes, the fold handed back at the end.

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::sync::mpsc;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::stream::{
    StartAt, StreamEvent, StreamRecord, StreamSource, Tuning, Until, follow, now_ms,
};
use crate::table::TableInfo;
use crate::tally::{self, ChildSource, TallyRule};
use crate::value::{cell_text, whole_text};
use crate::watch::check::start_check;
use crate::watch::plan::start_lines;
use crate::watch::poll::{OneParent, Over, poll};
use crate::watch::{CounterFold, FoldConfig, WatchPlan, WatchProgress, WatchScope, Watched};

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
            let parent = tally::load_parent(&connection.reader(), info, rule, partition.clone())
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

/// The one parent when `plan` watches one, its id set on `config`; for every parent, `config`
/// keeps only counters.
async fn scope_of(
    connection: &Connection,
    info: &TableInfo,
    plan: &WatchPlan,
    config: &mut FoldConfig,
) -> Result<Option<OneParent>> {
    Ok(match &plan.scope {
        WatchScope::One { partition, pk } => {
            let id = one_id(connection, info, &plan.rule, partition).await?;
            config.only = Some(id.clone());
            Some(OneParent {
                id,
                pk: pk.clone(),
                partition: partition.clone(),
            })
        }
        // Every parent: the front ends keep the record lists; the fold keeps only counters.
        WatchScope::Every => {
            config.keep_changes = 0;
            None
        }
    })
}

/// One parent's start check, its read capacity added to `consumed_rcu`.
async fn check_costed(
    connection: &Connection,
    info: &TableInfo,
    plan: &WatchPlan,
    pk: &str,
    partition: &AttributeValue,
    consumed_rcu: &mut f64,
) -> Result<StartCheck> {
    let check = start_check(connection, info, plan, pk, partition.clone()).await?;
    *consumed_rcu += check.2;
    Ok(check)
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
    let one = scope_of(connection, info, plan, &mut config).await?;
    if let Some(every) = plan.poll {
        let one = one.ok_or_else(|| {
            Error::Invalid("polling reads one parent: give its partition key".into())
        })?;
        let over = Over {
            connection,
            info,
            plan,
            until,
            for_time,
            cancel,
        };
        return poll(&over, config, &one, every, on).await;
    }
    let source = StreamSource::of(info)?;
    let mut fold = CounterFold::new(config);
    let tally_name = plan.rule.tally.clone();
    let mut consumed_rcu = 0.0;
    let before = match &one {
        Some(one) if plan.start == StartAt::Latest => {
            let (pk, partition) = (&one.pk, &one.partition);
            Some(check_costed(connection, info, plan, pk, partition, &mut consumed_rcu).await?)
        }
        _ => None,
    };
    let inner = CancelToken::default();
    #[expect(clippy::disallowed_methods, reason = "folding outruns the stream")]
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
        let side = FoldSide {
            connection,
            info,
            plan,
            for_time,
            cancel,
            inner: &inner,
            view: &source.view,
            tally_name: &tally_name,
            one: one.as_ref(),
            before: before.as_ref(),
        };
        let folded = fold_stream(&side, &mut fold, &mut rx, &mut consumed_rcu, &mut on).await;
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

/// One parent's start check: its stored tally, its children counted and the capacity it took.
type StartCheck = (Option<bigdecimal::BigDecimal>, u64, f64);

/// What the fold side of a stream watch reads: the run, its one parent if it has one, and that
/// parent's check made before the stream took its place.
struct FoldSide<'a> {
    connection: &'a Connection,
    info: &'a TableInfo,
    plan: &'a WatchPlan,
    for_time: Option<Duration>,
    cancel: &'a CancelToken,
    inner: &'a CancelToken,
    view: &'a str,
    tally_name: &'a str,
    one: Option<&'a OneParent>,
    before: Option<&'a StartCheck>,
}

/// Fold the walk's events as they come until the walk ends (the start check once the stream
/// took its place, records, clock ticks while caught up), stopping the walk at the time limit
/// or on a cancel; the fold's last events are handed on at the end.
async fn fold_stream(
    side: &FoldSide<'_>,
    fold: &mut CounterFold,
    rx: &mut mpsc::UnboundedReceiver<StreamEvent>,
    consumed_rcu: &mut f64,
    on: &mut impl FnMut(WatchProgress),
) -> Result<()> {
    let (plan, inner) = (side.plan, side.inner);
    let checked = side.one.is_some() && plan.start == StartAt::Latest;
    let mut waiting: Vec<Vec<StreamRecord>> = Vec::new();
    let mut started = !checked;
    if started {
        on(WatchProgress::Started(start_lines(
            side.info,
            plan,
            side.view,
            side.tally_name,
        )));
    }
    let mut deadline: Option<tokio::time::Instant> = None;
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
            () = side.cancel.cancelled(), if !inner.is_cancelled() => { inner.cancel(); continue; }
        };
        let Some(event) = event else { break };
        match event {
            StreamEvent::Positioned if !started => {
                start_positioned(side, fold, consumed_rcu, &mut deadline, on).await?;
                started = true;
                for records in waiting.drain(..) {
                    fold_records(fold, &records, on);
                }
            }
            StreamEvent::Positioned => {}
            StreamEvent::Records(records) if !started => waiting.push(records),
            StreamEvent::Records(records) => {
                caught_up = false;
                fold.note_wall(now_ms());
                fold_records(fold, &records, on);
            }
            StreamEvent::CaughtUp { now_ms } => {
                caught_up = true;
                for event in fold.tick(self::now_ms()) {
                    on(WatchProgress::Event(event));
                }
                if deadline.is_none() && !inner.is_cancelled() {
                    deadline = side.for_time.map(|t| tokio::time::Instant::now() + t);
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
    Ok(())
}

/// The stream took its place: the one parent checked again and folded in, the start lines
/// handed on, and (from now) the time limit set to count from here.
async fn start_positioned(
    side: &FoldSide<'_>,
    fold: &mut CounterFold,
    consumed_rcu: &mut f64,
    deadline: &mut Option<tokio::time::Instant>,
    on: &mut impl FnMut(WatchProgress),
) -> Result<()> {
    let plan = side.plan;
    let mut quiet_start = true;
    if let Some(OneParent { id, pk, partition }) = side.one {
        // Checked before and after the stream took its place: when both
        // agree, no write landed in between, so none is counted twice.
        let after = check_costed(
            side.connection,
            side.info,
            plan,
            pk,
            partition,
            consumed_rcu,
        )
        .await?;
        for event in fold.start_checked(id, pk, after.0.clone(), after.1, now_ms()) {
            on(WatchProgress::Event(event));
        }
        quiet_start = side.before.map(|b| (&b.0, b.1)) == Some((&after.0, after.1));
    }
    let mut lines = start_lines(side.info, plan, side.view, side.tally_name);
    if let Some(parent) = fold.parents().next() {
        lines.push(parent.start_text(side.tally_name));
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
        *deadline = side.for_time.map(|t| tokio::time::Instant::now() + t);
    }
    on(WatchProgress::Started(lines));
    fold.note_wall(now_ms());
    Ok(())
}

fn fold_records(
    fold: &mut CounterFold,
    records: &[StreamRecord],
    on: &mut impl FnMut(WatchProgress),
) {
    for record in records {
        for event in fold.apply(record) {
            on(WatchProgress::Event(event));
        }
    }
}
