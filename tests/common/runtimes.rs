//! The runtimes generated programs run under: Python with boto3, Node.js with the AWS SDK for
//! JavaScript v3, TypeScript through tsc, Go with Debian's AWS SDK for Go v2 in GOPATH mode,
//! and Rust with the AWS SDK for Rust, each with an empty environment and home, so a program
//! connects only as its own text says.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;

/// The runtimes: where a program is written and how it runs.
pub(crate) struct Runtime {
    pub target: &'static str,
    pub dir: PathBuf,
    pub file: &'static str,
    pub command: &'static [&'static str],
    pub env: &'static [(&'static str, &'static str)],
}

/// Go in GOPATH mode, offline, with Debian's SDK (`golang-github-aws-aws-sdk-go-v2-dev`).
const GO_ENV: &[(&str, &str)] = &[
    ("GO111MODULE", "off"),
    ("GOPATH", "/usr/share/gocode"),
    ("GOFLAGS", ""),
    ("GOPROXY", "off"),
    ("GOTOOLCHAIN", "local"),
];

/// A Go runtime, checked: `go` and the SDK's source are there.
pub(crate) fn go_runtime() -> Runtime {
    let sdk = Path::new("/usr/share/gocode/src/github.com/aws/aws-sdk-go-v2/service/dynamodb");
    assert!(
        Command::new("go")
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
            && sdk.is_dir(),
        "go and Debian's AWS SDK for Go v2 are needed (scripts/test.sh names the packages)"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-go");
    std::fs::create_dir_all(&dir).unwrap();
    Runtime {
        target: "go",
        dir,
        file: "main.go",
        // Built, then run: `go run` says every failure as exit 1.
        command: &[
            "sh",
            "-c",
            "go build -o \"$0.bin\" \"$0\" && exec \"$0.bin\"",
        ],
        env: GO_ENV,
    }
}

/// TypeScript: checked by `tsc --strict` and compiled next to itself, then run by Node.js.
pub(crate) fn ts_runtime() -> Runtime {
    let dir = common::npm::installed(
        "expr-ts",
        &[
            "@aws-sdk/client-dynamodb@3",
            "typescript@5",
            "@types/node@22",
        ],
    );
    Runtime {
        target: "ts",
        dir,
        file: "counter_write.mts",
        command: &["sh", "-c", TSC],
        env: &[],
    }
}

/// `tsc` as the programs' own run line has it, then Node.js on what it wrote.
const TSC: &str = "./node_modules/.bin/tsc --strict --target es2022 --module nodenext \
                   --skipLibCheck \"$0\" && exec node \"${0%.mts}.mjs\"";

/// Rust: a Cargo package of the SDK's crates (`aws-config`, `aws-sdk-dynamodb`,
/// `aws-smithy-types`, `serde_json`, `tokio`), each program one of its binaries, built with
/// warnings denied, then run.
pub(crate) fn rust_runtime() -> Runtime {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-rust");
    // Tests side by side on a fresh machine make the package once: its lock file is there
    // before its manifest, so no build resolves versions of its own first.
    let _one_at_a_time = super::one_at_a_time("programs-rust");
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    let manifest = dir.join("Cargo.toml");
    if !manifest.exists() {
        // The versions this project builds with, where the programs use the same crates.
        let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
        std::fs::copy(lock, dir.join("Cargo.lock")).unwrap();
        std::fs::write(&manifest, RUST_MANIFEST).unwrap();
    }
    Runtime {
        target: "rust",
        dir,
        file: "main.rs",
        command: &["sh", "-c", CARGO_RUN],
        env: &[("RUSTFLAGS", "-D warnings")],
    }
}

const RUST_MANIFEST: &str = r#"[package]
name = "programs"
version = "0.1.0"
edition = "2024"
publish = false

# Not a member of the project's workspace, above it.
[workspace]

[dependencies]
aws-config = { version = "1", features = ["behavior-version-latest"] }
aws-sdk-dynamodb = "1"
aws-smithy-types = "1"
serde_json = "1"
tokio = { version = "1", features = ["full"] }

# Each program is a binary of its own: without debug information the package stays a few
# hundred megabytes, not gigabytes.
[profile.dev]
debug = false
"#;

/// The program as one binary of the package (copied only when it changed), built, then run.
const CARGO_RUN: &str = r#"n=$(basename "$0" -main.rs)
cmp -s "$0" "src/bin/$n.rs" || cp "$0" "src/bin/$n.rs"
cargo build -q --bin "$n" && exec "target/debug/$n""#;

pub(crate) fn runtimes() -> [Runtime; 5] {
    let python = Command::new("python3")
        .args(["-c", "import boto3"])
        .output();
    assert!(
        python.is_ok_and(|out| out.status.success()),
        "python3 and boto3 are needed (scripts/test.sh installs moto, which brings boto3)"
    );
    // The folder's one list of packages (as every test that asks for it): a test asking for
    // fewer would install while another runs node from it.
    let node = common::npm::installed(
        "expr-node",
        &["@aws-sdk/client-dynamodb@3", "@aws-sdk/lib-dynamodb@3"],
    );
    let python_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-python");
    std::fs::create_dir_all(&python_dir).unwrap();
    [
        Runtime {
            target: "boto3",
            dir: python_dir,
            file: "counter_write.py",
            command: &["python3"],
            env: &[],
        },
        Runtime {
            target: "js",
            dir: node,
            file: "counter_write.mjs",
            command: &["node"],
            env: &[],
        },
        ts_runtime(),
        go_runtime(),
        rust_runtime(),
    ]
}

impl Runtime {
    /// Run `code`, saved under a name starting `name`, with an empty environment and home
    /// (only `PATH`, and `extra`).
    pub(crate) fn run(&self, name: &str, code: &str, extra: &[(&str, &str)]) -> Output {
        self.command(name, code, extra).output().unwrap()
    }

    /// Run `code` as [`run`](Self::run) does, its standard output a pipe nobody reads: closed
    /// before the program writes anything (`| head -0`).
    pub(crate) fn run_unread(&self, name: &str, code: &str) -> Output {
        let mut command = self.command(name, code, &[]);
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap();
        drop(child.stdout.take());
        child.wait_with_output().unwrap()
    }

    /// The command that runs `code`, saved under a name starting `name`.
    fn command(&self, name: &str, code: &str, extra: &[(&str, &str)]) -> Command {
        // How many scripts this process has written: part of a writer's own name below.
        static WRITING: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        // Named by its code too: two tests (two processes under nextest) that save different
        // code under one name never run each other's, and the same code is written once, whole
        // (beside, then renamed in), so a Rust program's binary is built once.
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(code, &mut hasher);
        let hash = std::hash::Hasher::finish(&hasher);
        let script = self.dir.join(format!("{name}-{hash:016x}-{}", self.file));
        // Beside it under a name no other writer has (another process, or another thread here).
        let n = WRITING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let partial = (self.dir).join(format!(".{name}-{}-{n}-{}", std::process::id(), self.file));
        std::fs::write(&partial, code).unwrap();
        std::fs::rename(&partial, &script).unwrap();
        if self.target == "go" {
            // As gofmt writes it: nothing to reformat.
            let gofmt = Command::new("gofmt")
                .arg("-l")
                .arg(&script)
                .output()
                .unwrap();
            assert!(
                gofmt.status.success() && gofmt.stdout.is_empty(),
                "gofmt: {code}"
            );
        }
        let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-empty-home");
        std::fs::create_dir_all(&home).unwrap();
        let mut command = Command::new(self.command[0]);
        command
            .args(&self.command[1..])
            .arg(&script)
            .current_dir(&self.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home);
        for (name, value) in self.env.iter().chain(extra) {
            command.env(name, value);
        }
        if self.target == "rust" {
            // Cargo's registry and the toolchain are the tests' own (the home is empty).
            let home = std::env::var("HOME").unwrap_or_default();
            let cargo = std::env::var("CARGO_HOME").unwrap_or(format!("{home}/.cargo"));
            let rustup = std::env::var("RUSTUP_HOME").unwrap_or(format!("{home}/.rustup"));
            command.env("CARGO_HOME", cargo).env("RUSTUP_HOME", rustup);
            if let Ok(toolchain) = std::env::var("RUSTUP_TOOLCHAIN") {
                command.env("RUSTUP_TOOLCHAIN", toolchain);
            }
        }
        command
    }
}

/// Bash with the AWS CLI: the scripts `--as cli --program` and `like --program cli` print.
pub(crate) fn bash_runtime() -> Runtime {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs-cli");
    std::fs::create_dir_all(&dir).unwrap();
    Runtime {
        target: "cli",
        dir,
        file: "program.sh",
        command: &["bash"],
        env: &[],
    }
}

/// `like --program target` on `POST#a91f` for `user` at `url`, with `token` when given.
pub(crate) fn printed_like(target: &str, user: &str, url: &str, token: Option<&str>) -> String {
    let mut args = vec![
        "--endpoint-url",
        url,
        "like",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--user",
        user,
        "--program",
        target,
    ];
    if let Some(token) = token {
        args.extend(["--token", token]);
    }
    common::served::succeeded(&args).0
}

/// `POST#a91f`'s stored likeTally.
pub(crate) fn like_tally(served: &common::served::Served) -> i64 {
    let item = served.item("Social", "POST#a91f", "META");
    let json: serde_json::Value = serde_json::from_str(item.trim()).unwrap();
    json["likeTally"].as_i64().unwrap()
}

/// Bytes as text, lossily.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// dynamodb-toolbox v2 over the DocumentClient, under Node.js.
pub(crate) fn toolbox_runtime() -> Runtime {
    let dir = common::npm::installed(
        "expr-toolbox",
        &[
            "@aws-sdk/client-dynamodb@3",
            "@aws-sdk/lib-dynamodb@3",
            "dynamodb-toolbox@2",
        ],
    );
    Runtime {
        target: "toolbox",
        dir,
        file: "program.mjs",
        command: &["node"],
        env: &[],
    }
}

/// ElectroDB 3 over the DocumentClient, under Node.js.
pub(crate) fn electrodb_runtime() -> Runtime {
    let dir = common::npm::installed(
        "expr-electrodb",
        &[
            "@aws-sdk/client-dynamodb@3",
            "@aws-sdk/lib-dynamodb@3",
            "electrodb@3",
        ],
    );
    Runtime {
        target: "electrodb",
        dir,
        file: "program.mjs",
        command: &["node"],
        env: &[],
    }
}

/// The JavaScript SDK v3's DocumentClient (`@aws-sdk/lib-dynamodb`), under Node.js.
pub(crate) fn document_runtime() -> Runtime {
    let dir = common::npm::installed(
        "expr-node",
        &["@aws-sdk/client-dynamodb@3", "@aws-sdk/lib-dynamodb@3"],
    );
    Runtime {
        target: "js-doc",
        dir,
        file: "program_doc.mjs",
        command: &["node"],
        env: &[],
    }
}
