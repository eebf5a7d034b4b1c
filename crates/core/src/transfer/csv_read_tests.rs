//! Streamed CSV: quotes across lines, line ends, a BOM, bounds.

use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::transfer::csv::push_record;

fn records(text: &str) -> Result<Vec<Record>> {
    let mut read = Records::new(text.as_bytes(), Path::new("t.csv"), "reading");
    let mut out = Vec::new();
    while let Some(record) = read.next_record()? {
        out.push(record);
    }
    Ok(out)
}

#[test]
fn records_quote_and_break_lines_as_spreadsheets_do() {
    let mut text = String::new();
    push_record(&mut text, ["PK", "note"]);
    push_record(&mut text, ["a", "one, \"two\"\r\nthree"]);
    push_record(&mut text, ["b", ""]);
    let parsed = records(&text).unwrap();
    assert_eq!(parsed.len(), 3);
    assert_eq!(parsed[1].fields, ["a", "one, \"two\"\r\nthree"]);
    assert_eq!(parsed[2].line, 4);
    assert_eq!(parsed[2].fields, ["b", ""]);
    let err = records("PK\n\"open\n").unwrap_err().to_string();
    assert!(err.contains("line 2"), "{err}");
    // A byte-order mark, a `\r` alone as a line end, blank lines, no end at the end.
    let parsed = records("\u{feff}PK,n\rx,1\n\ny,\"2\"").unwrap();
    let fields: Vec<_> = parsed
        .iter()
        .map(|r| (r.line, r.fields.join("|")))
        .collect();
    assert_eq!(
        fields,
        [(1, "PK|n".into()), (2, "x|1".into()), (4, "y|2".into())]
    );
}

#[test]
fn columns_can_be_told_their_type() {
    let text = "PK,zip,n\nx,28001,5\ny,,1.50\n";
    let auto = items(text, &HashMap::new()).unwrap();
    assert_eq!(auto[0].1["zip"], AttributeValue::N("28001".into()));
    assert!(!auto[1].1.contains_key("zip"));
    let typed = items(text, &HashMap::from([("zip".to_owned(), CellType::S)])).unwrap();
    assert_eq!(typed[0].1["zip"], AttributeValue::S("28001".into()));
    // A leading zero reads as text by itself; told N, it is a number.
    let zero = items(
        "PK,n\nx,007\n",
        &HashMap::from([("n".to_owned(), CellType::N)]),
    );
    assert_eq!(zero.unwrap()[0].1["n"], AttributeValue::N("007".into()));
    let err = items(
        "PK,n\nx,abc\n",
        &HashMap::from([("n".to_owned(), CellType::N)]),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("line 2, column n"), "{err}");
    let err = items("PK,n\nx\n", &HashMap::new()).unwrap_err().to_string();
    assert!(
        err.contains("line 2: 1 fields where the header has 2"),
        "{err}"
    );
}

#[test]
fn a_39_digit_cell_is_refused_with_its_place_and_the_way_to_keep_it_as_text() {
    let text = "PK,code\nx,1\ny,123456789012345678901234567890123456789\n";
    let err = items(text, &HashMap::new()).unwrap_err().to_string();
    assert!(err.starts_with("line 3, column code: "), "{err}");
    assert!(err.contains("39 significant digits"), "{err}");
    assert!(err.ends_with("read it as S (--type code=S)"), "{err}");
    let typed = items(text, &HashMap::from([("code".to_owned(), CellType::S)])).unwrap();
    assert_eq!(
        typed[1].1["code"],
        AttributeValue::S("123456789012345678901234567890123456789".into())
    );
}

#[test]
fn a_record_over_16_mib_is_an_error_at_its_line() {
    let mut text = String::from("PK,note\nx,\"");
    text.push_str(&"a\n".repeat(9 << 20));
    let err = records(&text).unwrap_err().to_string();
    assert!(
        err.starts_with("line 2: a record longer than 16 MiB"),
        "{err}"
    );
}

#[test]
fn a_record_of_more_fields_than_an_item_can_hold_is_refused() {
    let text = format!("PK\n{}\n", ",".repeat(300_000));
    let err = records(&text).unwrap_err().to_string();
    assert!(
        err.starts_with("line 2: a record of more than 204800 fields"),
        "{err}"
    );
    // Records ended by a lone \r are handed out one by one, not all queued.
    let text = "PK,n\ra,1\rb,2\r".to_owned();
    assert_eq!(records(&text).unwrap().len(), 3);
}
