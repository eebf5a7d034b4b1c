//! The shape of a loaded table: which column holds which attribute, what kind of values it
//! holds (so that they come back as the same DynamoDB type), and names SQLite accepts.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::error::{Error, Result};
use crate::rows::Rows;
use crate::rows::encode::{Fields, tag};

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
    /// Seen as a top-level scalar at least once, so it gets a column.
    const SCALAR: u8 = 8;

    /// Add one value, by its stored type tag.
    fn add(&mut self, t: u8) {
        self.0 |= match t {
            tag::N => Self::NUMBER | Self::SCALAR,
            tag::TRUE | tag::FALSE => Self::BOOL | Self::SCALAR,
            tag::NULL => Self::SCALAR,
            tag::S | tag::B => Self::OTHER | Self::SCALAR,
            _ => Self::OTHER,
        };
    }

    fn scalar(self) -> bool {
        self.0 & Self::SCALAR != 0
    }

    fn kind(self) -> ColumnKind {
        match self.0 & !Self::SCALAR {
            Self::NUMBER => ColumnKind::Number,
            Self::BOOL => ColumnKind::Bool,
            _ => ColumnKind::Other,
        }
    }
}

/// The plan of a load: the table's columns, and for each attribute name of the rows (by its
/// id in the store) its column and its place in the whole-item JSON.
#[derive(Debug)]
pub(super) struct Plan {
    /// Key attributes first (always, in `key_names` order), then every attribute seen as a
    /// top-level scalar in any row, by name, then the whole item as JSON (`item`, or
    /// `item_2`… when an attribute took that name). SQL names are unique without regard to
    /// case, as SQLite compares them. (Sets, maps and lists are in the JSON only.)
    pub columns: Vec<SqlColumn>,
    /// The column of each attribute id, if it has one.
    pub column_of: Vec<Option<usize>>,
    /// The place of each attribute id in the JSON: key attributes first, then by name.
    pub place_of: Vec<u32>,
}

/// Plan the table for `rows`, reading each row's stored type tags (nothing is decoded).
pub(super) fn plan(key_names: &[String], rows: &Rows) -> Plan {
    let names = rows.names();
    let mut seen = vec![Seen::default(); names.len()];
    for row in 0..rows.len() {
        for (id, body) in Fields::new(rows.bytes(row)) {
            if let (Some(s), Some(&t)) = (seen.get_mut(id), body.first()) {
                s.add(t);
            }
        }
    }
    let key_place = |name: &str| key_names.iter().position(|k| k == name);
    let rest: BTreeSet<&str> = names
        .iter()
        .zip(&seen)
        .filter(|(name, s)| s.scalar() && key_place(name).is_none())
        .map(|(name, _)| &**name)
        .collect();
    let mut taken = HashSet::new();
    let mut columns: Vec<SqlColumn> = key_names
        .iter()
        .map(String::as_str)
        .chain(rest)
        .map(|attribute| SqlColumn {
            name: unique_name(attribute, &mut taken),
            attribute: Some(attribute.to_owned()),
            kind: rows
                .id_of(attribute)
                .and_then(|id| seen.get(id))
                .copied()
                .unwrap_or_default()
                .kind(),
        })
        .collect();
    columns.push(SqlColumn {
        name: unique_name("item", &mut taken),
        attribute: None,
        kind: ColumnKind::ItemJson,
    });
    let by_attribute: HashMap<&str, usize> = columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((c.attribute.as_deref()?, i)))
        .collect();
    let column_of = names
        .iter()
        .map(|name| by_attribute.get(&**name).copied())
        .collect();
    let mut order: Vec<(usize, &str, usize)> = names
        .iter()
        .enumerate()
        .map(|(id, name)| (key_place(name).unwrap_or(usize::MAX), &**name, id))
        .collect();
    order.sort_unstable();
    let mut place_of = vec![0; names.len()];
    for (place, (_, _, id)) in order.into_iter().enumerate() {
        place_of[id] = place as u32;
    }
    Plan {
        columns,
        column_of,
        place_of,
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
pub(crate) fn check_table_name(name: &str) -> Result<()> {
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
