//! Writing items to files in any [`Format`], gzipped or not, numbers exact.

use std::io::Write;
use std::path::Path;

use crate::error::Result;
use crate::rows::Rows;
use crate::transfer::{Format, IfExists, csv, write_file};
use crate::value::{self, Item};

/// Write `items` to `out` in `format`, key attributes first; returns how many were written.
/// CSV has a header of `columns` (every attribute name, key attributes first) and an empty
/// cell where an item lacks an attribute.
pub fn write_items(
    items: impl IntoIterator<Item = Item>,
    key_names: &[String],
    columns: &[String],
    format: Format,
    out: &mut impl Write,
) -> std::io::Result<usize> {
    let mut written = 0;
    let mut line = String::new();
    if format == Format::Csv {
        csv::push_record(&mut line, columns.iter().map(String::as_str));
        out.write_all(line.as_bytes())?;
    }
    for item in items {
        written += 1;
        line.clear();
        match format {
            Format::Csv => {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| item.get(c).map(csv::cell).unwrap_or_default())
                    .collect();
                csv::push_record(&mut line, cells.iter().map(String::as_str));
            }
            Format::JsonLines => {
                line = value::item_to_plain_json(&item, key_names, false);
                line.push('\n');
            }
            Format::DynamoDbJsonLines => {
                line = value::item_to_dynamodb_json(&item, key_names, false);
                line.push('\n');
            }
            Format::S3Export => {
                line = format!(
                    "{{\"Item\":{}}}\n",
                    value::item_to_dynamodb_json(&item, key_names, false)
                );
            }
        }
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    Ok(written)
}

/// The CSV columns of `rows`: every attribute name, the key attributes first, then by name.
pub(crate) fn columns_of(rows: &Rows, key_names: &[String]) -> Vec<String> {
    let mut names: Vec<String> = rows.names().iter().map(ToString::to_string).collect();
    names.sort_by_key(|n| {
        (
            key_names.iter().position(|k| k == n).unwrap_or(usize::MAX),
            n.clone(),
        )
    });
    names
}

/// Write the loaded `rows` to a new file at `path` in `format`, gzip-compressed when `gzip` or
/// when `path` ends in `.gz` ([`gzipped`]); returns how many were written. An existing file is replaced only when `if_exists` says so,
/// and only once the new one is complete ([`write_file`]).
pub fn write_rows_file(
    path: &Path,
    rows: &Rows,
    key_names: &[String],
    format: Format,
    gzip: bool,
    if_exists: IfExists,
) -> Result<usize> {
    let columns = columns_of(rows, key_names);
    let gzip = gzipped(path, gzip);
    write_file(path, if_exists, |out| {
        if gzip {
            let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
            let n = write_items(rows.items(), key_names, &columns, format, &mut gz)?;
            gz.finish()?;
            Ok(n)
        } else {
            write_items(rows.items(), key_names, &columns, format, out)
        }
    })
}

/// Write `contents` to a new file at `path` (an existing one replaced only when `if_exists`
/// says so); returns `records`, what the text holds.
pub fn write_text_file(
    path: &Path,
    contents: &str,
    records: usize,
    if_exists: IfExists,
) -> Result<usize> {
    write_file(path, if_exists, |out| out.write_all(contents.as_bytes())).map(|()| records)
}

/// Whether a file written to `path` is gzipped: asked for, or its name ends in `.gz` (any
/// case) — a name that says gzip is never given plain text. The one file writer of rows,
/// [`write_rows_file`], asks it; an export's plan asks it to say what it will write.
pub fn gzipped(path: &Path, asked: bool) -> bool {
    asked
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// A file name to suggest: the table, the partition when there is one, and the format's
/// ending (`.gz` added when gzipped).
pub fn suggested_file_name(
    table: &str,
    partition: Option<&str>,
    format: Format,
    gzip: bool,
) -> String {
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
    let stem = match partition {
        Some(p) => format!("{}-{}", clean(table), clean(p)),
        None => clean(table),
    };
    let gz = if gzip { ".gz" } else { "" };
    format!("{stem}.{}{gz}", format.extension())
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
                &[],
                Format::DynamoDbJsonLines,
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
        write_items(items.clone(), &keys, &[], Format::JsonLines, &mut plain).unwrap();
        assert!(
            String::from_utf8(plain)
                .unwrap()
                .starts_with(r#"{"PK":"VID#9f3a","n":98765432109876543210987654321098765432}"#)
        );
    }

    #[test]
    fn suggested_names_are_safe_file_names() {
        assert_eq!(
            suggested_file_name("Social", Some("POST#a91f"), Format::JsonLines, false),
            "Social-POST_a91f.jsonl"
        );
        assert_eq!(
            suggested_file_name("a/b", None, Format::S3Export, true),
            "a_b.json.gz"
        );
    }
}
