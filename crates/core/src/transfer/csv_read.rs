//! CSV read as a stream: records (RFC 4180 quotes across lines, `\r\n`, `\n` or `\r` ends, a
//! byte-order mark at the start) one at a time from any `BufRead`, each at most
//! [`MAX_LINE_BYTES`], and the items they hold under the header's names.

use std::collections::{HashMap, VecDeque};
use std::io::BufRead;
use std::path::Path;

use crate::error::{Error, Result};
use crate::transfer::csv::{CellType, read_cell, shaped_as_number};
use crate::transfer::lines::{Lines, MAX_LINE_BYTES};
use crate::value::Item;

/// One record of a CSV text and the line it starts on (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    /// Its line.
    pub line: usize,
    /// Its fields, unquoted.
    pub fields: Vec<String>,
}

/// The most fields a record may have: every attribute of an item costs at least two bytes (a
/// name and a value), so no item of 400 KB has more.
const MAX_FIELDS: usize = crate::validate::MAX_ITEM_BYTES / 2;

/// The records of a CSV text, read a line at a time.
pub(super) struct Records<R> {
    lines: Lines<R>,
    parser: Parser,
    done: bool,
    /// The line being fed, and how far: a line may hold many records (`\r` ends), which are
    /// handed out one at a time rather than all queued.
    rest: String,
    at: usize,
    /// Lines beginning with `#` between records are not records (a `.rejected` file's reasons).
    comments: bool,
}

/// Where the reading of characters is: inside quotes or not, the record so far.
#[derive(Default)]
struct Parser {
    fields: Vec<String>,
    field: String,
    /// Inside a quoted field.
    quoted: bool,
    /// A `"` inside a quoted field: the end of the quotes, unless another `"` follows.
    quote_seen: bool,
    /// A `\r` outside quotes: the end of the record, with the `\n` after it if one follows.
    cr_seen: bool,
    /// The line being read (from 1), counting `\n` and a `\r` alone outside quotes.
    line: usize,
    start_line: usize,
    quote_line: usize,
    in_record: bool,
    /// Bytes of the record so far.
    record_bytes: usize,
    /// A record with more than [`MAX_FIELDS`] fields began on this line.
    too_many: Option<usize>,
    ready: VecDeque<Record>,
}

impl Parser {
    fn feed(&mut self, c: char) {
        if self.quote_seen {
            self.quote_seen = false;
            if c == '"' {
                self.field.push('"');
                return;
            }
            self.quoted = false;
        }
        if self.cr_seen {
            self.cr_seen = false;
            self.end_record();
            if c == '\n' {
                return;
            }
        }
        if self.quoted {
            match c {
                '"' => self.quote_seen = true,
                '\n' => {
                    self.line += 1;
                    self.field.push(c);
                }
                _ => self.field.push(c),
            }
            return;
        }
        if !self.in_record {
            self.in_record = true;
            self.start_line = self.line;
        }
        match c {
            '"' if self.field.is_empty() => {
                self.quoted = true;
                self.quote_line = self.line;
            }
            ',' if self.fields.len() >= MAX_FIELDS => {
                self.too_many.get_or_insert(self.start_line);
                self.field.clear();
            }
            ',' => self.fields.push(std::mem::take(&mut self.field)),
            '\r' => self.cr_seen = true,
            '\n' => self.end_record(),
            _ => self.field.push(c),
        }
    }

    fn end_record(&mut self) {
        self.fields.push(std::mem::take(&mut self.field));
        let fields = std::mem::take(&mut self.fields);
        // A blank line holds no item.
        if !(fields.len() == 1 && fields[0].is_empty()) {
            self.ready.push_back(Record {
                line: self.start_line,
                fields,
            });
        }
        self.line += 1;
        self.in_record = false;
        self.record_bytes = 0;
    }

    /// The end of the text: the last record, or the quote left open.
    fn finish(&mut self) -> Result<()> {
        if self.quote_seen {
            self.quote_seen = false;
            self.quoted = false;
        }
        if self.quoted {
            return Err(Error::Invalid(format!(
                "line {}: a quoted field is never closed",
                self.quote_line
            )));
        }
        if self.cr_seen || self.in_record {
            self.cr_seen = false;
            self.end_record();
        }
        Ok(())
    }
}

impl<R: BufRead> Records<R> {
    /// The records of `input`, read from the file at `path` (`action` names how, in errors).
    pub(super) fn new(input: R, path: &Path, action: &'static str) -> Self {
        Self {
            lines: Lines::new(input, path, action),
            parser: Parser {
                line: 1,
                ..Parser::default()
            },
            done: false,
            rest: String::new(),
            at: 0,
            comments: false,
        }
    }

    /// The same, with lines beginning with `#` between records left out, as a `.rejected`
    /// file's reasons are.
    pub(crate) fn with_comments(mut self, comments: bool) -> Self {
        self.comments = comments;
        self
    }

    /// Bytes of the text read so far.
    pub(crate) fn examined_bytes(&self) -> u64 {
        self.lines.examined_bytes()
    }

    /// The next record, or `None` at the end. A quote left open is an error at the line it
    /// opened on; a record longer than 16 MiB one at the line it starts on.
    pub(crate) fn next_record(&mut self) -> Result<Option<Record>> {
        loop {
            if let Some(line) = self.parser.too_many {
                return Err(Error::Invalid(format!(
                    "line {line}: a record of more than {MAX_FIELDS} fields, more than an item of 400 KB can hold"
                )));
            }
            if let Some(record) = self.parser.ready.pop_front() {
                return Ok(Some(record));
            }
            if self.at < self.rest.len() {
                // Feed the line until a record is complete (or the line ends).
                for (i, c) in self.rest[self.at..].char_indices() {
                    self.parser.feed(c);
                    if !self.parser.ready.is_empty() || self.parser.too_many.is_some() {
                        self.at += i + c.len_utf8();
                        break;
                    }
                }
                if self.parser.ready.is_empty() && self.parser.too_many.is_none() {
                    self.at = self.rest.len();
                }
                continue;
            }
            if self.done {
                return Ok(None);
            }
            let number = self.lines.line() + 1;
            let Some(line) = self.lines.next_raw()? else {
                self.done = true;
                self.parser.finish()?;
                continue;
            };
            if self.comments && !self.parser.in_record && line.starts_with(b"#") {
                self.parser.line += 1;
                continue;
            }
            let text = std::str::from_utf8(line).map_err(|e| {
                Error::Invalid(format!(
                    "line {number}: not UTF-8 text (byte {})",
                    e.valid_up_to() + 1
                ))
            })?;
            self.parser.record_bytes += text.len() + 1;
            if self.parser.record_bytes > MAX_LINE_BYTES {
                return Err(Error::Invalid(format!(
                    "line {}: a record longer than {} MiB (is a quote left open?)",
                    self.parser.start_line,
                    MAX_LINE_BYTES >> 20
                )));
            }
            self.rest.clear();
            self.rest.push_str(text);
            self.rest.push('\n');
            self.at = 0;
        }
    }
}

/// The items of a CSV text whose first record names the attributes.
pub(crate) struct CsvItems<R> {
    records: Records<R>,
    header: Vec<String>,
    kinds: Vec<CellType>,
    /// The fields of the record last read, whether it made an item or not.
    last: Vec<String>,
}

impl<R: BufRead> CsvItems<R> {
    /// Read the header of `records`; `types` says how to read a column (by name), every other
    /// column is [`CellType::Auto`]. An empty text has no header and no items.
    pub(super) fn new(mut records: Records<R>, types: &HashMap<String, CellType>) -> Result<Self> {
        let (line, header) = match records.next_record()? {
            Some(record) => (record.line, record.fields),
            None => (1, Vec::new()),
        };
        for (i, name) in header.iter().enumerate() {
            if name.is_empty() {
                return Err(Error::Invalid(format!(
                    "line {line}: column {} of the header has no name",
                    i + 1
                )));
            }
            if header[..i].contains(name) {
                return Err(Error::Invalid(format!(
                    "line {line}: the header names `{name}` twice"
                )));
            }
        }
        let mut named: Vec<&String> = types.keys().filter(|n| !header.contains(n)).collect();
        named.sort();
        if let Some(name) = named.first() {
            return Err(Error::Invalid(format!(
                "a type is given for `{name}`, which the header does not name"
            )));
        }
        let kinds = header
            .iter()
            .map(|n| types.get(n).copied().unwrap_or_default())
            .collect();
        Ok(Self {
            records,
            header,
            kinds,
            last: Vec::new(),
        })
    }

    /// The header's names.
    pub(super) fn header(&self) -> &[String] {
        &self.header
    }

    /// The fields of the record last read (an item or a record refused), until the next is read.
    pub(crate) fn last_fields(&self) -> &[String] {
        &self.last
    }

    /// Bytes of the text read so far.
    pub(crate) fn examined_bytes(&self) -> u64 {
        self.records.examined_bytes()
    }

    /// The next item and the line its record starts on, or `None` at the end.
    pub(crate) fn next_item(&mut self) -> Result<Option<(usize, Item)>> {
        self.last.clear();
        let Some(record) = self.records.next_record()? else {
            return Ok(None);
        };
        self.last = record.fields;
        if self.last.len() != self.header.len() {
            return Err(Error::Invalid(format!(
                "line {}: {} fields where the header has {}",
                record.line,
                self.last.len(),
                self.header.len()
            )));
        }
        let mut item = Item::new();
        for ((name, text), kind) in self.header.iter().zip(&self.last).zip(&self.kinds) {
            if text.is_empty() {
                continue;
            }
            let value = read_cell(text, *kind).map_err(|e| {
                // Only a number beyond DynamoDB's fails when read by its text.
                let hint = if *kind == CellType::Auto && shaped_as_number(text) {
                    format!("; to keep the column as text, read it as S (--type {name}=S)")
                } else {
                    String::new()
                };
                Error::Invalid(format!(
                    "line {}, column {name}: {}{hint}",
                    record.line,
                    e.reason()
                ))
            })?;
            item.insert(name.clone(), value);
        }
        Ok(Some((record.line, item)))
    }
}

/// Every item of a CSV `text` (a test's), each with its line.
#[cfg(test)]
pub(super) fn items(text: &str, types: &HashMap<String, CellType>) -> Result<Vec<(usize, Item)>> {
    let records = Records::new(text.as_bytes(), Path::new("text"), "reading");
    let mut items = CsvItems::new(records, types)?;
    let mut out = Vec::new();
    while let Some(item) = items.next_item()? {
        out.push(item);
    }
    Ok(out)
}

#[cfg(test)]
#[path = "csv_read_tests.rs"]
mod tests;
