//! CSV read as a stream: records (RFC 4180 quotes across lines, `\r\n`, `\n` or `\r` ends, a
//! byte-order mark at the start) one at a time from any `BufRead`, each at most
//! [`MAX_LINE_BYTES`], and the items they hold under the header's names.

use std::collections::{HashMap, VecDeque};
use std::io::BufRead;
use std::path::Path;

use crate::core::error::{Error, Result};
use crate::core::transfer::csv::{CellType, read_cell, shaped_as_number};
use crate::core::transfer::lines::{Lines, MAX_LINE_BYTES};
use crate::core::value::Item;

/// One record of a CSV text and the line it starts on (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its line.
    pub line: usize,
    /// Its fields, unquoted.
    pub fields: Vec<String>,
}

/// The records of a CSV text, read a line at a time.
pub struct Records<R> {
    lines: Lines<R>,
    parser: Parser,
    done: bool,
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
    pub fn new(input: R, path: &Path, action: &'static str) -> Self {
        Self {
            lines: Lines::new(input, path, action),
            parser: Parser {
                line: 1,
                ..Parser::default()
            },
            done: false,
        }
    }

    /// Bytes of the text read so far.
    pub fn examined_bytes(&self) -> u64 {
        self.lines.examined_bytes()
    }

    /// The next record, or `None` at the end. A quote left open is an error at the line it
    /// opened on; a record longer than 16 MiB one at the line it starts on.
    pub fn next_record(&mut self) -> Result<Option<Record>> {
        loop {
            if let Some(record) = self.parser.ready.pop_front() {
                return Ok(Some(record));
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
            for c in text.chars() {
                self.parser.feed(c);
            }
            self.parser.feed('\n');
        }
    }
}

/// The items of a CSV text whose first record names the attributes.
pub struct CsvItems<R> {
    records: Records<R>,
    header: Vec<String>,
    kinds: Vec<CellType>,
}

impl<R: BufRead> CsvItems<R> {
    /// Read the header of `records`; `types` says how to read a column (by name), every other
    /// column is [`CellType::Auto`]. An empty text has no header and no items.
    pub fn new(mut records: Records<R>, types: &HashMap<String, CellType>) -> Result<Self> {
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
        })
    }

    /// Bytes of the text read so far.
    pub fn examined_bytes(&self) -> u64 {
        self.records.examined_bytes()
    }

    /// The next item and the line its record starts on, or `None` at the end.
    pub fn next_item(&mut self) -> Result<Option<(usize, Item)>> {
        let Some(record) = self.records.next_record()? else {
            return Ok(None);
        };
        if record.fields.len() != self.header.len() {
            return Err(Error::Invalid(format!(
                "line {}: {} fields where the header has {}",
                record.line,
                record.fields.len(),
                self.header.len()
            )));
        }
        let mut item = Item::new();
        for ((name, text), kind) in self.header.iter().zip(record.fields).zip(&self.kinds) {
            if text.is_empty() {
                continue;
            }
            let value = read_cell(&text, *kind).map_err(|e| {
                // Only a number beyond DynamoDB's fails when read by its text.
                let hint = if *kind == CellType::Auto && shaped_as_number(&text) {
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

/// Every item of a CSV `text` (a test's or a small file's), each with its line.
pub fn items(text: &str, types: &HashMap<String, CellType>) -> Result<Vec<(usize, Item)>> {
    let records = Records::new(text.as_bytes(), Path::new("text"), "reading");
    let mut items = CsvItems::new(records, types)?;
    let mut out = Vec::new();
    while let Some(item) = items.next_item()? {
        out.push(item);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use crate::core::transfer::csv::push_record;

    fn records(text: &str) -> Result<Vec<Record>> {
        let mut read = Records::new(text.as_bytes(), Path::new("t.csv"), "reading");
        let mut out = Vec::new();
        while let Some(record) = read.next_record()? {
            out.push(record);
        }
        Ok(out)
    }

    #[test]
    fn records_quote_and_break_lines_as_spreadsheets_do() {
        let mut text = String::new();
        push_record(&mut text, ["PK", "note"]);
        push_record(&mut text, ["a", "one, \"two\"\r\nthree"]);
        push_record(&mut text, ["b", ""]);
        let parsed = records(&text).unwrap();
        assert_eq!(parsed.len(), 3);
        assert_eq!(parsed[1].fields, ["a", "one, \"two\"\r\nthree"]);
        assert_eq!(parsed[2].line, 4);
        assert_eq!(parsed[2].fields, ["b", ""]);
        let err = records("PK\n\"open\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        // A byte-order mark, a `\r` alone as a line end, blank lines, no end at the end.
        let parsed = records("\u{feff}PK,n\rx,1\n\ny,\"2\"").unwrap();
        let fields: Vec<_> = parsed
            .iter()
            .map(|r| (r.line, r.fields.join("|")))
            .collect();
        assert_eq!(
            fields,
            [(1, "PK|n".into()), (2, "x|1".into()), (4, "y|2".into())]
        );
    }

    #[test]
    fn columns_can_be_told_their_type() {
        let text = "PK,zip,n\nx,28001,5\ny,,1.50\n";
        let auto = items(text, &HashMap::new()).unwrap();
        assert_eq!(auto[0].1["zip"], AttributeValue::N("28001".into()));
        assert!(!auto[1].1.contains_key("zip"));
        let typed = items(text, &HashMap::from([("zip".to_owned(), CellType::S)])).unwrap();
        assert_eq!(typed[0].1["zip"], AttributeValue::S("28001".into()));
        // A leading zero reads as text by itself; told N, it is a number.
        let zero = items(
            "PK,n\nx,007\n",
            &HashMap::from([("n".to_owned(), CellType::N)]),
        );
        assert_eq!(zero.unwrap()[0].1["n"], AttributeValue::N("007".into()));
        let err = items(
            "PK,n\nx,abc\n",
            &HashMap::from([("n".to_owned(), CellType::N)]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("line 2, column n"), "{err}");
        let err = items("PK,n\nx\n", &HashMap::new()).unwrap_err().to_string();
        assert!(
            err.contains("line 2: 1 fields where the header has 2"),
            "{err}"
        );
    }

    #[test]
    fn a_39_digit_cell_is_refused_with_its_place_and_the_way_to_keep_it_as_text() {
        let text = "PK,code\nx,1\ny,123456789012345678901234567890123456789\n";
        let err = items(text, &HashMap::new()).unwrap_err().to_string();
        assert!(err.starts_with("line 3, column code: "), "{err}");
        assert!(err.contains("39 significant digits"), "{err}");
        assert!(err.ends_with("read it as S (--type code=S)"), "{err}");
        let typed = items(text, &HashMap::from([("code".to_owned(), CellType::S)])).unwrap();
        assert_eq!(
            typed[1].1["code"],
            AttributeValue::S("123456789012345678901234567890123456789".into())
        );
    }

    #[test]
    fn a_record_over_16_mib_is_an_error_at_its_line() {
        let mut text = String::from("PK,note\nx,\"");
        text.push_str(&"a\n".repeat(9 << 20));
        let err = records(&text).unwrap_err().to_string();
        assert!(
            err.starts_with("line 2: a record longer than 16 MiB"),
            "{err}"
        );
    }
}
