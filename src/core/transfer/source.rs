//! The items of one file, read one at a time in any [`Format`] (gunzipped on the way when the
//! file is gzip), each line or record parsed as it comes: a file of any size is read in the
//! memory of one line. An error names the file and the line.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::core::error::{Error, Result};
use crate::core::transfer::csv::CellType;
use crate::core::transfer::csv_read::{CsvItems, Records};
use crate::core::transfer::lines::Lines;
use crate::core::transfer::{Format, line_item, open_text};
use crate::core::value::Item;

type Input = Box<dyn BufRead + Send>;

/// How a file's text is cut into items.
enum Reader {
    /// One JSON object per line, in `Format`.
    Lines(Lines<Input>, Format),
    /// CSV records under a header (boxed: it carries the line being fed).
    Csv(Box<CsvItems<Input>>),
}

/// The items of one file, in order.
pub struct FileItems {
    path: PathBuf,
    reader: Reader,
}

impl FileItems {
    /// Open the file at `path` in `format` (`types` applies to CSV columns; a CSV header is read
    /// here).
    pub fn open(path: &Path, format: Format, types: &HashMap<String, CellType>) -> Result<Self> {
        let (input, action) = open_text(path)?;
        let reader = match format {
            Format::Csv => Reader::Csv(Box::new(
                CsvItems::new(Records::new(input, path, action), types).map_err(|e| at(path, e))?,
            )),
            _ => Reader::Lines(Lines::new(input, path, action), format),
        };
        Ok(Self {
            path: path.to_owned(),
            reader,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of text read so far (after gunzipping).
    pub fn examined_bytes(&self) -> u64 {
        match &self.reader {
            Reader::Lines(lines, _) => lines.examined_bytes(),
            Reader::Csv(csv) => csv.examined_bytes(),
        }
    }

    /// The next item and its line (for CSV, the line its record starts on), or `None` at the
    /// end of the file. Blank lines hold no item.
    pub fn next_item(&mut self) -> Result<Option<(usize, Item)>> {
        let next = match &mut self.reader {
            Reader::Csv(csv) => csv.next_item(),
            Reader::Lines(lines, format) => next_line_item(lines, *format),
        };
        next.map_err(|e| at(&self.path, e))
    }
}

fn next_line_item(lines: &mut Lines<Input>, format: Format) -> Result<Option<(usize, Item)>> {
    loop {
        let number = lines.line() + 1;
        let Some(line) = lines.next_line()? else {
            return Ok(None);
        };
        if line.iter().all(u8::is_ascii_whitespace) {
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
