//! An import is checked whole before its first write, through the CLI as a real process
//! against an embedded engine: one bad line refuses the file; a CSV number DynamoDB cannot hold
//! is refused with the way out; a byte-order mark is ignored in every format; nothing to import
//! is bad input, dry run too. (Skipping bad lines: `import_skip.rs`.)

use crate::common;

use std::io::Write;

use common::empty_engine;
use common::files::{dynoscope, like, likes, scan, scratch, table};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_bad_line_refuses_the_whole_file_before_any_write() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-bad").await;
    let dir = scratch("bad");
    let nested = (0..40).fold(r#"{"S":"deep"}"#.to_owned(), |inner, _| {
        format!(r#"{{"M":{{"a":{inner}}}}}"#)
    });
    let cases = [
        (
            r#"{"PK":{"S":"PW#BAD"},"SK":{"S":"A"},"s":{"SS":[]}}"#.to_owned(),
            "`s`: a string set cannot be empty",
        ),
        (
            format!(
                r#"{{"PK":{{"S":"PW#BIG"}},"SK":{{"S":"A"}},"pad":{{"S":"{}"}}}}"#,
                "x".repeat(410_000)
            ),
            "an item is at most 409600 (400 KB)",
        ),
        (
            format!(r#"{{"PK":{{"S":"PW#DEEP"}},"SK":{{"S":"A"}},"n":{nested}}}"#),
            "nest more than 32 levels deep",
        ),
        (
            format!(
                r#"{{"PK":{{"S":"{}"}},"SK":{{"S":"A"}}}}"#,
                "K".repeat(3000)
            ),
            "`PK` is 3000 bytes; a partition key value is at most 2048",
        ),
        (
            r#"{"PK":{"S":"PW#TWICE"},"SK":{"S":"A"},"PK":{"S":"PW#OTHER"}}"#.to_owned(),
            "`PK` is given twice in one object",
        ),
        (
            like(3),
            "the key PK = POST#a91f · SK = LIKE#USER#000003 is there twice (also at line 4)",
        ),
    ];
    for (bad, why) in cases {
        let file = dir.join("bad.jsonl");
        std::fs::write(&file, likes(30) + &bad + "\n").unwrap();
        let file = file.to_str().unwrap();
        for dry in [true, false] {
            let mut args = vec!["import", "--table", &to, "--format", "ddb-json", file];
            if dry {
                args.push("--dry-run");
            }
            let (code, out, err) = dynoscope(&url, &args).await;
            assert_eq!(code, 2, "{why}: {out}{err}");
            assert!(err.contains("bad.jsonl: line 31: "), "{why}: {err}");
            assert!(err.contains(why), "{why}: {err}");
            assert!(!out.contains("import:"), "nothing sent: {out}");
        }
        assert!(
            scan(&engine, &to).await.is_empty(),
            "{why}: nothing written"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csv_number_dynamodb_cannot_hold_is_refused_and_can_be_read_as_text() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-csv").await;
    let dir = scratch("csv");
    let file = dir.join("codes.csv");
    std::fs::write(
        &file,
        "PK,SK,code\nPOST#c,A,12\nPOST#c,B,123456789012345678901234567890123456789\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) =
        dynoscope(&url, &["import", "--table", &to, "--format", "csv", file]).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("codes.csv: line 3, column code: `123456789012345678901234567890123456789` has 39 significant digits"),
        "{err}"
    );
    assert!(err.contains("(--type code=S)"), "{err}");
    assert!(scan(&engine, &to).await.is_empty());
    let (code, out, err) = dynoscope(
        &url,
        &[
            "import", "--table", &to, "--format", "csv", "--type", "code=S", file,
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    let stored = scan(&engine, &to).await;
    assert!(
        stored
            .iter()
            .any(|i| i["code"] == common::s("123456789012345678901234567890123456789"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_byte_order_mark_is_ignored_in_every_format() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let dir = scratch("bom");
    let bom = "\u{feff}";
    let s3 = format!(
        "{bom}{{\"Item\":{{\"PK\":{{\"S\":\"POST#b\"}},\"SK\":{{\"S\":\"META\"}},\"likeTally\":{{\"N\":\"1\"}}}}}}\n{{\"Item\":{{\"PK\":{{\"S\":\"POST#b\"}},\"SK\":{{\"S\":\"LIKE#1\"}}}}}}\n"
    );
    let texts = [
        (
            "csv",
            "t.csv",
            format!("{bom}PK,SK,likeTally\nPOST#b,META,1\nPOST#b,LIKE#1,\n"),
        ),
        (
            "jsonl",
            "t.jsonl",
            format!(
                "{bom}{{\"PK\":\"POST#b\",\"SK\":\"META\",\"likeTally\":1}}\n{{\"PK\":\"POST#b\",\"SK\":\"LIKE#1\"}}\n"
            ),
        ),
        (
            "ddb-json",
            "t.ddb.jsonl",
            format!(
                "{bom}{{\"PK\":{{\"S\":\"POST#b\"}},\"SK\":{{\"S\":\"META\"}},\"likeTally\":{{\"N\":\"1\"}}}}\n{{\"PK\":{{\"S\":\"POST#b\"}},\"SK\":{{\"S\":\"LIKE#1\"}}}}\n"
            ),
        ),
        ("s3-export", "t.json", s3.clone()),
    ];
    for (format, name, text) in &texts {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let to = table(&engine, "files-bom").await;
        let (code, out, err) = dynoscope(
            &url,
            &[
                "import",
                "--table",
                &to,
                "--format",
                format,
                file.to_str().unwrap(),
            ],
        )
        .await;
        assert_eq!(code, 0, "{format}: {out}{err}");
        assert!(out.contains("2 read, 2 written"), "{format}: {out}");
    }
    // The export stream of a reconcile too, gzipped.
    let gz = dir.join("data.json.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    encoder.write_all(s3.as_bytes()).unwrap();
    encoder.finish().unwrap();
    let social = table(&engine, "files-bom-check").await;
    let (code, out, err) = dynoscope(
        &url,
        &[
            "check",
            "--table",
            &social,
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--parent-prefix",
            "POST#",
            "--from-export",
            gz.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("Read 2 items"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_to_import_is_bad_input_dry_run_too() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-empty").await;
    let dir = scratch("empty");
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    std::fs::write(dir.join("blank.jsonl"), "\n\n  \n").unwrap();
    std::fs::write(dir.join("header.csv"), "PK,SK,n\r\n").unwrap();
    std::fs::create_dir_all(dir.join("no-data/AWSDynamoDB/01/data")).unwrap();
    std::fs::write(
        dir.join("no-data/AWSDynamoDB/01/manifest-summary.json"),
        "{}",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("empty-data/data")).unwrap();
    std::fs::write(dir.join("empty-data/data/a.json"), "").unwrap();
    let cases = [
        ("empty.jsonl", "ddb-json", "nothing to import"),
        ("blank.jsonl", "jsonl", "nothing to import"),
        ("header.csv", "csv", "nothing to import"),
        ("no-data", "s3-export", "holds no .json or .json.gz files"),
        ("empty-data", "s3-export", "nothing to import"),
    ];
    for (name, format, why) in cases {
        let path = dir.join(name);
        for dry in [true, false] {
            let mut args = vec!["import", "--table", &to, "--format", format];
            if dry {
                args.push("--dry-run");
            }
            args.push(path.to_str().unwrap());
            let (code, out, err) = dynoscope(&url, &args).await;
            assert_eq!(code, 2, "{name}: {out}{err}");
            assert!(err.contains(why), "{name}: {err}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_line_is_listed_in_one_read() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-many-bad").await;
    let dir = scratch("many-bad");
    let file = dir.join("small2.jsonl");
    let mut lines: Vec<String> = likes(10).lines().map(str::to_owned).collect();
    lines[3] = r#"{"PK":{"S":"X"},"SK":{"S":"A"},"s":{"SS":[]}}"#.to_owned();
    lines[4] = "{not json".to_owned();
    lines[8] = r#"{"PK":{"S":"X"},"SK":{"N":"1"}}"#.to_owned();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (code, out, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            file.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("3 lines are not items DynamoDB would take; nothing was written"),
        "{err}"
    );
    for line in [
        "small2.jsonl: line 4: ",
        "small2.jsonl: line 5: ",
        "small2.jsonl: line 9: ",
    ] {
        assert!(err.contains(line), "{line}: {err}");
    }
    assert!(scan(&engine, &to).await.is_empty(), "nothing written");
}
