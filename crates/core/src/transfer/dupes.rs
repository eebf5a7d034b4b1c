//! A key given twice in an import, found in bounded memory whatever the import's size: each
//! key's canonical bytes are hashed to 128 bits and kept with their place; beyond a cap the
//! hashes are sorted and spilled to a run in a temporary folder, and the runs are merged at the
//! end. Two keys are one when their hashes are (for a billion keys, two different ones share a
//! hash with a chance of about 1 in 10^21).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::file_error;
use crate::error::{Error, Result};
use crate::files::unique;
use crate::number;
use crate::table::TableInfo;
use crate::value::Item;

/// Keys held in memory before a run is spilled: 512 Ki of 32 bytes, 16 MiB.
pub(crate) const KEYS_IN_MEMORY: usize = 512 << 10;

/// Runs merged at once: each reads through a buffer of [`RUN_BUFFER`] bytes.
const FAN_IN: usize = 64;

const RUN_BUFFER: usize = 64 << 10;

/// Bytes of one key on disk: its hash, its file and its line.
const ENTRY_BYTES: usize = 16 + 4 + 8;

/// Where a key was read: the file's number (in the import's list) and the line.
pub type Place = (u32, u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    hash: u128,
    place: Place,
}

impl Entry {
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&self.hash.to_le_bytes())?;
        out.write_all(&self.place.0.to_le_bytes())?;
        out.write_all(&self.place.1.to_le_bytes())
    }

    fn read(input: &mut impl Read) -> std::io::Result<Option<Self>> {
        let mut bytes = [0u8; ENTRY_BYTES];
        match input.read_exact(&mut bytes) {
            Ok(()) => {}
            // Runs are written whole by this process, so the end is between entries.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let mut hash = [0u8; 16];
        let mut file = [0u8; 4];
        let mut line = [0u8; 8];
        hash.copy_from_slice(&bytes[..16]);
        file.copy_from_slice(&bytes[16..20]);
        line.copy_from_slice(&bytes[20..]);
        Ok(Some(Self {
            hash: u128::from_le_bytes(hash),
            place: (u32::from_le_bytes(file), u64::from_le_bytes(line)),
        }))
    }
}

/// The keys seen so far.
pub(crate) struct KeysSeen {
    hashers: (std::hash::RandomState, std::hash::RandomState),
    entries: Vec<Entry>,
    cap: usize,
    spill: Option<SpillDir>,
    runs: Vec<PathBuf>,
    bytes: Vec<u8>,
}

impl KeysSeen {
    /// None seen yet; at most `cap` held in memory (at least 1).
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            hashers: Default::default(),
            entries: Vec::new(),
            cap: cap.max(1),
            spill: None,
            runs: Vec::new(),
            bytes: Vec::new(),
        }
    }

    /// The key of `item` (the table's key attributes, already checked) read at `place`.
    pub(crate) fn add(&mut self, item: &Item, info: &TableInfo, place: Place) -> Result<()> {
        self.bytes.clear();
        for key in [Some(&info.partition), info.sort.as_ref()]
            .into_iter()
            .flatten()
        {
            canonical(item.get(&key.name), &mut self.bytes);
        }
        let hash = |state: &std::hash::RandomState| {
            let mut h = state.build_hasher();
            h.write(&self.bytes);
            h.finish()
        };
        let hash = (u128::from(hash(&self.hashers.0)) << 64) | u128::from(hash(&self.hashers.1));
        self.entries.push(Entry { hash, place });
        if self.entries.len() >= self.cap {
            self.spill_run()?;
        }
        Ok(())
    }

    /// Runs spilled to disk so far.
    #[cfg(test)]
    fn runs_spilled(&self) -> usize {
        self.runs.len()
    }

    fn spill_run(&mut self) -> Result<()> {
        self.entries.sort_unstable();
        let dir = match &self.spill {
            Some(dir) => dir,
            None => self.spill.insert(SpillDir::new()?),
        };
        let path = dir.path.join(format!("run-{}", self.runs.len()));
        write_run(&path, self.entries.drain(..).map(Ok))?;
        self.runs.push(path);
        Ok(())
    }

    /// The first key given twice, by where its second one is: `(first place, second place)`.
    pub(crate) fn finish(mut self) -> Result<Option<(Place, Place)>> {
        if self.runs.is_empty() {
            self.entries.sort_unstable();
            return first_twice(self.entries.into_iter().map(Ok), Path::new("memory"));
        }
        if !self.entries.is_empty() {
            self.spill_run()?;
        }
        let Some(dir) = self.spill.take() else {
            return Ok(None);
        };
        let mut runs = std::mem::take(&mut self.runs);
        let mut merged = 0;
        while runs.len() > FAN_IN {
            let group: Vec<PathBuf> = runs.drain(..FAN_IN).collect();
            let path = dir.path.join(format!("merged-{merged}"));
            merged += 1;
            write_run(&path, merge(&group)?)?;
            for done in &group {
                let _ = std::fs::remove_file(done);
            }
            runs.push(path);
        }
        let found = first_twice(merge(&runs)?, &dir.path);
        drop(dir);
        found
    }
}

/// The error of a key met twice, at `first` and again at `second`, in an export's files or
/// objects named `names` (by number, as the places count them): an export holds each item once, so a folder holding two exports, or a
/// manifest naming one object twice, would count every item twice.
pub(crate) fn twice_in_export(names: &[String], first: Place, second: Place) -> Error {
    let name = |n: u32| names.get(n as usize).map_or("the export", String::as_str);
    let also = if first.0 == second.0 {
        format!("line {}", first.1)
    } else {
        format!("{} line {}", name(first.0), first.1)
    };
    Error::Invalid(format!(
        "{}: line {}: a key is there twice (also at {also}); an export holds each item once, so \
         these are two exports (or one object named twice) and every item would be counted \
         twice: point at one export",
        name(second.0),
        second.1
    ))
}

/// The canonical bytes of a key value: its type, its length and its bytes, a number by its
/// value (`1` and `1.0` are one key to DynamoDB).
fn canonical(value: Option<&AttributeValue>, out: &mut Vec<u8>) {
    let (tag, bytes): (u8, Vec<u8>) = match value {
        Some(AttributeValue::S(s)) => (b'S', s.as_bytes().to_vec()),
        Some(AttributeValue::N(n)) => {
            let text = number::parse(n).map_or_else(
                |_| n.clone(),
                |d| {
                    let (digits, scale) = d.normalized().as_bigint_and_exponent();
                    format!("{digits}e{}", -scale)
                },
            );
            (b'N', text.into_bytes())
        }
        Some(AttributeValue::B(b)) => (b'B', b.as_ref().to_vec()),
        _ => (b'-', Vec::new()),
    };
    out.push(tag);
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(&bytes);
}

/// The pair of places of the first hash met twice, the one whose second place comes first.
fn first_twice(
    entries: impl Iterator<Item = std::io::Result<Entry>>,
    from: &Path,
) -> Result<Option<(Place, Place)>> {
    let mut previous: Option<Entry> = None;
    let mut best: Option<(Place, Place)> = None;
    for entry in entries {
        let entry = entry.map_err(|e| file_error(from, "reading", &e))?;
        if let Some(before) = previous
            && before.hash == entry.hash
            && best.is_none_or(|(_, second)| entry.place < second)
        {
            best = Some((before.place, entry.place));
        }
        // Of three or more alike, the first two are the pair to tell.
        if previous.is_none_or(|p| p.hash != entry.hash) {
            previous = Some(entry);
        }
    }
    Ok(best)
}

fn write_run(path: &Path, entries: impl Iterator<Item = std::io::Result<Entry>>) -> Result<()> {
    let file = std::fs::File::create(path).map_err(|e| file_error(path, "creating", &e))?;
    let mut out = BufWriter::with_capacity(RUN_BUFFER, file);
    for entry in entries {
        entry
            .map_err(|e| file_error(path, "reading", &e))?
            .write(&mut out)
            .map_err(|e| file_error(path, "writing", &e))?;
    }
    out.flush().map_err(|e| file_error(path, "writing", &e))
}

/// The entries of sorted `runs`, merged in order.
fn merge(runs: &[PathBuf]) -> Result<impl Iterator<Item = std::io::Result<Entry>>> {
    let mut readers = Vec::new();
    let mut heap = BinaryHeap::new();
    for (i, path) in runs.iter().enumerate() {
        let file = std::fs::File::open(path).map_err(|e| file_error(path, "reading", &e))?;
        let mut reader = BufReader::with_capacity(RUN_BUFFER, file);
        if let Some(entry) =
            Entry::read(&mut reader).map_err(|e| file_error(path, "reading", &e))?
        {
            heap.push(Reverse((entry, i)));
        }
        readers.push(reader);
    }
    Ok(std::iter::from_fn(move || {
        let Reverse((entry, i)) = heap.pop()?;
        match readers.get_mut(i).map(Entry::read) {
            Some(Ok(Some(next))) => heap.push(Reverse((next, i))),
            Some(Err(e)) => return Some(Err(e)),
            _ => {}
        }
        Some(Ok(entry))
    }))
}

/// A temporary folder of runs, removed with everything in it when dropped.
struct SpillDir {
    path: PathBuf,
}

impl SpillDir {
    fn new() -> Result<Self> {
        let base = std::env::temp_dir();
        let mut tries = 0;
        loop {
            let path = base.join(format!(
                "dynoscope-keys-{}-{}",
                std::process::id(),
                unique()
            ));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 100 => {
                    tries += 1;
                }
                Err(e) => {
                    return Err(Error::File {
                        action: "creating",
                        path: path.display().to_string(),
                        detail: format!("{e} (a folder for the keys of a large import)"),
                    });
                }
            }
        }
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        // Nothing is lost if this fails: the folder is in the system's temporary folder.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::ScalarType;
    use crate::table::KeyAttr;

    fn info() -> TableInfo {
        TableInfo::with_keys(
            "T",
            KeyAttr::new("PK", ScalarType::S),
            Some(KeyAttr::new("n", ScalarType::N)),
        )
    }

    fn item(pk: &str, n: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S(pk.into())),
            ("n".to_owned(), AttributeValue::N(n.into())),
        ])
    }

    fn first_twice_of(cap: usize, items: &[Item]) -> (Option<(Place, Place)>, usize) {
        let mut seen = KeysSeen::new(cap);
        for (i, item) in items.iter().enumerate() {
            seen.add(item, &info(), (0, i as u64 + 1)).unwrap();
        }
        let runs = seen.runs_spilled();
        (seen.finish().unwrap(), runs)
    }

    #[test]
    fn a_key_twice_is_found_with_both_places_in_memory_and_spilled() {
        let mut items: Vec<Item> = (0..1000).map(|i| item(&format!("P#{i}"), "1")).collect();
        // Line 900 repeats line 10, as a number by value (1.0 is 1); line 950 repeats line 20.
        items[899] = item("P#9", "1.0");
        items[949] = item("P#19", "1");
        for cap in [KEYS_IN_MEMORY, 7] {
            let (found, runs) = first_twice_of(cap, &items);
            assert_eq!(found, Some(((0, 10), (0, 900))), "cap {cap}");
            // 1000 keys in runs of 7: 142 runs, more than one merge can take at once.
            assert_eq!(runs, if cap == 7 { 142 } else { 0 });
        }
        items[899] = item("P#9", "2");
        items[949] = item("P#19", "2");
        assert_eq!(first_twice_of(7, &items).0, None);
    }

    #[test]
    fn a_spilled_run_reads_back_as_written() {
        let entry = Entry {
            hash: u128::MAX - 5,
            place: (3, 1 << 40),
        };
        let mut bytes = Vec::new();
        entry.write(&mut bytes).unwrap();
        assert_eq!(bytes.len(), ENTRY_BYTES);
        assert_eq!(Entry::read(&mut bytes.as_slice()).unwrap(), Some(entry));
        assert_eq!(Entry::read(&mut &b""[..]).unwrap(), None);
    }
}
