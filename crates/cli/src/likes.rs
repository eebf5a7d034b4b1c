//! `dynoscope like|unlike|storm`: the like lab from the shell, built, sent and reported by the
//! same core code as the app's.

use crate::context::Ctx;

use crate::args::{LikeArgs, LikeTargetArgs, StormArgs};
use crate::exit::{Exit, said, said_program};
use crate::interrupt::{describe, not_stopped};
use dynoscope_core::error::Result;
use dynoscope_core::expr::codegen::Program;
use dynoscope_core::likes::{self, LikeOp};
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
    // Its writes are done: stdout's failure is said and changes no exit status.
    let exit = said(out, &report)?;
    for note in report.notes() {
        out.note(format_args!("dynoscope: {note}"));
    }
    Ok(exit)
}
