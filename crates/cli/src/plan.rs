//! `dynoscope plan`: which way to reconcile a table, each route priced and timed, one
//! recommended (the core's `PlanSpec` and `RoutePlan`); the table's size read from DynamoDB, or
//! the figures given with no connection at all.

use crate::exit::{Exit, said_read};
use crate::export_args::PlanArgs;
use crate::interrupt::unless_stopped;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::cost::Pricing;
use dynoscope_core::error::Result;
use dynoscope_core::schema::read_spec;

/// Plan the routes for the table on `connection`, or for the figures given when there is none.
pub(crate) async fn plan(
    connection: Option<&Connection>,
    args: &PlanArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let spec = args.spec();
    let (described, pricing) = match (connection, &args.table) {
        (Some(connection), Some(table)) => {
            let reader = connection.reader();
            let read = read_spec(&reader, table);
            let described = unless_stopped(stop, "DescribeTable", read).await?;
            (
                Some((described.item_count, described.size_bytes)),
                connection.region_pricing(),
            )
        }
        _ => (None, bare_pricing(out)),
    };
    let sized = spec.sized(described)?;
    said_read(out, &spec.routes(&sized, &pricing))
}

/// No table (`plan`, `size`, `shards-advice`): priced as us-east-1 (the user's price file over the shipped prices; the shipped
/// ones, said once, when that file cannot be used), said so.
pub(crate) fn bare_pricing(out: &mut Output) -> Pricing {
    let (pricing, unusable) = Pricing::without_table("no table given");
    if let Some(error) = unusable {
        out.note(format_args!(
            "dynoscope: {error}; the shipped prices are used"
        ));
    }
    pricing
}
