//! The reading side of an import's write pass: the checked files read again on a blocking
//! thread, each item checked again and handed over in batches of 25; with lines skipped, those
//! lines written to `FILE.rejected`, each after a `#` line saying why.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::import::{CheckedFile, DataSource, ImportCheck, batches};
use crate::table::TableInfo;
use crate::transfer::{FileItems, IfExists, write_file};
use crate::validate;
use crate::value::Item;
use crate::write::Batch;

/// Where each item of a batch came from.
pub(crate) type Places = Vec<(Arc<Path>, usize)>;

/// What the reading thread hands over: batches with their places.
type Feed = batches::Feed<Places>;

/// How a reading ended.
enum Read {
    /// Every file to its end.
    Whole,
    /// Stopped before the end (a change, a cancel, nobody taking batches).
    Stopped,
}

/// Refused when an import of `checked` would write its skipped lines where a file already is
/// (an earlier import's, perhaps fixed by hand since): said before anything is sent, and that
/// file left as it is.
pub fn check_rejected_free(checked: &ImportCheck) -> Result<()> {
    let path = &checked.rejected;
    if checked.invalid.total == 0 || std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "{} exists (the lines an earlier import skipped, perhaps fixed by hand): it is not \
         replaced, so nothing was sent; import it, or move it away and import again",
        path.display()
    )))
}

/// Read the checked files again, check each item again, and hand over batches of 25 until the
/// end, a change, a cancel or nobody taking them. When the check skipped lines, they are
/// written to `FILE.rejected` as they are met, the file taking its name only once every file
/// was read to its end; its path is returned.
pub(super) fn feed(
    checked: &ImportCheck,
    info: &TableInfo,
    tx: &mpsc::Sender<Feed>,
    cancel: &CancelToken,
) -> Option<PathBuf> {
    if checked.invalid.total == 0 {
        // Without a file of skipped lines nothing is written here, so the reading cannot fail:
        // how it ended is told through `tx`.
        let _ = read(checked, info, tx, cancel, None);
        return None;
    }
    let path = checked.rejected.clone();
    let mut stopped = false;
    // A reading stopped before its end leaves no file (nor a part of one): the error here only
    // says so to `write_file`.
    // Never over a file that appeared since [`check_rejected_free`] found none. Its folder (an
    // S3 import's, in the data folder) is made when missing; if it cannot be, the write says so.
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(folder);
    }
    let written = write_file(&path, IfExists::Refuse, |out| {
        match read(checked, info, tx, cancel, Some(out))? {
            Read::Whole => Ok(()),
            Read::Stopped => {
                stopped = true;
                Err(std::io::Error::other("the import stopped before the end"))
            }
        }
    });
    match written {
        Ok(()) => Some(path),
        Err(_) if stopped => None,
        Err(e) => {
            let _ = tx.blocking_send(Feed::Stop(format!(
                "the skipped lines could not be written ({e}); nothing more was sent"
            )));
            None
        }
    }
}

/// The items of `source` (`file`'s, read under this run's stop) opened again, when it is as it
/// was checked; else why not (`changed` words a change).
fn reopen(
    source: &DataSource,
    file: &CheckedFile,
    checked: &ImportCheck,
    changed: &impl Fn(&str) -> String,
) -> std::result::Result<FileItems, String> {
    match source.fingerprint() {
        Ok(now) if now == file.fingerprint => {}
        Ok(_) => return Err(changed("its size, time or ETag")),
        Err(e) => return Err(e.to_string()),
    }
    let (format, types) = (checked.format, &checked.types);
    (source.items_as_checked(format, types, &file.fingerprint)).map_err(|e| e.to_string())
}

/// The batch being filled: its items, their places and their size.
struct Filling {
    items: Vec<Item>,
    places: Places,
    bytes: usize,
}

impl Filling {
    /// An empty batch.
    fn new() -> Self {
        Self {
            items: Vec::with_capacity(Batch::MAX),
            places: Vec::with_capacity(Batch::MAX),
            bytes: 0,
        }
    }

    /// Add `item`, read at `place`; the batch, handed over and begun again, once it is full.
    fn push(&mut self, item: Item, place: (Arc<Path>, usize)) -> Option<Feed> {
        self.bytes += validate::item_size(&item);
        self.items.push(item);
        self.places.push(place);
        if self.items.len() < Batch::MAX {
            return None;
        }
        let batch = Feed::Batch(
            std::mem::take(&mut self.items),
            std::mem::take(&mut self.places),
            self.bytes,
        );
        self.bytes = 0;
        Some(batch)
    }
}

/// The reading itself; skipped lines go to `rejects` (a write error there ends it).
fn read(
    checked: &ImportCheck,
    info: &TableInfo,
    tx: &mpsc::Sender<Feed>,
    cancel: &CancelToken,
    mut rejects: Option<&mut dyn Write>,
) -> std::io::Result<Read> {
    let mut filling = Filling::new();
    // The CSV header written at the top of the rejected file, once.
    let mut header: Option<String> = None;
    let stop = |why: String| {
        let _ = tx.blocking_send(Feed::Stop(why));
        Ok(Read::Stopped)
    };
    for file in &checked.files {
        let path: Arc<Path> = file.path.as_path().into();
        let changed = |what: &str| {
            format!(
                "{} changed since it was checked ({what}); nothing more was sent: read and check it again",
                path.display()
            )
        };
        // Read under this run's stop: the check that found the source has ended.
        let again = file.source.stopped_by(cancel);
        let mut source = match reopen(&again, file, checked, &changed) {
            Ok(source) => source,
            Err(why) => return stop(why),
        };
        let (mut read, mut skipped, mut named) = (0, 0, false);
        loop {
            let at = source.examined_bytes();
            let next = match source.next_item() {
                Ok(Some((line, item))) => match validate::check_item(&item, info) {
                    Ok(()) => Ok((line, item)),
                    Err(e) => Err(e.at(&format!("{}: line {line}", path.display()))),
                },
                Ok(None) => break,
                Err(e @ Error::Invalid(_)) if source.examined_bytes() > at => Err(e),
                Err(e) => return stop(changed(&e.to_string())),
            };
            let (line, item) = match (next, rejects.as_deref_mut()) {
                (Ok(next), _) => next,
                (Err(e), Some(out)) if skipped < file.skipped_lines => {
                    skipped += 1;
                    if !named {
                        named = true;
                        head(out, &source, &mut header)?;
                    }
                    reject(out, &source, e)?;
                    continue;
                }
                (Err(e), _) => return stop(changed(&e.reason())),
            };
            read += 1;
            if read > file.items {
                return stop(changed("it holds more items"));
            }
            if let Some(batch) = filling.push(item, (Arc::clone(&path), line))
                && (cancel.is_cancelled() || tx.blocking_send(batch).is_err())
            {
                return Ok(Read::Stopped);
            }
        }
        if read < file.items || skipped < file.skipped_lines {
            return stop(changed("it holds fewer items"));
        }
        if again.fingerprint().ok().as_ref() != Some(&file.fingerprint) {
            return stop(changed("while it was imported"));
        }
    }
    let Filling {
        items,
        places,
        bytes,
    } = filling;
    if !items.is_empty()
        && (cancel.is_cancelled() || tx.blocking_send(Feed::Batch(items, places, bytes)).is_err())
    {
        return Ok(Read::Stopped);
    }
    Ok(if cancel.is_cancelled() {
        Read::Stopped
    } else {
        Read::Whole
    })
}

/// Before a file's first skipped line: which file, and a CSV header once per rejected file
/// (so its records are a CSV file under it); a later file's other header is said as a comment.
fn head(
    out: &mut dyn Write,
    source: &FileItems,
    written: &mut Option<String>,
) -> std::io::Result<()> {
    writeln!(out, "# skipped from {}", source.path().display())?;
    match (source.header_text(), written.as_deref()) {
        (Some(header), None) => {
            writeln!(out, "{header}")?;
            *written = Some(header);
        }
        (Some(header), Some(first)) if header != first => {
            writeln!(out, "# its header: {header}")?;
        }
        _ => {}
    }
    Ok(())
}

/// One skipped line: why (at its line: the file is named above), then its text as it was
/// (when it was read whole).
fn reject(out: &mut dyn Write, source: &FileItems, error: Error) -> std::io::Result<()> {
    let reason = error.reason().replace('\n', " ");
    let file = format!("{}: ", source.path().display());
    writeln!(out, "# {}", reason.strip_prefix(&file).unwrap_or(&reason))?;
    match source.last_text() {
        Some(text) => writeln!(out, "{text}"),
        None => writeln!(out, "# (its text could not be kept)"),
    }
}
