//! The one validator: what DynamoDB would refuse in a value or an item, said before anything is
//! sent, so that a file is written whole or not at all and a typed item is refused with its
//! place instead of a `ValidationException`.
//!
//! The rules are DynamoDB's (as the embedded engine, which follows the service's captured
//! answers, applies them): a set is never empty and holds each element once (numbers compared
//! by value, `1` and `1.0` being one); values nest at most 32 levels (the top-level value is
//! level 1); numbers have at most 38 significant digits within 1E-130 and 9.99…E+125; an item is
//! at most 400 KB, names and values counted as DynamoDB counts them; key attributes of the table
//! and of its indexes are present where required, of their declared type and never empty; a
//! partition key value is at most 2,048 bytes and a sort key value at most 1,024.

use std::collections::HashSet;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Result};
use crate::number;
use crate::table::{KeyAttr, TableInfo};
use crate::value::{Item, type_tag};

pub mod item_input;

pub use crate::cost::size::item_size;

/// The largest item DynamoDB stores: 400 KB, names and values counted.
pub(crate) const MAX_ITEM_BYTES: usize = 400 * 1024;

/// How deep values may nest: a value 32 levels down (the top-level value being level 1) is
/// refused.
pub(crate) const MAX_NESTING: usize = 32;

/// The largest partition key value.
pub(crate) const MAX_PARTITION_KEY_BYTES: usize = 2048;

/// The largest sort key value.
pub(crate) const MAX_SORT_KEY_BYTES: usize = 1024;

/// Check `value` on its own, as DynamoDB checks any value it is sent (an item's, a key's, an
/// expression's or a statement's parameter): `what` names it in the error (`parameter 2`).
pub(crate) fn check_value(what: &str, value: &AttributeValue) -> Result<()> {
    check_at(&Place::Value(what), "", value, 0)
}

/// What is checked, to name it in an error with the path to the value inside it.
enum Place<'a> {
    /// An attribute of an item: `` `meta.inner[0]` ``.
    Attribute(&'a str),
    /// A value named some other way: `parameter 2 (at inner[0])`.
    Value(&'a str),
}

impl Place<'_> {
    fn at(&self, path: &str) -> String {
        match self {
            Self::Attribute(name) => format!("`{name}{path}`"),
            Self::Value(what) if path.is_empty() => (*what).to_owned(),
            Self::Value(what) => format!("{what} (at {})", path.trim_start_matches('.')),
        }
    }
}

fn check_at(place: &Place<'_>, path: &str, value: &AttributeValue, depth: usize) -> Result<()> {
    let what = place.at(path);
    let invalid = |why: String| Err(Error::Invalid(format!("{what}: {why}")));
    if depth >= MAX_NESTING {
        return invalid(format!(
            "values nest more than {MAX_NESTING} levels deep, which DynamoDB refuses"
        ));
    }
    match value {
        AttributeValue::N(n) => check_number(&what, n),
        AttributeValue::Ss(v) => check_set(&what, "string", v.iter().cloned(), |i| {
            format!("`{}`", v[i])
        }),
        AttributeValue::Bs(v) => check_set(
            &what,
            "binary",
            v.iter().map(|b| b.as_ref().to_vec()),
            |i| format!("element {}", i + 1),
        ),
        AttributeValue::Ns(v) => {
            v.iter().try_for_each(|n| check_number(&what, n))?;
            // By value: `1` and `1.0` are one number to DynamoDB.
            check_set(
                &what,
                "number",
                v.iter()
                    .map(|n| number::parse(n).ok().map(|d| d.normalized())),
                |i| format!("`{}` (by value)", v[i]),
            )
        }
        AttributeValue::L(list) => list
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_at(place, &format!("{path}[{i}]"), v, depth + 1)),
        AttributeValue::M(map) => map.iter().try_for_each(|(name, v)| {
            if name.is_empty() {
                return invalid("a map holds an attribute without a name".into());
            }
            check_at(place, &format!("{path}.{name}"), v, depth + 1)
        }),
        AttributeValue::S(_)
        | AttributeValue::B(_)
        | AttributeValue::Bool(_)
        | AttributeValue::Null(_) => Ok(()),
        _ => invalid("a value of a type DynamoDB does not have".into()),
    }
}

fn check_number(what: &str, text: &str) -> Result<()> {
    // DynamoDB reads a number without spaces around it.
    if text.trim() != text {
        return Err(Error::Invalid(format!(
            "{what}: `{text}` has spaces around the number"
        )));
    }
    number::parse(text)
        .map(|_| ())
        .map_err(|e| Error::Invalid(format!("{what}: {e}")))
}

fn check_set<T: Eq + std::hash::Hash>(
    what: &str,
    kind: &str,
    elements: impl ExactSizeIterator<Item = T>,
    shown: impl Fn(usize) -> String,
) -> Result<()> {
    if elements.len() == 0 {
        return Err(Error::Invalid(format!(
            "{what}: a {kind} set cannot be empty (leave the attribute out instead)"
        )));
    }
    let mut seen = HashSet::with_capacity(elements.len());
    for (i, element) in elements.enumerate() {
        if !seen.insert(element) {
            return Err(Error::Invalid(format!(
                "{what}: a {kind} set holds each element once, and {} repeats an earlier element",
                shown(i)
            )));
        }
    }
    Ok(())
}

/// Check every attribute of `item` on its own: a name, and a value DynamoDB takes.
pub fn check_values(item: &Item) -> Result<()> {
    for (name, value) in item {
        if name.is_empty() {
            return Err(Error::Invalid(
                "an attribute has no name; every attribute needs one".into(),
            ));
        }
        check_at(&Place::Attribute(name), "", value, 0)?;
    }
    Ok(())
}

/// Check `item` as a whole item to be written to the table `info` describes: its values, its
/// size, the table's key attributes (present, typed, not empty, within their sizes) and the
/// indexes' key attributes it has (typed, not empty).
pub(crate) fn check_item(item: &Item, info: &TableInfo) -> Result<()> {
    check_values(item)?;
    let size = item_size(item);
    if size > MAX_ITEM_BYTES {
        return Err(Error::Invalid(format!(
            "the item is {size} bytes as DynamoDB counts them (names and values); an item is at most {MAX_ITEM_BYTES} (400 KB)"
        )));
    }
    check_key_of(item, info, true)?;
    for index in &info.indexes {
        for key in [Some(&index.partition), index.sort.as_ref()]
            .into_iter()
            .flatten()
        {
            // An item without an index's key attribute is simply not in that index.
            if let Some(value) = item.get(&key.name) {
                check_key_value(key, value, &format!(" of the index {}", index.name))?;
                let partition = key.name == index.partition.name;
                check_key_value_alone(key, value, partition)
                    .map_err(|e| e.at(&format!("the index {}", index.name)))?;
            }
        }
    }
    Ok(())
}

/// Check `key` as the key of an item of the table `info` describes: exactly its key attributes
/// when `whole_item` is false, typed, not empty, within their sizes.
pub(crate) fn check_key(key: &Item, info: &TableInfo) -> Result<()> {
    check_key_of(key, info, false)
}

fn check_key_of(item: &Item, info: &TableInfo, whole_item: bool) -> Result<()> {
    let keys = [
        (Some(&info.partition), MAX_PARTITION_KEY_BYTES, "partition"),
        (info.sort.as_ref(), MAX_SORT_KEY_BYTES, "sort"),
    ];
    for (key, limit, which) in keys {
        let Some(key) = key else { continue };
        let Some(value) = item.get(&key.name) else {
            return Err(Error::Invalid(format!(
                "the item lacks the key attribute `{}` (the {which} key of {})",
                key.name, info.name
            )));
        };
        check_key_value(key, value, "")?;
        let bytes = key_bytes(value);
        if bytes > limit {
            return Err(Error::Invalid(format!(
                "`{}` is {bytes} bytes; a {which} key value is at most {limit}",
                key.name
            )));
        }
    }
    if !whole_item && let Some(other) = item.keys().find(|name| !info.key_names().contains(name)) {
        return Err(Error::Invalid(format!(
            "`{other}` is not a key attribute of {}",
            info.name
        )));
    }
    Ok(())
}

/// A key attribute's value: of its declared type, and not an empty string or binary.
fn check_key_value(key: &KeyAttr, value: &AttributeValue, of: &str) -> Result<()> {
    let tag = type_tag(value);
    if tag != key.kind.tag() {
        return Err(Error::Invalid(format!(
            "`{}` is {tag} here, but it is a key attribute{of} of type {}",
            key.name,
            key.kind.tag()
        )));
    }
    let empty = match value {
        AttributeValue::S(s) => s.is_empty(),
        AttributeValue::B(b) => b.as_ref().is_empty(),
        _ => false,
    };
    if empty {
        return Err(Error::Invalid(format!(
            "`{}` is empty, but it is a key attribute{of}: a key needs a value",
            key.name
        )));
    }
    Ok(())
}

/// Check one key value typed on its own (a Query's partition key value): of `key`'s type, not
/// empty, and within the size of a partition key (`partition`) or a sort key. DynamoDB refuses
/// such a value, or no item could have it.
pub(crate) fn check_key_value_alone(
    key: &KeyAttr,
    value: &AttributeValue,
    partition: bool,
) -> Result<()> {
    check_key_value(key, value, "")?;
    let (limit, which) = if partition {
        (MAX_PARTITION_KEY_BYTES, "partition")
    } else {
        (MAX_SORT_KEY_BYTES, "sort")
    };
    let bytes = key_bytes(value);
    if bytes > limit {
        return Err(Error::Invalid(format!(
            "`{}` is {bytes} bytes; a {which} key value is at most {limit}",
            key.name
        )));
    }
    Ok(())
}

fn key_bytes(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => s.len(),
        AttributeValue::B(b) => b.as_ref().len(),
        _ => 0,
    }
}

/// Refuse the JSON text of one item before it is parsed when it holds more values than an item
/// of 400 KB can (every value of a list, map, set or item adds at least a byte to the item's
/// size; at most one element of a set can be empty, and a set's elements are distinct): a line of
/// 16 MiB of `[0,0,0,…]` would otherwise build millions of values before the size rule sees
/// them. Counts the separators outside strings, in one pass, building nothing.
pub(crate) fn check_item_text_bound(bytes: &[u8]) -> Result<(), String> {
    // Each separator starts one more value of at least one byte (a list's element costs its
    // byte of overhead, a map's entry its name and a byte, an attribute its name), give or take
    // the one empty element of a set: an item of 400 KB has fewer, with room to spare.
    let most = MAX_ITEM_BYTES + 1024;
    let (mut separators, mut in_string, mut escaped) = (0usize, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' => separators += 1,
                _ => {}
            }
        }
    }
    if separators > most {
        return Err(format!(
            "it holds {separators} values, more than an item of 400 KB can (each takes at least a byte)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
