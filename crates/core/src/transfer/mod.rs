//! Items in and out of files, in DynamoDB's formats: CSV, plain JSON lines, DynamoDB JSON lines
//! and the lines of DynamoDB's own export to S3 (`{"Item": {…}}`), each plain or gzipped.
//! Numbers stay exact in all of them; sets, binary and nested values are kept (in plain JSON
//! as arrays and base64 text, which is all plain JSON can say). Reading checks every line
//! before anything is done with the items, and an error names its file and line.

mod csv;
mod csv_read;
mod cut;
mod dupes;
mod export;
mod files;

mod lines;
mod s3;
mod source;
mod stream;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::value::{self, Item};

pub use crate::files::{IfExists, check_target, write_file};
pub use csv::CellType;
pub use dupes::Place;
pub(crate) use dupes::{KEYS_IN_MEMORY, KeysSeen, twice_in_export};
pub use export::{gzipped, suggested_file_name, write_items, write_rows_file, write_text_file};
pub use files::DataFiles;
pub use files::Fingerprint;
pub use files::export_files;
pub(crate) use lines::Lines;
pub use lines::MAX_LINE_BYTES;
pub(crate) use s3::{MAX_MANIFEST_BYTES, export_sources, manifest_keys, object_sources};
pub use s3::{S3Location, data_objects, folders, manifest_text};
pub(crate) use source::FileItems;
pub use source::rejected_path;
pub use stream::StreamProgress;
pub(crate) use stream::stream_items;
pub(crate) use stream::{TextSource, stream_sources};

/// A file format for items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A header of every attribute name, then one item per record; cells as
    /// [`csv`](self::csv) describes.
    Csv,
    /// `{"PK": "POST#a91f", "likeTally": 3}` per line.
    JsonLines,
    /// `{"PK": {"S": "POST#a91f"}, "likeTally": {"N": "3"}}` per line (what `aws dynamodb` and
    /// `BatchWriteItem` take).
    DynamoDbJsonLines,
    /// `{"Item": {"PK": {"S": "POST#a91f"}, …}}` per line, as DynamoDB's export to S3 writes its
    /// `data/*.json.gz` files.
    S3Export,
}

impl Format {
    /// Every format, in the order offered.
    pub const ALL: [Self; 4] = [
        Self::Csv,
        Self::JsonLines,
        Self::DynamoDbJsonLines,
        Self::S3Export,
    ];

    /// Its name on the command line: `csv`, `jsonl`, `ddb-json`, `s3-export`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::JsonLines => "jsonl",
            Self::DynamoDbJsonLines => "ddb-json",
            Self::S3Export => "s3-export",
        }
    }

    /// The format named `name` (see [`name`](Self::name)).
    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "`{name}` is not a format: use csv, jsonl, ddb-json or s3-export"
                ))
            })
    }

    /// What a menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Csv => "CSV (.csv)",
            Self::JsonLines => "JSON lines (.jsonl)",
            Self::DynamoDbJsonLines => "DynamoDB JSON lines (.jsonl)",
            Self::S3Export => "DynamoDB S3 export (.json)",
        }
    }

    /// The file name's ending, without `.gz`.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::JsonLines | Self::DynamoDbJsonLines => "jsonl",
            Self::S3Export => "json",
        }
    }
}

/// The format of the file or folder at `path`: a folder (or `s3://…`) is an S3 export; `.csv` (or
/// `.csv.gz`) is CSV; otherwise the first line says: `{"Item": …}` an S3 export, typed values
/// DynamoDB JSON lines, anything else plain JSON lines. Only a regular file is opened (a FIFO
/// would wait for ever), and only its first line is read, at most 16 MiB of it.
pub fn guess_format(path: &Path) -> Result<Format> {
    // An export in S3 is read as DynamoDB wrote it (a bad bucket name is said when it is read).
    if !matches!(S3Location::parse(&path.to_string_lossy()), Ok(None)) {
        return Ok(Format::S3Export);
    }
    let name = path.to_string_lossy().to_ascii_lowercase();
    // A file of skipped lines is in the format of the file they came from.
    let name = name.strip_suffix(source::REJECTED).unwrap_or(&name);
    let comments = source::has_comments(path);
    let meta = std::fs::metadata(path).map_err(|e| file_error(path, "reading", &e))?;
    if meta.is_dir() {
        return Ok(Format::S3Export);
    }
    if !meta.is_file() {
        return Err(files::not_a_file(path, &meta));
    }
    #[expect(
        clippy::case_sensitive_file_extension_comparisons,
        reason = "`name` is lowercased above"
    )]
    if name.ends_with(".csv") || name.ends_with(".csv.gz") {
        return Ok(Format::Csv);
    }
    let (input, action) = open_text(path)?;
    let mut lines = lines::Lines::new(input, path, action);
    while let Some(line) = lines
        .next_line()
        .map_err(|e| e.at(&path.display().to_string()))?
    {
        if line.iter().all(u8::is_ascii_whitespace) || (comments && line.starts_with(b"#")) {
            continue;
        }
        let text = String::from_utf8_lossy(line);
        return Ok([Format::S3Export, Format::DynamoDbJsonLines]
            .into_iter()
            .find(|f| line_item(text.trim(), *f).is_ok())
            .unwrap_or(Format::JsonLines));
    }
    Ok(Format::JsonLines)
}

pub(crate) use crate::error::file_error;

/// One item read from a file, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadItem {
    /// The file.
    pub file: PathBuf,
    /// Its line (for CSV, the line its record starts on), from 1.
    pub line: usize,
    /// The item.
    pub item: Item,
}

impl ReadItem {
    /// `items.csv: line 7`, as errors place a line.
    pub fn place(&self) -> String {
        format!("{}: line {}", self.file.display(), self.line)
    }

    /// The file and the line.
    pub fn at(&self) -> (PathBuf, usize) {
        (self.file.clone(), self.line)
    }
}

/// The file at `path` to read as text, gunzipped on the way when it is gzip (by its first
/// bytes), and what reading it is called in an error (`reading` or `gunzipping`).
pub(crate) fn open_text(path: &Path) -> Result<(Box<dyn std::io::BufRead + Send>, &'static str)> {
    let opened = std::fs::File::open(path).map_err(|e| file_error(path, "reading", &e))?;
    gunzipped(opened).map_err(|e| file_error(path, "reading", &e))
}

/// `input` as text, gunzipped on the way when it starts as gzip, and what reading it is called.
pub(crate) fn gunzipped(
    input: impl std::io::Read + Send + 'static,
) -> std::io::Result<(Box<dyn std::io::BufRead + Send>, &'static str)> {
    use std::io::{BufRead, BufReader};
    let mut raw = BufReader::with_capacity(1 << 16, input);
    let gzipped = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    Ok(if gzipped {
        let gz = flate2::bufread::MultiGzDecoder::new(raw);
        (
            Box::new(BufReader::with_capacity(1 << 16, gz)),
            "gunzipping",
        )
    } else {
        (Box::new(raw), "reading")
    })
}

/// Every item of the file at `path` in `format` (gzipped or not), each line checked before
/// any is returned; the first malformed line is an error naming the file, the line and why.
/// `types` applies to CSV columns only. This holds every item: for a small file (a test's); an
/// import streams its files instead ([`import::check_import`]).
#[expect(
    clippy::implicit_hasher,
    reason = "every caller's column types are a default HashMap"
)]
pub fn read_file(
    path: &Path,
    format: Format,
    types: &HashMap<String, CellType>,
) -> Result<Vec<ReadItem>> {
    let mut source = FileItems::open(path, format, types)?;
    let mut items = Vec::new();
    while let Some((line, item)) = source.next_item()? {
        items.push(ReadItem {
            file: path.to_owned(),
            line,
            item,
        });
    }
    Ok(items)
}

/// One line's item.
pub(crate) fn line_item(line: &str, format: Format) -> Result<Item> {
    crate::validate::check_item_text_bound(line.as_bytes()).map_err(Error::Invalid)?;
    let json =
        value::strict::parse(line).map_err(|e| Error::Invalid(value::strict::error_text(&e)))?;
    match format {
        Format::DynamoDbJsonLines => value::item_from_json_value(&json),
        Format::S3Export => {
            let item = json
                .as_object()
                .filter(|o| o.len() == 1)
                .and_then(|o| o.get("Item"))
                .ok_or_else(|| {
                    let record = json.get("Keys").is_some() && json.get("Metadata").is_some();
                    Error::Invalid(if record {
                        "an incremental export's record (Keys, NewImage, OldImage) is a write \
                         in a window, not an item: check the window with --incremental-export"
                            .to_owned()
                    } else {
                        "an S3 export line is {\"Item\": {…}}, with nothing else".to_owned()
                    })
                })?;
            value::item_from_json_value(item)
        }
        Format::JsonLines => match json {
            serde_json::Value::Object(object) => object
                .iter()
                .map(|(name, v)| Ok((name.clone(), value::json::plain_value(v)?)))
                .collect(),
            _ => Err(Error::Invalid("a line must be a JSON object".to_owned())),
        },
        Format::Csv => Err(Error::Invalid("CSV is not read by lines".to_owned())),
    }
}

#[cfg(test)]
mod tests;
