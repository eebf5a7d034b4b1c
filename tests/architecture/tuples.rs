//! No function or method takes its parameters packed into a tuple (`(out, stop): (&mut Output,
//! &CancelToken)`), which only hides their number: parameters that belong together are a named
//! struct, and the others are parameters of their own. Checked in every crate's sources, the
//! binary's and the benches'; closures and `let` bindings may destructure tuples.

use std::path::{Path, PathBuf};

use super::{root, rust_files};

/// Whether `b` can be part of an identifier.
fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `text` with its comments, strings and character literals blanked (its lines kept), so that a
/// `fn` in a comment or in the text of a generated program is not read as code, and a `(` in a
/// string unbalances nothing.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blank `chars[i..end]` and go on from `end`.
    let skip = |out: &mut String, i: &mut usize, end: usize| {
        let end = end.min(chars.len());
        out.extend(chars[*i..end].iter().map(|c| blank(*c)));
        *i = end;
    };
    while i < chars.len() {
        let at = |n: usize| chars.get(i + n).copied();
        let end = match (chars[i], at(1)) {
            ('/', Some('/')) => (i..chars.len()).find(|&j| chars[j] == '\n'),
            ('/', Some('*')) => {
                let mut depth = 0;
                let mut j = i;
                loop {
                    match (chars.get(j), chars.get(j + 1)) {
                        (Some('/'), Some('*')) => (depth, j) = (depth + 1, j + 2),
                        (Some('*'), Some('/')) if depth == 1 => break Some(j + 2),
                        (Some('*'), Some('/')) => (depth, j) = (depth - 1, j + 2),
                        (Some(_), _) => j += 1,
                        (None, _) => break None,
                    }
                }
            }
            ('r', _) => {
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                if at(1 + hashes) == Some('"') {
                    let closing: Vec<char> = std::iter::once('"')
                        .chain("#".repeat(hashes).chars())
                        .collect();
                    (i + 2 + hashes..chars.len())
                        .find(|&j| chars[j..].starts_with(&closing))
                        .map(|j| j + closing.len())
                } else {
                    Some(i)
                }
            }
            ('"', _) => {
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '"' {
                    j += if chars[j] == '\\' { 2 } else { 1 };
                }
                Some(j + 1)
            }
            // A character (`'"'`, `'\n'`, `'\''`), not a lifetime (`'a`).
            ('\'', Some('\\')) => (i + 3..chars.len())
                .find(|&j| chars[j] == '\'')
                .map(|j| j + 1),
            ('\'', _) if at(2) == Some('\'') => Some(i + 3),
            _ => Some(i),
        };
        match end {
            Some(end) if end > i => skip(&mut out, &mut i, end),
            Some(_) => {
                out.push(chars[i]);
                i += 1;
            }
            None => skip(&mut out, &mut i, chars.len()),
        }
    }
    out
}

/// The parameters of every `fn` in `text`, each with the line its list opens on.
fn parameters(text: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = code[at..].find("fn") {
        let start = at + offset;
        at = start + 2;
        let keyword = (start == 0 || !ident(bytes[start - 1]))
            && bytes.get(at).is_some_and(u8::is_ascii_whitespace);
        let named = code[at..]
            .trim_start()
            .starts_with(|c: char| c.is_alphabetic() || c == '_');
        if !keyword || !named {
            continue;
        }
        // The list opens at the first `(` outside the generics (`<F: Fn(u8) -> u8>`).
        let mut depth = 0i32;
        let mut open = None;
        let mut j = at;
        while let Some(&b) = bytes.get(j) {
            match b {
                b'-' if bytes.get(j + 1) == Some(&b'>') => j += 1,
                b'<' => depth += 1,
                b'>' => depth -= 1,
                b'(' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                b'{' | b';' => break,
                _ => {}
            }
            j += 1;
        }
        let Some(open) = open else { continue };
        let mut depth = 0;
        let Some(close) = (open..bytes.len()).find(|&k| {
            match bytes[k] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth == 0
        }) else {
            continue;
        };
        let line = code[..open].matches('\n').count() + 1;
        for parameter in top_level(&code[open + 1..close], b',') {
            found.push((
                line,
                parameter.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
        at = close;
    }
    found
}

/// `list` cut at each `separator` outside brackets, parentheses, braces and generics (an
/// arrow's `>` closes nothing), each piece trimmed; empty pieces left out.
fn top_level(list: &str, separator: u8) -> Vec<&str> {
    let bytes = list.as_bytes();
    let (mut pieces, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            _ if b == separator && depth == 0 => {
                pieces.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&list[start..]);
    pieces
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether `parameter` is a tuple pattern with a tuple type: `(a, b): (A, B)`.
fn packed(parameter: &str) -> bool {
    let bytes = parameter.as_bytes();
    let mut depth = 0;
    let colon = (0..bytes.len()).find(|&i| {
        match bytes[i] {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth -= 1,
            _ => {}
        }
        let double = bytes.get(i + 1) == Some(&b':') || (i > 0 && bytes[i - 1] == b':');
        depth == 0 && bytes[i] == b':' && !double
    });
    parameter.starts_with('(')
        && colon.is_some_and(|c| parameter[c + 1..].trim_start().starts_with('('))
}

/// The parameters packed into tuples in `text`: `line: parameter`.
fn packed_in(text: &str) -> Vec<String> {
    parameters(text)
        .into_iter()
        .filter(|(_, parameter)| packed(parameter))
        .map(|(line, parameter)| format!("{line}: {parameter}"))
        .collect()
}

#[test]
fn the_check_reads_signatures_not_closures_lets_comments_or_strings() {
    let text = "fn a(x: u8, (out, stop): (&mut Output, &CancelToken)) {}
pub(crate) async fn b<F: Fn(u8) -> u8>(
    f: F,
    ((s, f), (t, g)): ((u8, u8), (u8, u8)),
) {}
fn c(pair: (u8, u8), (a, b): &(u8, u8)) { let (x, y): (u8, u8) = pair; |(p, q): (u8, u8)| p; }
// fn d((a, b): (u8, u8)) {}
/* fn e((a, b): (u8, u8)) {} */ const E: &str = \"fn e((a, b): (u8, u8)) {}\";
const R: &str = r#\"fn r((a, b): (u8, u8)) {}\"#;
fn g<'a>(s: &'a str) -> char { '\"' }
fn h(x: u8, (mut y, z): (u8, u8)) {}
fn i(&self, c: char, (p, q): (&str, Option<(&str, &str)>)) -> impl Fn(u8) -> u8 {}
";
    assert_eq!(
        packed_in(text),
        [
            "1: (out, stop): (&mut Output, &CancelToken)",
            "2: ((s, f), (t, g)): ((u8, u8), (u8, u8))",
            "11: (mut y, z): (u8, u8)",
            "12: (p, q): (&str, Option<(&str, &str)>)",
        ]
    );
}

/// Where the code is: the binary's sources, every crate's, and the benches.
fn code_folders() -> Vec<PathBuf> {
    let mut folders = vec![PathBuf::from("src"), PathBuf::from("benches")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("src").is_dir())
        .map(|path| path.strip_prefix(root()).unwrap().join("src"))
        .collect();
    crates.sort();
    folders.extend(crates);
    folders
}

#[test]
fn no_function_takes_its_parameters_packed_into_a_tuple() {
    let (mut read, mut packed) = (0, Vec::new());
    for folder in code_folders() {
        for (file, text) in rust_files(&root().join(&folder)) {
            read += parameters(&text).len();
            let file = Path::new(&folder).join(file);
            let found = packed_in(&text).into_iter();
            packed.extend(found.map(|p| format!("{}:{p}", file.display())));
        }
    }
    assert!(read > 5_000, "the parameters were read: {read}");
    assert!(
        packed.is_empty(),
        "parameters packed into a tuple (make them a named struct, or parameters of their own):\n{}",
        packed.join("\n")
    );
}
