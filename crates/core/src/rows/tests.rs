use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;

use super::*;
use crate::value::Item;

fn item(pairs: &[(&str, V)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn n(text: &str) -> V {
    V::N(text.to_owned())
}

fn s(text: &str) -> V {
    V::S(text.to_owned())
}

#[test]
fn every_type_round_trips_exactly() {
    let nested = V::M(HashMap::from([
        (
            "deep".to_owned(),
            V::L(vec![n("1E+3"), s(""), V::Null(true)]),
        ),
        ("b".to_owned(), V::Bool(false)),
    ]));
    let original = item(&[
        ("PK", s("POST#a91f")),
        ("big", n("12345678901234567890123456789012345678")),
        ("neg", n("-0.000000000000000000000000000000000001")),
        ("bin", V::B(Blob::new(vec![0, 255, 7]))),
        ("yes", V::Bool(true)),
        ("nothing", V::Null(true)),
        ("tags", V::Ss(vec!["a".into(), "b".into()])),
        ("nums", V::Ns(vec!["1".into(), "2.50".into()])),
        ("blobs", V::Bs(vec![Blob::new(vec![1]), Blob::new(vec![])])),
        ("nested", nested),
        ("empty", s("")),
    ]);
    let rows = Rows::from_items([&original]);
    assert_eq!(rows.item(0), Some(original.clone()));
    assert_eq!(
        rows.value(0, "big"),
        Some(n("12345678901234567890123456789012345678"))
    );
    assert_eq!(rows.value(0, "absent"), None);
    assert_eq!(rows.item(1), None);
}

#[test]
fn names_are_interned_once_and_rows_cost_little_more_than_their_data() {
    let items: Vec<Item> = (0..10_000)
        .map(|i| {
            item(&[
                ("PK", s("POST#a91f")),
                ("SK", s(&format!("LIKE#USER#{i:06}"))),
                ("createdAt", s("2026-11-30T10:00:00Z")),
            ])
        })
        .collect();
    let rows = Rows::from_items(&items);
    assert_eq!(rows.names().len(), 3);
    let data: usize = items
        .iter()
        .map(|i| {
            i.iter()
                .map(|(k, v)| k.len() + crate::value::cell_text(v).len())
                .sum::<usize>()
        })
        .sum();
    // Names are not repeated per row: the store is smaller than the names plus values.
    assert!(
        rows.held_bytes() < data + 20 * items.len() + (1 << 20),
        "{}",
        rows.held_bytes()
    );
}

#[test]
fn replacing_and_setting_a_value_changes_only_that_row() {
    let mut rows = Rows::from_items(&[
        item(&[("PK", s("a")), ("likeTally", n("3"))]),
        item(&[("PK", s("b")), ("likeTally", n("4"))]),
    ]);
    let key = item(&[("PK", s("b"))]);
    let row = rows.find_key(&key).expect("row b");
    rows.set_value(row, "likeTally", n("5"));
    assert_eq!(rows.value(1, "likeTally"), Some(n("5")));
    assert_eq!(rows.value(0, "likeTally"), Some(n("3")));
    assert_eq!(rows.len(), 2);
}

#[test]
fn a_clone_keeps_its_rows_while_the_original_grows() {
    let mut rows = Rows::from_items(&[item(&[("PK", s("a"))])]);
    let snapshot = rows.clone();
    rows.push(&item(&[("PK", s("b"))]));
    assert_eq!(snapshot.len(), 1);
    assert_eq!(rows.len(), 2);
    assert_eq!(snapshot.value(0, "PK"), Some(s("a")));
}

fn sorted(rows: &Rows, name: &str, descending: bool) -> Vec<Option<V>> {
    let mut view: Vec<u32> = (0..rows.len() as u32).collect();
    sort_rows(rows, &mut view, name, descending);
    view.iter().map(|&r| rows.value(r as usize, name)).collect()
}

#[test]
fn numbers_sort_by_exact_value_beyond_f64() {
    let values = [
        "100000000000000000000000000000000000001",
        "100000000000000000000000000000000000000",
        "-5",
        "9",
        "1E+1",
        "0.1",
        "99999999999999999999",
    ];
    let rows = Rows::from_items(
        &values
            .iter()
            .map(|v| item(&[("x", n(v))]))
            .collect::<Vec<_>>(),
    );
    let got: Vec<String> = sorted(&rows, "x", false)
        .into_iter()
        .map(|v| match v {
            Some(V::N(t)) => t,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "-5",
            "0.1",
            "9",
            "1E+1",
            "99999999999999999999",
            "100000000000000000000000000000000000000",
            "100000000000000000000000000000000000001",
        ]
    );
}

#[test]
fn mixed_types_group_and_missing_values_come_last_both_ways() {
    let rows = Rows::from_items(&[
        item(&[("x", s("b"))]),
        item(&[("other", s("no x"))]),
        item(&[("x", n("2"))]),
        item(&[("x", s("B"))]),
        item(&[("x", n("10"))]),
        item(&[("x", V::Bool(true))]),
    ]);
    assert_eq!(
        sorted(&rows, "x", false),
        [
            Some(n("2")),
            Some(n("10")),
            Some(s("B")),
            Some(s("b")),
            Some(V::Bool(true)),
            None
        ]
    );
    assert_eq!(
        sorted(&rows, "x", true),
        [
            Some(V::Bool(true)),
            Some(s("b")),
            Some(s("B")),
            Some(n("10")),
            Some(n("2")),
            None
        ]
    );
}

#[test]
fn strings_sort_by_utf8_bytes_as_dynamodb_does() {
    let rows = Rows::from_items(&[
        item(&[("x", s("é"))]),
        item(&[("x", s("z"))]),
        item(&[("x", s("Z"))]),
    ]);
    assert_eq!(
        sorted(&rows, "x", false),
        [Some(s("Z")), Some(s("z")), Some(s("é"))]
    );
}

#[test]
fn sorting_is_stable_for_equal_values() {
    let rows = Rows::from_items(&[
        item(&[("id", n("1")), ("x", n("5"))]),
        item(&[("id", n("2")), ("x", n("5.0"))]),
        item(&[("id", n("3")), ("x", n("5"))]),
    ]);
    let mut view: Vec<u32> = vec![0, 1, 2];
    sort_rows(&rows, &mut view, "x", true);
    assert_eq!(view, [0, 1, 2]);
}

#[test]
fn find_matches_any_attribute_ignoring_case() {
    let rows = Rows::from_items(&[
        item(&[("PK", s("POST#a91f")), ("likeTally", n("3"))]),
        item(&[("PK", s("VID#9f3a")), ("tags", V::Ss(vec!["Funny".into()]))]),
        item(&[("PK", s("x")), ("flag", V::Bool(true))]),
    ]);
    let view: Vec<u32> = vec![0, 1, 2];
    let find = |t: &str| find_rows(&rows, &view, &Finder::new(t).expect("text"));
    assert_eq!(find("post#A9"), [0]);
    assert_eq!(find("funny"), [1]);
    assert_eq!(find("3"), [0, 1]);
    assert_eq!(find("true"), [2]);
    assert!(find("nowhere").is_empty());
    assert!(Finder::new("").is_none());
    let f = Finder::new("9F3").expect("text");
    assert!(f.cell_matches(&rows, 1, "PK"));
    assert!(!f.cell_matches(&rows, 1, "tags"));
}

#[test]
fn copies_as_tsv_and_json_with_exact_numbers() {
    let rows = Rows::from_items(&[
        item(&[
            ("PK", s("a\tb")),
            ("n", n("12345678901234567890123456789012345678")),
        ]),
        item(&[("PK", s("c")), ("m", V::L(vec![n("1")]))]),
    ]);
    let columns = vec!["PK".to_owned(), "n".to_owned(), "m".to_owned()];
    assert_eq!(
        copy_text(&rows, &[0, 1], &columns, CopyFormat::Tsv { header: true }),
        "PK\tn\tm\n\"a\tb\"\t12345678901234567890123456789012345678\t\nc\t\t[1]"
    );
    let json = copy_text(&rows, &[0], &columns, CopyFormat::Json);
    assert!(
        json.contains("\"n\": 12345678901234567890123456789012345678"),
        "{json}"
    );
    assert!(copy_text(&rows, &[0, 1], &columns, CopyFormat::Json).starts_with('['));
}

#[test]
fn number_order_agrees_with_bigdecimal() {
    use std::str::FromStr;
    let texts = [
        "0",
        "-0",
        "0.0",
        "1",
        "-1",
        "10",
        "1E+1",
        "1e1",
        "0.1",
        "0.10",
        "1E-1",
        "100",
        "99.999",
        "-99.999",
        "-100",
        "5",
        "5.0",
        "5.000000000000000000000000000000000001",
        "4.9999",
        "12345678901234567890123456789012345678",
        "12345678901234567890123456789012345679",
        "-12345678901234567890123456789012345678",
        "1E+125",
        "-1E+125",
        "1E-130",
        "-1E-130",
        "0.000123",
        "0.00123",
        "123E-6",
        "007",
        "+5",
        "-0.0001",
    ];
    let rows = Rows::from_items(
        &texts
            .iter()
            .map(|t| item(&[("x", n(t))]))
            .collect::<Vec<_>>(),
    );
    let mut view: Vec<u32> = (0..texts.len() as u32).collect();
    sort_rows(&rows, &mut view, "x", false);
    let ours: Vec<bigdecimal::BigDecimal> = view
        .iter()
        .map(|&r| bigdecimal::BigDecimal::from_str(texts[r as usize]).expect("number"))
        .collect();
    let mut expected = ours.clone();
    expected.sort();
    assert_eq!(ours, expected);
    // Equal values keep their order: 5 before 5.0, 0 before -0 before 0.0.
    let position = |t: &str| view.iter().position(|&r| texts[r as usize] == t).expect(t);
    assert!(position("5") < position("5.0"));
    assert!(position("0") < position("-0") && position("-0") < position("0.0"));
}

#[test]
fn find_inside_maps_and_lists_matches_values_not_lengths() {
    // A 97-character string is stored after a length byte 98, which is 'b'.
    let long = "x".repeat(97);
    let rows = Rows::from_items(&[
        item(&[("m", V::M(HashMap::from([("k".to_owned(), s(&long))])))]),
        item(&[("l", V::L(vec![s("needle"), n("42")]))]),
    ]);
    let view: Vec<u32> = vec![0, 1];
    let find = |t: &str| find_rows(&rows, &view, &Finder::new(t).expect("text"));
    assert!(find("kb").is_empty(), "no match across a length byte");
    assert_eq!(find("k"), [0], "a map's key is found");
    assert_eq!(find("NEEDLE"), [1]);
    assert_eq!(find("42"), [1]);
}

#[test]
fn merging_a_page_into_a_sorted_view_equals_sorting_it_all() {
    let values = ["5", "-1", "10", "5", "x", "3.5", "5.0", "100", "-20", "0"];
    let mut rows = Rows::new();
    for (i, v) in values.iter().enumerate() {
        let value = if *v == "x" { s("text") } else { n(v) };
        rows.push(&item(&[("id", n(&i.to_string())), ("v", value)]));
    }
    rows.push(&item(&[("id", n("99"))]));
    for descending in [false, true] {
        let mut merged: Vec<u32> = (0..6).collect();
        sort_rows(&rows, &mut merged, "v", descending);
        let added: Vec<u32> = (6..rows.len() as u32).collect();
        merge_sorted(&rows, &mut merged, &added, "v", descending);
        let mut whole: Vec<u32> = (0..rows.len() as u32).collect();
        sort_rows(&rows, &mut whole, "v", descending);
        assert_eq!(merged, whole, "descending: {descending}");
    }
}
