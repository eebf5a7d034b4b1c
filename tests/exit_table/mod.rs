//! The one exit-code table, proved by one table: every subcommand run through each outcome class
//! that applies to it (done, refused, missing, drift, bad input, throttled out, a server
//! validation error, unknown), its status checked against `cli::Exit`. A class that cannot
//! happen to a subcommand (a read has no unknown outcome) has no row.

use std::fmt::Write as _;

use crate::common;
mod files;
mod reads;
mod tables;
mod writes;

use common::Fault;
use common::served::{Served, text};
use dynoscope_cli::Exit;

/// Where a row's command goes: the sandbox itself, or a fault proxy in front of it; or the
/// sandbox itself with the command's stdout a pipe already closed (a script's `| true`).
enum Via {
    Direct,
    Proxy(&'static [&'static str], Fault),
    ClosedStdout,
}

/// One row: a subcommand, the outcome class it is run into, and the status the table gives.
struct Row {
    class: &'static str,
    via: Via,
    args: Vec<String>,
    expect: Exit,
}

fn row(class: &'static str, via: Via, args: &[&str], expect: Exit) -> Row {
    Row {
        class,
        via,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        expect,
    }
}

const THROTTLED: Fault = Fault::Throttle(1_000_000);
const INVALID: Fault = Fault::Refuse("ValidationException");

fn rows(dir: &std::path::Path) -> Vec<Row> {
    let mut rows = reads::rows();
    rows.extend(writes::rows());
    rows.extend(files::rows(dir));
    rows.extend(tables::rows());
    rows
}

/// Run the CLI with `args` to its end, or until a deadline of two minutes (then killed: no
/// status): a row that never ends fails instead of hanging the table. With `closed_stdout`, its
/// stdout is a pipe whose reading end is closed before it starts (a script's `| true`).
fn run_within_deadline(args: &[&str], closed_stdout: bool) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut command = common::served::command(args);
    // For endpoints that are not on this machine, as `dynoscope` does.
    command
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .stderr(Stdio::piped());
    if closed_stdout {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        command.stdout(Stdio::from(writer));
    } else {
        command.stdout(Stdio::piped());
    }
    let mut child = command.spawn().expect("runs");
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(2);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    std::process::Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

#[test]
fn every_subcommand_exits_by_the_one_table() {
    // The table as docs/cli.md and --help print it: the statuses below are these numbers.
    let statuses = [Exit::Done, Exit::Refused, Exit::Error, Exit::Unknown].map(Exit::status);
    assert_eq!(statuses, [0, 1, 2, 3]);
    let served = Served::new();
    let dir = std::env::temp_dir().join(format!("dynoscope-exit-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut lines = String::new();
    for i in 0..30 {
        writeln!(
            lines,
            "{{\"PK\":{{\"S\":\"IMP#{i}\"}},\"SK\":{{\"S\":\"A\"}}}}"
        )
        .unwrap();
    }
    std::fs::write(dir.join("import.jsonl"), lines).unwrap();
    std::fs::write(dir.join("bad.jsonl"), "{\"PK\":{\"S\":\"x\"}\n").unwrap();
    std::fs::write(
        dir.join("mixed.jsonl"),
        "{\"PK\":{\"S\":\"IMP#m\"},\"SK\":{\"S\":\"A\"}}\n{\"PK\":{\"S\":\"x\"}\n",
    )
    .unwrap();
    let mut failures = Vec::new();
    let mut proxies = Vec::new();
    for row in rows(&dir) {
        let url = match row.via {
            Via::Direct | Via::ClosedStdout => served.url().to_owned(),
            Via::Proxy(targets, fault) => {
                let proxy = served.fault(targets, fault);
                let url = proxy.url.clone();
                proxies.push(proxy);
                url
            }
        };
        // An export writes a new file each time.
        let _ = std::fs::remove_file(dir.join("out.jsonl"));
        let mut args = vec!["--endpoint-url".to_owned(), url];
        args.extend(row.args.iter().cloned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = std::time::Instant::now();
        let out = run_within_deadline(&refs, matches!(row.via, Via::ClosedStdout));
        let ms = started.elapsed().as_millis();
        let status = out.status.code();
        let expected = i32::from(row.expect.status());
        let shown = row.args.join(" ");
        eprintln!("{status:?}\t{ms} ms\t{}\t{shown}", row.class);
        if status != Some(expected) {
            failures.push(format!(
                "{shown} ({}): exit {status:?}, the table says {expected}\n  stdout: {}\n  stderr: {}",
                row.class,
                text(&out.stdout).trim(),
                text(&out.stderr).trim()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
