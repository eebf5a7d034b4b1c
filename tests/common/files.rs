//! The CLI as a process on files: run and measured (the child's peak RSS), scratch folders,
//! likes as DynamoDB JSON lines, and the tables they go into.

use std::path::{Path, PathBuf};
use std::process::Command;

use dynoscope::core::read::{self, BrowseRequest};
use dynoscope::core::value::Item;

use crate::common::{Engine, create_table, table_name};

/// The CLI's arguments to reach `url`, then `args`.
pub fn cli(url: &str, args: &[&str]) -> Command {
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
pub async fn dynoscope(url: &str, args: &[&str]) -> (i32, String, String) {
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
pub async fn measured(url: &str, args: &[&str], dir: &Path) -> (i32, String, String, i64) {
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

pub fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("dynoscope-files-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Like `i` as a DynamoDB JSON line.
pub fn like(i: usize) -> String {
    format!(
        r#"{{"PK":{{"S":"POST#a91f"}},"SK":{{"S":"LIKE#USER#{i:06}"}},"likedAt":{{"N":"{}"}}}}"#,
        1_750_636_800 + i
    )
}

/// `n` likes, a line each.
pub fn likes(n: usize) -> String {
    (0..n).map(|i| like(i) + "\n").collect()
}

/// Every item of `table`.
pub async fn scan(engine: &Engine, table: &str) -> Vec<Item> {
    let info = read::describe_table(&engine.client, table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut all = Vec::new();
    read::read_all(&engine.client, &request, |page| all.extend(page.items))
        .await
        .unwrap();
    all
}

/// A new empty table's name.
pub async fn table(engine: &Engine, prefix: &str) -> String {
    let name = table_name(prefix);
    create_table(&engine.client, &name).await;
    name
}
