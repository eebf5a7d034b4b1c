//! `dynoscope like|unlike|storm`: the like lab from the shell.

use std::process::ExitCode;

use aws_sdk_dynamodb::Client;
use serde_json::json;

use crate::cli::args::{LikeArgs, LikeTargetArgs, StormArgs};
use crate::core::connection::{Connection, ConnectionSpec, is_loopback};
use crate::core::error::{Error, Result};
use crate::core::likes::{self, LikeOp, LikeOutcome, LikeTarget, Snapshot};
use crate::core::ops;
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
    let info = ops::describe_table(client, &args.table).await?;
    let sort = info
        .sort
        .as_ref()
        .ok_or_else(|| Error::Invalid(format!("{} has no sort key: likes need one", info.name)))?;
    let target = LikeTarget {
        table: info.name.clone(),
        pk_name: info.partition.name.clone(),
        sk_name: sort.name.clone(),
        parent: args.pk.clone(),
        parent_sk: args.parent_sk.clone(),
        tally: args.tally.clone(),
        child_prefix: args.child_prefix.clone(),
    };
    Ok((info, target))
}

fn consistent(after: &Snapshot) -> bool {
    after.tally.as_deref() == Some(after.children.to_string().as_str())
}

fn outcome_text(outcome: &LikeOutcome) -> String {
    match outcome {
        LikeOutcome::Committed { consumed_wcu } => format!("committed · {consumed_wcu} WCU"),
        LikeOutcome::Cancelled { reasons } => format!("cancelled [{}]", reasons.join(", ")),
        LikeOutcome::Failed(e) => format!("failed: {e}"),
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// Like or unlike, with the tally and the children before and after.
pub async fn like(
    client: &Client,
    connection: &Connection,
    op: LikeOp,
    args: LikeArgs,
) -> Result<ExitCode> {
    let (info, target) = target(client, connection, &args.target).await?;
    let request = likes::like_request(op, &target, &args.user, args.token.clone(), now_secs())?;
    let report = likes::like_and_observe(client, &info, request).await;
    let before = report.before?;
    let after = report.after?;
    let tally = |s: &Snapshot| s.tally.clone().unwrap_or_else(|| "missing".into());
    if args.target.json {
        let (outcome, reasons, wcu) = match &report.sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => ("committed", vec![], *consumed_wcu),
            LikeOutcome::Cancelled { reasons } => ("cancelled", reasons.clone(), 0.0),
            LikeOutcome::Failed(_) => ("failed", vec![], 0.0),
        };
        println!(
            "{}",
            json!({
                "op": op.name(), "user": args.user, "outcome": outcome, "reasons": reasons,
                "consumedWCU": wcu, "attempts": report.sent.attempts, "conflictsRetried": report.sent.conflicts,
                "tallyBefore": before.tally, "tallyAfter": after.tally,
                "childrenBefore": before.children, "childrenAfter": after.children,
            })
        );
    } else {
        println!(
            "{} {} as {}: {}",
            op.name(),
            target.parent,
            args.user,
            outcome_text(&report.sent.outcome)
        );
        println!(
            "tally {} -> {} · children {} -> {}",
            tally(&before),
            tally(&after),
            before.children,
            after.children
        );
    }
    if let LikeOutcome::Failed(error) = report.sent.outcome {
        return Err(error);
    }
    Ok(if consistent(&after) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A storm, then the verdict.
pub async fn storm(client: &Client, connection: &Connection, args: StormArgs) -> Result<ExitCode> {
    let (info, target) = target(client, connection, &args.target).await?;
    let before = likes::snapshot(client, &info, &target).await?;
    let run_id = format!("{:x}", now_secs());
    let stats = likes::storm(
        client,
        &target,
        args.users,
        args.concurrency,
        &run_id,
        || false,
        |_| {},
    )
    .await?;
    let after = likes::snapshot(client, &info, &target).await?;
    let equal = consistent(&after);
    if args.target.json {
        println!(
            "{}",
            json!({
                "users": args.users, "operations": stats.done, "committed": stats.committed,
                "cancelled": stats.cancelled, "conflictsRetried": stats.conflicts_retried, "failed": stats.failed,
                "consumedWCU": stats.consumed_wcu, "opsPerSec": stats.ops_per_sec(),
                "tallyBefore": before.tally, "tallyAfter": after.tally,
                "childrenBefore": before.children, "childrenAfter": after.children, "equal": equal,
            })
        );
    } else {
        println!(
            "{} operations by {} users in {} ms ({:.0} ops/s): {} committed, {} failed",
            stats.done,
            args.users,
            stats.elapsed_ms,
            stats.ops_per_sec(),
            stats.committed,
            stats.failed
        );
        for (reasons, count) in &stats.cancelled {
            println!("cancelled {reasons}: {count}");
        }
        println!(
            "tally {} · counted children {} · {}",
            after.tally.as_deref().unwrap_or("missing"),
            after.children,
            if equal { "equal" } else { "NOT equal" }
        );
    }
    Ok(if equal {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
