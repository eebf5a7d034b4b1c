//! The items of one file, read one at a time in any [`Format`] (gunzipped on the way when the
//! file is gzip), each line or record parsed as it comes: a file of any size is read in the
//! memory of one line. An error names the file and the line. In a file named `….rejected` (the
//! lines an import skipped, each after a `#` line saying why) lines beginning with `#` are not
//! items, so that file, fixed, is imported as it is.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::transfer::csv::CellType;
use crate::transfer::csv_read::{CsvItems, Records};
use crate::transfer::lines::Lines;
use crate::transfer::stream::TextSource;
use crate::transfer::{Format, line_item, open_text};
use crate::value::Item;

type Input = Box<dyn BufRead + Send>;

/// How a file's text is cut into items.
enum Splitter {
    /// One JSON object per line, in `Format`.
    Lines(Lines<Input>, Format),
    /// CSV records under a header (boxed: it carries the line being fed).
    Csv(Box<CsvItems<Input>>),
}

/// The items of one file, in order.
pub(crate) struct FileItems {
    path: PathBuf,
    reader: Splitter,
    /// Lines beginning with `#` are not items (a `.rejected` file).
    comments: bool,
}

/// Whether the file at `path` is one an import's skipped lines were written to, whose lines
/// beginning with `#` are their reasons.
pub(crate) fn has_comments(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(REJECTED))
}

/// What the name of a file of skipped lines ends with.
pub(crate) const REJECTED: &str = ".rejected";

/// Where the lines an import of `path` (a file or a folder) skipped are written: beside it,
/// `FILE.rejected`; a folder's beside the folder, named after it (`fold/` → `fold.rejected`,
/// `.` → `../NAME.rejected`), never inside it.
pub fn rejected_path(path: &Path) -> PathBuf {
    // `.` and `..` name no folder by themselves: the folder they are.
    let named = match path.file_name() {
        Some(_) => path.to_path_buf(),
        None => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
    };
    match named.file_name() {
        Some(name) => {
            let mut name = name.to_owned();
            name.push(REJECTED);
            named.with_file_name(name)
        }
        // The root: nothing beside it.
        None => named.join(REJECTED),
    }
}

impl FileItems {
    /// The items of one file or object (`source`) in `format`: a file here as [`Self::open`]
    /// reads it, an object's text likewise (CSV with `types` too).
    pub(crate) fn of_source(
        source: &dyn TextSource,
        format: Format,
        types: &HashMap<String, CellType>,
    ) -> Result<Self> {
        if let Some(path) = source.path() {
            return Self::open(path, format, types);
        }
        let (input, action) = source.open()?;
        Self::of_text(PathBuf::from(source.name()), input, action, format, types)
    }

    /// Open the file at `path` in `format` (`types` applies to CSV columns; a CSV header is read
    /// here).
    pub(crate) fn open(
        path: &Path,
        format: Format,
        types: &HashMap<String, CellType>,
    ) -> Result<Self> {
        let (input, action) = open_text(path)?;
        Self::of_text(path.to_owned(), input, action, format, types)
    }

    /// The items of the text `input` (read by `action`), named `path`.
    fn of_text(
        path: PathBuf,
        input: Input,
        action: &'static str,
        format: Format,
        types: &HashMap<String, CellType>,
    ) -> Result<Self> {
        let comments = has_comments(&path);
        let reader = match format {
            Format::Csv => Splitter::Csv(Box::new(
                CsvItems::new(
                    Records::new(input, &path, action).with_comments(comments),
                    types,
                )
                .map_err(|e| at(&path, e))?,
            )),
            _ => Splitter::Lines(Lines::new(input, &path, action), format),
        };
        Ok(Self {
            path,
            reader,
            comments,
        })
    }

    /// The text of the line or record last read, item or not, as it would be written to be read
    /// again: a JSON line as it was, a CSV record's fields quoted as needed. `None` when none
    /// was read whole (a quote never closed, a line too long).
    pub(crate) fn last_text(&self) -> Option<String> {
        match &self.reader {
            Splitter::Lines(lines, _) => {
                let line = lines.last();
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                let text = String::from_utf8_lossy(line);
                // A line beginning with `#` would be a comment in the rejected file: a space
                // before it keeps it a line (no JSON begins with `#` either way).
                (!line.is_empty()).then(|| {
                    if text.starts_with('#') {
                        format!(" {text}")
                    } else {
                        text.into_owned()
                    }
                })
            }
            Splitter::Csv(csv) => {
                let fields = csv.last_fields();
                (!fields.is_empty()).then(|| csv_line(fields))
            }
        }
    }

    /// A CSV file's header as a line, to head a file of its records.
    pub(crate) fn header_text(&self) -> Option<String> {
        match &self.reader {
            Splitter::Csv(csv) => Some(csv_line(csv.header())),
            Splitter::Lines(..) => None,
        }
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of text read so far (after gunzipping).
    pub(crate) fn examined_bytes(&self) -> u64 {
        match &self.reader {
            Splitter::Lines(lines, _) => lines.examined_bytes(),
            Splitter::Csv(csv) => csv.examined_bytes(),
        }
    }

    /// The next item and its line (for CSV, the line its record starts on), or `None` at the
    /// end of the file. Blank lines hold no item.
    pub(crate) fn next_item(&mut self) -> Result<Option<(usize, Item)>> {
        let next = match &mut self.reader {
            Splitter::Csv(csv) => csv.next_item(),
            Splitter::Lines(lines, format) => next_line_item(lines, *format, self.comments),
        };
        next.map_err(|e| at(&self.path, e))
    }
}

/// `fields` as one CSV line, without its end; a first field beginning with `#` is quoted, so
/// that in a rejected file the record is not read as a comment.
fn csv_line(fields: &[String]) -> String {
    let mut line = String::new();
    crate::transfer::csv::push_record(&mut line, fields.iter().map(String::as_str));
    line.truncate(line.trim_end_matches(['\r', '\n']).len());
    match fields.first() {
        Some(first) if line.starts_with('#') => {
            format!("\"{}\"{}", first.replace('"', "\"\""), &line[first.len()..])
        }
        _ => line,
    }
}

fn next_line_item(
    lines: &mut Lines<Input>,
    format: Format,
    comments: bool,
) -> Result<Option<(usize, Item)>> {
    loop {
        let number = lines.line() + 1;
        let Some(line) = lines.next_line()? else {
            return Ok(None);
        };
        if line.iter().all(u8::is_ascii_whitespace) || (comments && line.starts_with(b"#")) {
            continue;
        }
        let placed = |why: String| Error::Invalid(format!("line {number}: {why}"));
        let text = std::str::from_utf8(line)
            .map_err(|e| placed(format!("not UTF-8 text (byte {})", e.valid_up_to() + 1)))?;
        let item = line_item(text, format).map_err(|e| placed(e.reason()))?;
        return Ok(Some((number, item)));
    }
}

/// An invalid input's words placed in the file.
fn at(path: &Path, error: Error) -> Error {
    error.at(&path.display().to_string())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::rejected_path;

    #[test]
    fn a_folders_rejected_lines_are_beside_it_named_after_it() {
        assert_eq!(
            rejected_path(Path::new("in/a.jsonl")),
            Path::new("in/a.jsonl.rejected")
        );
        assert_eq!(
            rejected_path(Path::new("in/fold/")),
            Path::new("in/fold.rejected")
        );
        let here = std::env::current_dir().unwrap();
        let named = format!("{}.rejected", here.file_name().unwrap().to_string_lossy());
        assert_eq!(rejected_path(Path::new(".")), here.with_file_name(named));
    }
}
