//! `dynoscope size` and `dynoscope shards-advice`: what an item and a counter cost, in the
//! core's words, priced by the table named or, without one, as us-east-1 on demand.

use crate::args::{ShardsAdviceArgs, SizeArgs};
use crate::exit::{Exit, said_read};
use crate::interrupt::{describe, unless_stopped};
use crate::output::Output;
use crate::plan::bare_pricing;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::connection::Connection;
use dynoscope_core::cost::reports::{PricedAdvice, PricedSize};
use dynoscope_core::cost::shards::ShardAdvice;
use dynoscope_core::cost::size::SizeReport;
use dynoscope_core::cost::units::WriteKind;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::read;
use dynoscope_core::spec::KeySpec;
use dynoscope_core::table::{IndexKind, TableInfo};
use dynoscope_core::validate::item_input::{item_of_file, item_of_text};
use dynoscope_core::value::Item;

/// Size the item of `--item`, `--item-file`, or `--table` and `--pk`/`--sk`, and print the
/// report: words, or one JSON object with `--json`. `connection` is `None` when no table was
/// named (nothing is connected to then).
pub(crate) async fn size(
    connection: Option<&Connection>,
    args: SizeArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let (item, pricing) = match (connection, args.table.as_deref()) {
        (Some(connection), Some(table)) => {
            let info = describe(&connection.reader(), table, stop).await?;
            let item = match &args.pk {
                Some(pk) => read_item(connection, &info, pk, args.sk.as_deref(), stop).await?,
                None => given(&args)?,
            };
            (item, connection.pricing(&info))
        }
        _ => (given(&args)?, bare_pricing(out)),
    };
    let size = SizeReport::of(&item);
    said_read(out, &PricedSize { size, pricing })
}

/// The item typed or in a file.
fn given(args: &SizeArgs) -> Result<Item> {
    match (&args.item, &args.item_file) {
        (Some(text), _) => item_of_text(text),
        (None, Some(path)) => item_of_file(path),
        (None, None) => Err(Error::Invalid(
            "give the item: --item, --item-file, or --table with --pk".to_owned(),
        )),
    }
}

/// The item of `info` with partition key `pk` (and sort key `sk`), read by the one consistent
/// `GetItem` that `dynoscope get` reads with; no such item is exit 1.
async fn read_item(
    connection: &Connection,
    info: &TableInfo,
    pk: &str,
    sk: Option<&str>,
    stop: &CancelToken,
) -> Result<Item> {
    let mut pairs = vec![(info.partition.name.clone(), pk.to_owned())];
    match (&info.sort, sk) {
        (Some(sort), Some(sk)) => pairs.push((sort.name.clone(), sk.to_owned())),
        (Some(sort), None) => {
            return Err(Error::Invalid(format!(
                "{} has the sort key {}: give --sk",
                info.name, sort.name
            )));
        }
        (None, Some(_)) => {
            return Err(Error::Invalid(format!(
                "{} has no sort key: leave out --sk",
                info.name
            )));
        }
        (None, None) => {}
    }
    let key = KeySpec::new(pairs).plan(info)?;
    let (item, _) = unless_stopped(
        stop,
        "GetItem",
        read::get_existing(&connection.reader(), info, key),
    )
    .await?;
    Ok(item)
}

/// Print the shard advice for `--writes-per-second` writes of `--item-bytes`, priced by
/// `--table` (and checked for local secondary indexes) when `connection` is given.
pub(crate) async fn shards_advice(
    connection: Option<&Connection>,
    args: ShardsAdviceArgs,
    out: &mut Output,
    stop: &CancelToken,
) -> Result<Exit> {
    let kind = if args.transactional {
        WriteKind::Transactional
    } else {
        WriteKind::Standard
    };
    let mut advice = ShardAdvice::new(args.writes_per_second, args.item_bytes, kind)?;
    let pricing = match (connection, args.table.as_deref()) {
        (Some(connection), Some(table)) => {
            let info = describe(&connection.reader(), table, stop).await?;
            advice.has_lsi = Some(info.indexes.iter().any(|i| i.kind == IndexKind::Local));
            connection.pricing(&info)
        }
        _ => bare_pricing(out),
    };
    let shards = args.shards;
    said_read(
        out,
        &PricedAdvice {
            advice,
            shards,
            pricing,
        },
    )
}
