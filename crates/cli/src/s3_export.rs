//! `dynoscope table export --to s3://…` and `dynoscope table exports`: DynamoDB's own export of
//! a table to S3, started through the gateway (point-in-time recovery checked first, the price
//! said before, one ClientToken), followed until done (Ctrl-C stops following, not the export);
//! and the table's exports listed.

use crate::context::Ctx;
use crate::exit::{Exit, said, said_read};
use crate::export_args::{ExportToArgs, ExportsArgs};
use crate::interrupt::unless_stopped;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::exports::{self, ExportEvent, ExportInfo};
use dynoscope_core::schema::read_spec;

/// Start the export, say its price first, follow it, and print its report.
pub(crate) async fn export(cx: &mut Ctx<'_>, args: &ExportToArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let notes = cx.out.notes();
    let spec = args.spec()?;
    let reader = connection.reader();
    let described = unless_stopped(stop, "DescribeTable", read_spec(&reader, &spec.table)).await?;
    let plan = spec.plan(connection, &described)?;
    notes.say(format_args!("dynoscope: {}", plan.price));
    let mut on_event = |event: ExportEvent| match event {
        ExportEvent::Applied(what) => notes.say(format_args!("dynoscope: applied: {what}")),
        ExportEvent::State(info) => notes.say(format_args!("dynoscope: export {}", info.line())),
    };
    let run = exports::run(connection, &plan, confirmed, stop, &mut on_event).await;
    said(cx.out, &run)
}

/// Every export of the table, a line each (or one JSON object).
pub(crate) async fn list(cx: &mut Ctx<'_>, args: &ExportsArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let reader = connection.reader();
    let described = unless_stopped(stop, "DescribeTable", read_spec(&reader, &args.table)).await?;
    let arn = described
        .arn
        .ok_or_else(|| Error::Invalid(format!("table {}: the server named no ARN", args.table)))?;
    let listed = exports::list_exports(&reader, &arn);
    let found = unless_stopped(stop, "ListExports", listed).await?;
    if found.is_empty() {
        out.note(format_args!(
            "dynoscope: table {} has no exports",
            args.table
        ));
    }
    said_read(out, &ExportInfo::listed(&args.table, &found))
}
