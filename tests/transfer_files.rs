//! An import as a run, through the CLI as a real process against an embedded engine: Ctrl-C
//! sends no new batch and waits for those in flight; the exit status follows the table; a file
//! changed between the passes is said. (Checked before writing: `import_check.rs`; bounded:
//! `import_bounds.rs`; export: `export_files.rs`.)

use crate::common;

use std::io::BufRead;
use std::process::Stdio;
use std::sync::Arc;

use common::files::{cli, dynoscope, likes, scan, scratch, table};
use common::{Fault, empty_engine};

const INVALID: Fault = Fault::Refuse("ValidationException");
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::import::{self, CheckLimits};
use dynoscope_core::read::{self};
use dynoscope_core::transfer::Format;

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
    common::files::interrupt(i32::try_from(child.id()).unwrap());
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
    assert!(out.contains("likes.jsonl: lines 26–50"), "{out}");
    assert_eq!(scan(&engine, &to).await.len(), 35);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_changed_after_its_check_is_not_imported() {
    let engine = empty_engine().await;
    let to = table(&engine, "files-changed").await;
    let info = read::describe_table(&engine.reader(), &to).await.unwrap();
    let dir = scratch("changed");
    let file = dir.join("likes.jsonl");
    std::fs::write(&file, likes(60)).unwrap();
    let never = CancelToken::default();
    let types = std::collections::HashMap::default();
    let sources =
        import::import_sources(&file, &engine.connection, &CancelToken::default()).unwrap();
    let check = |limits| {
        import::check_import(
            &sources,
            Format::DynamoDbJsonLines,
            &types,
            &info,
            &[],
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
        ..CheckLimits::default()
    })
    .unwrap();
    assert_eq!((checked.items, checked.preview.len()), (61, 3));
    let report = import::import(&engine.connection, &info, &checked, 4, true, &never, |_| {}).await;
    assert_eq!(report.written, 61, "{report:?}");
}
