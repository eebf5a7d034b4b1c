//! `dynoscope like|unlike|storm`: the like lab from the shell, built, sent and reported by the
//! same core code as the app's.

use crate::context::Ctx;
use serde_json::json;

use crate::args::{LikeArgs, LikeTargetArgs, StormArgs};
use crate::exit::{Exit, said, said_program};
use crate::interrupt::{describe, not_stopped};
use dynoscope_core::cost::{Kind, decimal_json};
use dynoscope_core::error::Result;
use dynoscope_core::expr::codegen::Program;
use dynoscope_core::likes::{self, LikeOp};
use dynoscope_core::number::to_dynamodb;
use dynoscope_core::report::Lines;
use dynoscope_core::spec::{LikeSpec, StormSpec};
use dynoscope_core::write::Destination;

fn spec(args: &LikeTargetArgs, user: &str) -> LikeSpec {
    LikeSpec {
        table: args.table.clone(),
        pk: args.pk.clone(),
        parent_sk: args.parent_sk.clone(),
        tally: args.tally.clone(),
        child_prefix: args.child_prefix.clone(),
        user: user.to_owned(),
        token: None,
        create: args.create,
    }
}

/// Like or unlike (`confirmed`: `--yes`), with the tally and the children before and after.
pub(crate) async fn like(cx: &mut Ctx<'_>, args: LikeArgs) -> Result<Exit> {
    like_as(cx, LikeOp::Like, args).await
}

/// Unlike (`--yes` confirms), with the tally and the children before and after.
pub(crate) async fn unlike(cx: &mut Ctx<'_>, args: LikeArgs) -> Result<Exit> {
    like_as(cx, LikeOp::Unlike, args).await
}

/// Like or unlike, as `op` says.
async fn like_as(cx: &mut Ctx<'_>, op: LikeOp, args: LikeArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let mut spec = spec(&args.target, &args.user);
    spec.token.clone_from(&args.token);
    if let Some(name) = &args.program {
        let target = Program::target_named(name)?;
        return said_program(out, &spec.program(connection, op, target, stop).await?);
    }
    let report = spec.run(connection, op, confirmed, stop).await?;
    said(out, &report)
}

/// A storm (`confirmed`: `--yes`), then what it changed and the drift before and after.
pub(crate) async fn storm(cx: &mut Ctx<'_>, args: StormArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let info = describe(&connection.reader(), &args.target.table, stop).await?;
    let plan = StormSpec {
        target: spec(&args.target, ""),
        users: args.users,
        concurrency: args.concurrency,
    }
    .plan(&info, &Destination::of(connection), &likes::run_id())?;
    plan.confirmation().check(confirmed)?;
    if let Some(note) = plan.at_once.note("concurrency") {
        out.note(note);
    }
    let pricing = connection.pricing(&info);
    if !out.json() {
        out.note(Lines(&plan.estimate(&pricing)));
    }
    not_stopped(stop, "TransactWriteItems")?;
    // An interrupt stops new likes; those in flight are waited for, and all is counted.
    let report = likes::run_storm(connection, &info, &plan, confirmed, stop, |_| {}).await?;
    let (stats, before, after) = (&report.stats, &report.before, &report.after);
    // Writes whose outcome is unknown, or a storm whose result could not be read again: what it
    // did is not known, so 3.
    let nothing_applied = stats.committed == 0 && stats.cancelled.is_empty();
    let exit = if stats.unknown > 0 || after.is_err() {
        Exit::Unknown
    } else if let Some(error) = stats.first_failure.as_ref().filter(|_| nothing_applied) {
        // Every write refused, none applied: the refusal's own status (bad input: 2).
        Exit::of_error(error)
    } else if !report.storm_consistent() || stats.failed > 0 || stats.done < stats.planned {
        // Refused in part, inconsistent, or interrupted before every like was sent.
        Exit::Refused
    } else {
        Exit::Done
    };
    if out.json() {
        let changes = report.changes();
        out.line(json!({
                "users": args.users, "operations": stats.done, "committed": stats.committed,
                "cancelled": stats.cancelled, "resent": stats.resent, "failed": stats.failed,
                "unknown": stats.unknown,
                "consumed_wcu": stats.consumed_wcu, "ops_per_sec": stats.ops_per_sec(),
                "usd": pricing.charge_reported(Kind::Write, stats.consumed_wcu).usd_json(),
                "wcu_per_second": stats.load(&plan.target.parent).per_second().map(|r| decimal_json(&r)),
                "tally_before": before.tally, "tally_after": after.as_ref().ok().map(|a| a.tally.clone()),
                "children_before": before.children.to_string(),
                "children_after": after.as_ref().ok().map(|a| a.children.to_string()),
                "after_error": after.as_ref().err().map(ToString::to_string),
                "storm_tally_change": changes.as_ref().map(|(t, _)| to_dynamodb(t)),
                "storm_children_change": changes.as_ref().map(|(_, c)| to_dynamodb(c)),
                "storm_consistent": report.storm_consistent(), "equal": report.equal(),
        }));
    } else {
        out.line(format_args!(
            "{} users in {} ms: {}",
            args.users,
            stats.elapsed_ms,
            stats.progress(&pricing)
        ));
        let details = stats.details();
        if !details.is_empty() {
            out.line(Lines(&details));
        }
        out.line(Lines(&report.verdict()));
        out.line(Lines(&report.cost()));
    }
    if stats.done < stats.planned {
        out.note(format_args!(
            "dynoscope: interrupted: {} of {} operations were not sent",
            stats.planned - stats.done,
            stats.planned
        ));
    }
    if let Some(error) = &stats.first_failure {
        out.note(format_args!("dynoscope: the first refusal: {error}"));
    }
    Ok(exit)
}
