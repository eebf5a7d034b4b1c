//! An item given to be sized: DynamoDB JSON typed, or a file of it, read within bounds.

use std::io::Read as _;
use std::path::Path;

use crate::core::cost::money::count;
use crate::core::cost::size::as_u64;
use crate::core::error::{Error, Result, file_error};
use crate::core::validate;
use crate::core::value::{self, Item};

/// The most a file holding one item may be: ten times the largest item, room for the JSON's
/// quotes and type tags, and not a whole table read into memory by mistake.
pub const MAX_ITEM_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The item of `text` (DynamoDB JSON), its values checked as DynamoDB would (sets, nesting,
/// numbers) but not its size: an item over 400 KB is sized and said, not refused.
pub fn item_of_text(text: &str) -> Result<Item> {
    let item = value::item_from_dynamodb_json(text).map_err(|e| e.at("item"))?;
    validate::check_values(&item).map_err(|e| e.at("item"))?;
    Ok(item)
}

/// The item of the file at `path`, read only up to [`MAX_ITEM_FILE_BYTES`] (a larger file is
/// refused before it is parsed).
pub fn item_of_file(path: &Path) -> Result<Item> {
    let file = std::fs::File::open(path).map_err(|e| file_error(path, "open", &e))?;
    let mut bytes = Vec::new();
    file.take(MAX_ITEM_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| file_error(path, "read", &e))?;
    if as_u64(bytes.len()) > MAX_ITEM_FILE_BYTES {
        return Err(Error::Invalid(format!(
            "{} is over 4 MB; a file of one item is at most {} bytes (an item at most 400 KB)",
            path.display(),
            count(MAX_ITEM_FILE_BYTES)
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Invalid(format!("{} is not UTF-8 text", path.display())))?;
    item_of_text(&text)
}
