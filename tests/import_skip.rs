//! An import that goes on past what it cannot write, and says what it does to the counters,
//! through the CLI as a real process against an embedded engine: `--skip-invalid` imports the
//! other lines and writes the skipped ones, each after a `#` line saying why, to
//! `FILE.rejected`, which imports once fixed (a CSV file's under its header); `--tally` says per
//! parent how far the children of a file would move a tally the file leaves as it is.

use crate::common;
use crate::common::LIKES_RULE;

use common::empty_engine;
use common::files::{dynoscope, like, likes, scan, scratch, table};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skip_invalid_imports_the_others_and_the_rejected_file_fixed_imports_the_rest() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-skip").await;
    let dir = scratch("skip");
    let file = dir.join("small2.jsonl");
    let mut lines: Vec<String> = likes(10).lines().map(str::to_owned).collect();
    lines[3] = r#"{"PK":{"S":"POST#a91f"},"SK":{"S":"LIKE#USER#000003"},"s":{"SS":[]}}"#.to_owned();
    lines[4] = "{not json".to_owned();
    lines[8] = r#"{"PK":{"S":"POST#a91f"},"SK":{"N":"1"}}"#.to_owned();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let path = file.to_str().unwrap();
    let rejected = dir.join("small2.jsonl.rejected");
    let args = [
        "import",
        "--table",
        &to,
        "--format",
        "ddb-json",
        "--skip-invalid",
    ];
    // A dry run says what would be skipped and writes nothing, no file either.
    let (code, out, err) = dynoscope(&url, &[&args[..], &["--dry-run", path]].concat()).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("3 lines not items DynamoDB would take, skipped:"),
        "{out}"
    );
    assert!(
        out.contains("dry run: 7 items read and checked, 3 invalid lines skipped"),
        "{out}"
    );
    assert!(!rejected.exists() && scan(&engine, &to).await.is_empty());

    let (code, out, err) = dynoscope(&url, &[&args[..], &[path]].concat()).await;
    assert_eq!(code, 1, "lines skipped are lines refused: {out}{err}");
    assert!(
        out.contains("import: 7 read, 3 invalid lines skipped, 7 written, 0 refused"),
        "{out}"
    );
    assert!(
        out.contains("small2.jsonl.rejected (fix them there"),
        "{out}"
    );
    assert_eq!(scan(&engine, &to).await.len(), 7);
    let text = std::fs::read_to_string(&rejected).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(kept, [&lines[3], &lines[4], &lines[8]], "{text}");
    for why in [
        "small2.jsonl\n# line 4: `s`: a string set cannot be empty",
        "# line 5: not valid JSON",
        "# line 9: `SK` is N here",
    ] {
        assert!(text.contains(why), "{why}: {text}");
    }

    // Fixed in place (its `#` lines kept), the rejected file imports the three that were left.
    let fixed: String = text
        .lines()
        .map(|l| match l {
            l if l.starts_with('#') => l.to_owned(),
            l if l == lines[3] => like(3),
            l if l == lines[4] => like(4),
            _ => like(8),
        })
        .map(|l| l + "\n")
        .collect();
    std::fs::write(&rejected, fixed).unwrap();
    let (code, out, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            rejected.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("import: 3 read, 3 written"), "{out}");
    assert_eq!(scan(&engine, &to).await.len(), 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csv_files_skipped_records_are_a_csv_file_under_its_header() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-skip-csv").await;
    let dir = scratch("skip-csv");
    let file = dir.join("small2.csv");
    let text = "PK,SK,note\r\nPOST#a91f,LIKE#1,ok\r\nPOST#a91f,LIKE#2,\"two, quoted\",extra\r\n\
                POST#a91f,,no sort key\r\nPOST#a91f,LIKE#4,fine\r\n";
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "csv",
            "--skip-invalid",
            file.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("import: 2 read, 2 invalid lines skipped, 2 written"),
        "{out}"
    );
    let rejected = std::fs::read_to_string(dir.join("small2.csv.rejected")).unwrap();
    let records: Vec<&str> = rejected.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        records,
        [
            "PK,SK,note",
            "POST#a91f,LIKE#2,\"two, quoted\",extra",
            "POST#a91f,,no sort key"
        ],
        "{rejected}"
    );
    assert!(
        rejected.contains("# line 3: 4 fields where the header has 3"),
        "{rejected}"
    );
    assert!(
        rejected.contains("# line 4: the item lacks the key attribute `SK`"),
        "{rejected}"
    );
    // Read again as it is, its `#` lines left out, the same two are refused at their lines in
    // the rejected file.
    let again = dir.join("small2.csv.rejected");
    let (code, _, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "csv",
            again.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("2 lines are not items DynamoDB would take"),
        "{err}"
    );
    assert!(
        err.contains("small2.csv.rejected: line 4: 4 fields"),
        "{err}"
    );
    assert_eq!(scan(&engine, &to).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_of_children_says_the_tallies_it_leaves_behind_before_writing() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-tally").await;
    let dir = scratch("tally");
    let file = dir.join("likes.jsonl");
    let mut text = String::new();
    for (post, n) in [("POST#a91f", 150), ("POST#b2", 100), ("POST#c3", 50)] {
        for i in 0..n {
            text +=
                &format!("{{\"PK\":{{\"S\":\"{post}\"}},\"SK\":{{\"S\":\"LIKE#USER#{i:04}\"}}}}\n");
        }
    }
    text += r#"{"PK":{"S":"POST#d4"},"SK":{"S":"META"},"likeTally":{"N":"2"}}"#;
    text += "\n";
    text += &like(1).replace("POST#a91f", "POST#d4");
    std::fs::write(&file, text + "\n").unwrap();
    let path = file.to_str().unwrap();
    let mut args = vec!["import", "--table", &to, "--format", "ddb-json"];
    args.extend(LIKES_RULE);
    args.extend(["--dry-run", path]);
    let (code, out, err) = dynoscope(&url, &args).await;
    assert_eq!(code, 0, "{out}{err}");
    for line in [
        "counters: 300 `LIKE#` children for 3 parents, their tallies `likeTally` unchanged: they drift by up to +300",
        "counters:   POST#a91f / META: +150",
        "counters:   POST#c3 / META: +50",
        "counters: POST#d4 / META: the file sets `likeTally` to 2 and puts 1 `LIKE#` child under it",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    // Without a rule nothing is said of counters; a rule's parts without --tally are refused.
    let (code, out, _) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            "--dry-run",
            path,
        ],
    )
    .await;
    assert_eq!(code, 0);
    assert!(!out.contains("counters:"), "{out}");
    let (code, _, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            "--child-prefix",
            "LIKE#",
            "--dry-run",
            path,
        ],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(scan(&engine, &to).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_of_rejected_lines_is_never_overwritten_and_a_folders_sits_beside_it() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-skip-again").await;
    let dir = scratch("skip-again");
    let file = dir.join("small.jsonl");
    std::fs::write(&file, format!("{}\n{{not json\n", like(1))).unwrap();
    let import = |path: &str| {
        [
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            "--skip-invalid",
            path,
        ]
        .map(str::to_owned)
    };
    let args = import(file.to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = dynoscope(&url, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    let rejected = dir.join("small.jsonl.rejected");
    std::fs::write(&rejected, "# fixed by hand\n").unwrap();
    // Again: refused before anything is sent, the hand-fixed file kept.
    let (code, out, err) = dynoscope(&url, &args).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("small.jsonl.rejected exists") && err.contains("nothing was sent"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&rejected).unwrap(),
        "# fixed by hand\n"
    );

    // A folder's (an S3 export's) file of rejected lines is beside it, named after it.
    let fold = dir.join("fold");
    std::fs::create_dir_all(fold.join("data")).unwrap();
    let item = r#"{"Item":{"PK":{"S":"POST#f"},"SK":{"S":"LIKE#1"}}}"#;
    std::fs::write(fold.join("data/part.json"), format!("{item}\n{{not json\n")).unwrap();
    for (given, beside) in [(format!("{}/", fold.display()), "fold.rejected")] {
        let args = import(&given);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args[4] = "s3-export";
        let (code, out, err) = dynoscope(&url, &args).await;
        assert_eq!(code, 1, "{out}{err}");
        assert!(dir.join(beside).is_file(), "{out}{err}");
        assert!(!fold.join(".rejected").exists(), "{out}");
        assert!(out.contains("fold.rejected (fix them there"), "{out}");
    }
}
