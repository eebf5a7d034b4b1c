//! Exporting loaded rows: one item per line, as DynamoDB JSON (what `aws dynamodb` and
//! `BatchWriteItem` take) or plain JSON, numbers exact either way.

use std::io::Write;
use std::path::Path;

use crate::core::error::{Error, Result};
use crate::core::rows::Rows;
use crate::core::value::{self, Item};

/// The line format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// `{"PK": {"S": "POST#a91f"}, "likeTally": {"N": "3"}}` per line.
    DynamoDbJsonLines,
    /// `{"PK": "POST#a91f", "likeTally": 3}` per line.
    JsonLines,
}

impl ExportFormat {
    /// Both formats, in the order offered.
    pub const ALL: [Self; 2] = [Self::DynamoDbJsonLines, Self::JsonLines];

    /// What the menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::DynamoDbJsonLines => "DynamoDB JSON lines (.jsonl)",
            Self::JsonLines => "JSON lines (.jsonl)",
        }
    }
}

/// Write `items` to `out`, one per line, key attributes first; returns how many were written.
pub fn write_items(
    items: impl IntoIterator<Item = Item>,
    key_names: &[String],
    format: ExportFormat,
    out: &mut impl Write,
) -> std::io::Result<usize> {
    let mut written = 0;
    for item in items {
        written += 1;
        let line = match format {
            ExportFormat::DynamoDbJsonLines => {
                value::item_to_dynamodb_json(&item, key_names, false)
            }
            ExportFormat::JsonLines => value::item_to_plain_json(&item, key_names, false),
        };
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(written)
}

/// Write the loaded `rows` to the file at `path` (created or replaced); returns how many were
/// written.
pub fn write_rows_file(
    path: &Path,
    rows: &Rows,
    key_names: &[String],
    format: ExportFormat,
) -> Result<usize> {
    let file = std::fs::File::create(path).map_err(|e| file_error(path, "creating", &e))?;
    let mut out = std::io::BufWriter::new(file);
    write_items(rows.items(), key_names, format, &mut out)
        .map_err(|e| file_error(path, "writing", &e))
}

/// Write `contents` to the file at `path`; returns `records`, what the text holds.
pub fn write_text_file(path: &Path, contents: &str, records: usize) -> Result<usize> {
    std::fs::write(path, contents)
        .map(|()| records)
        .map_err(|e| file_error(path, "writing", &e))
}

fn file_error(path: &Path, action: &'static str, e: &std::io::Error) -> Error {
    Error::File {
        action,
        path: path.display().to_string(),
        detail: e.to_string(),
    }
}

/// A file name to suggest: the table, the partition when there is one, and the format.
pub fn suggested_file_name(table: &str, partition: Option<&str>) -> String {
    let clean = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    match partition {
        Some(p) => format!("{}-{}.jsonl", clean(table), clean(p)),
        None => format!("{}.jsonl", clean(table)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue;
    use std::collections::HashMap;

    #[test]
    fn one_exact_item_per_line() {
        let items = vec![
            HashMap::from([
                ("PK".to_owned(), AttributeValue::S("VID#9f3a".into())),
                (
                    "n".to_owned(),
                    AttributeValue::N("98765432109876543210987654321098765432".into()),
                ),
            ]),
            HashMap::from([("PK".to_owned(), AttributeValue::S("VID#c0de".into()))]),
        ];
        let keys = ["PK".to_owned()];
        let mut out = Vec::new();
        assert_eq!(
            write_items(
                items.clone(),
                &keys,
                ExportFormat::DynamoDbJsonLines,
                &mut out
            )
            .unwrap(),
            2
        );
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(value::item_from_dynamodb_json(lines[0]).unwrap(), items[0]);
        let mut plain = Vec::new();
        write_items(items.clone(), &keys, ExportFormat::JsonLines, &mut plain).unwrap();
        assert!(
            String::from_utf8(plain)
                .unwrap()
                .starts_with(r#"{"PK":"VID#9f3a","n":98765432109876543210987654321098765432}"#)
        );
    }

    #[test]
    fn suggested_names_are_safe_file_names() {
        assert_eq!(
            suggested_file_name("Social", Some("POST#a91f")),
            "Social-POST_a91f.jsonl"
        );
        assert_eq!(suggested_file_name("a/b", None), "a_b.jsonl");
    }
}
