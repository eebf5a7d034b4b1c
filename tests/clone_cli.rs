//! `dynoscope clone` as a process between two embedded engines, by the exit table: copied and
//! equal (0), a difference found by the check (1), refused before anything was written (2:
//! read-only, no destination, other keys); interrupted while batches are in flight, then gone on
//! with from the arguments it printed. And through every fault of the proxy, the reported
//! outcome matching what the destination holds.

use crate::common;
use crate::common::clones;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use crate::common::Said;
use clones::{fill, plain_spec, run, run_confirmed, same_items, source, whole};
use common::files::{cli, dynoscope, scan};
use common::through::{faults, proxied};
use common::{Fault, empty_engine, table_name};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::clone::PartAsked;
use dynoscope_core::ending::Ending;
use dynoscope_core::expr::codegen::shell_words;

/// `--check full`: every item compared by key by the one comparison of two tables; an item at
/// the destination the source lacks is named, exit 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_check_compares_every_item() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let (src, dst) = (a.sandbox.endpoint(), b.sandbox.endpoint());
    let from = source(&a, plain_spec, 300).await;
    let to = table_name("cli-full");
    let base = [
        "clone",
        "--table",
        &from,
        "--to-endpoint",
        dst,
        "--to-table",
        &to,
    ];
    let mut args = base.to_vec();
    args.extend(["--check", "full"]);
    let (code, out, err) = dynoscope(src, &args).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("every item: 0 only in A, 0 only in B, 0 different, 300 the same"),
        "{out}"
    );
    fill(&b, &to, 5_000..5_001).await;
    args.push("--yes");
    let (code, out, err) = dynoscope(src, &args).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("check: every item compared by key"), "{out}");
    assert!(
        out.contains("every item: 0 only in A, 1 only in B, 0 different, 300 the same"),
        "{out}"
    );
    let mut both = base.to_vec();
    both.extend(["--check", "full", "--no-check"]);
    let (code, _, err) = dynoscope(src, &both).await;
    assert_eq!(code, 2, "--check and --no-check: {err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_clones_and_exits_by_the_table() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let (src, dst) = (a.sandbox.endpoint(), b.sandbox.endpoint());
    let from = source(&a, plain_spec, 1_000).await;
    let to = table_name("cli-clone");
    let args = |extra: &[&str]| {
        let mut all = vec!["clone", "--table", &from, "--to-endpoint", dst];
        all.extend_from_slice(extra);
        all.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>()
    };
    let run_cli = |args: Vec<String>| async move {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        dynoscope(src, &refs).await
    };

    // Read-only, or no destination named: refused, nothing created.
    let (code, out, err) = run_cli(args(&["--to-table", &to, "--to-read-only"])).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("read-only"), "{err}");
    let (code, _, err) = run_cli(vec!["clone".into(), "--table".into(), from.clone()]).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("name the destination"), "{err}");
    assert!(
        dynoscope_core::read::list_tables(&b.connection.reader())
            .await
            .unwrap()
            .is_empty()
    );

    // Copied and equal: 0, the check said.
    let (code, out, err) = run_cli(args(&["--to-table", &to, "--segments", "3"])).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("items: 1000 read, 1000 written"), "{out}");
    assert!(
        out.contains("every partition holds as many items on both sides"),
        "{out}"
    );
    assert!(out.contains("all equal"), "{out}");
    assert!(err.contains("written ·"), "progress on stderr: {err}");
    assert_eq!(same_items(&a, &from, &b, &to).await, 1_000);

    // Into the table now there, which holds items: asked even on this machine, so 2 and
    // nothing written without --yes.
    let (code, out, err) = run_cli(args(&["--to-table", &to, "--pk", "P#00002"])).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("already holds items"), "{err}");
    assert!(err.contains("add --yes"), "{err}");

    // One partition, as JSON, into the table now there (its keys are the source's).
    let (code, out, err) = run_cli(args(&[
        "--to-table",
        &to,
        "--pk",
        "P#00002",
        "--json",
        "--yes",
    ]))
    .await;
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["ending"], "done", "{json}");
    assert_eq!(json["items"]["written"], 100, "{json}");
    assert_eq!(json["check"]["agrees"], true, "{json}");
    assert_eq!(json["schema"]["created"], false, "{json}");

    // An item at the destination the source lacks: the check finds it, 1.
    fill(&b, &to, 5_000..5_001).await;
    let (code, out, err) = run_cli(args(&["--to-table", &to, "--yes"])).await;
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("the counts differ in 1 partition"), "{out}");
    assert!(
        out.contains(r#"{"S":"P#00050"}: 0 at the source, 1 at the destination"#),
        "{out}"
    );
    // A destination of that name with other keys: 2, nothing written.
    let other = table_name("cli-other");
    let (code, _, err) =
        dynoscope(dst, &["table", "create", "--table", &other, "--pk", "id:S"]).await;
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_cli(args(&["--to-table", &other])).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("already exists"), "{err}");
    assert!(scan(&b, &other).await.is_empty());

    // The source itself, through another spelling of its URL: 2, nothing written.
    let port = a.sandbox.addr().port();
    let itself = format!("http://localhost:{port}");
    let (code, out, err) = dynoscope(
        src,
        &["clone", "--table", &from, "--to-endpoint", &itself, "--yes"],
    )
    .await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is the source table"), "{err}");
    assert_eq!(scan(&a, &from).await.len(), 1_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_clone_says_where_to_go_on_and_goes_on() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, plain_spec, 3_000).await;
    let to = table_name("cli-interrupted");
    let proxy = common::fault_proxy(b.sandbox.addr(), &["BatchWriteItem"], Fault::Hold).await;
    let base = ["clone", "--table", from.as_str(), "--to-table", to.as_str()];
    let mut args: Vec<&str> = base.to_vec();
    args.extend(["--to-endpoint", proxy.url.as_str(), "--segments", "2"]);
    let mut child = cli(a.sandbox.endpoint(), &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let said = Arc::new(Mutex::new(String::new()));
    let stderr = {
        let (err, said) = (child.stderr.take().unwrap(), Arc::clone(&said));
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                said.lock().unwrap().push_str(&(line + "\n"));
            }
        })
    };
    let out = child.stdout.take().unwrap();
    let stdout = std::thread::spawn(move || std::io::read_to_string(out).unwrap());
    // Batches in flight, their answers held: then the signal, heard before they are let go.
    tokio::task::spawn_blocking({
        let said = Arc::clone(&said);
        let pid = child.id() as libc::pid_t;
        let proxy_arrived = Arc::clone(&proxy.arrived);
        move || {
            while proxy_arrived.load(std::sync::atomic::Ordering::SeqCst) < 1 {
                std::thread::yield_now();
            }
            common::files::interrupt(pid);
            while !said.lock().unwrap().contains("interrupted") {
                std::thread::yield_now();
            }
        }
    })
    .await
    .unwrap();
    proxy.release();
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    stderr.join().unwrap();
    let (out, err) = (stdout.join().unwrap(), said.lock().unwrap().clone());
    assert_eq!(status.code(), Some(1), "{out}{err}");
    assert!(out.contains("stopped: cancelled"), "{out}");
    let go_on = err
        .split("run the same clone again with: ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("no arguments to go on with: {err}"));
    let more = shell_words(go_on).unwrap();
    assert_eq!(more[..3], ["--yes", "--segments", "2"], "{go_on}");
    let stored = scan(&b, &to).await.len();
    assert!(stored > 0 && stored < 3_000, "{stored}");

    // Gone on with, directly: every item, the check equal.
    let mut again: Vec<&str> = base.to_vec();
    again.extend(["--to-endpoint", b.sandbox.endpoint()]);
    again.extend(more.iter().map(String::as_str));
    let (code, out, err) = dynoscope(a.sandbox.endpoint(), &again).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("already exists"), "{out}");
    assert_eq!(same_items(&a, &from, &b, &to).await, 3_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_every_fault_the_report_matches_the_destination() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let from = source(&a, plain_spec, 60).await;
    for fault in faults() {
        let (proxy, to_proxy) = proxied(&b, &["BatchWriteItem"], fault).await;
        let to = table_name("clone-fault");
        let mut plan = whole(&from, &to, 1);
        plan.batches_at_once = 1;
        let stop = CancelToken::default();
        let report = run(&a.connection, &to_proxy, &plan, &stop, |_| {})
            .await
            .unwrap();
        let lines = report.texts().join("\n");
        let copy = report.copy.clone().unwrap();
        let stored = scan(&b, &to).await.len();
        if let Fault::Throttle(_) = fault {
            assert_eq!(report.ended().unwrap(), Ending::Done, "{fault:?}: {lines}");
            assert_eq!((copy.items.written, stored), (60, 60), "{fault:?}");
            continue;
        }
        // Every answer lost: the first batch is unknown after its re-sends, read again, and
        // nothing more is sent; the destination holds it (it was applied), nothing else.
        assert_eq!(
            report.ended().unwrap(),
            Ending::Unknown,
            "{fault:?}: {lines}"
        );
        let i = &copy.items;
        assert_eq!(
            (i.written, i.unknown_count(), i.not_sent),
            (0, 25, 35),
            "{fault:?}: {lines}"
        );
        assert!(
            lines.contains("Read again: 25 of 25 stored"),
            "{fault:?}: {lines}"
        );
        assert_eq!(stored, 25, "{fault:?}");
        assert!(proxy.forwarded() >= 1, "{fault:?}");
        // Gone on with on a clean connection: from before the unknown batch, to the end.
        plan.part = PartAsked::Table(copy.left.clone());
        let report = run_confirmed(&a.connection, &b.connection, &plan, |_| {})
            .await
            .unwrap();
        assert_eq!(report.ended().unwrap(), Ending::Done, "{fault:?}");
        assert_eq!(same_items(&a, &from, &b, &to).await, 60, "{fault:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn off_this_machine_it_asks_first_and_a_lost_answer_is_unknown() {
    let (a, b) = (empty_engine().await, empty_engine().await);
    let (src, from) = (a.sandbox.endpoint(), source(&a, plain_spec, 60).await);
    let writes: &'static [&'static str] = &["CreateTable", "UpdateTimeToLive", "BatchWriteItem"];
    let proxy = common::fault_proxy(b.sandbox.addr(), writes, Fault::Throttle(0)).await;
    // The same proxy under an address that is not this machine's: writes need --yes.
    let remote = proxy.url.replace("127.0.0.1", "0.0.0.0");
    let to = table_name("cli-remote");
    let args = [
        "clone",
        "--table",
        &from,
        "--to-table",
        &to,
        "--to-endpoint",
        &remote,
    ];
    let (code, out, err) = dynoscope(src, &args).await;
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("It was not confirmed, so nothing was sent"),
        "{err}"
    );
    assert!(err.contains("add --yes"), "{err}");
    assert_eq!(proxy.arrived(), 0, "nothing sent");
    let mut yes = args.to_vec();
    yes.push("--yes");
    let (code, out, err) = dynoscope(src, &yes).await;
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(same_items(&a, &from, &b, &to).await, 60);

    // Every batch's answer lost: 3, and the destination holds what the report says.
    let lost =
        common::fault_proxy(b.sandbox.addr(), &["BatchWriteItem"], Fault::HtmlAfterApply).await;
    let to = table_name("cli-lost");
    let args = [
        "--timeout",
        "2",
        "clone",
        "--table",
        &from,
        "--to-table",
        &to,
        "--to-endpoint",
        &lost.url,
        "--concurrency",
        "1",
        "--segments",
        "1",
    ];
    let (code, out, err) = dynoscope(src, &args).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("60 read, 0 written, 0 refused, 25 unknown, 35 not sent"),
        "{out}"
    );
    assert_eq!(scan(&b, &to).await.len(), 25);
}
