//! The shape of the code, checked: the core never draws, and the headless build links no GUI
//! crate; no source, test or bench file is over 400 lines; the book (docs/testing.md) names every test file; no
//! enum outside the core and the CLI grows past 10 variants; no two files import each other,
//! directly or round about, inside a crate or across crates.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The crates of the workspace: (folder of its sources, its name in code, the module it is
/// read as). The binary's `src/` is the root; each library is read as the module it was before
/// the workspace (`core`, `ui`, `cli`, `mcp`), so one import graph spans every crate.
const CRATES: [(&str, &str, &str); 5] = [
    ("src", "dynoscope", ""),
    ("crates/core/src", "dynoscope_core", "core"),
    ("crates/app/src", "dynoscope_app", "ui"),
    ("crates/cli/src", "dynoscope_cli", "cli"),
    ("crates/mcp/src", "dynoscope_mcp", "mcp"),
];

/// Every `.rs` file of every crate, as the module tree it would be in one crate: its path under
/// the module it is read as (`core/counter/mod.rs`, a crate's `lib.rs` as `core/mod.rs`), and
/// its text with `crate::` and the other crates' names written as paths from that one root.
fn sources() -> Vec<(PathBuf, String)> {
    let mut all = Vec::new();
    for (dir, _, module) in CRATES {
        for (file, text) in rust_files(&root().join(dir)) {
            let file = if file == Path::new("lib.rs") {
                PathBuf::from("mod.rs")
            } else {
                file
            };
            let own = if module.is_empty() {
                "crate::".to_owned()
            } else {
                format!("crate::{module}::")
            };
            let mut text = text.replace("crate::", &own);
            for (_, name, other) in CRATES.iter().skip(1) {
                text = text.replace(&format!("{name}::"), &format!("crate::{other}::"));
            }
            all.push((Path::new(module).join(file), text));
        }
    }
    all
}

/// Every `.rs` file under `root`, relative to it, with its text.
fn rust_files(root: &Path) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, &mut files);
    assert!(
        !files.is_empty(),
        "found the files under {}",
        root.display()
    );
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f.strip_prefix(root).unwrap().to_path_buf(), text)
        })
        .collect()
}

/// The code of `text`, line by line, without `//` comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or_default()))
}

#[test]
fn only_the_ui_and_main_use_egui_or_eframe() {
    let mut offenders = Vec::new();
    for (file, text) in sources() {
        if file.starts_with("ui") || file == Path::new("main.rs") {
            continue;
        }
        for number in ui_lines(&text) {
            offenders.push(format!("{}:{number}", file.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "core code uses egui/eframe:\n{}",
        offenders.join("\n")
    );
}

/// Line numbers (1-based) whose code, outside comments, names egui or eframe.
fn ui_lines(text: &str) -> Vec<usize> {
    code_lines(text)
        .filter(|(_, code)| ["egui", "eframe"].iter().any(|w| code.contains(w)))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn the_check_flags_imports_and_paths_but_not_comments() {
    let text = "//! Nothing here imports egui.\nuse egui::Ui;\nfn f() { eframe::run_native(); } // eframe\nlet x = 1; // egui\n";
    assert_eq!(ui_lines(text), [2, 3]);
}

#[test]
fn no_source_test_or_bench_file_is_over_400_lines() {
    let root = root();
    let long: Vec<String> = ["src", "crates", "tests", "benches"]
        .into_iter()
        .flat_map(|dir| {
            rust_files(&root.join(dir))
                .into_iter()
                .map(move |(file, text)| (Path::new(dir).join(file), text))
        })
        // The reserved-word list is a list.
        .filter(|(file, _)| file != Path::new("crates/core/src/expr/reserved.rs"))
        .filter(|(_, text)| text.lines().count() > 400)
        .map(|(file, text)| format!("{}: {} lines", file.display(), text.lines().count()))
        .collect();
    assert!(long.is_empty(), "split these:\n{}", long.join("\n"));
}

/// `(name, variants)` of every `enum` in `text`.
fn enums(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut current: Option<(String, usize, usize)> = None;
    for (_, code) in code_lines(text) {
        let indent = code.len() - code.trim_start().len();
        let trimmed = code.trim();
        if let Some((name, depth, count)) = &mut current {
            if trimmed.starts_with('}') && indent == *depth {
                found.push((name.clone(), *count));
                current = None;
            } else if indent == *depth + 4 && trimmed.starts_with(|c: char| c.is_ascii_uppercase())
            {
                *count += 1;
            }
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        if let Some(at) = words.iter().position(|w| *w == "enum")
            && trimmed.ends_with('{')
            && let Some(name) = words.get(at + 1)
        {
            let name = name
                .trim_end_matches('{')
                .split('<')
                .next()
                .unwrap_or_default();
            current = Some((name.to_owned(), indent, 0));
        }
    }
    found
}

#[test]
fn no_enum_outside_the_core_and_the_cli_has_more_than_10_variants() {
    let sample = "pub enum A {\n    One,\n    Two {\n        x: u8,\n    },\n    /// Three.\n    Three(u8),\n}\n";
    assert_eq!(enums(sample), [("A".to_owned(), 3)]);
    let mut big = Vec::new();
    for (file, text) in sources() {
        if file.starts_with("core") || file.starts_with("cli") {
            continue;
        }
        for (name, variants) in enums(&text) {
            if variants > 10 {
                big.push(format!(
                    "{}: {name} has {variants} variants",
                    file.display()
                ));
            }
        }
    }
    assert!(big.is_empty(), "{}", big.join("\n"));
}

mod casing;
mod front_ends;
mod imports;
mod schemas;
mod tuples;

/// The dependencies of the headless build, by name, as `cargo tree` resolves them.
fn headless_dependencies() -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO"))
        .current_dir(root())
        .args([
            "tree",
            "--offline",
            "-p",
            "dynoscope",
            "--no-default-features",
        ])
        .args(["--features", "sandbox", "-e", "normal", "--prefix", "none"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn the_headless_build_links_no_gui_crate() {
    let names = headless_dependencies();
    assert!(names.iter().any(|n| n == "dynoscope-cli"), "{names:?}");
    assert!(names.iter().any(|n| n == "dynoxide-rs"), "{names:?}");
    let gui: Vec<&String> = names
        .iter()
        .filter(|n| {
            [
                "egui",
                "eframe",
                "winit",
                "glow",
                "glutin",
                "rfd",
                "dynoscope-app",
            ]
            .iter()
            .any(|g| n.starts_with(g))
        })
        .collect();
    assert!(gui.is_empty(), "the headless build links {gui:?}");
}

#[test]
fn the_book_names_every_test_file() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("docs/testing.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let shown = if path.is_dir() {
            format!("{name}/")
        } else {
            name.clone()
        };
        if name == "common" || !(path.is_dir() || path.extension().is_some_and(|e| e == "rs")) {
            continue;
        }
        if !readme.contains(&format!("`{shown}`")) && !readme.contains(&format!("`tests/{shown}`"))
        {
            missing.push(shown);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "the test list in docs/testing.md lacks: {missing:?}"
    );
}

/// The suite runs under cargo-nextest, which does not run doctests: the crates have none, so
/// none is silently skipped (an example in a doc comment is a unit test beside it instead).
#[test]
fn no_doc_comment_holds_a_doctest() {
    let mut found = Vec::new();
    for krate in ["core", "app", "cli", "mcp"] {
        for (file, text) in rust_files(&root().join("crates").join(krate).join("src")) {
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if (code.starts_with("///") || code.starts_with("//!")) && code.contains("```") {
                    found.push(format!("{krate}/{}:{}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "doctests nextest would skip: {found:?}");
}
