//! Copying rows or cells: tab-separated values that paste into a spreadsheet, or JSON. Numbers
//! are the server's text in both.

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::{Map, Value};

use crate::rows::Rows;
use crate::value::json::{Layout, Style, text, value_to_json};

/// What Ctrl+C (TSV) and Ctrl+Shift+C (JSON) copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyFormat {
    /// One line per row, cells separated by tabs; a header line of the names when `header`.
    Tsv {
        /// Start with the column names.
        header: bool,
    },
    /// One object per row (plain JSON, only the columns asked for); an array when several.
    Json,
}

/// One cell as TSV text: strings as they are, numbers exact, anything else as plain JSON; a
/// cell with a tab, a line break or a quote is quoted, as spreadsheets read it.
fn tsv_cell(value: Option<&AttributeValue>) -> String {
    let raw = match value {
        None => return String::new(),
        Some(AttributeValue::S(s)) => s.clone(),
        Some(AttributeValue::N(n)) => n.clone(),
        Some(other) => text(&value_to_json(other, Style::Plain), Layout::Compact),
    };
    if raw.contains(['\t', '\n', '\r', '"']) {
        format!("\"{}\"", raw.replace('"', "\"\""))
    } else {
        raw
    }
}

/// The text for `columns` of the rows `view` of `rows`, in that order.
pub fn copy_text<C: AsRef<str>>(
    rows: &Rows,
    view: &[u32],
    columns: &[C],
    format: CopyFormat,
) -> String {
    match format {
        CopyFormat::Tsv { header } => {
            let mut lines: Vec<String> = Vec::with_capacity(view.len() + 1);
            if header {
                let names: Vec<&str> = columns.iter().map(AsRef::as_ref).collect();
                lines.push(names.join("\t"));
            }
            for &row in view {
                let item = rows.item(row as usize).unwrap_or_default();
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| tsv_cell(item.get(c.as_ref())))
                    .collect();
                lines.push(cells.join("\t"));
            }
            lines.join("\n")
        }
        CopyFormat::Json => {
            let objects: Vec<Value> = view
                .iter()
                .map(|&row| {
                    let item = rows.item(row as usize).unwrap_or_default();
                    let mut object = Map::new();
                    for column in columns.iter().map(AsRef::as_ref) {
                        if let Some(value) = item.get(column) {
                            object.insert(column.to_owned(), value_to_json(value, Style::Plain));
                        }
                    }
                    Value::Object(object)
                })
                .collect();
            match objects.as_slice() {
                [one] => serde_json::to_string_pretty(one).unwrap_or_default(),
                _ => serde_json::to_string_pretty(&objects).unwrap_or_default(),
            }
        }
    }
}
