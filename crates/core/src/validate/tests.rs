//! The validator's rules, each at its boundary.

use crate::cost::size::value_size;
use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;

use super::*;
use crate::condition::ScalarType;
use crate::cost::size::number_size;
use crate::table::{IndexInfo, IndexKind};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn table() -> TableInfo {
    let mut info = TableInfo::with_keys(
        "Social",
        KeyAttr::new("PK", ScalarType::S),
        Some(KeyAttr::new("SK", ScalarType::S)),
    );
    info.indexes.push(IndexInfo {
        name: "ByOwner".into(),
        kind: IndexKind::Global,
        partition: KeyAttr::new("owner", ScalarType::S),
        sort: Some(KeyAttr::new("rank", ScalarType::N)),
        projection: "ALL".into(),
        status: None,
        item_count: None,
    });
    info
}

fn item(extra: &[(&str, AttributeValue)]) -> Item {
    let mut item = HashMap::from([("PK".to_owned(), s("P#1")), ("SK".to_owned(), s("A"))]);
    item.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
    item
}

fn refused(item: &Item) -> String {
    check_item(item, &table()).unwrap_err().to_string()
}

#[test]
fn sets_are_never_empty_and_hold_each_element_once() {
    let err = refused(&item(&[("s", AttributeValue::Ss(vec![]))]));
    assert!(err.contains("`s`: a string set cannot be empty"), "{err}");
    let err = refused(&item(&[(
        "s",
        AttributeValue::Ss(vec!["a".into(), "a".into()]),
    )]));
    assert!(err.contains("`a` repeats an earlier element"), "{err}");
    let err = refused(&item(&[(
        "n",
        AttributeValue::Ns(vec!["1".into(), "1.0".into()]),
    )]));
    assert!(
        err.contains("number set holds each element once, and `1.0` (by value) repeats"),
        "{err}"
    );
    let bytes = |b: &[u8]| Blob::new(b.to_vec());
    let err = refused(&item(&[(
        "b",
        AttributeValue::Bs(vec![bytes(b"x"), bytes(b"x")]),
    )]));
    assert!(err.contains("binary set"), "{err}");
    let nested = AttributeValue::M(HashMap::from([(
        "l".to_owned(),
        AttributeValue::L(vec![AttributeValue::Ns(vec![])]),
    )]));
    let err = refused(&item(&[("m", nested)]));
    assert!(
        err.contains("`m.l[0]`: a number set cannot be empty"),
        "{err}"
    );
    let err = check_value(
        "parameter 2",
        &AttributeValue::L(vec![AttributeValue::Ss(vec![])]),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("parameter 2 (at [0]): a string set"),
        "{err}"
    );
    assert!(
        check_item(
            &item(&[("s", AttributeValue::Ss(vec!["a".into(), "b".into()]))]),
            &table()
        )
        .is_ok()
    );
}

#[test]
fn nesting_stops_at_thirty_two_levels() {
    let nest = |levels: usize| {
        (0..levels).fold(s("leaf"), |inner, _| {
            AttributeValue::M(HashMap::from([("m".to_owned(), inner)]))
        })
    };
    // 31 maps: the leaf is at level 32 (the top-level value being level 1).
    assert!(check_item(&item(&[("deep", nest(31))]), &table()).is_ok());
    let err = refused(&item(&[("deep", nest(32))]));
    assert!(err.contains("32 levels"), "{err}");
}

#[test]
fn sizes_are_counted_as_dynamodb_counts_them() {
    for (n, size) in [
        ("0", 1),
        ("42", 2),
        ("-42", 3),
        ("123", 3),
        ("1.5", 3),
        ("0.001", 2),
        ("1000", 2),
        ("1E+3", 2),
        ("12345678901234567890123456789012345678", 20),
        ("-0", 1),
    ] {
        assert_eq!(number_size(n), size, "{n}");
    }
    let list = AttributeValue::L(vec![s("ab"), AttributeValue::Bool(true)]);
    assert_eq!(value_size(&list), 3 + 2 + 2 + 1);
    let map = AttributeValue::M(HashMap::from([("k".to_owned(), s("v"))]));
    assert_eq!(value_size(&map), 3 + 1 + 1 + 1);
    let padding = MAX_ITEM_BYTES - item_size(&item(&[("pad", s(""))]));
    assert!(check_item(&item(&[("pad", s(&"x".repeat(padding)))]), &table()).is_ok());
    let err = refused(&item(&[("pad", s(&"x".repeat(padding + 1)))]));
    assert!(err.contains("409601 bytes"), "{err}");
}

#[test]
fn keys_are_present_typed_not_empty_and_within_their_sizes() {
    let mut no_sort = item(&[]);
    no_sort.remove("SK");
    assert!(refused(&no_sort).contains("the sort key of Social"));
    let err = refused(&item(&[("SK", AttributeValue::N("1".into()))]));
    assert!(err.contains("`SK` is N here"), "{err}");
    assert!(refused(&item(&[("PK", s(""))])).contains("`PK` is empty"));
    assert!(check_item(&item(&[("PK", s(&"p".repeat(2048)))]), &table()).is_ok());
    assert!(refused(&item(&[("PK", s(&"p".repeat(2049)))])).contains("2049 bytes"));
    assert!(check_item(&item(&[("SK", s(&"é".repeat(512)))]), &table()).is_ok());
    assert!(refused(&item(&[("SK", s(&"é".repeat(513)))])).contains("at most 1024"));
    // An index's keys: typed and not empty when present; absent is fine.
    assert!(check_item(&item(&[("owner", s("u"))]), &table()).is_ok());
    assert!(refused(&item(&[("owner", s(""))])).contains("of the index ByOwner"));
    assert!(refused(&item(&[("rank", s("1"))])).contains("`rank` is S here"));
    // A key given alone is only the key.
    assert!(check_key(&item(&[]), &table()).is_ok());
    let err = check_key(&item(&[("x", s("1"))]), &table())
        .unwrap_err()
        .to_string();
    assert!(err.contains("`x` is not a key attribute"), "{err}");
}

#[test]
fn numbers_and_names() {
    let err = refused(&item(&[("n", AttributeValue::N("1".repeat(39)))]));
    assert!(err.contains("39 significant digits"), "{err}");
    assert!(refused(&item(&[("n", AttributeValue::N("1e126".into()))])).contains("too large"));
    assert!(refused(&item(&[("n", AttributeValue::N(" 1".into()))])).contains("spaces"));
    assert!(refused(&item(&[("", s("x"))])).contains("no name"));
}

#[test]
fn a_text_of_more_values_than_an_item_can_hold_is_refused_unparsed() {
    let values = |n: usize| format!("{{\"l\":[{}]}}", vec!["0"; n].join(","));
    assert!(check_item_text_bound(values(1000).as_bytes()).is_ok());
    let err = check_item_text_bound(values(2_000_000).as_bytes()).unwrap_err();
    assert!(err.contains("1999999 values"), "{err}");
    // Commas inside strings are text, escapes included.
    let text = format!("{{\"s\":\"{}\\\",\"}}", ",".repeat(2_000_000));
    assert!(check_item_text_bound(text.as_bytes()).is_ok(), "one string");
}
