//! The CLI as a process on files: run and measured (the child's peak RSS), scratch folders,
//! likes as DynamoDB JSON lines, and the tables they go into.

use std::path::{Path, PathBuf};
use std::process::Command;

use dynoscope_core::read::{self, BrowseRequest};
use dynoscope_core::value::Item;

use crate::common::{Engine, create_table, table_name};

/// The CLI's arguments to reach `url`, then `args`.
pub(crate) fn cli(url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .arg("--endpoint-url")
        .arg(url)
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env_remove("DYNOSCOPE_OUTPUT");
    command
}

/// Run the CLI against `url`; (exit status, stdout, stderr).
pub(crate) async fn dynoscope(url: &str, args: &[&str]) -> (i32, String, String) {
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
///
/// The child is started by a small Python process, not by this one: Linux counts the memory of
/// the process that starts a child in the child's peak (its `ru_maxrss` keeps the high-water
/// mark of the address space it had before `exec`), and this test process, running every test
/// at once, holds hundreds of MB. Python's own ~10 MB is counted instead, so the figure is an
/// upper bound.
pub(crate) async fn measured(url: &str, args: &[&str], dir: &Path) -> (i32, String, String, i64) {
    let inner = cli(url, args);
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut command = Command::new("python3");
    command
        .arg("-c")
        .arg(PEAK_OF_CHILD)
        .arg(&out_path)
        .arg(&err_path)
        .arg(inner.get_program())
        .args(inner.get_args())
        .envs(inner.get_envs().filter_map(|(k, v)| Some((k, v?))));
    let out = tokio::task::spawn_blocking(move || command.output().expect("python3 runs"))
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = said.lines().map(|l| l.trim().parse::<i64>());
    let (Some(Ok(code)), Some(Ok(peak_kb))) = (lines.next(), lines.next()) else {
        panic!(
            "the measuring Python said {said:?}, {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    (
        i32::try_from(code).unwrap(),
        std::fs::read_to_string(out_path).unwrap(),
        std::fs::read_to_string(err_path).unwrap(),
        peak_kb,
    )
}

/// Runs argv[3:] with stdout and stderr to the files argv[1] and argv[2], then prints its exit
/// status and the peak RSS of its children in kB.
const PEAK_OF_CHILD: &str = "import resource, subprocess, sys
with open(sys.argv[1], 'wb') as out, open(sys.argv[2], 'wb') as err:
    code = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode
print(code)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
";

/// Ctrl-C to a child: SIGINT to `pid`.
#[expect(
    unsafe_code,
    reason = "kill(2) is foreign code; with a valid pid and signal it touches no memory of this process"
)]
pub(crate) fn interrupt(pid: i32) {
    // SAFETY: see above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0, "SIGINT sent");
}

/// A FIFO at `path` (a file that would block a reader).
#[expect(
    unsafe_code,
    reason = "mkfifo(3) is foreign code; it reads only the NUL-terminated path it is given"
)]
pub(crate) fn mkfifo(path: &Path) {
    let fifo = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: see above.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("dynoscope-files-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Like `i` as a DynamoDB JSON line.
pub(crate) fn like(i: usize) -> String {
    format!(
        r#"{{"PK":{{"S":"POST#a91f"}},"SK":{{"S":"LIKE#USER#{i:06}"}},"likedAt":{{"N":"{}"}}}}"#,
        1_750_636_800 + i
    )
}

/// `n` likes, a line each.
pub(crate) fn likes(n: usize) -> String {
    (0..n).map(|i| like(i) + "\n").collect()
}

/// Every item of `table`.
pub(crate) async fn scan(engine: &Engine, table: &str) -> Vec<Item> {
    let info = read::describe_table(&engine.reader(), table).await.unwrap();
    let request = BrowseRequest::scan(&info, None).unwrap();
    let mut all = Vec::new();
    read::read_all(&engine.reader(), &request, |page| all.extend(page.items))
        .await
        .unwrap();
    all
}

/// A new empty table's name.
pub(crate) async fn table(engine: &Engine, prefix: &str) -> String {
    let name = table_name(prefix);
    create_table(&engine.client, &name).await;
    name
}
