//! The seeded sandbox served over HTTP for CLI processes, and running the CLI as a process.

use std::process::{Command, Output};

use dynoscope_core::sandbox::Sandbox;

use crate::common::{self, Fault};

pub(crate) fn dynoscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        // For endpoints that are not on this machine (no dummy credentials there).
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env_remove("AWS_PROFILE")
        .env_remove("DYNOSCOPE_OUTPUT")
        .output()
        .expect("runs")
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A sandbox served over HTTP for the CLI processes of one test, with the runtime that keeps
/// its proxies running.
pub(crate) struct Served {
    pub runtime: tokio::runtime::Runtime,
    pub sandbox: Sandbox,
}

impl Served {
    pub(crate) fn new() -> Self {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let sandbox = runtime.block_on(Sandbox::start(None, 0)).unwrap();
        Self { runtime, sandbox }
    }

    pub(crate) fn url(&self) -> &str {
        self.sandbox.endpoint()
    }

    /// The same server under an address that is not recognised as this machine's: writes to
    /// it need `--yes`, as for AWS.
    pub(crate) fn remote_url(&self) -> String {
        format!("http://0.0.0.0:{}", self.sandbox.addr().port())
    }

    pub(crate) fn fault(
        &self,
        writes: &'static [&'static str],
        fault: Fault,
    ) -> common::FaultProxy {
        self.runtime
            .block_on(common::fault_proxy(self.sandbox.addr(), writes, fault))
    }

    pub(crate) fn item(&self, table: &str, pk: &str, sk: &str) -> String {
        text(
            &dynoscope(&[
                "--endpoint-url",
                self.url(),
                "items",
                "--table",
                table,
                "--pk",
                pk,
                "--sk-eq",
                sk,
            ])
            .stdout,
        )
    }
}

/// Run the CLI with `args`, which must succeed; (stdout, stderr).
pub(crate) fn succeeded(args: &[&str]) -> (String, String) {
    let out = dynoscope(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    (stdout, stderr)
}

/// The CLI as a command to spawn, with no credentials or profile from the environment.
pub(crate) fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .env_remove("DYNOSCOPE_OUTPUT");
    command
}

/// The seeded `VID#9f3a` counter's play_count, as stored.
pub(crate) fn play_count(served: &Served) -> String {
    let item = served.item("Videos", "VID#9f3a", "STATS#TOTAL");
    let json: serde_json::Value = serde_json::from_str(item.trim()).expect("one item");
    json["play_count"].to_string()
}

/// `child`'s output once it ends, or a failed test when it has not ended by the deadline.
pub(crate) fn ended_within(
    mut child: std::process::Child,
    deadline: std::time::Duration,
) -> std::process::Output {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {deadline:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}
