//! Hostile files are read in bounded memory and time, through the CLI as a real process: a
//! huge gzip in bounded peak RSS (the child's, as the kernel counts it) and endless input
//! refused; folders read regular files only and never follow a link to a folder.

use crate::common;

use std::io::Write;
use std::path::Path;

use common::empty_engine;
use common::files::{dynoscope, measured, scan, scratch, table};

/// A gzip file written at `path`, quickly compressed.
fn gz_file(path: &Path) -> flate2::write::GzEncoder<std::io::BufWriter<std::fs::File>> {
    flate2::write::GzEncoder::new(
        std::io::BufWriter::new(std::fs::File::create(path).unwrap()),
        flate2::Compression::fast(),
    )
}

/// 600 items of DynamoDB JSON, each padded with `pad`, gzipped at `path`.
fn write_json_bomb(path: &Path, pad: &str) {
    let mut gz = gz_file(path);
    for i in 0..600 {
        writeln!(
            gz,
            r#"{{"PK":{{"S":"POST#{i}"}},"SK":{{"S":"META"}},"pad":{{"S":"{pad}"}}}}"#
        )
        .unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
}

/// The same 600 items as CSV, gzipped at `path`: each pad a quoted cell across two lines.
fn write_csv_bomb(path: &Path, pad: &str) {
    let mut gz = gz_file(path);
    writeln!(gz, "PK,SK,pad").unwrap();
    for i in 0..600 {
        // A quoted cell across two lines, as spreadsheets write them.
        let half = &pad[..120_000];
        writeln!(gz, "POST#{i},META,\"{half}\n{half}\"").unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
}

/// One line of 20 MiB without an end, gzipped at `path`.
fn write_endless_line(path: &Path) {
    let mut gz = gz_file(path);
    let block = vec![b'7'; 1 << 20];
    for _ in 0..20 {
        gz.write_all(&block).unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_gzip_is_read_in_bounded_memory_and_endless_input_is_refused() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-bomb").await;
    let dir = scratch("bomb");
    // 600 items of 250 KB each: 150 MB of text in a gzip of well under 1 MB. Holding the text,
    // or the items, would take more than the bound below.
    let bomb = dir.join("bomb.jsonl.gz");
    let pad = "x".repeat(250_000);
    write_json_bomb(&bomb, &pad);
    let gz_bytes = std::fs::metadata(&bomb).unwrap().len();
    assert!(gz_bytes < 2 << 20, "{gz_bytes}");
    let bound_kb = 100 * 1024;
    let path = bomb.to_str().unwrap();
    let args = [
        "import",
        "--table",
        &to,
        "--format",
        "ddb-json",
        "--dry-run",
        path,
    ];
    let (code, out, err, peak_kb) = measured(&url, &args, &dir).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("dry run: 600 items read and checked"), "{out}");
    assert!(err.contains("bomb.jsonl.gz (600 items, "), "{err}");
    assert!(peak_kb < bound_kb, "peak RSS {peak_kb} kB");
    println!("a dry run of {gz_bytes} bytes of gzip, 150 MB of text: peak RSS {peak_kb} kB");

    // The same as CSV: records streamed too.
    let csv = dir.join("bomb.csv.gz");
    write_csv_bomb(&csv, &pad);
    let args = [
        "import",
        "--table",
        &to,
        "--format",
        "csv",
        "--dry-run",
        csv.to_str().unwrap(),
    ];
    let (code, out, err, peak_kb) = measured(&url, &args, &dir).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("dry run: 600 items read and checked"), "{out}");
    assert!(peak_kb < bound_kb, "peak RSS {peak_kb} kB");
    println!("a dry run of a CSV of 144 MB of text, gzipped: peak RSS {peak_kb} kB");

    // One line without an end: refused at 16 MiB, having held no more.
    let long = dir.join("one-line.jsonl.gz");
    write_endless_line(&long);
    let args = [
        "import",
        "--table",
        &to,
        "--format",
        "ddb-json",
        "--dry-run",
        long.to_str().unwrap(),
    ];
    let (code, out, err, peak_kb) = measured(&url, &args, &dir).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("one-line.jsonl.gz: line 1: longer than 16 MiB"),
        "{err}"
    );
    assert!(peak_kb < bound_kb, "peak RSS {peak_kb} kB");
    println!("one line of 20 MiB, gzipped: refused, peak RSS {peak_kb} kB");

    // A device is no file to import.
    let (code, _, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            "/dev/zero",
        ],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero is a device, not a regular file or a folder"),
        "{err}"
    );
    assert!(scan(&engine, &to).await.is_empty());
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_reads_regular_files_and_follows_no_link_to_a_folder() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let dir = scratch("folder");
    let data = dir.join("export/data");
    std::fs::create_dir_all(&data).unwrap();
    let line = |sk: &str, tally: &str| {
        format!("{{\"Item\":{{\"PK\":{{\"S\":\"POST#f\"}},\"SK\":{{\"S\":\"{sk}\"}}{tally}}}}}\n")
    };
    std::fs::write(
        data.join("a.json"),
        line("META", ",\"likeTally\":{\"N\":\"2\"}"),
    )
    .unwrap();
    let elsewhere = dir.join("elsewhere.json");
    std::fs::write(&elsewhere, line("LIKE#1", "") + &line("LIKE#2", "")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, data.join("b.json")).unwrap();
    // Two links to the folder itself: followed, the walk would never end.
    std::os::unix::fs::symlink(".", data.join("x")).unwrap();
    std::os::unix::fs::symlink(".", data.join("y")).unwrap();
    // A FIFO named like data: opened, the read would wait for ever.
    common::files::mkfifo(&data.join("p.json"));
    let folder = dir.join("export");
    let folder = folder.to_str().unwrap();

    let to = table(&engine, "files-folder").await;
    let (code, out, err) = dynoscope(
        &url,
        &["import", "--table", &to, "--format", "s3-export", folder],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 read, 3 written"), "{out}");
    for said in [
        "/export/data/p.json: a FIFO, not a regular file",
        "skipped ",
        "/export/data/x: a link to a folder, not followed",
        "/export/data/y: a link to a folder, not followed",
        "read 2 files from ",
        "/export/data/a.json (1 item",
        "/export/data/b.json (2 items",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    let (code, out, err) = dynoscope(
        &url,
        &[
            "check",
            "--table",
            &to,
            "--tally",
            "likeTally",
            "--child-prefix",
            "LIKE#",
            "--parent-prefix",
            "POST#",
            "--from-export",
            folder,
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("/export/data/p.json: a FIFO"), "{err}");
    assert!(err.contains("/export/data/x: a link to a folder"), "{err}");
    assert!(err.contains("reading 2 files from"), "{err}");
    assert!(err.contains("Read 3 items"), "{err}");

    // A FIFO given itself is no file to read.
    let (code, _, err) = dynoscope(
        &url,
        &[
            "import",
            "--table",
            &to,
            "--format",
            "s3-export",
            data.join("p.json").to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("is a FIFO, not a regular file or a folder"),
        "{err}"
    );
}
