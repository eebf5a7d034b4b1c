use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;

use super::*;
use crate::rows::Rows;

/// Items with every type, 38 digits, an empty string and strings that look like other types.
fn awkward_items() -> Vec<Item> {
    let s = |t: &str| V::S(t.to_owned());
    vec![
        HashMap::from([
            ("PK".to_owned(), s("POST#a91f")),
            ("SK".to_owned(), s("META")),
            (
                "likeTally".to_owned(),
                V::N("98765432109876543210987654321098765432".into()),
            ),
            ("title".to_owned(), s("Hola, \"mundo\"\nsegunda línea")),
            ("empty".to_owned(), s("")),
            ("zip".to_owned(), s("007")),
            ("flag".to_owned(), V::Bool(true)),
            ("nothing".to_owned(), V::Null(true)),
            ("bin".to_owned(), V::B(Blob::new(vec![0, 1, 254]))),
            ("tags".to_owned(), V::Ss(vec!["a".into(), "b,c".into()])),
            ("scores".to_owned(), V::Ns(vec!["1.50".into(), "-2".into()])),
            ("blobs".to_owned(), V::Bs(vec![Blob::new(vec![9])])),
            (
                "meta".to_owned(),
                V::M(HashMap::from([(
                    "l".to_owned(),
                    V::L(vec![V::N("0.10".into()), s("x")]),
                )])),
            ),
        ]),
        HashMap::from([
            ("PK".to_owned(), s("POST#a91f")),
            ("SK".to_owned(), s("LIKE#USER#7c20")),
            ("likedAt".to_owned(), V::N("1750636800".into())),
        ]),
    ]
}

/// A fresh folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("dynoscope-transfer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn keys() -> Vec<String> {
    vec!["PK".to_owned(), "SK".to_owned()]
}

#[test]
fn every_typed_format_round_trips_exactly_plain_and_gzipped() {
    let dir = scratch("formats");
    let rows = Rows::from_items(&awkward_items());
    for format in [Format::Csv, Format::DynamoDbJsonLines, Format::S3Export] {
        for gzip in [false, true] {
            let path = dir.join(suggested_file_name("t", None, format, gzip));
            assert_eq!(
                write_rows_file(&path, &rows, &keys(), format, gzip, IfExists::Refuse).unwrap(),
                2
            );
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes.starts_with(&[0x1f, 0x8b]), gzip, "{format:?}");
            let read = read_file(&path, format, &HashMap::new()).unwrap();
            let items: Vec<Item> = read.into_iter().map(|r| r.item).collect();
            assert_eq!(items, awkward_items(), "{format:?} gzip {gzip}");
        }
    }
}

#[test]
fn plain_json_keeps_numbers_and_nesting_as_plain_json_can() {
    let dir = scratch("plain");
    let path = dir.join("t.jsonl");
    let rows = Rows::from_items(&awkward_items());
    write_rows_file(
        &path,
        &rows,
        &keys(),
        Format::JsonLines,
        false,
        IfExists::Refuse,
    )
    .unwrap();
    let read = read_file(&path, Format::JsonLines, &HashMap::new()).unwrap();
    let first = &read[0].item;
    let original = &awkward_items()[0];
    for name in [
        "PK",
        "likeTally",
        "title",
        "empty",
        "zip",
        "flag",
        "nothing",
    ] {
        assert_eq!(first[name], original[name], "{name}");
    }
    // Sets and binary are arrays and base64 text in plain JSON.
    assert_eq!(
        first["tags"],
        V::L(vec![V::S("a".into()), V::S("b,c".into())])
    );
    assert_eq!(first["bin"], V::S("AAH+".into()));
    assert_eq!(
        first["meta"],
        V::M(HashMap::from([(
            "l".to_owned(),
            V::L(vec![V::N("0.10".into()), V::S("x".into())]),
        )]))
    );
}

#[test]
fn a_malformed_line_is_named_and_nothing_is_returned() {
    let dir = scratch("malformed");
    let path = dir.join("bad.jsonl");
    std::fs::write(
        &path,
        "{\"PK\":{\"S\":\"a\"}}\n\n{\"PK\":{\"S\":\"b\"}}\n{\"PK\":{\"N\":\"1x\"}}\n",
    )
    .unwrap();
    let err = read_file(&path, Format::DynamoDbJsonLines, &HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.jsonl: line 4: PK:"), "{err}");
    let err = read_file(&path, Format::S3Export, &HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1: an S3 export line is"), "{err}");
}

#[test]
fn an_incremental_exports_record_is_told_from_an_item() {
    let record = r#"{"Metadata":{"WriteTimestampMicros":{"N":"1"}},"Keys":{"PK":{"S":"a"}},"NewImage":{"PK":{"S":"a"}}}"#;
    let err = line_item(record, Format::S3Export).unwrap_err().to_string();
    assert!(
        err.contains("check the window with --incremental-export"),
        "{err}"
    );
}

#[test]
fn an_export_folder_gives_its_data_files_in_order() {
    let dir = scratch("folder");
    let data = dir.join("AWSDynamoDB/0166-abc/data");
    std::fs::create_dir_all(&data).unwrap();
    for name in ["b.json.gz", "a.json.gz", "notes.txt"] {
        std::fs::write(data.join(name), "").unwrap();
    }
    std::fs::write(dir.join("AWSDynamoDB/0166-abc/manifest-summary.json"), "{}").unwrap();
    let files = export_files(&dir).unwrap().files;
    let names: Vec<_> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(names, ["a.json.gz", "b.json.gz"]);
    assert!(export_files(&data.join("notes.txt")).is_ok());
}

#[test]
fn a_stream_keeps_the_wanted_attributes_and_names_a_bad_line() {
    let dir = std::env::temp_dir().join(format!("dynoscope-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("a.json");
    // An escaped name, a CRLF line end, a blank line, nested values skipped unread.
    std::fs::write(
        &good,
        "{\"Item\":{\"P\\u004b\":{\"S\":\"POST#1\"},\"big\":{\"M\":{\"x\":{\"L\":[{\"N\":\"1\"}]}}},\"n\":{\"N\":\"98765432109876543210987654321098765432\"}}}\r\n\n{\"Item\":{\"PK\":{\"S\":\"POST#2\"}}}\n",
    )
    .unwrap();
    let wanted: std::collections::HashSet<String> = ["PK", "n"].map(String::from).into();
    let mut items = Vec::new();
    let never = crate::cancel::CancelToken::default();
    let read = stream_items(
        std::slice::from_ref(&good),
        Format::S3Export,
        &wanted,
        &never,
        |i, _| items.push(i),
        |_| {},
    )
    .unwrap();
    assert_eq!(read.items, 2);
    assert_eq!(items[0].len(), 2, "{:?}", items[0]);
    assert_eq!(items[0]["PK"], V::S("POST#1".into()));
    assert_eq!(
        items[0]["n"],
        V::N("98765432109876543210987654321098765432".into())
    );
    assert_eq!(items[1].len(), 1);

    let bad = dir.join("b.json");
    std::fs::write(
        &bad,
        "{\"Item\":{\"PK\":{\"S\":\"x\"}}}\n{\"PK\":{\"S\":\"y\"}}\n",
    )
    .unwrap();
    let error = stream_items(
        &[good, bad.clone()],
        Format::S3Export,
        &wanted,
        &never,
        |_, _| {},
        |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with(&format!("{}: line 2: ", bad.display())),
        "{error}"
    );
    assert!(error.contains("{\"Item\": {…}}"), "{error}");
    let wrong_type = dir.join("c.json");
    std::fs::write(&wrong_type, "{\"Item\":{\"n\":{\"N\":\"12x\"}}}\n").unwrap();
    let error = stream_items(
        &[wrong_type],
        Format::S3Export,
        &wanted,
        &never,
        |_, _| {},
        |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("line 1") && error.contains("n:"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_code_with_a_leading_zero_reads_as_text() {
    let types = HashMap::new();
    let items = csv_read::items("PK,zip,n,neg\nA,08001,0.5,-0.25\nB,8001,0,-07\n", &types).unwrap();
    let (_, a) = &items[0];
    let (_, b) = &items[1];
    assert_eq!(a["zip"], V::S("08001".into()));
    assert_eq!(a["n"], V::N("0.5".into()));
    assert_eq!(a["neg"], V::N("-0.25".into()));
    assert_eq!(b["zip"], V::N("8001".into()));
    assert_eq!(b["n"], V::N("0".into()));
    assert_eq!(b["neg"], V::S("-07".into()));
}

#[test]
fn an_export_line_over_16_mib_is_refused_with_its_file_and_line() {
    use std::io::Write as _;
    let dir = scratch("long-line");
    let path = dir.join("data.json.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(b"{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n")
        .unwrap();
    let block = vec![b' '; 1 << 20];
    for _ in 0..17 {
        gz.write_all(&block).unwrap();
    }
    gz.finish().unwrap();
    let wanted: std::collections::HashSet<String> = ["PK".to_owned()].into();
    let never = crate::cancel::CancelToken::default();
    let error = stream_items(
        std::slice::from_ref(&path),
        Format::S3Export,
        &wanted,
        &never,
        |_, _| {},
        |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with(&format!("{}: line 2: longer than 16 MiB", path.display())),
        "{error}"
    );
}

#[test]
fn a_rejected_files_format_is_its_sources_and_its_hash_lines_are_not_items() {
    let dir = std::env::temp_dir().join(format!("dynoscope-rejected-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("likes.csv.rejected");
    std::fs::write(
        &csv,
        "# skipped from likes.csv\nPK,SK\n# line 3: why\nP,S\n",
    )
    .unwrap();
    assert_eq!(guess_format(&csv).unwrap(), Format::Csv);
    let lines = dir.join("likes.jsonl.rejected");
    let item = r#"{"PK":{"S":"P"},"SK":{"S":"S"}}"#;
    std::fs::write(
        &lines,
        format!("# skipped from likes.jsonl\n# line 2: why\n{item}\n"),
    )
    .unwrap();
    assert_eq!(guess_format(&lines).unwrap(), Format::DynamoDbJsonLines);
    for (path, format) in [(&csv, Format::Csv), (&lines, Format::DynamoDbJsonLines)] {
        let mut source = FileItems::open(path, format, &HashMap::new()).unwrap();
        let (line, read) = source.next_item().unwrap().unwrap();
        assert_eq!(
            (line, read.len()),
            (4 - usize::from(format != Format::Csv), 2)
        );
        assert_eq!(source.next_item().unwrap(), None);
    }
    // Anywhere else a `#` line is a line like any other.
    let plain = dir.join("likes.jsonl");
    std::fs::write(&plain, format!("# a comment\n{item}\n")).unwrap();
    let mut source = FileItems::open(&plain, Format::DynamoDbJsonLines, &HashMap::new()).unwrap();
    assert!(source.next_item().is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_skipped_line_beginning_with_a_hash_is_written_so_that_it_stays_a_line() {
    let dir = std::env::temp_dir().join(format!("dynoscope-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = dir.join("h.jsonl");
    std::fs::write(&lines, "#not json\n").unwrap();
    let mut source = FileItems::open(&lines, Format::DynamoDbJsonLines, &HashMap::new()).unwrap();
    assert!(source.next_item().is_err());
    assert_eq!(source.last_text().as_deref(), Some(" #not json"));
    let csv = dir.join("h.csv");
    std::fs::write(&csv, "PK,SK\n#x,y z\n").unwrap();
    let mut source = FileItems::open(&csv, Format::Csv, &HashMap::new()).unwrap();
    assert!(source.next_item().unwrap().is_some());
    assert_eq!(source.last_text().as_deref(), Some("\"#x\",y z"));
    let _ = std::fs::remove_dir_all(&dir);
}
