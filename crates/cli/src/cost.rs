//! `dynoscope cost`: what a table's reads and writes cost on this connection, as the app's
//! table panel says it.

use crate::context::Ctx;
use crate::exit::{Exit, said_read};
use crate::interrupt::describe;
use crate::output::Output;
use dynoscope_core::cancel::{CancelToken, unless_stopped};
use dynoscope_core::connection::Connection;
use dynoscope_core::cost::reports::PriceCard;
use dynoscope_core::error::{Error, Result};

/// The arguments of `dynoscope cost`.
#[derive(Debug, clap::Args)]
pub struct CostArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Read this region's prices from AWS's live price list first (AWS only; needs
    /// `pricing:GetProducts`). When they cannot be read, the shipped prices are used.
    #[arg(long)]
    pub live: bool,
}

/// Describe the table and print its prices card.
pub(crate) async fn cost(cx: &mut Ctx<'_>, args: &CostArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    if args.live {
        live_prices(connection, out, stop).await?;
    }
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let card = PriceCard {
        pricing: connection.pricing(&info),
        size_bytes: info.size_bytes,
        items: info.item_count,
    };
    said_read(out, &card)
}

/// Read the live prices, saying on stderr what was read, or once why not (the shipped prices
/// are used then, and the exit status does not change). Only a stop ends the run.
async fn live_prices(connection: &Connection, out: &Output, stop: &CancelToken) -> Result<()> {
    match unless_stopped(stop, "GetProducts", connection.load_live_prices()).await {
        Err(error @ Error::Cancelled { .. }) => return Err(error),
        Ok(Some(note)) => out.note(format_args!("dynoscope: {note}")),
        Ok(None) => out.note(
            "dynoscope: live prices are only read on AWS; this connection has no AWS region of \
             its own, so the shipped prices are used",
        ),
        Err(error) => out.note(format_args!(
            "dynoscope: live prices could not be read: {error}; the shipped prices are used"
        )),
    }
    Ok(())
}
