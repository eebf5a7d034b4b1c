//! Item sizes against AWS's rules. The page ("DynamoDB item sizes and formats",
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>)
//! states its rules without worked items, so each rule is checked here at the case it names;
//! the units' worked examples (1 KB per write unit, 4 KB per read unit) are AWS's
//! "Read/write capacity mode" examples, in `units.rs`.

use std::collections::HashMap;
use std::str::FromStr;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use super::*;
use crate::cost::{Billing, PriceBook};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

/// "The size of a string is (number of UTF-8-encoded bytes of attribute name) + (number of
/// UTF-8-encoded bytes)": names and values in bytes, not characters.
#[test]
fn strings_and_names_count_their_utf8_bytes() {
    assert_eq!(item_size(&item(&[("name", s("value"))])), 4 + 5);
    // `é` is two bytes, `❤` three, `🙂` four.
    assert_eq!(item_size(&item(&[("café", s("❤🙂"))])), 5 + 7);
    assert_eq!(item_size(&item(&[("PK", s(""))])), 2);
}

/// "Leading and trailing zeroes are trimmed … (1 byte per two significant digits) + (1 byte)";
/// digits paired from the point outwards, a minus a byte more.
#[test]
fn numbers_count_pairs_of_significant_digits_plus_one() {
    for (text, bytes) in [
        ("0", 1),
        ("-0", 1),
        ("7", 2),
        ("42", 2),
        ("123", 3),
        ("1000", 2),
        ("1E+3", 2),
        ("00042.000", 2),
        ("-42", 3),
        ("-123.45", 5),
        ("123.45", 4),
        ("1.5", 3),
        ("0.001", 2),
        ("0.5", 2),
        // 38 digits, the most DynamoDB keeps: 19 pairs and one byte.
        ("12345678901234567890123456789012345678", 20),
        ("-12345678901234567890123456789012345678", 21),
        ("9.9999999999999999999999999999999999999E+125", 20),
        ("1E-130", 2),
    ] {
        assert_eq!(number_size(text), bytes, "{text}");
    }
}

/// Binary counts raw bytes (not base64); a null or a boolean one byte; a set its elements.
#[test]
fn binary_null_bool_and_sets() {
    let b = AttributeValue::B(Blob::new(vec![0u8; 10]));
    assert_eq!(value_size(&b), 10);
    assert_eq!(value_size(&AttributeValue::Null(true)), 1);
    assert_eq!(value_size(&AttributeValue::Bool(false)), 1);
    let ss = AttributeValue::Ss(vec!["a".into(), "bcd".into()]);
    assert_eq!(value_size(&ss), 4);
    let ns = AttributeValue::Ns(vec!["1".into(), "-1".into(), "1.5".into()]);
    assert_eq!(value_size(&ns), 2 + 3 + 3);
    let bs = AttributeValue::Bs(vec![Blob::new(vec![1, 2]), Blob::new(vec![3])]);
    assert_eq!(value_size(&bs), 3);
}

/// "A List or Map requires 3 bytes of overhead … Each List or Map element also requires 1
/// byte"; an empty one is 3; a map's keys count as names.
#[test]
fn lists_and_maps_carry_three_bytes_and_one_per_element() {
    assert_eq!(value_size(&AttributeValue::L(vec![])), 3);
    assert_eq!(value_size(&AttributeValue::M(HashMap::new())), 3);
    let list = AttributeValue::L(vec![s("ab"), AttributeValue::Bool(true)]);
    assert_eq!(value_size(&list), 3 + 2 + 2 + 1);
    // An empty string in a map: its key and the element's byte, nothing for the value.
    let map = AttributeValue::M(HashMap::from([("note".to_owned(), s(""))]));
    assert_eq!(value_size(&map), 3 + 4 + 1);
    // Nested: [[1, 2], []] is 3 + 2 + (3 + 2 + 2 + 2) + 3.
    let nested = AttributeValue::L(vec![
        AttributeValue::L(vec![n("1"), n("2")]),
        AttributeValue::L(vec![]),
    ]);
    assert_eq!(value_size(&nested), 3 + 2 + (3 + 2 + 2 + 2) + 3);
    let deep = AttributeValue::M(HashMap::from([(
        "ü".to_owned(),
        AttributeValue::M(HashMap::from([("k".to_owned(), n("-1"))])),
    )]));
    assert_eq!(value_size(&deep), 3 + (2 + 1) + (3 + 1 + 1 + 3));
}

/// A like's child item (PK, SK, a time) sized by hand: 2+10, 2+9, 2+(1764547200: eight
/// significant digits, 4 pairs, + 1).
#[test]
fn a_report_says_bytes_units_and_room() {
    let like = item(&[
        ("PK", s("POST#a91f0")),
        ("SK", s("LIKE#u042")),
        ("at", n("1764547200")),
    ]);
    let report = SizeReport::of(&like);
    assert_eq!(report.bytes, 12 + 11 + 7);
    assert_eq!(
        report.line(),
        "30 B · put 1 WCU (tx 2) · read 1 RCU strong / 0.5 eventual · < 0.1% of 400 KB"
    );
    assert_eq!(report.attributes[0].name, "PK");
    assert_eq!(report.attributes[2].bytes, 7);
    assert_eq!(report.bytes_left(), 409_600 - 30);
    assert_eq!(report.read_units(ReadKind::Transactional), d("2"));
}

/// 1,234 bytes: two write units (1 KB each, rounded up), one read unit (4 KB).
#[test]
fn the_line_rounds_units_up_and_says_the_share_of_400_kb() {
    let report = SizeReport::of(&item(&[("b", s(&"x".repeat(1233)))]));
    assert_eq!(report.bytes, 1234);
    assert_eq!(
        report.line(),
        "1,234 B · put 2 WCU (tx 4) · read 1 RCU strong / 0.5 eventual · 0.3% of 400 KB"
    );
    assert_eq!(report.percent_used(), d("0.30126953125"));
    // Exactly 1 KB is one write unit, a byte more two.
    let kb = SizeReport::of(&item(&[("b", s(&"x".repeat(1023)))]));
    assert_eq!(kb.write_units(WriteKind::Standard), d("1"));
    let over = SizeReport::of(&item(&[("b", s(&"x".repeat(1024)))]));
    assert_eq!(over.write_units(WriteKind::Standard), d("2"));
    // 8 KB: a strong read is 2 RCU, eventual 1 (AWS's example).
    let eight = SizeReport::of(&item(&[("b", s(&"x".repeat(8191)))]));
    assert_eq!(eight.read_units(ReadKind::Strong), d("2"));
    assert_eq!(eight.read_units(ReadKind::Eventual), d("1"));
}

#[test]
fn an_item_over_400_kb_is_said_to_be_refused() {
    let report = SizeReport::of(&item(&[("b", s(&"x".repeat(409_600)))]));
    assert!(!report.fits());
    assert_eq!(report.bytes_left(), 0);
    assert!(
        report
            .line()
            .ends_with("100% of 400 KB: over by 1 B, DynamoDB refuses it"),
        "{}",
        report.line()
    );
    let full = SizeReport::of(&item(&[("b", s(&"x".repeat(409_599)))]));
    assert!(full.fits());
    assert_eq!(full.percent_text(), "100%");
    assert_eq!(full.write_units(WriteKind::Standard), d("400"));
}

#[test]
fn words_and_json_agree() {
    let report = SizeReport::of(&item(&[("PK", s("a")), ("n", n("-1.5"))]));
    let lines = report.lines(1);
    assert_eq!(lines[0], report.line());
    assert!(
        lines[2].contains("0.5 RCU eventually consistent"),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("  … 1 more attributes")
    );
    let json = report.to_json();
    assert_eq!(json["bytes"], 3 + 1 + 4);
    assert_eq!(json["wcu"]["transactional"].to_string(), "2");
    assert_eq!(json["rcu"]["eventual"].to_string(), "0.5");
    let pricing = Pricing::for_connection(&PriceBook::shipped(), None, None, Billing::default());
    let usd = report.usd_json(&pricing);
    // us-east-1 on demand: $0.625 per million writes, $0.125 per million reads.
    assert_eq!(usd["put"].to_string(), "0.000000625");
    assert_eq!(usd["read_eventual"].to_string(), "0.0000000625");
    assert!(usd["priced_as"].as_str().unwrap().contains("us-east-1"));
    assert!(
        report
            .money_line(&pricing)
            .starts_with("put ≈ $0.000000625 on demand")
    );
    assert_eq!(size_line(&Item::new()), None);
}
