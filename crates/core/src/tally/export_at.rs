//! Reconcile from an export wherever it is: its files here, or its objects in S3 (found by its
//! manifest, or under its prefix) — each streamed and gunzipped on the way, one at a time, no
//! temporary copy — through the one pass, on a thread of its own (off the runtime and off any
//! UI thread). The words of what was read are said here once, for the CLI and the app.

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::report::plural;
use crate::table::human_bytes;
use crate::tally::one_pass::OnePass;
use crate::tally::plan::export_method;
use crate::tally::{ParentCheck, RuledTable};
use crate::transfer::{
    Format, KEYS_IN_MEMORY, KeysSeen, StreamProgress, export_sources, stream_sources,
    twice_in_export,
};

/// What a reconcile from an export read: every parent's check (`None` when cancelled), how much
/// was read, the files or objects it read and what it skipped.
#[derive(Debug)]
pub struct ExportChecked {
    /// Every parent's check; `None` when cancelled.
    pub checks: Option<Vec<Result<ParentCheck>>>,
    /// How much was read.
    pub read: StreamProgress,
    /// The files or objects read, by name.
    pub sources: Vec<String>,
    /// What was skipped (links not followed), each said.
    pub skipped: Vec<String>,
    /// Where: the location as given.
    pub location: String,
    /// In S3 (objects), or on this machine (files).
    pub in_s3: bool,
}

impl ExportChecked {
    /// What was read, before the checks: `reading 2 files from ./export:` or `read 1 object
    /// from s3://…:`.
    pub fn source_line(&self) -> String {
        let (verb, noun) = if self.in_s3 {
            ("read", "object")
        } else {
            ("reading", "file")
        };
        let count = plural(self.sources.len(), noun);
        format!("{verb} {count} from {}:", self.location)
    }

    /// How much, after: `Read 26524 items (2.0 MB) from the export; no item read from the table.`
    pub fn read_line(&self) -> String {
        let bytes = human_bytes(i64::try_from(self.read.bytes).unwrap_or(i64::MAX));
        let place = if self.in_s3 {
            "the export in S3"
        } else {
            "the export"
        };
        let items = self.read.items;
        format!("Read {items} items ({bytes}) from {place}; no item read from the table.")
    }
}

/// An export to reconcile from.
#[derive(Debug, Clone)]
pub struct ExportAt {
    /// A folder or file here, or `s3://BUCKET/PREFIX`.
    pub location: String,
    /// The export's format.
    pub format: Format,
}

/// Objects read from S3 at a time: each mostly waits on the network.
const S3_AT_ONCE: usize = 4;

/// Reconcile `table`'s rule from the export of that table `at` its location (a file or folder
/// here, or `s3://BUCKET/PREFIX` read with `connection`'s S3 client), in its format: no DynamoDB
/// request is sent (the table's description gives the keys). `on_progress` hears about every
/// block read.
pub async fn check_export_at(
    connection: &Connection,
    table: RuledTable<'_>,
    at: &ExportAt,
    cancel: &CancelToken,
    on_progress: impl FnMut(StreamProgress) + Send + 'static,
) -> Result<ExportChecked> {
    let RuledTable { info, rule } = table;
    let (location, format) = (at.location.as_str(), at.format);
    let data = export_sources(&connection.s3(), location, cancel).await?;
    let (owned, rule, stop) = (info.clone(), rule.clone(), cancel.clone());
    let sources = data.sources;
    let at_once = if data.in_s3 { S3_AT_ONCE } else { 1 };
    // Files and objects are read by blocking calls (a body bridged to a `Read`): off the runtime.
    let names = data.names.clone();
    let (pass, read) = tokio::task::spawn_blocking(move || -> Result<_> {
        let mut pass = OnePass::new(&owned, &rule)?;
        let wanted = pass.wanted();
        // A key twice (two exports under one prefix, an object named twice) is refused, found
        // in bounded memory.
        let mut keys = KeysSeen::new(KEYS_IN_MEMORY);
        let mut failed = None;
        let on_item = |item, place| {
            if let Err(e) = keys.add(&item, &owned, place) {
                failed.get_or_insert(e);
            }
            pass.add(item);
        };
        let read = stream_sources(
            sources,
            format,
            &wanted,
            &stop,
            at_once,
            on_item,
            on_progress,
        )?;
        if stop.is_cancelled() {
            return Ok((None, read));
        }
        if let Some(error) = failed {
            return Err(error);
        }
        if let Some((first, second)) = keys.finish()? {
            return Err(twice_in_export(&names, first, second));
        }
        Ok((Some(pass), read))
    })
    .await
    .map_err(|e| Error::TaskDied {
        op: "reading the export",
        detail: e.to_string(),
    })??;
    let method = export_method(&data.names, read.items);
    Ok(ExportChecked {
        checks: pass.map(|pass| pass.finish(info, &method)),
        read,
        sources: data.names,
        skipped: data.skipped,
        location: location.to_owned(),
        in_s3: data.in_s3,
    })
}
