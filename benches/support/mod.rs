//! What the benches share: an empty table keyed `PK` and `SK` (both strings), on demand, and
//! the release CLI run as a child process, measured.

#[path = "../../tests/common/sdk.rs"]
mod sdk;

pub use sdk::sdk_client;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
};

/// Create `name`, keyed `PK` (partition) and `SK` (sort), both `S`, paid per request.
pub async fn create_table(client: &Client, name: &str) {
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

#[allow(dead_code)] // Not every bench runs the CLI.
/// What one run of the CLI took: exit status, peak RSS (kB), wall time (s), its stdout.
pub struct Run {
    pub code: i32,
    pub peak_kb: i64,
    pub wall_s: f64,
    pub stdout: String,
}

/// Run the release CLI with `args` against `url`, measured.
#[allow(dead_code)]
// Not every bench runs the CLI.
// wait4(2) is foreign code: it writes the child's status and usage into the two locals given.
#[allow(unsafe_code)]
pub fn run(url: &str, args: &[&str], dir: &Path) -> Run {
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let started = Instant::now();
    // Reaped by wait4 below, which also gives its resource use.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .arg("--endpoint-url")
        .arg(url)
        .arg("--timeout")
        .arg("60")
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .stdout(std::fs::File::create(&out_path).expect("stdout"))
        .stderr(std::fs::File::create(&err_path).expect("stderr"))
        .spawn()
        .expect("the release CLI runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with pointers to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    let wall_s = started.elapsed().as_secs_f64();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    if code != 0 {
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        println!("exit {code}: {stdout}\n{}", tail.join("\n"));
    }
    Run {
        code,
        peak_kb: usage.ru_maxrss,
        wall_s,
        stdout,
    }
}
