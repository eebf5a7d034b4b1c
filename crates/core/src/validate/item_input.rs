//! An item given to be sized: DynamoDB JSON typed, or a file of it, read within bounds.

use std::path::Path;

use crate::cost::count;
use crate::error::Result;
use crate::files;
use crate::validate;
use crate::value::{self, Item};

/// The most a file holding one item may be: ten times the largest item, room for the JSON's
/// quotes and type tags, and not a whole table read into memory by mistake.
pub(crate) const MAX_ITEM_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The item of `text` (DynamoDB JSON), its values checked as DynamoDB would (sets, nesting,
/// numbers) but not its size: an item over 400 KB is sized and said, not refused.
pub fn item_of_text(text: &str) -> Result<Item> {
    let item = value::item_from_dynamodb_json(text).map_err(|e| e.at("item"))?;
    validate::check_values(&item).map_err(|e| e.at("item"))?;
    Ok(item)
}

/// The item of the file at `path`, read only up to [`MAX_ITEM_FILE_BYTES`] (a larger file is
/// refused before it is parsed); only a regular file is read, so a FIFO or a device named
/// by mistake is refused at once.
pub fn item_of_file(path: &Path) -> Result<Item> {
    let too_big = format!(
        "is over 4 MB; a file of one item is at most {} bytes (an item at most 400 KB)",
        count(MAX_ITEM_FILE_BYTES)
    );
    let bytes = files::read_small(path, MAX_ITEM_FILE_BYTES, &too_big)?;
    let text = files::utf8(path, bytes)?;
    item_of_text(&text)
}
