//! A window's writes from an incremental export (DynamoDB's export of what changed between two
//! times, one record per changed item: `Metadata.WriteTimestampMicros`, `Keys`, and `OldImage`
//! and `NewImage` as they were at the window's ends). Per parent under a tally rule: the
//! children inserted minus removed against the tally's move (new image − old image); a parent
//! whose tally moved by another amount gained a drift in the window, and its records in the
//! window (its own and its children's) are named: among them are the writes that did not add up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::{BigDecimal, Zero};

use crate::cancel::CancelToken;
use crate::error::{Error, Result};
use crate::number;
use crate::table::TableInfo;
use crate::tally::rule::{ChildSource, TallyRule};
use crate::transfer::{Lines, TextSource};
use crate::value::{self, Item};

/// The records of one parent kept to name: beyond these, counted.
pub const MAX_RECORDS_NAMED: usize = 20;

/// DynamoDB's longest partition key value (bytes) and sort key value.
const MAX_KEY_BYTES: (usize, usize) = (2048, 1024);

/// The digits of a write time in microseconds: 20 hold any `u64`.
const MAX_MICROS_DIGITS: usize = 20;

/// Where a record is: its file and line, and when its item was last written in the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordAt {
    /// The file.
    pub file: PathBuf,
    /// The line (from 1).
    pub line: usize,
    /// `Metadata.WriteTimestampMicros`, as written.
    pub micros: Option<String>,
    /// What it was: `tally 3 → 4`, `child inserted`, `child removed`.
    pub what: String,
}

/// One parent's window: its tally's move and its children's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowParent {
    /// The parent's partition key value.
    pub partition: String,
    /// Whether a record of the parent itself is in the window (else its tally did not move).
    pub seen: bool,
    /// The tally before the window and after it (`None`: absent there).
    pub tally: (Option<String>, Option<String>),
    /// Children inserted in the window (a record with a new image only).
    pub inserted: u64,
    /// Children removed in the window (a record with an old image only).
    pub removed: u64,
    /// The parent's records and its children's, the first [`MAX_RECORDS_NAMED`].
    pub records: Vec<RecordAt>,
    /// All of them.
    pub record_count: u64,
}

impl WindowParent {
    /// The tally's move in the window (an absent tally counts as 0).
    pub fn tally_moved(&self) -> BigDecimal {
        let value = |t: &Option<String>| {
            t.as_deref()
                .and_then(|t| number::parse(t).ok())
                .unwrap_or_default()
        };
        value(&self.tally.1) - value(&self.tally.0)
    }

    /// The children's move: inserted minus removed.
    pub fn children_moved(&self) -> i128 {
        i128::from(self.inserted) - i128::from(self.removed)
    }

    /// The drift gained in the window: the tally's move less the children's.
    pub fn gained(&self) -> BigDecimal {
        self.tally_moved() - BigDecimal::from(self.children_moved())
    }

    fn note(&mut self, at: RecordAt) {
        self.record_count += 1;
        if self.records.len() < MAX_RECORDS_NAMED {
            self.records.push(at);
        }
    }
}

/// What an incremental export's records said, per parent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Window {
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Records read.
    pub records: u64,
    /// Records of items that are neither a parent nor a child under the rule.
    pub others: u64,
    /// The earliest and latest write time of a record (micros), when said.
    pub span: Option<(u128, u128)>,
    /// Every parent a record touched, by partition key value.
    pub parents: BTreeMap<String, WindowParent>,
    /// No record had an old image: right for a window of inserts only, wrong for an export
    /// made with the new-images view (its updates read as inserts), so it is said.
    pub no_old_image: bool,
}

impl Window {
    /// The parents that gained a drift in the window.
    pub fn drifted(&self) -> impl Iterator<Item = &WindowParent> {
        self.parents.values().filter(|p| !p.gained().is_zero())
    }
}

/// One record of an incremental export.
struct Record {
    keys: Item,
    old: Option<Item>,
    new: Option<Item>,
    micros: Option<String>,
}

/// Read `sources` (an incremental export's data files or objects, gzipped or not) and sum each parent's
/// window under `rule`, its children in its own partition (`ChildSource::SortKeyPrefix`).
pub(crate) fn read_window(
    info: &TableInfo,
    rule: &TallyRule,
    sources: &[Box<dyn TextSource>],
    stop: &CancelToken,
) -> Result<Window> {
    let ChildSource::SortKeyPrefix(child_prefix) = &rule.children else {
        return Err(Error::Invalid(
            "a window is summed for children in the parent's partition (a child sort-key \
             prefix), not in an index: an export's record does not say which parent an index \
             puts it under"
                .into(),
        ));
    };
    let sort = info.sort.as_ref().ok_or_else(|| {
        Error::Invalid(format!(
            "table {} has no sort key: a tally rule needs one",
            info.name
        ))
    })?;
    let (pk, sk) = (info.partition.name.as_str(), sort.name.as_str());
    let mut window = Window {
        files: sources.iter().map(|s| PathBuf::from(s.name())).collect(),
        ..Window::default()
    };
    let mut any_old = false;
    for (source, file) in sources.iter().zip(window.files.clone()) {
        let (input, action) = source.open()?;
        let mut lines = Lines::new(input, &file, action);
        // A line too long is said with its file and line by the reader itself.
        while let Some(text) = lines.next_line()? {
            if stop.is_cancelled() {
                return Err(Error::Cancelled {
                    op: "reading the export",
                });
            }
            let parsed = parse_record(text);
            let line = lines.line();
            let record = parsed.map_err(|e| located(&file, line, &e))?;
            any_old |= record.old.is_some();
            window.records += 1;
            let at = (file.as_path(), line);
            add(&mut window, rule, child_prefix, pk, sk, &record, at)
                .map_err(|e| located(&file, line, &e))?;
        }
    }
    window.no_old_image = window.records > 0 && !any_old;
    Ok(window)
}

fn located(file: &Path, line: usize, why: &Error) -> Error {
    let why = match why {
        Error::Invalid(text) => text.clone(),
        other => other.to_string(),
    };
    Error::Invalid(format!("{}, line {line}: {why}", file.display()))
}

/// One line as a record: `{"Metadata": …, "Keys": {…}, "OldImage": {…}, "NewImage": {…}}`.
fn parse_record(text: &[u8]) -> Result<Record> {
    crate::validate::check_item_text_bound(text).map_err(Error::Invalid)?;
    let text = std::str::from_utf8(text).map_err(|_| Error::Invalid("not UTF-8".into()))?;
    let json =
        value::strict::parse(text).map_err(|e| Error::Invalid(value::strict::error_text(&e)))?;
    let object = json
        .as_object()
        .ok_or_else(|| Error::Invalid("a record is a JSON object".into()))?;
    if object.contains_key("Item") {
        return Err(Error::Invalid(
            "this is a full export's line ({\"Item\": …}); a window is read from an incremental \
             export's records"
                .into(),
        ));
    }
    for name in object.keys() {
        if !matches!(name.as_str(), "Metadata" | "Keys" | "OldImage" | "NewImage") {
            return Err(Error::Invalid(format!(
                "`{name}` is not part of an incremental export's record (Metadata, Keys, \
                 OldImage, NewImage)"
            )));
        }
    }
    let image = |name: &str| {
        object
            .get(name)
            .map(value::item_from_json_value)
            .transpose()
    };
    let keys = image("Keys")?.ok_or_else(|| Error::Invalid("a record without its Keys".into()))?;
    // `{"N": "…"}` as documented; a bare number or string read as well; digits only.
    let micros = match (object.get("Metadata")).and_then(|m| m.get("WriteTimestampMicros")) {
        None => None,
        Some(t) => Some(micros_of(t)?),
    };
    Ok(Record {
        keys,
        old: image("OldImage")?,
        new: image("NewImage")?,
        micros,
    })
}

/// A write time in microseconds: `{"N": "…"}`, a string or a number, of digits only.
fn micros_of(t: &serde_json::Value) -> Result<String> {
    let text = match t.get("N") {
        Some(n) => n.as_str().map(str::to_owned),
        None => (t.as_str().map(str::to_owned)).or_else(|| t.as_u64().map(|n| n.to_string())),
    };
    match text {
        Some(text)
            if !text.is_empty()
                && text.len() <= MAX_MICROS_DIGITS
                && text.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Ok(text)
        }
        _ => Err(Error::Invalid(
            "Metadata.WriteTimestampMicros is not a time in microseconds".into(),
        )),
    }
}

/// Count `record` into its parent's window, when it is a parent's or a child's. A record
/// without the table's string keys is refused: an export of another table (or keys that are
/// not strings, which no tally rule reads) would otherwise say "no drift" over records it never
/// counted.
fn add(
    window: &mut Window,
    rule: &TallyRule,
    child_prefix: &str,
    pk: &str,
    sk: &str,
    record: &Record,
    at: (&Path, usize),
) -> Result<()> {
    let text = |name: &str, most: usize| match record.keys.get(name) {
        Some(AttributeValue::S(s)) if s.len() <= most => Ok(s.clone()),
        Some(AttributeValue::S(_)) => Err(Error::Invalid(format!(
            "key {name} is longer than DynamoDB allows ({most} bytes)"
        ))),
        Some(_) => Err(Error::Invalid(format!(
            "key {name} is not a string: a tally rule reads string keys"
        ))),
        None => Err(Error::Invalid(format!(
            "the record's Keys have no {name}: is this an export of the table given?"
        ))),
    };
    let (partition, sort) = (text(pk, MAX_KEY_BYTES.0)?, text(sk, MAX_KEY_BYTES.1)?);
    if let Some(at) = (record.micros.as_deref()).and_then(|m| m.parse::<u128>().ok()) {
        let (first, last) = window.span.unwrap_or((at, at));
        window.span = Some((first.min(at), last.max(at)));
    }
    let prefix = &rule.parents.partition_prefix;
    let is_parent = sort == rule.parents.sort_key && partition.starts_with(prefix);
    let is_child = !is_parent && sort.starts_with(child_prefix) && partition.starts_with(prefix);
    if !is_parent && !is_child {
        window.others += 1;
        return Ok(());
    }
    let parent = (window.parents.entry(partition.clone())).or_insert_with(|| WindowParent {
        partition,
        ..WindowParent::default()
    });
    let what = if is_parent {
        parent_moved(parent, rule, record, &sort)?
    } else {
        match (&record.old, &record.new) {
            (None, Some(_)) => {
                parent.inserted += 1;
                format!("{sort} inserted")
            }
            (Some(_), None) => {
                parent.removed += 1;
                format!("{sort} removed")
            }
            (Some(_), Some(_)) => format!("{sort} changed"),
            (None, None) => format!("{sort} (no image)"),
        }
    };
    parent.note(RecordAt {
        file: at.0.to_owned(),
        line: at.1,
        micros: record.micros.clone(),
        what,
    });
    Ok(())
}

/// The parent's own record: its tally at the window's two ends. A second record of the same
/// parent, or a tally that is not a number, is refused.
fn parent_moved(
    parent: &mut WindowParent,
    rule: &TallyRule,
    record: &Record,
    sort: &str,
) -> Result<String> {
    if parent.seen {
        return Err(Error::Invalid(format!(
            "a second record of parent {} {sort}: an incremental export has one record per item \
             (are two exports' files mixed?)",
            parent.partition
        )));
    }
    let tally = |image: &Option<Item>| match image.as_ref().and_then(|i| i.get(&rule.tally)) {
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        None => Ok(None),
        Some(_) => Err(Error::Invalid(format!(
            "parent {}'s {} is not a number",
            parent.partition, rule.tally
        ))),
    };
    parent.tally = (tally(&record.old)?, tally(&record.new)?);
    parent.seen = true;
    let shown = |t: &Option<String>| t.clone().unwrap_or_else(|| "absent".into());
    Ok(format!(
        "{} {} → {}",
        rule.tally,
        shown(&parent.tally.0),
        shown(&parent.tally.1)
    ))
}
