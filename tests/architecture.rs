//! The shape of the code, checked: the core never draws; no source, test or bench file is over
//! 400 lines; the README names every test file; no
//! enum outside the core and the CLI grows past 10 variants; no two files import each other,
//! directly or round about.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
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

/// The paths a `use crate::…;` statement names, braces expanded: `a::{b, c::d}` → `a::b`,
/// `a::c::d`.
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.trim().to_owned()];
    };
    let head = &path[..open];
    let inner = &path[open + 1..path.rfind('}').unwrap_or(path.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(&format!("{head}{}", p.trim())))
        .collect()
}

/// What module files re-export: (module file, name) → the file that defines it; a glob
/// re-export is kept under the name `*`.
type Reexports = BTreeMap<(PathBuf, String), Vec<PathBuf>>;

fn segments(path: &str) -> Vec<String> {
    path.trim_start_matches("crate::")
        .split("::")
        .map(|s| s.split(" as ").next().unwrap_or_default().trim().to_owned())
        .collect()
}

/// The file a module path (`core::counter`) is: `core/counter.rs` or `core/counter/mod.rs`.
fn module_file(segments: &[String], files: &BTreeSet<PathBuf>) -> Option<PathBuf> {
    let stem: PathBuf = segments.iter().collect();
    [stem.with_extension("rs"), stem.join("mod.rs")]
        .into_iter()
        .find(|f| files.contains(f))
}

/// Whether `text` defines `name` at its top level.
fn defines(text: &str, name: &str) -> bool {
    [
        "fn", "struct", "enum", "const", "type", "trait", "async fn", "static",
    ]
    .iter()
    .any(|kind| {
        text.contains(&format!("pub {kind} {name}"))
            || text.contains(&format!("pub(crate) {kind} {name}"))
    })
}

/// The source file a `crate::…` path lands in: the longest prefix that is a file, followed
/// through the re-exports of module files to where the item is defined.
fn file_of(
    path: &str,
    files: &BTreeSet<PathBuf>,
    texts: &BTreeMap<PathBuf, String>,
    reexports: &Reexports,
) -> Option<PathBuf> {
    let segments = segments(path);
    let n = (1..=segments.len())
        .rev()
        .find(|n| module_file(&segments[..*n], files).is_some())?;
    let mut file = module_file(&segments[..n], files)?;
    if let Some(name) = segments.get(n) {
        for _ in 0..8 {
            let explicit = reexports.get(&(file.clone(), name.clone()));
            let globbed = reexports
                .get(&(file.clone(), "*".to_owned()))
                .and_then(|t| {
                    t.iter()
                        .find(|f| texts.get(*f).is_some_and(|x| defines(x, name)))
                });
            match explicit.and_then(|t| t.first()).or(globbed) {
                Some(next) if *next != file => file = next.clone(),
                _ => break,
            }
        }
    }
    Some(file)
}

/// The `pub use` statements of module files, resolved to files.
fn reexports(sources: &[(PathBuf, String)], files: &BTreeSet<PathBuf>) -> Reexports {
    let mut found = Reexports::new();
    for (file, text) in sources {
        let module: Vec<String> = if file.ends_with("mod.rs") {
            file.parent()
                .into_iter()
                .flat_map(|p| p.iter())
                .map(|s| s.to_string_lossy().into_owned())
                .collect()
        } else {
            continue;
        };
        for statement in statements(text, "pub use ") {
            for path in expand(&statement) {
                let absolute = if path.starts_with("crate::") {
                    path.clone()
                } else {
                    format!("crate::{}::{path}", module.join("::"))
                };
                let segs = segments(&absolute);
                let Some(name) = segs.last() else { continue };
                let defining = (1..segs.len())
                    .rev()
                    .find_map(|n| module_file(&segs[..n], files));
                if let Some(defining) = defining {
                    found
                        .entry((file.clone(), name.clone()))
                        .or_default()
                        .push(defining);
                }
            }
        }
    }
    found
}

/// The statements of `text` that begin with `start`, each on one line, without the `;`.
fn statements(text: &str, start: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut statement = String::new();
    for (_, code) in code_lines(text) {
        let code = code.trim();
        if statement.is_empty() && !code.starts_with(start) {
            continue;
        }
        statement.push_str(code);
        if code.ends_with(';') {
            found.push(statement[start.len()..].trim_end_matches(';').to_owned());
            statement.clear();
        }
    }
    found
}

#[test]
fn no_two_files_import_each_other() {
    let sources = sources();
    let files: BTreeSet<PathBuf> = sources.iter().map(|(f, _)| f.clone()).collect();
    let texts: BTreeMap<PathBuf, String> = sources.iter().cloned().collect();
    let reexports = reexports(&sources, &files);
    let mut imports: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, text) in &sources {
        // A module file and the files of its own submodules are one module, not two.
        let own = file.parent().filter(|_| file.ends_with("mod.rs"));
        let uses = statements(text, "use crate::")
            .into_iter()
            .chain(statements(text, "pub use crate::"))
            .map(|s| format!("crate::{s}"));
        for statement in uses {
            for path in expand(&statement) {
                let Some(target) = file_of(&path, &files, &texts, &reexports) else {
                    continue;
                };
                let inside = own.is_some_and(|dir| target.starts_with(dir));
                if target != *file && !inside {
                    imports.entry(file.clone()).or_default().insert(target);
                }
            }
        }
    }
    // A circle is an import that can be followed back to where it started.
    let reaches = |from: &PathBuf, to: &PathBuf| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(at) = stack.pop() {
            if at == *to {
                return true;
            }
            if seen.insert(at.clone()) {
                stack.extend(imports.get(&at).into_iter().flatten().cloned());
            }
        }
        false
    };
    let circles: Vec<String> = imports
        .iter()
        .flat_map(|(file, targets)| targets.iter().map(move |t| (file, t)))
        .filter(|(file, target)| reaches(target, file))
        .map(|(file, target)| format!("{} -> {}", file.display(), target.display()))
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
    assert!(
        imports.values().map(BTreeSet::len).sum::<usize>() > 100,
        "the imports were read"
    );
}

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
