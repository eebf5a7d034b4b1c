//! The app's marks on a connection — protected by a name, read-only — kept in
//! `connections.json` in the config folder, hold for the CLI and the MCP server: no flag lifts
//! them, and marks that cannot be read stop a write, never a read.

use std::path::Path;
use std::process::{Command, Output};

use dynoscope_core::connection::{ConnectionSpec, Marks, SavedConnection};

use super::{STATS_KEY, common};
use common::served::{Served, play_count, text};

/// The CLI with the config folder `config`.
fn run(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .env("DYNOSCOPE_CONFIG_DIR", config)
        .env("AWS_EC2_METADATA_DISABLED", "true")
        // For the endpoint that is not on this machine (no dummy credentials there).
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env_remove("AWS_PROFILE")
        .env_remove("DYNOSCOPE_OUTPUT")
        .output()
        .unwrap()
}

fn add(config: &Path, url: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--endpoint-url", url, "add", "--table", "Videos"];
    args.extend(["--attr", "play_count", "--delta", "1"]);
    args.extend(STATS_KEY);
    args.extend(extra);
    run(config, &args)
}

/// The endpoint `url` as the CLI names it.
fn place(url: &str) -> ConnectionSpec {
    ConnectionSpec::from_flags(false, None, None, None, Some(url.to_owned()))
}

#[test]
fn a_connection_the_app_marks_is_marked_for_the_command_line_and_the_mcp_server() {
    let served = Served::new();
    let config = common::files::scratch("marks");
    let file = config.join("connections.json");
    let url = served.url();

    // Protected as "prod" in the app: --yes is not enough, its name is.
    let mut marks = Marks::default();
    marks.saved.save(SavedConnection {
        name: "prod".into(),
        spec: place(url),
        colour: 3,
        read_only: false,
        protected: true,
    });
    marks.write(&file).unwrap();
    let out = add(&config, url, &["--yes"]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("prod is protected"), "{said}");
    assert!(said.contains("app's saved connections"), "{said}");
    assert_eq!(play_count(&served), "41", "nothing was sent");
    let out = add(&config, url, &["--confirm-name", "prod"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(play_count(&served), "42");
    let out = run(
        &config,
        &["--endpoint-url", url, "mcp", "--allow-writes", "--yes"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--confirm-name prod"));

    // Switched to read-only in the app: refused whatever is confirmed, the MCP server too.
    let mut marks = Marks::default();
    marks.read_only.insert(place(url).identity());
    marks.write(&file).unwrap();
    let out = add(&config, url, &["--yes"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("read-only"));
    assert_eq!(play_count(&served), "42", "nothing was sent");
    let out = run(&config, &["--endpoint-url", url, "mcp", "--allow-writes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("read-only connection"));
    // A clone takes each side's own mark: out of the read-only place, yes; into it, never.
    let copy = config.join("copy.db");
    let copy = copy.to_str().unwrap();
    let out = run(
        &config,
        &["--endpoint-url", url, "clone", "--table", "Videos"]
            .into_iter()
            .chain(["--to-sandbox-db", copy, "--to-table", "VideosCopy"])
            .collect::<Vec<_>>(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(
        &config,
        &["--sandbox-db", copy, "clone", "--table", "VideosCopy"]
            .into_iter()
            .chain(["--to-endpoint", url, "--to-table", "Back"])
            .collect::<Vec<_>>(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("read-only"),
        "{}",
        text(&out.stderr)
    );
    let tables = run(&config, &["--endpoint-url", url, "tables"]);
    assert!(!text(&tables.stdout).contains("Back"), "no table was made");
    // Another place is not marked.
    let out = add(&config, &served.remote_url(), &["--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(play_count(&served), "43");

    // Marks that cannot be read: a write stops, naming the file; a read goes on, saying so.
    std::fs::write(&file, "{\"saved\": [1]}").unwrap();
    let out = add(&config, url, &[]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("connections.json"), "{said}");
    assert_eq!(play_count(&served), "43");
    let out = run(&config, &["--endpoint-url", url, "tables"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("read on without them"));
    std::fs::remove_dir_all(&config).unwrap();
}
