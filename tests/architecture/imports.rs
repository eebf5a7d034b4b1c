//! No two source files import each other, through `use` lines or inline `crate::` paths,
//! followed through the re-exports of module files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::{code_lines, sources};

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
                Some(next) if *next != file => file.clone_from(next),
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

/// The `crate::…` paths written inline in code (`crate::core::number::parse(t)`): an import as
/// much as a `use` line is, so they are counted too. Paths inside `use` statements are found
/// again here, which changes nothing.
fn inline_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (_, code) in code_lines(text) {
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            let tail = &rest[at..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            // `$crate::` and `foo_crate::` are not this crate.
            if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
                let path = tail[..end].trim_end_matches(':');
                if path.len() > "crate::".len() {
                    found.push(path.to_owned());
                }
            }
            rest = &tail[end.max(1)..];
        }
    }
    found
}

#[test]
fn inline_paths_are_read_as_imports() {
    let text = "fn f() { let x = crate::core::number::parse(t); }\n// crate::ui::x in a comment\nlet y = $crate::a::b;";
    assert_eq!(inline_paths(text), ["crate::core::number::parse"]);
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

type Graph = BTreeMap<PathBuf, BTreeSet<PathBuf>>;

/// Which file imports which, across every crate read as one module tree.
fn file_imports() -> Graph {
    let sources = sources();
    let files: BTreeSet<PathBuf> = sources.iter().map(|(f, _)| f.clone()).collect();
    let texts: BTreeMap<PathBuf, String> = sources.iter().cloned().collect();
    let reexports = reexports(&sources, &files);
    let mut imports = Graph::new();
    for (file, text) in &sources {
        // A module file and the files of its own submodules are one module, not two.
        let own = file.parent().filter(|_| file.ends_with("mod.rs"));
        let uses = statements(text, "use crate::")
            .into_iter()
            .chain(statements(text, "pub use crate::"))
            .map(|s| format!("crate::{s}"))
            .chain(inline_paths(text));
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
    imports
}

/// The edges of `graph` that can be followed back to where they started, as `a -> b`.
fn circles(graph: &Graph) -> Vec<String> {
    let reaches = |from: &PathBuf, to: &PathBuf| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(at) = stack.pop() {
            if at == *to {
                return true;
            }
            if seen.insert(at.clone()) {
                stack.extend(graph.get(&at).into_iter().flatten().cloned());
            }
        }
        false
    };
    graph
        .iter()
        .flat_map(|(file, targets)| targets.iter().map(move |t| (file, t)))
        .filter(|(file, target)| reaches(target, file))
        .map(|(file, target)| format!("{} -> {}", file.display(), target.display()))
        .collect()
}

#[test]
fn no_two_files_import_each_other() {
    let imports = file_imports();
    let circles = circles(&imports);
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

/// The module of core a file belongs to: `core/counter/plan.rs` → `core/counter`.
fn core_module(file: &std::path::Path) -> Option<PathBuf> {
    let mut parts = file.iter();
    (parts.next()? == "core").then_some(())?;
    let top = parts
        .next()?
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_owned();
    (top != "mod").then(|| PathBuf::from("core").join(top))
}

/// Core's modules are layers: vocabulary (values, numbers, the table), under infrastructure
/// (connections, the one reader, the one gateway), under the domains (counters, tallies, likes,
/// watching), under the specs and their runs. No module reaches back up to one that uses it.
#[test]
fn no_two_modules_of_core_import_each_other() {
    let mut modules = Graph::new();
    for (file, targets) in file_imports() {
        let Some(from) = core_module(&file) else {
            continue;
        };
        for to in targets.iter().filter_map(|t| core_module(t)) {
            if to != from {
                modules.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    let circles = circles(&modules);
    assert!(
        circles.is_empty(),
        "modules of core in a circle:\n{}",
        circles.join("\n")
    );
    assert!(modules.len() > 30, "the modules were read: {modules:?}");
}

/// Core's rows, top first, as ARCHITECTURE.md draws them; a module not named is vocabulary.
const ROWS: [&[&str]; 3] = [
    &["spec", "clone"],
    &[
        "counter", "diff", "tally", "likes", "lab", "watch", "purge", "import", "items", "admin",
        "metrics", "partiql", "stream", "run", "replay", "exports",
    ],
    &[
        "connection",
        "read",
        "write",
        "expr",
        "schema",
        "transfer",
        "statement",
        "validate",
        "limits",
        "places",
    ],
];

/// How high `module` (`core/counter`) sits: 3 for the runs, 0 for vocabulary.
fn row(module: &std::path::Path) -> usize {
    let name = module.file_name().unwrap_or_default().to_string_lossy();
    ROWS.iter()
        .position(|row| row.contains(&name.as_ref()))
        .map_or(0, |i| ROWS.len() - i)
}

#[test]
fn no_module_of_core_uses_one_of_a_row_above_it() {
    let mut upward = Vec::new();
    for (file, targets) in file_imports() {
        let Some(from) = core_module(&file) else {
            continue;
        };
        for to in targets.iter().filter_map(|t| core_module(t)) {
            if row(&to) > row(&from) {
                upward.push(format!("{} -> {}", file.display(), to.display()));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports up a row:\n{}",
        upward.join("\n")
    );
    assert_eq!(row(std::path::Path::new("core/spec")), 3);
}
