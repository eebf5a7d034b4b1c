//! `dynoscope plan`: which way to reconcile a table, each route priced and timed, one
//! recommended (the core's `PlanSpec` and `RoutePlan`); the table's size read from DynamoDB, or
//! the figures given with no connection at all.

use crate::exit::{Exit, said_read};
use crate::export_args::PlanArgs;
use crate::interrupt::unless_stopped;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::cost::{Billing, FALLBACK_REGION, PriceBook, Pricing};
use dynoscope_core::error::Result;
use dynoscope_core::saved;
use dynoscope_core::schema::read_spec;

/// Plan the routes for the table on `connection`, or for the figures given when there is none.
pub async fn plan(
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
        _ => (None, bare_pricing()?),
    };
    let sized = spec.sized(described)?;
    said_read(out, &spec.routes(&sized, &pricing))
}

/// No table: priced as us-east-1 (the user's price file over the shipped prices), said so.
fn bare_pricing() -> Result<Pricing> {
    Ok(Pricing::new(
        &PriceBook::with_user_file(saved::config_dir().as_deref())?,
        FALLBACK_REGION,
        Some(format!("no table given, so priced as {FALLBACK_REGION}")),
        Billing::default(),
    ))
}
