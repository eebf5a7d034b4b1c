//! `dynoscope metrics` and `dynoscope insights`: a table's own CloudWatch metrics (consumed
//! capacity and throttles, for the table and each global index), and Contributor Insights (its
//! status, its top keys, switching it through the write gateway).

use crate::context::Ctx;

use crate::exit::{Exit, said, said_read};
use crate::flags::whole_u32;
use crate::interrupt::{describe, unless_stopped};
use dynoscope_core::error::Result;
use dynoscope_core::metrics::{self, insights_read};
use dynoscope_core::stream::now_ms;

/// The arguments of `dynoscope metrics`.
#[derive(Debug, clap::Args)]
pub struct MetricsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// How many hours back (1 to 24).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = whole_u32)]
    pub hours: u32,
}

/// The arguments of `dynoscope insights`.
#[derive(Debug, clap::Args)]
pub struct InsightsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Turn Contributor Insights on (a change to the table's settings: --yes off this machine).
    #[arg(long, conflicts_with = "disable")]
    pub enable: bool,
    /// Turn it off.
    #[arg(long)]
    pub disable: bool,
    /// How many hours back the top keys are counted (1 to 24).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = whole_u32)]
    pub hours: u32,
}

/// Print the table's metrics over the last hours.
pub(crate) async fn metrics(cx: &mut Ctx<'_>, args: &MetricsArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let read = metrics::read_metrics(connection, &info, args.hours, now_ms());
    let got = unless_stopped(stop, "GetMetricData", read).await?;
    said_read(out, &got)
}

/// Say whether Contributor Insights is on and its top keys, or switch it (`confirmed`: --yes).
pub(crate) async fn insights(cx: &mut Ctx<'_>, args: &InsightsArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    if args.enable || args.disable {
        let switched = insights_read::switch(connection, &info.name, args.enable, confirmed).await;
        return said(out, &switched);
    }
    let read = insights_read::read(connection, &info.name, args.hours, now_ms());
    let read = unless_stopped(stop, "Contributor Insights", read).await?;
    said_read(out, &read)
}
