//! One sandbox file, one process: the engine opens it in SQLite's WAL mode with a SQLite that
//! can corrupt a WAL database written by two at once, so while one dynoscope serves a file a
//! second one is refused in words naming the holder and the way to share it (connect to the
//! one that serves it); once the first has ended, the file opens again, its data kept.

use std::io::BufRead as _;
use std::process::{Command, Stdio};

use crate::common::files::{interrupt, scratch};

/// `dynoscope --sandbox-db FILE ARGS`, with no AWS configuration.
fn on_file(file: &std::path::Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dynoscope"));
    command
        .arg("--sandbox-db")
        .arg(file)
        .args(args)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("DYNOSCOPE_OUTPUT");
    command
}

#[cfg(unix)]
#[test]
fn a_second_process_on_a_sandbox_file_in_use_is_refused_naming_the_holder() {
    let dir = scratch("sandbox-file-one-writer");
    let file = dir.join("sandbox.db");
    let mut server = on_file(&file, &["sandbox", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Its first line is the endpoint, printed once the file is open and seeded.
    let mut endpoint = String::new();
    std::io::BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut endpoint)
        .unwrap();
    assert!(endpoint.starts_with("http://127.0.0.1:"), "{endpoint}");

    let second = on_file(&file, &["tables"]).output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("is in use by dynoscope (process {}", server.id())),
        "{err}"
    );
    assert!(err.contains("--endpoint-url"), "the way to share it: {err}");
    let lock = std::fs::read_to_string(dir.join("sandbox.db.lock")).unwrap();
    assert!(lock.contains(&format!("process {}", server.id())), "{lock}");

    // Shared through the one that holds it: its endpoint answers.
    let through = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["--endpoint-url", endpoint.trim(), "tables"])
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    assert!(
        through.status.success(),
        "{}",
        String::from_utf8_lossy(&through.stderr)
    );
    assert!(String::from_utf8_lossy(&through.stdout).contains("Social"));

    interrupt(i32::try_from(server.id()).unwrap());
    assert!(server.wait().unwrap().success());
    let again = on_file(&file, &["tables"]).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("Social"),
        "the data kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
