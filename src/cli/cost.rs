//! `dynoscope cost`: what a table's reads and writes cost on this connection, as the app's
//! table panel says it.

use crate::cli::exit::Exit;
use crate::cli::interrupt::describe;
use crate::cli::output::Output;
use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::cost::card;
use crate::core::error::Result;
use crate::core::report::Lines;

/// The arguments of `dynoscope cost`.
#[derive(Debug, clap::Args)]
pub struct CostArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Print JSON (dollar figures as exact decimal numbers).
    #[arg(long)]
    pub json: bool,
}

/// Describe the table and print its prices card.
pub async fn cost(
    connection: &Connection,
    args: &CostArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let info = describe(&connection.client, &args.table, stop).await?;
    let pricing = connection.pricing(&info);
    if args.json {
        out.line(card::card_json(&pricing, info.size_bytes, info.item_count));
    } else {
        out.line(Lines(&card::card(
            &pricing,
            info.size_bytes,
            info.item_count,
        )));
    }
    out.flush();
    out.failure().map_or(Ok(()), Err)?;
    Ok(Exit::Done)
}
