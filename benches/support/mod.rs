//! What the benches share: an empty table keyed `PK` and `SK` (both strings), on demand, and
//! the release CLI run as a child process, measured.

#[path = "../../tests/common/sdk.rs"]
mod sdk;

pub(crate) use sdk::sdk_client;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, PutRequest,
    ScalarAttributeType, WriteRequest,
};

/// Create `name`, keyed `PK` (partition) and `SK` (sort), both `S`, paid per request.
pub(crate) async fn create_table(client: &Client, name: &str) {
    let def = |n: &str| {
        AttributeDefinition::builder()
            .attribute_name(n)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .expect("definition")
    };
    let key = |n: &str, t| {
        KeySchemaElement::builder()
            .attribute_name(n)
            .key_type(t)
            .build()
            .expect("key")
    };
    client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(def("PK"))
        .attribute_definitions(def("SK"))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .send()
        .await
        .expect("create table");
}

/// What one run of the CLI took: exit status, peak RSS (kB), wall time (s), CPU time (user and
/// system, s), its stdout.
pub(crate) struct Run {
    pub code: i32,
    pub peak_kb: i64,
    pub wall_s: f64,
    pub cpu_s: f64,
    pub stdout: String,
}

/// Run the release CLI with `args` against `url`, measured.
pub(crate) fn run(url: &str, args: &[&str], dir: &Path) -> Run {
    // `BENCH_WRAP=heaptrack` runs the CLI under a profiler (its memory is then the profiler's).
    let mut command = match std::env::var("BENCH_WRAP") {
        Ok(profiler) => {
            let mut wrapped = Command::new(profiler);
            wrapped.arg(env!("CARGO_BIN_EXE_dynoscope"));
            wrapped
        }
        Err(_) => Command::new(env!("CARGO_BIN_EXE_dynoscope")),
    };
    command
        .arg("--endpoint-url")
        .arg(url)
        .arg("--timeout")
        .arg("60")
        .args(args);
    measured(&command, dir)
}

/// The launcher's environment variable: set, this bench runs as the launcher instead.
const LAUNCHER: &str = "DYNOSCOPE_BENCH_LAUNCHER";

/// The launcher every measured child is started by, and how to talk to it.
static LAUNCHED: OnceLock<Mutex<(ChildStdin, BufReader<ChildStdout>)>> = OnceLock::new();

/// Call first in a bench's `main`. Linux counts the RSS a process had before `exec` in its
/// `ru_maxrss` — a child forked from a bench holding two engines would be charged with their
/// memory. So children are started by a launcher: this bench run again at once, while it is
/// still small, which starts each child it is asked for and says what it used. Run as that
/// launcher, this serves the requests and exits.
pub(crate) fn start_launcher() {
    if std::env::var_os(LAUNCHER).is_some() {
        serve_launches();
        std::process::exit(0);
    }
    #[expect(
        clippy::zombie_processes,
        reason = "never waited for: it ends when its stdin closes, as this bench exits"
    )]
    let mut child = Command::new(std::env::current_exe().expect("this bench"))
        .env(LAUNCHER, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the launcher");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // The launcher ends when its stdin closes, with this bench.
    let _ = LAUNCHED.set(Mutex::new((stdin, stdout)));
}

/// The launcher: one request per line (a command as JSON), one result per line.
fn serve_launches() {
    for line in std::io::stdin().lines() {
        let asked: serde_json::Value = serde_json::from_str(&line.expect("a request")).unwrap();
        let text = |v: &serde_json::Value| v.as_str().expect("text").to_owned();
        let mut command = Command::new(text(&asked["program"]));
        command.env_remove(LAUNCHER);
        for arg in asked["args"].as_array().expect("args") {
            command.arg(text(arg));
        }
        for pair in asked["env"].as_array().expect("env") {
            command.env(text(&pair[0]), text(&pair[1]));
        }
        let run = measure(command, Path::new(&text(&asked["dir"])));
        let answer = serde_json::json!({
            "code": run.code, "peak_kb": run.peak_kb, "wall_s": run.wall_s,
            "cpu_s": run.cpu_s, "stdout": run.stdout,
        });
        println!("{answer}");
    }
}

/// Run `command` (a child process) through the launcher, measured: its own peak RSS and CPU
/// time from `wait4`, its wall time.
pub(crate) fn measured(command: &Command, dir: &Path) -> Run {
    let launched = LAUNCHED
        .get()
        .expect("support::start_launcher() first in main");
    let mut launched = launched.lock().expect("launcher");
    let text = |s: &std::ffi::OsStr| s.to_string_lossy().into_owned();
    let env: Vec<[String; 2]> = (command.get_envs())
        .filter_map(|(k, v)| Some([text(k), text(v?)]))
        .collect();
    let asked = serde_json::json!({
        "program": text(command.get_program()),
        "args": command.get_args().map(text).collect::<Vec<_>>(),
        "env": env,
        "dir": dir.to_string_lossy(),
    });
    writeln!(launched.0, "{asked}").expect("to the launcher");
    let mut line = String::new();
    launched.1.read_line(&mut line).expect("from the launcher");
    let run: serde_json::Value = serde_json::from_str(&line).expect("the launcher's answer");
    Run {
        code: run["code"].as_i64().expect("code") as i32,
        peak_kb: run["peak_kb"].as_i64().expect("peak"),
        wall_s: run["wall_s"].as_f64().expect("wall"),
        cpu_s: run["cpu_s"].as_f64().expect("cpu"),
        stdout: run["stdout"].as_str().expect("stdout").to_owned(),
    }
}

/// Run `command` from this process, measured by `wait4`.
#[expect(
    unsafe_code,
    reason = "wait4(2) is foreign code: it writes the child's status and usage into the two locals given"
)]
fn measure(mut command: Command, dir: &Path) -> Run {
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let started = Instant::now();
    #[expect(
        clippy::zombie_processes,
        reason = "reaped by wait4 below, which also gives its resource use"
    )]
    let child = command
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout"))
        .stderr(std::fs::File::create(&err_path).expect("stderr"))
        .spawn()
        .expect("the measured child runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with pointers to live locals.
    let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(waited, pid, "wait4");
    let wall_s = started.elapsed().as_secs_f64();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    // Exit 1 is a finding (two sides differ), said by the bench itself.
    if code != 0 && code != 1 {
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        let head: String = stdout.chars().take(400).collect();
        eprintln!("exit {code}: {head}\n{}", tail.join("\n"));
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Run {
        code,
        peak_kb: usage.ru_maxrss,
        wall_s,
        cpu_s: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        stdout,
    }
}

/// Likes per post.
pub(crate) const LIKES: usize = 100;

/// The like numbered `i`: post `i / LIKES`, user `i % LIKES`.
pub(crate) fn like(i: usize) -> HashMap<String, AttributeValue> {
    let (post, user) = (i / LIKES, i % LIKES);
    let s = |t: String| AttributeValue::S(t);
    HashMap::from([
        ("PK".to_owned(), s(format!("POST#{post:06}"))),
        ("SK".to_owned(), s(format!("LIKE#USER#{user:06}"))),
        ("userId".to_owned(), s(format!("USER#{user:06}"))),
        (
            "likedAt".to_owned(),
            AttributeValue::N(format!("17{post:06}{user:04}")),
        ),
        ("device".to_owned(), s("ios-17.4.1/app-5.12.0".to_owned())),
    ])
}

/// Put the likes numbered `items` into `table`, 16 batches of 25 at a time.
pub(crate) async fn fill_likes(client: &Client, table: &str, items: std::ops::Range<usize>) {
    let batches: Vec<Vec<usize>> = items
        .collect::<Vec<_>>()
        .chunks(25)
        .map(<[usize]>::to_vec)
        .collect();
    for wave in batches.chunks(16) {
        let mut tasks = tokio::task::JoinSet::new();
        for batch in wave {
            let requests: Vec<WriteRequest> = batch
                .iter()
                .map(|&i| {
                    let put = PutRequest::builder().set_item(Some(like(i))).build();
                    WriteRequest::builder().put_request(put.unwrap()).build()
                })
                .collect();
            let (client, table) = (client.clone(), table.to_owned());
            tasks.spawn(async move {
                let out = client
                    .batch_write_item()
                    .request_items(table, requests)
                    .send()
                    .await
                    .expect("batch write");
                assert!(
                    out.unprocessed_items()
                        .is_none_or(std::collections::HashMap::is_empty)
                );
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.expect("batch");
        }
    }
}

/// Every item of `table` as sorted text, to compare two tables item by item.
pub(crate) async fn every_item(client: &Client, table: &str) -> Vec<String> {
    let mut all = Vec::new();
    let mut start = None;
    loop {
        let out = client
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start.take())
            .send()
            .await
            .expect("scan");
        for item in out.items() {
            let mut pairs: Vec<String> = item.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
            pairs.sort();
            all.push(pairs.join(","));
        }
        match out.last_evaluated_key {
            Some(key) => start = Some(key),
            None => break,
        }
    }
    all.sort();
    all
}
