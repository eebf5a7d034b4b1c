//! The shape of a loaded table: which column holds which attribute, what kind of values it
//! holds (so that they come back as the same DynamoDB type), and names SQLite accepts.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::error::{Error, Result};
use crate::core::value::Item;

/// The longest table name a load accepts.
const MAX_TABLE_NAME: usize = 64;

/// What a loaded column holds, which decides how its values come back out of a `SELECT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColumnKind {
    /// Only numbers (`N`) or nothing: INTEGER and exact TEXT both come back as `N`.
    Number,
    /// Only booleans or nothing: stored as 0/1, they come back as `BOOL`.
    Bool,
    /// Strings, binary, or a mix of types: TEXT comes back as `S`, INTEGER as `N`.
    #[default]
    Other,
    /// The whole item as plain JSON text.
    ItemJson,
}

/// One column of a loaded table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlColumn {
    /// The column's name in SQL (the attribute's name, unless that was taken or impossible).
    pub name: String,
    /// The top-level attribute it holds; `None` for the whole-item JSON column.
    pub attribute: Option<String>,
    /// What it holds.
    pub kind: ColumnKind,
}

/// The DynamoDB types seen in one attribute, as bits.
#[derive(Debug, Clone, Copy, Default)]
struct Seen(u8);

impl Seen {
    const NUMBER: u8 = 1;
    const BOOL: u8 = 2;
    const OTHER: u8 = 4;

    fn add(&mut self, value: &AttributeValue) {
        self.0 |= match value {
            AttributeValue::N(_) => Self::NUMBER,
            AttributeValue::Bool(_) => Self::BOOL,
            AttributeValue::Null(_) => 0,
            _ => Self::OTHER,
        };
    }

    fn kind(self) -> ColumnKind {
        match self.0 {
            Self::NUMBER => ColumnKind::Number,
            Self::BOOL => ColumnKind::Bool,
            _ => ColumnKind::Other,
        }
    }
}

/// Whether a value is a top-level scalar, which gets a column of its own (sets, maps and lists
/// are in the whole-item JSON only).
pub fn is_scalar(value: &AttributeValue) -> bool {
    matches!(
        value,
        AttributeValue::S(_)
            | AttributeValue::N(_)
            | AttributeValue::B(_)
            | AttributeValue::Bool(_)
            | AttributeValue::Null(_)
    )
}

/// The columns for `items`: the key attributes first (always, in `key_names` order), then every
/// top-level scalar attribute seen in any item by name, then the whole item as JSON (`item`,
/// or `item_2`… when an attribute took that name). SQL names are unique without regard to
/// case, as SQLite compares them.
pub fn plan_columns<B: std::borrow::Borrow<Item>>(
    key_names: &[String],
    items: impl Iterator<Item = B>,
) -> Vec<SqlColumn> {
    // A million items of a handful of attributes each: FNV hashes short names far faster
    // than SipHash, and these names are data already loaded, not an attack surface.
    let mut seen: HashMap<String, Seen, BuildHasherDefault<Fnv>> = HashMap::default();
    for item in items {
        for (name, value) in item.borrow().iter() {
            if is_scalar(value) || key_names.contains(name) {
                match seen.get_mut(name.as_str()) {
                    Some(s) => s.add(value),
                    None => seen.entry(name.clone()).or_default().add(value),
                }
            }
        }
    }
    let rest: BTreeSet<&str> = seen
        .keys()
        .map(String::as_str)
        .filter(|name| !key_names.iter().any(|k| k == name))
        .collect();
    let mut taken = HashSet::new();
    let mut columns: Vec<SqlColumn> = key_names
        .iter()
        .map(String::as_str)
        .chain(rest)
        .map(|attribute| SqlColumn {
            name: unique_name(attribute, &mut taken),
            attribute: Some(attribute.to_owned()),
            kind: seen.get(attribute).copied().unwrap_or_default().kind(),
        })
        .collect();
    columns.push(SqlColumn {
        name: unique_name("item", &mut taken),
        attribute: None,
        kind: ColumnKind::ItemJson,
    });
    columns
}

/// The FNV-1a hash.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// `wanted` as a column name no other column has (SQLite compares names without case), with
/// `_2`, `_3`… added when taken. A NUL, which SQLite's text cannot hold, becomes U+FFFD.
fn unique_name(wanted: &str, taken: &mut HashSet<String>) -> String {
    let base = wanted.replace('\0', "\u{fffd}");
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.to_lowercase()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

/// `name` quoted as an SQL identifier: `"likeTally"`, `"a""b"`.
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Check that `name` can be a loaded table's name and be written bare in a query: a letter or
/// `_`, then letters, digits or `_`, at most 64 characters, and not SQLite's own `sqlite_…`.
/// (Whether SQLite takes it bare — not a keyword such as `select` — is checked when loading.)
pub fn check_table_name(name: &str) -> Result<()> {
    let mut chars = name.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain {
        return Err(Error::Invalid(format!(
            "`{name}` cannot name an SQL table: use a letter or _ first, then letters, digits or _ (e.g. likes, posts_2025)"
        )));
    }
    if name.len() > MAX_TABLE_NAME {
        return Err(Error::Invalid(format!(
            "`{name}` is too long for an SQL table name (at most {MAX_TABLE_NAME} characters)"
        )));
    }
    if name.to_ascii_lowercase().starts_with("sqlite_") {
        return Err(Error::Invalid(format!(
            "`{name}`: names beginning with sqlite_ belong to SQLite; pick another"
        )));
    }
    Ok(())
}
