//! A side of a comparison: a live table (read through the one reader, read units spent) or a
//! DynamoDB export's files in the S3 export format (a file or a folder, gzipped or not; read
//! from disk, no read unit spent), each read whole in batches, and the items of the keys that
//! differ fetched again — by key from a table, by a second pass over an export's files.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use tokio::sync::mpsc;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::diff::packed::key_hash;
use crate::diff::report::Side;
use crate::diff::{DiffScope, read_side, request};
use crate::error::{Error, Result};
use crate::read;
use crate::table::TableInfo;
use crate::transfer::{
    FileItems, Format, KEYS_IN_MEMORY, KeysSeen, TextSource, export_sources, twice_in_export,
};
use crate::value::Item;
use crate::write::Destination;

/// Items handed over from an export's files at a time.
const BATCH: usize = 1000;

/// One side of a comparison.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A table on a connection, described.
    Live(&'a Connection, &'a TableInfo),
    /// An export's file or folder (S3 export format) here, or its folder in S3 (`s3://…`, read
    /// with the connection's S3 client), priced as the live table it is compared with (it
    /// spends nothing itself).
    Export(&'a Path, &'a Pricing, &'a Connection),
}

impl Source<'_> {
    /// The side as the report shows it; `info` gives the keys.
    pub(super) fn side(&self, info: &TableInfo) -> Side {
        let (table, place, pricing) = match self {
            Self::Live(connection, table) => (
                table.name.clone(),
                Destination::of(connection).place(),
                connection.pricing(table),
            ),
            Self::Export(path, pricing, _) => (
                info.name.clone(),
                format!("the export at {}", path.display()),
                (*pricing).clone(),
            ),
        };
        Side {
            table,
            place,
            key_names: info.key_names(),
            pricing,
            read: 0,
            rcu: 0.0,
        }
    }

    /// Read every item of `scope` (an export: every item, always), each batch handed to
    /// `on_batch` with the read units it spent.
    pub(super) async fn read_all(
        &self,
        info: &TableInfo,
        scope: &DiffScope,
        stop: &CancelToken,
        mut on_batch: impl FnMut(Vec<Item>, f64),
    ) -> Result<()> {
        match self {
            Self::Live(connection, info) => {
                let request = request(info, scope)?;
                let reader = connection.reader();
                read_side(&reader, &request, scope, stop, |page| {
                    on_batch(page.items, page.consumed_rcu);
                })
                .await
            }
            Self::Export(path, _, connection) => {
                let files = sources(path, connection, stop).await?;
                let (tx, mut rx) = mpsc::channel::<Vec<Item>>(4);
                let info = info.clone();
                let reading = tokio::task::spawn_blocking(move || feed(&files, &info, &tx));
                loop {
                    let batch = tokio::select! {
                        batch = rx.recv() => batch,
                        () = stop.cancelled() => None,
                    };
                    let Some(batch) = batch else { break };
                    on_batch(batch, 0.0);
                }
                let stopped = stop.is_cancelled();
                // The reader's thread ends at its next batch once nobody receives: waited
                // for, so no read of it is left running after the comparison.
                drop(rx);
                let read = reading.await.map_err(|e| Error::TaskDied {
                    op: "reading the export",
                    detail: e.to_string(),
                })?;
                // Stopped: a read given up on mid-object fails, and is said as stopped.
                if stopped {
                    return Err(Error::Cancelled {
                        op: "reading the export",
                    });
                }
                read
            }
        }
    }

    /// The items of `keys` on this side (`None`: not there) and the read units spent: by key
    /// from a table, by one more pass over an export's files.
    pub(super) async fn items_of(
        &self,
        keys: &[Item],
        key_names: &[String],
        stop: &CancelToken,
    ) -> Result<(Vec<Option<Item>>, f64)> {
        match self {
            Self::Live(connection, info) => {
                let reader = connection.reader();
                let (mut items, mut rcu) = (Vec::with_capacity(keys.len()), 0.0);
                for key in keys {
                    let (item, spent) =
                        read::get_item_costed(&reader, &info.name, key.clone()).await?;
                    items.push(item);
                    rcu += spent;
                }
                Ok((items, rcu))
            }
            Self::Export(..) if keys.is_empty() => Ok((Vec::new(), 0.0)),
            Self::Export(path, _, connection) => {
                let files = sources(path, connection, stop).await?;
                let wanted: HashSet<u128> = keys.iter().map(|k| key_hash(k, key_names)).collect();
                let names = key_names.to_vec();
                let found = tokio::task::spawn_blocking(move || gather(&files, &wanted, &names))
                    .await
                    .map_err(|e| Error::TaskDied {
                        op: "reading the export",
                        detail: e.to_string(),
                    })??;
                let items = keys
                    .iter()
                    .map(|k| found.get(&key_hash(k, key_names)).cloned());
                Ok((items.collect(), 0.0))
            }
        }
    }
}

/// The export's files here, or its objects in S3 (`s3://…`), each opened when read.
async fn sources(
    path: &Path,
    connection: &Connection,
    stop: &CancelToken,
) -> Result<Vec<Box<dyn TextSource>>> {
    let location = path.to_string_lossy();
    Ok(export_sources(&connection.s3(), &location, stop)
        .await?
        .sources)
}

/// Every item of `files` sent in batches; a closed channel (the comparison gone) stops it. A key
/// met twice (two exports in one folder, an object named twice) ends it with an error, found in
/// bounded memory: a key on both sides is then never said to be on one.
fn feed(
    files: &[Box<dyn TextSource>],
    info: &TableInfo,
    tx: &mpsc::Sender<Vec<Item>>,
) -> Result<()> {
    let mut batch = Vec::with_capacity(BATCH);
    let mut keys = KeysSeen::new(KEYS_IN_MEMORY);
    for (number, file) in files.iter().enumerate() {
        let mut source = FileItems::of_source(file.as_ref(), Format::S3Export, &HashMap::new())?;
        if tx.is_closed() {
            return Ok(());
        }
        while let Some((line, item)) = source.next_item()? {
            keys.add(&item, info, (number as u32, line as u64))?;
            batch.push(item);
            if batch.len() == BATCH && tx.blocking_send(std::mem::take(&mut batch)).is_err() {
                return Ok(());
            }
        }
    }
    if let Some((first, second)) = keys.finish()? {
        let names: Vec<String> = files.iter().map(|f| f.name()).collect();
        return Err(twice_in_export(&names, first, second));
    }
    if !batch.is_empty() {
        let _gone = tx.blocking_send(batch);
    }
    Ok(())
}

/// The items of `files` whose key hash is `wanted`, by key hash.
fn gather(
    files: &[Box<dyn TextSource>],
    wanted: &HashSet<u128>,
    key_names: &[String],
) -> Result<HashMap<u128, Item>> {
    let mut found = HashMap::new();
    for file in files {
        let mut source = FileItems::of_source(file.as_ref(), Format::S3Export, &HashMap::new())?;
        while let Some((_, item)) = source.next_item()? {
            let hash = key_hash(&item, key_names);
            if wanted.contains(&hash) {
                found.insert(hash, item);
            }
        }
    }
    Ok(found)
}
