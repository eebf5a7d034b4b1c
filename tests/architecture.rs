//! The shape of the code, checked: the core never draws; no source, test or bench file is over
//! 400 lines; the README names every test file; no
//! enum outside the core and the CLI grows past 10 variants; no two files import each other,
//! directly or round about.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`, relative to it, with its text.
fn sources() -> Vec<(PathBuf, String)> {
    rust_files(&src())
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long: Vec<String> = ["src", "tests", "benches"]
        .into_iter()
        .flat_map(|dir| {
            rust_files(&root.join(dir))
                .into_iter()
                .map(move |(file, text)| (Path::new(dir).join(file), text))
        })
        // The reserved-word list is a list.
        .filter(|(file, _)| file != Path::new("src/core/expr/reserved.rs"))
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

#[path = "architecture/imports.rs"]
mod imports;

#[test]
fn the_readme_names_every_test_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let shown = if path.is_dir() {
            format!("{name}/")
        } else {
            name.clone()
        };
        if name == "common" || !(path.is_dir() || name.ends_with(".rs")) {
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
        "the README's test list lacks: {missing:?}"
    );
}
