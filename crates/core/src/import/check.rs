//! The check pass of an import: every file streamed, every item parsed and checked, a key given
//! twice found, with a preview, the columns' types and the counts kept in bounded memory.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use bigdecimal::BigDecimal;

use crate::cancel::CancelToken;
use crate::cost::{Kind, Pricing, units};
use crate::error::{Error, Result};
use crate::import::{DataSource, ImportSources};
use crate::table::TableInfo;
use crate::tally::{ImportTallies, TallyRule};
use crate::transfer::{
    CellType, Fingerprint, Format, KEYS_IN_MEMORY, KeysSeen, Place, ReadItem, StreamProgress,
};
use crate::validate;
use crate::value::key_shown;
use crate::value::{Item, type_tag};

/// Attribute names whose types the check keeps; beyond them, names are not listed.
pub const MAX_COLUMNS: usize = 1_000;

/// Items between two progress reports (and two looks at the cancel).
const EVERY: usize = 4096;

/// How much a check keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckLimits {
    /// The first items kept for a preview.
    pub preview: usize,
    /// Keys' hashes held in memory before they go to a temporary folder.
    pub keys_in_memory: usize,
    /// Lines that are not items DynamoDB would take are skipped (counted and listed) rather
    /// than the import refused; an import writes them to `FILE.rejected` with their reasons.
    pub skip_invalid: bool,
}

impl Default for CheckLimits {
    fn default() -> Self {
        Self {
            preview: 10,
            keys_in_memory: KEYS_IN_MEMORY,
            skip_invalid: false,
        }
    }
}

/// One file (or object) read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedFile {
    /// The file, or the object's `s3://` name.
    pub path: PathBuf,
    /// Where it is read from again.
    pub source: DataSource,
    /// Items it holds.
    pub items: usize,
    /// Bytes of text read (after gunzipping).
    pub text_bytes: u64,
    /// What the file was when it was read, to tell whether it changed before the write.
    pub fingerprint: Fingerprint,
    /// Lines skipped as not items DynamoDB would take (with `skip_invalid`).
    pub skipped_lines: usize,
}

/// Attribute names with the types their values have, at most [`MAX_COLUMNS`] names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Columns {
    names: BTreeMap<String, Vec<&'static str>>,
    /// More names were seen than are kept.
    pub more: bool,
}

impl Columns {
    fn add(&mut self, item: &Item) {
        for (name, value) in item {
            let kind = type_tag(value);
            let full = self.names.len() >= MAX_COLUMNS;
            match self.names.get_mut(name) {
                Some(kinds) if !kinds.contains(&kind) => kinds.push(kind),
                Some(_) => {}
                None if full => self.more = true,
                None => {
                    self.names.insert(name.clone(), vec![kind]);
                }
            }
        }
    }

    /// Every name kept with its types, by name: `likeTally: N`, `zip: N, S` (a column a CSV
    /// type could fix).
    pub fn list(&self) -> Vec<(String, Vec<&'static str>)> {
        self.names
            .iter()
            .map(|(name, kinds)| {
                let mut kinds = kinds.clone();
                kinds.sort_unstable();
                (name.clone(), kinds)
            })
            .collect()
    }
}

/// What a check found: what an import of it would put.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportCheck {
    /// The file, folder or `s3://` location given.
    pub path: PathBuf,
    /// Where the lines an import skips are written.
    pub rejected: PathBuf,
    /// The format it was read as.
    pub format: Format,
    /// How CSV columns were read.
    pub types: HashMap<String, CellType>,
    /// Every file read, in order.
    pub files: Vec<CheckedFile>,
    /// Entries of the folder left out, each with why.
    pub skipped: Vec<String>,
    /// Items read and checked.
    pub items: usize,
    /// The write units putting them costs: each item's size in 1 KB units, rounded up.
    pub write_units: u64,
    /// The first items.
    pub preview: Vec<ReadItem>,
    /// The columns and their types.
    pub columns: Columns,
    /// With `skip_invalid`: the lines skipped, which the import writes to `FILE.rejected`.
    pub invalid: InvalidLines,
    /// The counted children the file puts, per parent, and the tallies it leaves behind.
    pub tallies: ImportTallies,
}

impl ImportCheck {
    /// A check of `sources` before its first item is read.
    fn begun(
        sources: &ImportSources,
        format: Format,
        types: &HashMap<String, CellType>,
        info: &TableInfo,
        rules: &[TallyRule],
    ) -> Self {
        Self {
            path: sources.path.clone(),
            rejected: sources.rejected.clone(),
            format,
            types: types.clone(),
            files: Vec::new(),
            skipped: sources.skipped.clone(),
            items: 0,
            write_units: 0,
            preview: Vec::new(),
            columns: Columns::default(),
            invalid: InvalidLines::default(),
            tallies: ImportTallies::new(info, rules),
        }
    }

    /// Count one item DynamoDB would take: its write units, its columns and tallies, and a place
    /// in the preview while that holds fewer than `preview`.
    fn count(&mut self, item: Item, file: &Path, line: usize, preview: usize) {
        let bytes = u64::try_from(validate::item_size(&item)).unwrap_or(u64::MAX);
        self.write_units += bytes.div_ceil(units::WRITE_UNIT_BYTES).max(1);
        self.columns.add(&item);
        self.tallies.add(&item);
        if self.preview.len() < preview {
            self.preview.push(ReadItem {
                file: file.to_owned(),
                line,
                item,
            });
        }
        self.items += 1;
    }

    /// What putting the checked items costs, from each item's size: `Putting 1,234 items:
    /// about 1300 WCU ≈ $0.00081 on demand`.
    pub fn estimate(&self, pricing: &Pricing) -> String {
        let charge = pricing.charge(Kind::Write, &BigDecimal::from(self.write_units));
        format!(
            "Putting {} items: about {charge}",
            crate::cost::count(self.items as u64)
        )
    }
}

/// The lines that are not items DynamoDB would take, as one read finds them: the first
/// [`InvalidLines::LISTED`] with why, and how many there are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InvalidLines {
    /// The first lines' reasons, each naming its file and line.
    pub listed: Vec<String>,
    /// How many lines in all.
    pub total: usize,
}

/// An error unless `file` is as it was (`before`) when its reading began.
fn unchanged(file: &DataSource, before: &Fingerprint) -> Result<()> {
    if file.fingerprint()? != *before {
        return Err(Error::Invalid(format!(
            "{}: the file changed while it was read; read and check it again",
            file.name()
        )));
    }
    Ok(())
}

/// The error for a `path` without an item to import, saying whether its lines were refused
/// (`invalid` of them) or it held none.
fn nothing_to_import(path: &Path, format: Format, invalid: usize) -> Error {
    let what = if invalid > 0 {
        "no item DynamoDB would take"
    } else if format == Format::Csv {
        "no items (a header at most)"
    } else {
        "no items"
    };
    Error::Invalid(format!(
        "nothing to import: {} holds {what}",
        path.display()
    ))
}

/// Read and check every item of the files or objects `sources` found, in `format` (CSV columns
/// read as `types` says) for the table `info`: each line parsed, each item as DynamoDB would check it,
/// no key twice, keeping what `limits` says, and the children counted under `rules` found. The first problem is an error naming its file
/// and line; a path without items is "nothing to import"; `cancel` ends it with
/// [`Error::Cancelled`]. Nothing is written.
#[expect(
    clippy::implicit_hasher,
    reason = "every caller's column types are a default HashMap"
)]
pub fn check_import(
    sources: &ImportSources,
    format: Format,
    types: &HashMap<String, CellType>,
    info: &TableInfo,
    rules: &[TallyRule],
    limits: CheckLimits,
    cancel: &CancelToken,
    mut on_progress: impl FnMut(StreamProgress),
) -> Result<ImportCheck> {
    let mut check = ImportCheck::begun(sources, format, types, info, rules);
    let mut keys = KeysSeen::new(limits.keys_in_memory);
    let mut progress = StreamProgress::default();
    let mut reported_bytes = 0;
    for (number, file) in sources.files.iter().enumerate() {
        let before = file.fingerprint()?;
        let mut source = file.items(format, types)?;
        let name = PathBuf::from(file.name());
        let (mut items, invalid_before) = (0, check.invalid.total);
        progress.files = number + 1;
        loop {
            let at = source.examined_bytes();
            let (line, item) = match source.next_item() {
                Ok(Some(next)) => next,
                Ok(None) => break,
                // A line that is not an item: listed, and the next one read, as long as the
                // reading moved on (a broken file is not read in circles).
                Err(error @ Error::Invalid(_)) if source.examined_bytes() > at => {
                    check.invalid.add(error);
                    continue;
                }
                Err(error) => return Err(error),
            };
            if let Err(error) = validate::check_item(&item, info) {
                check
                    .invalid
                    .add(error.at(&format!("{}: line {line}", name.display())));
                continue;
            }
            keys.add(&item, info, (number as u32, line as u64))?;
            check.count(item, &name, line, limits.preview);
            items += 1;
            // Every few thousand items, or every 16 MiB of text (large items come slowly).
            let read_bytes = progress.bytes + source.examined_bytes();
            if check.items.is_multiple_of(EVERY) || read_bytes >= reported_bytes + (16 << 20) {
                reported_bytes = read_bytes;
                if cancel.is_cancelled() {
                    return Err(Error::Cancelled {
                        op: "checking the import",
                    });
                }
                progress.items = check.items as u64;
                on_progress(StreamProgress {
                    bytes: progress.bytes + source.examined_bytes(),
                    ..progress
                });
            }
        }
        progress.bytes += source.examined_bytes();
        unchanged(file, &before)?;
        check.files.push(CheckedFile {
            path: name,
            source: file.clone(),
            items,
            text_bytes: source.examined_bytes(),
            fingerprint: before,
            skipped_lines: check.invalid.total - invalid_before,
        });
    }
    progress.items = check.items as u64;
    on_progress(progress);
    if !limits.skip_invalid {
        check.invalid.refusal()?;
    }
    if check.items == 0 {
        return Err(nothing_to_import(
            &sources.path,
            format,
            check.invalid.total,
        ));
    }
    if let Some((first, second)) = keys.finish()? {
        return Err(twice(&check, info, first, second));
    }
    Ok(check)
}

/// The error of a key given twice, with both places (and the key, read again from the second).
fn twice(check: &ImportCheck, info: &TableInfo, first: Place, second: Place) -> Error {
    let file = |n: u32| check.files.get(n as usize);
    let (Some(first_file), Some(second_file)) = (file(first.0), file(second.0)) else {
        return Error::Invalid("a key is there twice; an import puts each item once".into());
    };
    let key = item_at(&second_file.source, check, second.1 as usize).map_or_else(
        || "its key".to_owned(),
        |item| format!("the key {}", key_shown(&item, &info.key_names())),
    );
    let also = if first.0 == second.0 {
        format!("line {}", first.1)
    } else {
        format!("{} line {}", first_file.path.display(), first.1)
    };
    Error::Invalid(format!(
        "{}: line {}: {key} is there twice (also at {also}); an import puts each item once",
        second_file.path.display(),
        second.1
    ))
}

/// The item at `line` of `file`, read again (only to name a key in an error).
fn item_at(file: &DataSource, check: &ImportCheck, line: usize) -> Option<Item> {
    let mut source = file.items(check.format, &check.types).ok()?;
    while let Ok(Some((at, item))) = source.next_item() {
        if at == line {
            return Some(item);
        }
    }
    None
}

impl InvalidLines {
    /// Lines listed by their reasons; the rest are counted.
    pub const LISTED: usize = 100;

    fn add(&mut self, error: Error) {
        if self.listed.len() < Self::LISTED {
            self.listed.push(error.reason().replace('\n', " "));
        }
        self.total += 1;
    }

    /// Every bad line in one error (one alone as it is), or nothing.
    fn refusal(&self) -> Result<()> {
        match self.total {
            0 => Ok(()),
            1 => Err(Error::Invalid(self.listed.concat())),
            total => {
                let mut text = format!(
                    "{total} lines are not items DynamoDB would take; nothing was written:"
                );
                for reason in &self.listed {
                    text.push_str(&format!("\n  {reason}"));
                }
                if total > self.listed.len() {
                    text.push_str(&format!("\n  … and {} more", total - self.listed.len()));
                }
                Err(Error::Invalid(text))
            }
        }
    }

    /// The lines in words: `2 lines are not items DynamoDB would take and are skipped:` and
    /// each reason (the first 100, then how many more).
    pub fn lines(&self) -> Vec<String> {
        if self.total == 0 {
            return Vec::new();
        }
        let mut lines = vec![format!(
            "{} not items DynamoDB would take, skipped:",
            crate::report::plural(self.total, "line")
        )];
        lines.extend(self.listed.iter().map(|r| format!("  {r}")));
        if self.total > self.listed.len() {
            lines.push(format!("  … and {} more", self.total - self.listed.len()));
        }
        lines
    }
}
