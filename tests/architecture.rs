//! The core never draws: only `src/ui/` and `src/main.rs` may import egui or eframe.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_ui_and_main_use_egui_or_eframe() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "found the sources");
    let mut offenders = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        if relative.starts_with("ui") || relative == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for number in ui_lines(&text) {
            offenders.push(format!("{}:{number}", relative.display()));
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
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.split("//").next().unwrap_or_default();
            ["egui", "eframe"].iter().any(|w| code.contains(w))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn the_check_flags_imports_and_paths_but_not_comments() {
    let text = "//! Nothing here imports egui.\nuse egui::Ui;\nfn f() { eframe::run_native(); } // eframe\nlet x = 1; // egui\n";
    assert_eq!(ui_lines(text), [2, 3]);
}
