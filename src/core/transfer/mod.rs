//! Items in and out of files, in DynamoDB's formats: CSV, plain JSON lines, DynamoDB JSON lines
//! and the lines of DynamoDB's own export to S3 (`{"Item": {…}}`), each plain or gzipped.
//! Numbers stay exact in all of them; sets, binary and nested values are kept (in plain JSON
//! as arrays and base64 text, which is all plain JSON can say). Reading checks every line
//! before anything is done with the items, and an error names its file and line.

mod csv;
mod export;
pub mod import;
mod stream;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::error::{Error, Result};
use crate::core::value::{self, Item};

pub use csv::CellType;
pub use export::{
    columns_of, file_error, suggested_file_name, write_items, write_rows_file, write_text_file,
};
pub use stream::{StreamProgress, stream_items};

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

/// The format of the file or folder at `path`: a folder is an S3 export; `.csv` (or
/// `.csv.gz`) is CSV; otherwise the first line says: `{"Item": …}` an S3 export, typed values
/// DynamoDB JSON lines, anything else plain JSON lines.
pub fn guess_format(path: &Path) -> Result<Format> {
    use std::io::BufRead;
    let name = path.to_string_lossy().to_ascii_lowercase();
    if path.is_dir() {
        return Ok(Format::S3Export);
    }
    if name.ends_with(".csv") || name.ends_with(".csv.gz") {
        return Ok(Format::Csv);
    }
    let (mut input, _) = open_text(path)?;
    let mut line = String::new();
    while line.trim().is_empty() {
        line.clear();
        let read = input
            .read_line(&mut line)
            .map_err(|e| file_error(path, "reading", &e))?;
        if read == 0 {
            break;
        }
    }
    Ok([Format::S3Export, Format::DynamoDbJsonLines]
        .into_iter()
        .find(|f| line_item(line.trim(), *f).is_ok())
        .unwrap_or(Format::JsonLines))
}

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
    /// `items.csv line 7`.
    pub fn place(&self) -> String {
        format!("{} line {}", self.file.display(), self.line)
    }

    /// The file and the line.
    pub fn at(&self) -> (PathBuf, usize) {
        (self.file.clone(), self.line)
    }
}

/// The file at `path` to read as text, gunzipped on the way when it is gzip (by its first
/// bytes), and what reading it is called in an error (`reading` or `gunzipping`).
pub(crate) fn open_text(path: &Path) -> Result<(Box<dyn std::io::BufRead + Send>, &'static str)> {
    use std::io::{BufRead, BufReader};
    let opened = std::fs::File::open(path).map_err(|e| file_error(path, "reading", &e))?;
    let mut raw = BufReader::with_capacity(1 << 16, opened);
    let gzipped = raw
        .fill_buf()
        .map_err(|e| file_error(path, "reading", &e))?
        .starts_with(&[0x1f, 0x8b]);
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

/// The text of the file at `path`, gunzipped when it is gzip (by its first bytes).
pub fn read_text(path: &Path) -> Result<String> {
    let (mut input, action) = open_text(path)?;
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| file_error(path, action, &e))?;
    String::from_utf8(bytes).map_err(|e| Error::File {
        action: "reading",
        path: path.display().to_string(),
        detail: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })
}

/// Every item of the file at `path` in `format` (gzipped or not), each line checked before
/// any is returned; the first malformed line is an error naming the file, the line and why.
/// `types` applies to CSV columns only.
pub fn read_file(
    path: &Path,
    format: Format,
    types: &HashMap<String, CellType>,
) -> Result<Vec<ReadItem>> {
    let text = read_text(path)?;
    let at = |e: Error| e.at(&path.display().to_string());
    let items = match format {
        Format::Csv => csv::items(&text, types).map_err(at)?,
        _ => lines(&text, format).map_err(at)?,
    };
    Ok(items
        .into_iter()
        .map(|(line, item)| ReadItem {
            file: path.to_owned(),
            line,
            item,
        })
        .collect())
}

/// The items of a text of one JSON object per line (blank lines skipped).
fn lines(text: &str, format: Format) -> Result<Vec<(usize, Item)>> {
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item = line_item(line, format)
            .map_err(|e| Error::Invalid(format!("line {}: {}", i + 1, e.reason())))?;
        items.push((i + 1, item));
    }
    Ok(items)
}

/// One line's item.
pub fn line_item(line: &str, format: Format) -> Result<Item> {
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
                    Error::Invalid(
                        "an S3 export line is {\"Item\": {…}}, with nothing else".to_owned(),
                    )
                })?;
            value::item_from_json_value(item)
        }
        Format::JsonLines => match json {
            serde_json::Value::Object(object) => object
                .iter()
                .map(|(name, v)| Ok((name.clone(), plain_value(v)?)))
                .collect(),
            _ => Err(Error::Invalid("a line must be a JSON object".to_owned())),
        },
        Format::Csv => Err(Error::Invalid("CSV is not read by lines".to_owned())),
    }
}

/// A plain JSON value as DynamoDB's: strings `S`, numbers `N` (every digit), booleans, null,
/// arrays `L`, objects `M`.
pub(crate) fn plain_value(json: &serde_json::Value) -> Result<AttributeValue> {
    use serde_json::Value;
    Ok(match json {
        Value::String(s) => AttributeValue::S(s.clone()),
        Value::Number(n) => {
            let text = n.to_string();
            crate::core::number::parse(&text).map_err(|e| Error::Invalid(e.to_string()))?;
            AttributeValue::N(text)
        }
        Value::Bool(b) => AttributeValue::Bool(*b),
        Value::Null => AttributeValue::Null(true),
        Value::Array(list) => {
            AttributeValue::L(list.iter().map(plain_value).collect::<Result<_>>()?)
        }
        Value::Object(map) => AttributeValue::M(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), plain_value(v)?)))
                .collect::<Result<_>>()?,
        ),
    })
}

/// Every attribute name of `items` with the types its values have, key attributes and all,
/// by name: `likeTally: N`, `zip: N, S` (a column a CSV type could fix).
pub fn column_types(items: &[ReadItem]) -> Vec<(String, Vec<&'static str>)> {
    let mut seen: std::collections::BTreeMap<&str, Vec<&'static str>> = Default::default();
    for read in items {
        for (name, v) in &read.item {
            let kinds = seen.entry(name.as_str()).or_default();
            let kind = value::type_tag(v);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    seen.into_iter()
        .map(|(name, mut kinds)| {
            kinds.sort_unstable();
            (name.to_owned(), kinds)
        })
        .collect()
}

/// The data files of an export at `path`: the file itself, or every `.json` and `.json.gz`
/// file under the directory (an S3 export's `data/` folder, or the export's whole folder), in
/// name order.
pub fn export_files(path: &Path) -> Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let mut files = Vec::new();
    let mut dirs = vec![path.to_owned()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| file_error(&dir, "reading", &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| file_error(&dir, "reading", &e))?;
            let p = entry.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if p.is_dir() {
                dirs.push(p);
            } else if name.ends_with(".json.gz") || name.ends_with(".json") {
                // The export's manifests describe it; they hold no items.
                if !name.starts_with("manifest-") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Error::Invalid(format!(
            "{} holds no .json or .json.gz files (an S3 export keeps its items in data/)",
            path.display()
        )));
    }
    Ok(files)
}

#[cfg(test)]
mod tests;
