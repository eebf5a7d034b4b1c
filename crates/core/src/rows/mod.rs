//! The store for loaded rows, shared by the grid, sorting, find, copy, export, the tally checks
//! and SQL: attribute names interned once per result set, each row one compact byte string
//! ([`encode`]) appended to chunks of up to 1 MiB, so a row costs its data plus 12 bytes, and a page is
//! appended without moving the rows before it. Numbers stay the server's text. Dropping the
//! store releases everything; cloning it shares the full chunks (an export or a SQL load takes a
//! clone to a worker thread while more pages arrive).

mod changes;
mod copy;
pub(crate) mod encode;
mod find;
mod layout;
mod sort;

#[cfg(test)]
mod find_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::value::Item;

pub use changes::{MAX_COMPARED, RowChanges};
pub use copy::{CopyFormat, copy_text};
pub use find::{FindScan, Finder, RowSet, find_rows};
pub use layout::ColumnLayout;
pub use sort::{merge_sorted, sort_rows};

use encode::Fields;

const CHUNK_BYTES: usize = 1 << 20;
/// The first chunk; each next one as large as all before, up to [`CHUNK_BYTES`], so that a
/// few rows do not hold a mebibyte.
const FIRST_CHUNK_BYTES: usize = 16 << 10;

impl PartialEq for Rows {
    /// The same items in the same order.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.items().eq(other.items())
    }
}

/// Where one row's bytes are.
#[derive(Debug, Clone, Copy)]
struct Addr {
    chunk: u32,
    start: u32,
    len: u32,
}

/// Loaded rows in their compact form, in the order they arrived.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    names: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, usize>,
    chunks: Vec<Arc<Vec<u8>>>,
    addrs: Vec<Addr>,
    scratch: Vec<u8>,
}

impl Rows {
    /// No rows.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rows holding `items`, in order.
    pub fn from_items<'a>(items: impl IntoIterator<Item = &'a Item>) -> Self {
        let mut rows = Self::new();
        for item in items {
            rows.push(item);
        }
        rows
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.addrs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.addrs.is_empty()
    }

    /// Every attribute name seen, in the order first seen.
    pub fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    /// The id of attribute `name`, if any row has it.
    pub(crate) fn id_of(&self, name: &str) -> Option<usize> {
        self.ids.get(name).copied()
    }

    fn intern(&mut self, name: &str) -> usize {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len();
        let name: Arc<str> = Arc::from(name);
        self.names.push(Arc::clone(&name));
        self.ids.insert(name, id);
        id
    }

    fn encode(&mut self, item: &Item) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        for (name, value) in item {
            let id = self.intern(name);
            encode::put_varint(&mut out, id);
            encode::put_value(&mut out, value);
        }
        out
    }

    /// Append `item` as the last row.
    pub fn push(&mut self, item: &Item) {
        let addr = self.store(item);
        self.addrs.push(addr);
    }

    /// Append every item of a page.
    pub fn extend(&mut self, items: &[Item]) {
        self.addrs.reserve(items.len());
        for item in items {
            self.push(item);
        }
    }

    fn store(&mut self, item: &Item) -> Addr {
        let bytes = self.encode(item);
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= bytes.len());
        if !fits {
            let before: usize = self.chunks.iter().map(|c| c.len()).sum();
            let size = before
                .clamp(FIRST_CHUNK_BYTES, CHUNK_BYTES)
                .max(bytes.len());
            self.chunks.push(Arc::new(Vec::with_capacity(size)));
        }
        let chunk_index = self.chunks.len() - 1;
        let addr = match self.chunks.last_mut() {
            Some(chunk) => {
                // Only the last chunk grows; a clone holding it copies at most 1 MiB here.
                let chunk = Arc::make_mut(chunk);
                let start = chunk.len();
                chunk.extend_from_slice(&bytes);
                Addr {
                    chunk: chunk_index as u32,
                    start: start as u32,
                    len: bytes.len() as u32,
                }
            }
            None => Addr {
                chunk: 0,
                start: 0,
                len: 0,
            },
        };
        self.scratch = bytes;
        addr
    }

    /// Put `item` in place of row `row` (its old bytes stay until the store is dropped).
    pub fn replace(&mut self, row: usize, item: &Item) {
        if row < self.addrs.len() {
            let addr = self.store(item);
            self.addrs[row] = addr;
        }
    }

    pub(crate) fn bytes(&self, row: usize) -> &[u8] {
        self.addrs
            .get(row)
            .and_then(|a| {
                let chunk = self.chunks.get(a.chunk as usize)?;
                chunk.get(a.start as usize..(a.start + a.len) as usize)
            })
            .unwrap_or_default()
    }

    /// The encoded value of attribute `id` in row `row`.
    pub(crate) fn body(&self, row: usize, id: usize) -> Option<&[u8]> {
        Fields::new(self.bytes(row)).find_map(|(i, body)| (i == id).then_some(body))
    }

    /// Row `row` as an item.
    pub fn item(&self, row: usize) -> Option<Item> {
        if row >= self.addrs.len() {
            return None;
        }
        let mut item = Item::new();
        for (id, body) in Fields::new(self.bytes(row)) {
            if let (Some(name), Some(value)) = (self.names.get(id), encode::decode_body(body)) {
                item.insert(name.to_string(), value);
            }
        }
        Some(item)
    }

    /// The value of attribute `name` in row `row`.
    pub fn value(&self, row: usize, name: &str) -> Option<AttributeValue> {
        self.body(row, self.id_of(name)?)
            .and_then(encode::decode_body)
    }

    /// Every row as an item, in order.
    pub fn items(&self) -> impl Iterator<Item = Item> + '_ {
        (0..self.len()).filter_map(|row| self.item(row))
    }

    /// The first row whose attributes include all of `key`.
    pub fn find_key(&self, key: &Item) -> Option<usize> {
        (0..self.len()).find(|&row| {
            key.iter()
                .all(|(name, value)| self.value(row, name).as_ref() == Some(value))
        })
    }

    /// Set attribute `name` of row `row` to `value`.
    pub fn set_value(&mut self, row: usize, name: &str, value: AttributeValue) {
        if let Some(mut item) = self.item(row) {
            item.insert(name.to_owned(), value);
            self.replace(row, &item);
        }
    }

    #[cfg(test)]
    /// The bytes this store holds: chunks, row addresses and names.
    pub(crate) fn held_bytes(&self) -> usize {
        let chunks: usize = self.chunks.iter().map(|c| c.capacity()).sum();
        let names: usize = self.names.iter().map(|n| n.len() + 48).sum();
        chunks
            + self.addrs.capacity() * std::mem::size_of::<Addr>()
            + names
            + self.scratch.capacity()
    }
}
