//! `dynoscope partiql`: one PartiQL statement from the shell. A SELECT is read page by page by
//! the same core code as the app's; a write is planned, sent once through the write gateway and
//! reported in the same words.

use crate::args::PartiqlArgs;
use crate::context::Ctx;
use crate::exit::{Exit, said};
use crate::item_rows::ItemRows;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::partiql::{self};
use dynoscope_core::read::{Stopped, Until};
use dynoscope_core::report::read_summary;
use dynoscope_core::spec::{StatementPlan, StatementSpec};

/// Run the statement (`confirmed`: `--yes`): a read prints items on stdout and a summary on
/// stderr; a write prints its report. An error before anything could apply is returned, to be
/// printed once on stderr.
pub(crate) async fn partiql(cx: &mut Ctx<'_>, args: PartiqlArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let params = args.params.iter().cloned().map(serde_json::Value::String);
    let spec = StatementSpec {
        statement: args.statement.clone(),
        params: params.collect(),
        limit: args.limit,
        page_size: args.page_size.and_then(|n| usize::try_from(n).ok()),
    };
    let plan = spec.plan()?;
    if plan.writes {
        return said(out, &spec.write(connection, confirmed, stop).await?);
    }
    read(cx, &plan).await?;
    Ok(Exit::Done)
}

/// A SELECT, every page printed as it arrives; a closed stdout or an interrupt stops it.
async fn read(cx: &mut Ctx<'_>, plan: &StatementPlan) -> Result<()> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let (mut items, mut pages, mut rcu) = (0usize, 0usize, 0.0);
    let mut rows = ItemRows::new(Vec::new());
    let until = plan.limit.map_or(Until::LastPage, Until::Items);
    let stopped = partiql::read_statement(
        &connection.reader(),
        &plan.statement,
        None,
        plan.page_size,
        until,
        stop,
        |page| {
            pages += 1;
            rcu += page.consumed_rcu;
            let room = plan.limit.map_or(usize::MAX, |l| l.saturating_sub(items));
            let page_items: Vec<_> = page.items.into_iter().take(room).collect();
            if out.open() && rows.block(out, &page_items) {
                items += page_items.len();
            }
            // Nobody reads on: the run stops, as after an interrupt.
            if !out.open() {
                stop.cancel();
            }
        },
    )
    .await?;
    out.note(read_summary(
        items,
        pages,
        &connection.pricing_undescribed().read(rcu),
    ));
    if let Some(error) = out.failure() {
        return Err(error);
    }
    match stopped {
        Stopped::Cancelled => Err(Error::Cancelled {
            op: "ExecuteStatement",
        }),
        Stopped::LastPage | Stopped::Reached => Ok(()),
    }
}
