//! One canonical form of a DynamoDB value, so two sides compare as DynamoDB compares: numbers as
//! numbers (`1` = `1.0`, 38 digits exact), sets as sets, maps by name, lists in order — and a
//! digest of an item in that form, so a whole table is compared without keeping its items.

use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::number;
use crate::value::{Item, whole_text};

/// The value in its canonical form: equal texts, equal DynamoDB values.
pub(crate) fn canonical(value: &AttributeValue) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// A part of a canonical form, its length first so that no two values run together.
fn part(tag: &str, text: &str, out: &mut String) {
    let _ = write!(out, "{tag}{}:{text}", text.len());
}

/// A number's canonical text: normalized (`1.0` and `1` alike), or its text when it is not one.
fn number_text(text: &str) -> String {
    number::parse(text).map_or_else(|_| text.to_owned(), |n| n.normalized().to_string())
}

fn write_canonical(value: &AttributeValue, out: &mut String) {
    let set = |tag: &str, mut parts: Vec<String>, out: &mut String| {
        parts.sort();
        part(tag, &parts.concat(), out);
    };
    match value {
        AttributeValue::S(s) => part("S", s, out),
        AttributeValue::N(n) => part("N", &number_text(n), out),
        AttributeValue::B(b) => part("B", &hex(b.as_ref()), out),
        AttributeValue::Bool(b) => part("BOOL", if *b { "1" } else { "0" }, out),
        AttributeValue::Null(_) => part("NULL", "", out),
        AttributeValue::Ss(v) => set("SS", v.iter().map(|s| canonical_of("S", s)).collect(), out),
        AttributeValue::Ns(v) => set(
            "NS",
            v.iter()
                .map(|n| canonical_of("N", &number_text(n)))
                .collect(),
            out,
        ),
        AttributeValue::Bs(v) => set(
            "BS",
            v.iter()
                .map(|b| canonical_of("B", &hex(b.as_ref())))
                .collect(),
            out,
        ),
        AttributeValue::M(m) => {
            let mut names: Vec<&String> = m.keys().collect();
            names.sort();
            let mut inner = String::new();
            for name in names {
                part("K", name, &mut inner);
                write_canonical(&m[name], &mut inner);
            }
            part("M", &inner, out);
        }
        AttributeValue::L(l) => {
            let mut inner = String::new();
            for v in l {
                write_canonical(v, &mut inner);
            }
            part("L", &inner, out);
        }
        other => part("?", &format!("{other:?}"), out),
    }
}

fn canonical_of(tag: &str, text: &str) -> String {
    let mut out = String::new();
    part(tag, text, &mut out);
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The canonical form of an item's key: its key attributes in the table's order.
pub(crate) fn key_text(item: &Item, key_names: &[String]) -> String {
    let mut out = String::new();
    for name in key_names {
        if let Some(value) = item.get(name) {
            write_canonical(value, &mut out);
        }
    }
    out
}

/// A digest of the whole item in canonical form (attributes by name): two items with the same
/// digest hold the same values, but for a chance of one in 2^128.
pub(crate) fn digest(item: &Item) -> u128 {
    let mut names: Vec<&String> = item.keys().collect();
    names.sort();
    let mut text = String::new();
    for name in names {
        part("K", name, &mut text);
        write_canonical(&item[name], &mut text);
    }
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        text.hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// One attribute that differs between the two sides: its value on each (`None`: absent there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrChange {
    /// The attribute.
    pub name: String,
    /// Its value on side A, as text.
    pub a: Option<String>,
    /// Its value on side B, as text.
    pub b: Option<String>,
}

/// The attributes that differ between `a` and `b`, by name.
pub(crate) fn changes(a: &Item, b: &Item) -> Vec<AttrChange> {
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (x, y) = (a.get(name), b.get(name));
            let same = match (x, y) {
                (Some(x), Some(y)) => canonical(x) == canonical(y),
                _ => false,
            };
            (!same).then(|| AttrChange {
                name: name.clone(),
                a: x.map(whole_text),
                b: y.map(whole_text),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.into())
    }

    #[test]
    fn numbers_compare_as_numbers_sets_as_sets_and_maps_by_name() {
        assert_eq!(canonical(&n("1")), canonical(&n("1.0")));
        assert_eq!(canonical(&n("100")), canonical(&n("1E2")));
        let big = "12345678901234567890123456789012345678";
        let off = "12345678901234567890123456789012345679";
        assert_ne!(canonical(&n(big)), canonical(&n(off)), "38 digits, exact");
        let set = |v: &[&str]| AttributeValue::Ss(v.iter().map(|s| (*s).to_owned()).collect());
        assert_eq!(canonical(&set(&["a", "b"])), canonical(&set(&["b", "a"])));
        assert_ne!(canonical(&set(&["a", "b"])), canonical(&set(&["a"])));
        let nums = AttributeValue::Ns(vec!["1.0".into(), "2".into()]);
        assert_eq!(
            canonical(&nums),
            canonical(&AttributeValue::Ns(vec!["2".into(), "1".into()]))
        );
        let list = |v: Vec<AttributeValue>| AttributeValue::L(v);
        assert_ne!(
            canonical(&list(vec![n("1"), n("2")])),
            canonical(&list(vec![n("2"), n("1")])),
            "a list keeps its order"
        );
        assert_ne!(
            canonical(&AttributeValue::S("1".into())),
            canonical(&n("1")),
            "types apart"
        );
        assert_ne!(
            canonical(&AttributeValue::S("ab".into())),
            canonical(&set(&["ab"]))
        );
    }

    #[test]
    fn a_digest_sees_every_attribute_and_changes_name_them() {
        let a = Item::from([
            ("PK".to_owned(), AttributeValue::S("P".into())),
            ("n".to_owned(), n("1.0")),
        ]);
        let mut b = Item::from([
            ("PK".to_owned(), AttributeValue::S("P".into())),
            ("n".to_owned(), n("1")),
        ]);
        assert_eq!(digest(&a), digest(&b));
        assert!(changes(&a, &b).is_empty());
        b.insert("extra".into(), AttributeValue::Bool(true));
        b.insert("n".into(), n("2"));
        assert_ne!(digest(&a), digest(&b));
        assert_eq!(
            changes(&a, &b),
            [
                AttrChange {
                    name: "extra".into(),
                    a: None,
                    b: Some("true".into())
                },
                AttrChange {
                    name: "n".into(),
                    a: Some("1.0".into()),
                    b: Some("2".into())
                },
            ]
        );
    }
}
