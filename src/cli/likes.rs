//! `dynoscope like|unlike|storm`: the like lab from the shell, built, sent and reported by the
//! same core code as the app's.

use std::process::ExitCode;

use aws_sdk_dynamodb::Client;
use serde_json::json;

use crate::cli::args::{LikeArgs, LikeTargetArgs, StormArgs};
use crate::core::cancel::CancelToken;
use crate::core::connection::{Connection, ConnectionSpec, is_loopback};
use crate::core::error::{Error, Result};
use crate::core::likes::{self, LikeOp, LikeOutcome, LikeTarget, Snapshot};
use crate::core::read;
use crate::core::report::Lines;
use crate::core::table::TableInfo;

async fn target(
    client: &Client,
    connection: &Connection,
    args: &LikeTargetArgs,
) -> Result<(TableInfo, LikeTarget)> {
    let local = matches!(connection.spec, ConnectionSpec::Sandbox { .. })
        || is_loopback(&connection.target);
    if !local && !args.yes {
        return Err(Error::Invalid(format!(
            "this writes to table {} at {}: add --yes to confirm",
            args.table, connection.target
        )));
    }
    let info = read::describe_table(client, &args.table).await?;
    let target = LikeTarget::new(
        &info,
        &args.pk,
        &args.parent_sk,
        &args.tally,
        &args.child_prefix,
    )?;
    Ok((info, target))
}

/// Like or unlike, with the tally and the children before and after.
pub async fn like(
    client: &Client,
    connection: &Connection,
    op: LikeOp,
    args: LikeArgs,
) -> Result<ExitCode> {
    let (info, target) = target(client, connection, &args.target).await?;
    let request = likes::like_request(
        op,
        &target,
        &args.user,
        args.token.clone(),
        likes::now_secs(),
    )?;
    let report = likes::like_and_observe(client, &info, request).await;
    if args.target.json {
        let (outcome, reasons, wcu) = match &report.sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => ("committed", vec![], *consumed_wcu),
            LikeOutcome::Cancelled { reasons } => ("cancelled", reasons.clone(), 0.0),
            LikeOutcome::Failed(_) => ("failed", vec![], 0.0),
            LikeOutcome::Unknown(_) => ("unknown", vec![], 0.0),
        };
        let tally = |s: &Result<Snapshot>| s.as_ref().ok().map(|s| s.tally.clone());
        let children = |s: &Result<Snapshot>| s.as_ref().ok().map(|s| s.children);
        println!(
            "{}",
            json!({
                "op": op.name(), "user": args.user, "outcome": outcome, "reasons": reasons,
                "consumedWCU": wcu, "attempts": report.sent.attempts, "conflictsRetried": report.sent.conflicts,
                "tallyBefore": tally(&report.before), "tallyAfter": tally(&report.after),
                "childrenBefore": children(&report.before), "childrenAfter": children(&report.after),
                "lines": report.lines().into_iter().map(|l| l.text).collect::<Vec<_>>(),
            })
        );
    } else {
        // The outcome first: it is what happened, whatever the reads around it did.
        println!("{}", report.title());
        println!(
            "tally {} · children {}",
            report.tally_change(),
            report.children_change()
        );
        println!("{}", Lines(&report.lines()));
    }
    Ok(match (&report.sent.outcome, &report.after) {
        // The words are printed above, once; the status says it failed.
        (LikeOutcome::Failed(_) | LikeOutcome::Unknown(_), _) | (_, Err(_)) => ExitCode::from(2),
        (_, Ok(after)) if after.consistent() => ExitCode::SUCCESS,
        (_, Ok(_)) => ExitCode::FAILURE,
    })
}

/// A storm, then the verdict.
pub async fn storm(client: &Client, connection: &Connection, args: StormArgs) -> Result<ExitCode> {
    let (info, target) = target(client, connection, &args.target).await?;
    let run_id = likes::run_id();
    let report = likes::run_storm(
        client,
        &info,
        &target,
        args.users,
        args.concurrency,
        &run_id,
        &CancelToken::default(),
        |_| {},
    )
    .await?;
    let (stats, before, after) = (&report.stats, &report.before, &report.after);
    if args.target.json {
        println!(
            "{}",
            json!({
                "users": args.users, "operations": stats.done, "committed": stats.committed,
                "cancelled": stats.cancelled, "conflictsRetried": stats.conflicts_retried, "failed": stats.failed,
                "consumedWCU": stats.consumed_wcu, "opsPerSec": stats.ops_per_sec(),
                "tallyBefore": before.tally, "tallyAfter": after.tally,
                "childrenBefore": before.children, "childrenAfter": after.children, "equal": report.equal(),
            })
        );
    } else {
        println!(
            "{} users in {} ms: {}",
            args.users,
            stats.elapsed_ms,
            stats.progress()
        );
        let details = stats.details();
        if !details.is_empty() {
            println!("{}", Lines(&details));
        }
        println!("{}", report.verdict().text);
    }
    Ok(if report.equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
