//! `dynoscope get`, `put` and `delete`: one item read by its key, or written or removed through
//! the write gateway in the builder Run's words.

use crate::args::{DeleteArgs, GetArgs, PutArgs};
use crate::context::Ctx;
use crate::exit::{Exit, said, said_read};
use crate::interrupt::{describe, unless_stopped};
use crate::item_rows::ItemRows;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::report::Report as _;
use dynoscope_core::spec::{DeleteSpec, GetSpec, PutSpec};

/// Put the item of `--item` (DynamoDB JSON), only when no item has its key with
/// `--create-only`.
pub(crate) async fn put(cx: &mut Ctx<'_>, args: PutArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let spec = PutSpec {
        table: args.table.clone(),
        item: args.item.clone(),
        create_only: args.create_only,
    };
    // What DynamoDB would refuse of the item alone is said before anything is read.
    spec.item()?;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let written = spec.run(connection, &info, confirmed, stop).await?;
    said(out, &written)
}

/// Print the item with the key of `--key`, read consistently: plain JSON (DynamoDB JSON with
/// `--json`), numbers exact. The read is core's (`GetSpec::read`, the MCP `get_item`'s too): no
/// such item is its refusal, said once on stderr (exit 1).
pub(crate) async fn get(cx: &mut Ctx<'_>, args: GetArgs) -> Result<Exit> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let spec = GetSpec {
        table: args.table.clone(),
        key: crate::flags::key_spec(args.keys.iter().map(String::as_str))?,
    };
    let got = spec.read(connection, &info, stop).await?;
    if let Some(missing) = got.missing() {
        return Err(missing);
    }
    ItemRows::new(info.key_names()).block(out, got.stored.as_slice());
    out.flush();
    out.failure().map_or(Ok(()), Err)?;
    for line in got.lines() {
        out.note(line.text);
    }
    Ok(Exit::from(got.ending()))
}

/// Delete the item with the key of `--key`.
pub(crate) async fn delete(cx: &mut Ctx<'_>, args: DeleteArgs) -> Result<Exit> {
    if args.from_query {
        return crate::purge::from_query(cx, &args).await;
    }
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    refuse_bulk_flags(&args)?;
    let info = describe(&connection.reader(), &args.table, stop).await?;
    let spec = DeleteSpec {
        table: args.table.clone(),
        key: crate::flags::key_spec(args.keys.iter().map(String::as_str))?,
    };
    if args.purge.dry_run {
        let planned = unless_stopped(stop, "GetItem", spec.dry_run(connection, &info)).await?;
        return said_read(out, &planned);
    }
    let written = spec.run(connection, &info, confirmed, stop).await?;
    said(out, &written)
}

/// A delete by `--key` takes none of the flags of a delete of many items: each is refused in
/// words rather than ignored.
fn refuse_bulk_flags(args: &DeleteArgs) -> Result<()> {
    let purge = &args.purge;
    let given = [
        ("--pk", args.pk.is_some()),
        ("--sk-begins-with", args.sk_begins_with.is_some()),
        ("--tally", purge.counters.tally.is_some()),
        ("--parent-sk", purge.counters.parent_sk != "META"),
        ("--parent-prefix", !purge.counters.parent_prefix.is_empty()),
        ("--child-prefix", !purge.counters.child_prefix.is_empty()),
        ("--index", purge.counters.index.is_some()),
        ("--tallies", purge.tallies.is_some()),
    ];
    let named: Vec<&str> = given
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| *n)
        .collect();
    if named.is_empty() {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "{} belong{} to a delete of many items (--from-query); a delete by --key takes its key \
         and --dry-run: nothing was sent",
        named.join(", "),
        if named.len() == 1 { "s" } else { "" }
    )))
}
