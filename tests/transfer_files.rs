//! Files in and out, streamed and safe, through the CLI as a real process against an embedded
//! engine: an import is refused whole before any write when one line is bad; a byte-order mark
//! is ignored in every format; nothing to import is bad input; a huge gzip is read in bounded
//! memory (the child's peak RSS) and endless input is refused; folders read regular files only
//! and never follow a link to a folder; Ctrl-C sends no new batch and waits for those in
//! flight; the exit status follows the table; a file changed between the passes is said; an
//! export never replaces or writes through anything unless --force.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use common::{Engine, Fault, create_table, empty_engine, table_name};

const INVALID: Fault = Fault::Refuse("ValidationException");
use dynoscope::core::cancel::CancelToken;
use dynoscope::core::read::{self, BrowseRequest};
use dynoscope::core::transfer::import::{self, CheckLimits};
use dynoscope::core::transfer::{self, Format};
use dynoscope::core::value::Item;

/// The CLI's arguments to reach `url`, then `args`.
fn cli(url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .arg("--endpoint-url")
        .arg(url)
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1");
    command
}

/// Run the CLI against `url`; (exit status, stdout, stderr).
async fn dynoscope(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut command = cli(url, args);
    let out = tokio::task::spawn_blocking(move || command.output().expect("runs"))
        .await
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run the CLI against `url` and measure it: (exit status, stdout, stderr, peak RSS in kB, as
/// the kernel counted it for the child).
async fn measured(url: &str, args: &[&str], dir: &Path) -> (i32, String, String, i64) {
    let mut command = cli(url, args);
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    command
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    let (code, peak_kb) = tokio::task::spawn_blocking(move || {
        // Reaped by wait4 below, which also gives its resource use.
        #[allow(clippy::zombie_processes)]
        let child = command.spawn().expect("runs");
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, with pointers to live locals.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(waited, pid);
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        };
        (code, usage.ru_maxrss)
    })
    .await
    .unwrap();
    (
        code,
        std::fs::read_to_string(out_path).unwrap(),
        std::fs::read_to_string(err_path).unwrap(),
        peak_kb,
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("dynoscope-files-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Like `i` as a DynamoDB JSON line.
fn like(i: usize) -> String {
    format!(
        r#"{{"PK":{{"S":"POST#a91f"}},"SK":{{"S":"LIKE#USER#{i:06}"}},"likedAt":{{"N":"{}"}}}}"#,
        1_750_636_800 + i
    )
}

/// `n` likes, a line each.
fn likes(n: usize) -> String {
    (0..n).map(|i| like(i) + "\n").collect()
}

/// Every item of `table`.
async fn scan(engine: &Engine, table: &str) -> Vec<Item> {
    let info = read::describe_table(&engine.client, table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut all = Vec::new();
    read::read_all(&engine.client, &request, |page| all.extend(page.items))
        .await
        .unwrap();
    all
}

/// A new empty table's name.
async fn table(engine: &Engine, prefix: &str) -> String {
    let name = table_name(prefix);
    create_table(&engine.client, &name).await;
    name
}

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
async fn a_huge_gzip_is_read_in_bounded_memory_and_endless_input_is_refused() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let to = table(&engine, "files-bomb").await;
    let dir = scratch("bomb");
    // 600 items of 250 KB each: 150 MB of text in a gzip of well under 1 MB. Holding the text,
    // or the items, would take more than the bound below.
    let bomb = dir.join("bomb.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(std::fs::File::create(&bomb).unwrap()),
        flate2::Compression::fast(),
    );
    let pad = "x".repeat(250_000);
    for i in 0..600 {
        writeln!(
            gz,
            r#"{{"PK":{{"S":"POST#{i}"}},"SK":{{"S":"META"}},"pad":{{"S":"{pad}"}}}}"#
        )
        .unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
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
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(std::fs::File::create(&csv).unwrap()),
        flate2::Compression::fast(),
    );
    writeln!(gz, "PK,SK,pad").unwrap();
    for i in 0..600 {
        // A quoted cell across two lines, as spreadsheets write them.
        let half = &pad[..120_000];
        writeln!(gz, "POST#{i},META,\"{half}\n{half}\"").unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
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
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(std::fs::File::create(&long).unwrap()),
        flate2::Compression::fast(),
    );
    let block = vec![b'7'; 1 << 20];
    for _ in 0..20 {
        gz.write_all(&block).unwrap();
    }
    gz.finish().unwrap().flush().unwrap();
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
    let fifo = std::ffi::CString::new(data.join("p.json").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
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

/// Wait until `ready` holds, looking again every few milliseconds (a condition, not a time).
async fn until(what: &str, ready: impl Fn() -> bool, seen: impl Fn() -> String) {
    for _ in 0..60_000 {
        if ready() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("never: {what}; so far: {}", seen());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_sends_no_new_batch_and_waits_for_those_in_flight() {
    let engine = empty_engine().await;
    let proxy = common::fault_proxy(engine.sandbox.addr(), &["BatchWriteItem"], Fault::Hold).await;
    let to = table(&engine, "files-int").await;
    let dir = scratch("interrupt");
    let file = dir.join("likes.jsonl");
    std::fs::write(&file, likes(200)).unwrap();
    let mut command = cli(
        &proxy.url,
        &[
            "--timeout",
            "300",
            "import",
            "--table",
            &to,
            "--format",
            "ddb-json",
            file.to_str().unwrap(),
        ],
    );
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let said = Arc::new(std::sync::Mutex::new(String::new()));
    let heard = Arc::clone(&said);
    let reading = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let mut all = heard.lock().unwrap();
            all.push_str(&line);
            all.push('\n');
        }
    });
    let printing = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap());
    // Four batches are in flight, held at the proxy; then Ctrl-C.
    let so_far = || said.lock().unwrap().clone();
    until("four batches in flight", || proxy.arrived() == 4, so_far).await;
    // SAFETY: a signal to our own child.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    until(
        "the import stopping",
        || so_far().contains("stopping: nothing more is sent, waiting for 4 batches"),
        so_far,
    )
    .await;
    proxy.release();
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    reading.join().unwrap();
    let out = printing.join().unwrap();
    let err = said.lock().unwrap().clone();
    assert_eq!(status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains(
            "import: 200 read, 100 written, 0 refused, 0 unknown, 100 not sent (4 requests"
        ),
        "{out}"
    );
    assert!(out.contains("stopped: cancelled"), "{out}");
    assert_eq!(proxy.arrived(), 4, "no batch sent after the signal");
    assert_eq!(scan(&engine, &to).await.len(), 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exit_status_of_an_import_follows_the_table() {
    let engine = empty_engine().await;
    let dir = scratch("exits");
    let file = dir.join("likes.jsonl");
    std::fs::write(&file, likes(60)).unwrap();
    let file = file.to_str().unwrap();
    // Every batch refused as invalid by the server: nothing written, bad input.
    let proxy = common::fault_proxy(engine.sandbox.addr(), &["BatchWriteItem"], INVALID).await;
    let to = table(&engine, "files-exit").await;
    let args = ["import", "--table", &to, "--format", "ddb-json", file];
    let (code, out, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("60 read, 0 written, 60 refused"), "{out}");
    assert!(out.contains("ValidationException"), "{out}");
    assert!(scan(&engine, &to).await.is_empty());
    // The second batch refused, one at a time: some written, the rest refused: 1.
    let proxy = common::fault_proxy(
        engine.sandbox.addr(),
        &["BatchWriteItem"],
        Fault::RefuseThese("ValidationException", &[1]),
    )
    .await;
    let to = table(&engine, "files-exit").await;
    let args = [
        "import",
        "--table",
        &to,
        "--format",
        "ddb-json",
        "--concurrency",
        "1",
        file,
    ];
    let (code, out, err) = dynoscope(&proxy.url, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("60 read, 35 written, 25 refused"), "{out}");
    assert!(out.contains("likes.jsonl lines 26–50"), "{out}");
    assert_eq!(scan(&engine, &to).await.len(), 35);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_changed_after_its_check_is_not_imported() {
    let engine = empty_engine().await;
    let to = table(&engine, "files-changed").await;
    let info = read::describe_table(&engine.client, &to).await.unwrap();
    let dir = scratch("changed");
    let file = dir.join("likes.jsonl");
    std::fs::write(&file, likes(60)).unwrap();
    let never = CancelToken::default();
    let types = Default::default();
    let check = |limits| {
        import::check_import(
            &file,
            Format::DynamoDbJsonLines,
            &types,
            &info,
            limits,
            &never,
            |_| {},
        )
    };
    let checked = check(CheckLimits::default()).unwrap();
    assert_eq!(checked.items, 60);
    std::fs::write(&file, likes(61)).unwrap();
    let report = import::import(&engine.connection, &info, &checked, 4, true, &never, |_| {}).await;
    assert_eq!((report.written, report.not_sent), (0, 60), "{report:?}");
    let stopped = report.stopped.clone().unwrap_or_default();
    assert!(
        stopped.contains("likes.jsonl changed since it was checked"),
        "{stopped}"
    );
    assert!(scan(&engine, &to).await.is_empty());
    // Checked again, it is imported; a check that spills its keys finds what one in memory does.
    let checked = check(CheckLimits {
        preview: 3,
        keys_in_memory: 7,
    })
    .unwrap();
    assert_eq!((checked.items, checked.preview.len()), (61, 3));
    let report = import::import(&engine.connection, &info, &checked, 4, true, &never, |_| {}).await;
    assert_eq!(report.written, 61, "{report:?}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_never_replaces_or_writes_through_a_file_unless_forced() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let from = table(&engine, "files-export").await;
    common::put_all(
        &engine.client,
        &from,
        vec![Item::from([
            ("PK".to_owned(), common::s("POST#e")),
            ("SK".to_owned(), common::s("META")),
        ])],
    )
    .await;
    let dir = scratch("export");
    let out = dir.join("out.jsonl");
    let precious = dir.join("precious.txt");
    std::fs::write(&out, "mine\n").unwrap();
    std::fs::write(&precious, "precious\n").unwrap();
    let export = |path: &Path, force: bool| {
        let mut args = vec![
            "export".to_owned(),
            "--table".to_owned(),
            from.clone(),
            "--out".to_owned(),
            path.display().to_string(),
        ];
        if force {
            args.push("--force".to_owned());
        }
        args
    };
    let run = |args: Vec<String>| {
        let url = url.clone();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &args).await
        }
    };
    let (code, _, err) = run(export(&out, false)).await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("out.jsonl exists; it was left as it is"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine\n");
    let (code, _, err) = run(export(&out, true)).await;
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("POST#e"));

    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(&precious, &link).unwrap();
    let (code, _, err) = run(export(&link, false)).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("link.jsonl is a symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    let (code, _, err) = run(export(&link, true)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    assert!(
        !std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // A failed export (no such folder) leaves nothing, and none leaves a temporary file.
    let (code, _, err) = run(export(&dir.join("missing/out.jsonl"), false)).await;
    assert_eq!(code, 2, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.jsonl", "out.jsonl", "precious.txt"]);
    // Nor does one written to a gzip with --force over a file.
    let gz = dir.join("out.jsonl.gz");
    std::fs::write(&gz, "old").unwrap();
    let mut args = export(&gz, true);
    args.push("--gzip".to_owned());
    let (code, _, err) = run(args).await;
    assert_eq!(code, 0, "{err}");
    let read = transfer::read_file(&gz, Format::DynamoDbJsonLines, &Default::default()).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
}
