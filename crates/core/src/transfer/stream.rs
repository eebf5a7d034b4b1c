//! Reading a large export without holding it: the files are gunzipped on a second thread in
//! blocks of whole lines while this thread parses each line, keeping only the attributes the
//! caller names (the rest of each line is skipped, not built). What a reconcile from an export
//! reads.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::transfer::cut::{BLOCK, Cutter};
use crate::transfer::dupes::Place;
use crate::transfer::{Fingerprint, Format, file_error, line_item, open_text};
use crate::value::strict::{Name, message_of, twice};
use crate::value::{Item, value_from_json};

/// How far a streamed read has come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamProgress {
    /// Files opened so far (the current one included).
    pub files: usize,
    /// Items read.
    pub items: u64,
    /// Bytes of text read (after gunzipping).
    pub bytes: u64,
}

/// One block of whole lines of one file.
struct Block {
    file: usize,
    /// The line number of the block's first line, from 1.
    first_line: usize,
    text: Vec<u8>,
}

/// Read every item of `files` (each plain or gzipped, in `format`: DynamoDB JSON lines or the
/// S3 export's), keeping only the attributes in `wanted`, handing each to `on_item` in file
/// order with its place (the file's number in `files`, the line). A malformed line ends the read with an error naming the file and the line; `cancel`
/// ends it with `Ok` and what was read so far. `on_progress` hears about every block (about
/// 1 MiB of text).
pub(crate) fn stream_items(
    files: &[PathBuf],
    format: Format,
    wanted: &HashSet<String>,
    cancel: &CancelToken,
    on_item: impl FnMut(Item, Place),
    on_progress: impl FnMut(StreamProgress),
) -> Result<StreamProgress> {
    let sources: Vec<Box<dyn TextSource>> = (files.iter())
        .map(|f| Box::new(f.clone()) as Box<dyn TextSource>)
        .collect();
    stream_sources(sources, format, wanted, cancel, 1, on_item, on_progress)
}

/// Where the text of one file of an export comes from: a file here, or an object in S3.
pub(crate) trait TextSource: Send + Sync {
    /// Its name in words and errors: a path, or `s3://bucket/key`.
    fn name(&self) -> String;
    /// Its text, gunzipped on the way when it is gzip, and what reading it is called.
    fn open(&self) -> Result<(Box<dyn std::io::BufRead + Send>, &'static str)>;
    /// What it is now, to tell whether it changed between two readings.
    fn fingerprint(&self) -> Result<Fingerprint>;
    /// The file here, when it is one (a CSV file, a file of skipped lines).
    fn path(&self) -> Option<&Path> {
        None
    }
    /// The same source read only while it is as `fingerprint` says, when the place it is in can
    /// hold a read to that (S3's `If-Match` on the object's ETag); `None` where it cannot.
    fn pinned(&self, _fingerprint: &Fingerprint) -> Option<Box<dyn TextSource>> {
        None
    }
    /// The same source, its reads given up on when `stop` (a later run's) is cancelled, where a
    /// read can stall on the network (an object in S3); `None` where nothing is to be stopped.
    fn stopped_by(&self, _stop: &CancelToken) -> Option<Box<dyn TextSource>> {
        None
    }
}

impl TextSource for PathBuf {
    fn name(&self) -> String {
        self.display().to_string()
    }

    fn open(&self) -> Result<(Box<dyn std::io::BufRead + Send>, &'static str)> {
        open_text(self)
    }

    fn fingerprint(&self) -> Result<Fingerprint> {
        Fingerprint::of(self)
    }

    fn path(&self) -> Option<&Path> {
        Some(self)
    }
}

/// [`stream_items`] over any sources, read on threads of their own: one after another when
/// `at_once` is 1 (items in file order), else up to `at_once` sources at a time (objects in S3,
/// each waiting on the network; items then come in no set order). Memory stays bounded: a few
/// blocks of about 1 MiB queued, and one being read per source open.
pub(crate) fn stream_sources(
    sources: Vec<Box<dyn TextSource>>,
    format: Format,
    wanted: &HashSet<String>,
    cancel: &CancelToken,
    at_once: usize,
    mut on_item: impl FnMut(Item, Place),
    mut on_progress: impl FnMut(StreamProgress),
) -> Result<StreamProgress> {
    if !matches!(
        format,
        Format::S3Export | Format::DynamoDbJsonLines | Format::JsonLines
    ) {
        return Err(Error::Invalid(
            "an export is read as JSON lines (s3-export, ddb-json or jsonl), not CSV".into(),
        ));
    }
    let (tx, rx) = mpsc::sync_channel::<Result<Block>>(4);
    let names: Vec<String> = sources.iter().map(|s| s.name()).collect();
    let stop = cancel.clone();
    let reader = std::thread::spawn(move || read_blocks(&sources, &tx, &stop, at_once));
    let mut progress = StreamProgress::default();
    let mut result = Ok(());
    for block in &rx {
        let block = match block {
            Ok(block) => block,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        if cancel.is_cancelled() {
            break;
        }
        progress.files = progress.files.max(block.file + 1);
        progress.bytes += block.text.len() as u64;
        if let Err(e) = parse_block(&block, format, wanted, &mut progress.items, &mut on_item) {
            result = Err(match names.get(block.file) {
                Some(name) => e.at(name),
                None => e,
            });
            break;
        }
        on_progress(progress);
    }
    // Dropping the receiver stops the reader at its next block.
    drop(rx);
    if reader.join().is_err() {
        result = result.and(Err(Error::TaskDied {
            op: "reading the export",
            detail: "the gunzipping thread panicked".into(),
        }));
    }
    result.map(|()| progress)
}

/// Gunzip (when the file starts as gzip) and cut each file into blocks of whole lines, `at_once`
/// files at a time; the first error is sent and ends the reading of the others.
fn read_blocks(
    sources: &[Box<dyn TextSource>],
    tx: &mpsc::SyncSender<Result<Block>>,
    cancel: &CancelToken,
    at_once: usize,
) {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || {
        loop {
            let file = next.fetch_add(1, Ordering::Relaxed);
            let Some(source) = sources.get(file) else {
                return;
            };
            if cancel.is_cancelled() || failed.load(Ordering::Relaxed) {
                return;
            }
            if let Err(e) = read_one(file, source.as_ref(), tx, cancel) {
                failed.store(true, Ordering::Relaxed);
                let _ = tx.send(Err(e));
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..at_once.clamp(1, sources.len().max(1)) {
            scope.spawn(work);
        }
        work();
    });
}

fn read_one(
    file: usize,
    source: &dyn TextSource,
    tx: &mpsc::SyncSender<Result<Block>>,
    cancel: &CancelToken,
) -> Result<()> {
    let (mut input, action) = source.open()?;
    let name = source.name();
    let path = Path::new(&name);
    let mut cutter = Cutter::default();
    loop {
        let mut text = cutter.buffer();
        let start = text.len();
        let read = (&mut input)
            .take(BLOCK as u64)
            .read_to_end(&mut text)
            .map_err(|e| {
                // A body given up on because the run stopped: stopped, not a broken file.
                if cancel.is_cancelled() {
                    Error::Cancelled {
                        op: "reading the export",
                    }
                } else {
                    file_error(path, action, &e)
                }
            })?;
        let cut = if read == 0 {
            cutter.carry = text;
            cutter.finish()
        } else {
            cutter.cut(text, start).map_err(|e| e.at(&name))?
        };
        let Some((first_line, text)) = cut else {
            if read == 0 {
                return Ok(());
            }
            continue;
        };
        if tx
            .send(Ok(Block {
                file,
                first_line,
                text,
            }))
            .is_err()
            || cancel.is_cancelled()
        {
            return Ok(());
        }
    }
}

fn parse_block(
    block: &Block,
    format: Format,
    wanted: &HashSet<String>,
    items: &mut u64,
    on_item: &mut impl FnMut(Item, Place),
) -> Result<()> {
    for (i, line) in block.text.split(|b| *b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let at = |why: String| Error::Invalid(format!("line {}: {why}", block.first_line + i));
        let item = match format {
            Format::S3Export => slim(line, true, wanted),
            Format::DynamoDbJsonLines => slim(line, false, wanted),
            _ => std::str::from_utf8(line)
                .map_err(|e| e.to_string())
                .and_then(|text| line_item(text, format).map_err(|e| e.to_string()))
                .map(|mut item| {
                    item.retain(|name, _| wanted.contains(name));
                    item
                }),
        }
        .map_err(at)?;
        *items += 1;
        on_item(item, (block.file as u32, (block.first_line + i) as u64));
    }
    Ok(())
}

/// The wanted attributes of one line: `{"Item": {…}}` when `wrapped`, else the item itself.
fn slim(line: &[u8], wrapped: bool, wanted: &HashSet<String>) -> std::result::Result<Item, String> {
    crate::validate::check_item_text_bound(line)?;
    let mut de = serde_json::Deserializer::from_slice(line);
    let item = if wrapped {
        Wrapped(Wanted(wanted)).deserialize(&mut de)
    } else {
        Wanted(wanted).deserialize(&mut de)
    }
    .map_err(|e| positioned(&e))?;
    de.end().map_err(|e| positioned(&e))?;
    Ok(item)
}

/// serde's message with the column in the line (its "line 1" is always 1 here).
fn positioned(e: &serde_json::Error) -> String {
    format!("{} (column {})", message_of(e), e.column())
}

/// An item's map, keeping the wanted attributes.
struct Wanted<'a>(&'a HashSet<String>);

impl<'de> DeserializeSeed<'de> for Wanted<'_> {
    type Value = Item;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Item, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Wanted<'_> {
    type Value = Item;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a DynamoDB JSON item (an object of typed values)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Item, A::Error> {
        let mut item = Item::new();
        while let Some(name) = map.next_key::<Name<'de>>()? {
            if self.0.contains(name.as_str()) {
                let json: serde_json::Value = map.next_value()?;
                let value = value_from_json(&json)
                    .map_err(|e| de::Error::custom(format!("{}: {e}", name.as_str())))?;
                if item.insert(name.as_str().to_owned(), value).is_some() {
                    return Err(twice(name.as_str()));
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(item)
    }
}

/// `{"Item": {…}}` and nothing else.
struct Wrapped<'a>(Wanted<'a>);

impl<'de> DeserializeSeed<'de> for Wrapped<'_> {
    type Value = Item;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Item, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Wrapped<'_> {
    type Value = Item;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an S3 export line, {\"Item\": {…}}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Item, A::Error> {
        let wrong = || de::Error::custom("an S3 export line is {\"Item\": {…}}, with nothing else");
        match map.next_key::<Name<'de>>()? {
            Some(name) if name.as_str() == "Item" => {}
            _ => return Err(wrong()),
        }
        let item = map.next_value_seed(self.0)?;
        if map.next_key::<Name<'de>>()?.is_some() {
            return Err(wrong());
        }
        Ok(item)
    }
}
