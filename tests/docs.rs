//! What the binary says of itself, checked by the tools that read it: the bash completion run
//! in a real bash completes a subcommand and a flag, the man pages render with `man -l`, every
//! page is written by `man --out` (and none replaced without --force), `--version` names the
//! commit, and `paths` follows the environment that decides each place.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::run_ok;

fn dynoscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What bash's completion offers for the words `line` (the last one being completed).
fn completed(script: &Path, line: &[&str]) -> Vec<String> {
    let words = line
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let cword = line.len() - 1;
    let program = format!(
        "source '{}'\nCOMP_WORDS=({words})\nCOMP_CWORD={cword}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n_dynoscope dynoscope '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        line.join(" "),
        line[cword],
        line[cword - 1],
    );
    run_ok(Command::new("bash").arg("--norc").arg("-c").arg(program))
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_bash_completion_completes_a_subcommand_and_a_flag() {
    let dir = scratch("bash");
    let out = dynoscope(&["completions", "bash"]);
    assert!(out.status.success());
    let script = dir.join("dynoscope.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let offered = completed(&script, &["dynoscope", "tab"]);
    assert!(offered.contains(&"tables".to_owned()), "{offered:?}");
    assert!(offered.contains(&"table".to_owned()), "{offered:?}");
    assert!(
        !offered.contains(&"check".to_owned()),
        "only what begins so: {offered:?}"
    );
    let offered = completed(&script, &["dynoscope", "check", "--ta"]);
    assert!(offered.contains(&"--table".to_owned()), "{offered:?}");
    assert!(offered.contains(&"--tally".to_owned()), "{offered:?}");
    let offered = completed(&script, &["dynoscope", "table", "exp"]);
    assert!(offered.contains(&"export".to_owned()), "{offered:?}");
    assert!(offered.contains(&"exports".to_owned()), "{offered:?}");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = dynoscope(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("--tally"),
            "{shell}"
        );
    }
    let out = dynoscope(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `file` rendered by man, as a user reads it.
fn rendered(file: &Path) -> String {
    run_ok(
        Command::new("man")
            .arg("-l")
            .arg(file)
            .env("MANWIDTH", "100")
            .env("MAN_KEEP_FORMATTING", "0")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat"),
    )
}

#[test]
fn the_man_pages_render_with_man() {
    let dir = scratch("man");
    let out = dynoscope(&["man", "table", "export"]);
    assert!(out.status.success());
    let page = dir.join("one.1");
    std::fs::write(&page, &out.stdout).unwrap();
    let text = rendered(&page);
    assert!(text.contains("dynoscope-table-export"), "{text}");
    assert!(text.contains("--enable-pitr"), "{text}");

    let pages = dir.join("pages");
    let out = dynoscope(&["man", "--out", pages.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for name in [
        "dynoscope.1",
        "dynoscope-check.1",
        "dynoscope-table-export.1",
        "dynoscope-man.1",
    ] {
        assert!(names.contains(&name.to_owned()), "{name}: {names:?}");
    }
    let top = rendered(&pages.join("dynoscope.1"));
    assert!(top.contains("completions"), "the subcommands listed: {top}");
    assert!(
        top.contains("verify counters") || top.contains("counters"),
        "{top}"
    );
    // Pages already there are not replaced without --force.
    let out = dynoscope(&["man", "--out", pages.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force replaces it"));
    let out = dynoscope(&["man", "--out", pages.to_str().unwrap(), "--force"]);
    assert!(out.status.success());
    let out = dynoscope(&["man", "table", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_version_names_the_commit_and_paths_follow_the_environment() {
    let out = dynoscope(&["--version"]);
    let version = String::from_utf8_lossy(&out.stdout).into_owned();
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .unwrap();
    let commit = String::from_utf8_lossy(&commit.stdout).trim().to_owned();
    assert!(
        version.starts_with(&format!("dynoscope {} (", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    assert!(version.contains(&commit), "{version} names {commit}");

    let dir = scratch("paths");
    std::fs::write(dir.join("config"), "[default]\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["paths", "--json"])
        .env("DYNOSCOPE_CONFIG_DIR", dir.join("cfg"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("AWS_CONFIG_FILE", dir.join("config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", dir.join("nothing"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let places = json["places"].as_array().unwrap();
    let at = |what: &str| {
        places
            .iter()
            .find(|p| p["what"].as_str().unwrap().starts_with(what))
            .unwrap()
            .clone()
    };
    let cfg = dir.join("cfg");
    assert_eq!(at("settings")["path"], cfg.display().to_string());
    assert_eq!(at("settings")["from"], "$DYNOSCOPE_CONFIG_DIR");
    assert_eq!(
        at("saved queries")["path"],
        cfg.join("queries").display().to_string()
    );
    assert_eq!(
        at("saved connections")["path"],
        cfg.join("connections.json").display().to_string()
    );
    let audit = dir.join("data/dynoscope/mcp-audit.jsonl");
    assert_eq!(at("the MCP audit log")["path"], audit.display().to_string());
    assert_eq!(at("AWS config")["exists"], true);
    assert_eq!(at("AWS config")["from"], "AWS_CONFIG_FILE");
    assert_eq!(at("AWS credentials")["exists"], false);
    assert_eq!(json["ending"], "done");
}
