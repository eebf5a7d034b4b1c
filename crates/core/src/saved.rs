//! Saved queries and the history of what ran. A saved query is a readable JSON file in the
//! config folder (`queries/NAME.json`), so it can be read, edited and shared; any of its texts
//! may hold `{variables}` (`POST#{post}`), asked for when it is opened. The history keeps the
//! last queries run, newest first, searchable by their words.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::file_error;
use crate::error::{Error, Result};
use crate::files;
use crate::files::{IfExists, write_file};

/// The environment variable naming the folder dynoscope keeps its files in, instead of the
/// system's config folder.
pub(crate) const DIR_ENV: &str = "DYNOSCOPE_CONFIG_DIR";

/// Saved query files read at most (the others are said to be left out).
pub(crate) const MAX_FILES: usize = 1_000;

/// The largest saved query file read: 1 MiB.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// History entries kept.
pub(crate) const HISTORY: usize = 200;

/// The folder dynoscope keeps its own files in: `$DYNOSCOPE_CONFIG_DIR`, else the system's
/// config folder's `dynoscope` (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/
/// Application Support` on macOS, `%APPDATA%` on Windows).
pub fn config_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var(DIR_ENV) {
        return Some(dir);
    }
    let base = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")))
    };
    base.map(|b| b.join("dynoscope"))
}

/// The `{name}` variables of `text`, in order: a name is letters, digits and `_`, not starting
/// with a digit (so JSON or PartiQL braces are left alone).
fn variables_of(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| i + from) {
        let rest = &text[open + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let named = !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit());
        if named && rest[end..].starts_with('}') {
            found.push((open..open + end + 2, name));
            from = open + end + 2;
        } else {
            from = open + 1;
        }
    }
    found
}

/// Every string in `value`, to read or to change.
fn strings_mut(value: &mut Value, each: &mut impl FnMut(&mut String) -> Result<()>) -> Result<()> {
    match value {
        Value::String(s) => each(s),
        Value::Array(items) => items.iter_mut().try_for_each(|v| strings_mut(v, each)),
        Value::Object(map) => map.values_mut().try_for_each(|v| strings_mut(v, each)),
        _ => Ok(()),
    }
}

/// The variables of every text in `query`, by name.
pub fn variables(query: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut copy = query.clone();
    let _ = strings_mut(&mut copy, &mut |s| {
        names.extend(variables_of(s).into_iter().map(|(_, n)| n.to_owned()));
        Ok(())
    });
    names
}

/// `query` with each `{name}` replaced by `values[name]`; a variable without a value is an
/// error naming it.
pub fn fill(query: &Value, values: &BTreeMap<String, String>) -> Result<Value> {
    let mut filled = query.clone();
    strings_mut(&mut filled, &mut |s| {
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for (range, name) in variables_of(s) {
            let value = values
                .get(name)
                .ok_or_else(|| Error::Invalid(format!("give a value for `{{{name}}}`")))?;
            out.push_str(&s[last..range.start]);
            out.push_str(value);
            last = range.end;
        }
        out.push_str(&s[last..]);
        *s = out;
        Ok(())
    })?;
    Ok(filled)
}

/// A query saved by name: what it reads, as the front end that saved it wrote it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedQuery {
    /// Its name.
    pub name: String,
    /// What it reads (a tab's query: its table and form, or a PartiQL or SQL text).
    pub query: Value,
}

/// The file name a query named `name` is saved as: `likes-of-a-post.json`.
pub fn file_name(name: &str) -> Result<String> {
    let mut slug = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_matches('-').chars().take(80).collect();
    if slug.is_empty() {
        return Err(Error::Invalid(
            "give the query a name (letters or digits)".into(),
        ));
    }
    Ok(format!("{slug}.json"))
}

/// The saved queries' folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryStore {
    dir: PathBuf,
}

impl QueryStore {
    /// Queries saved in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The `queries` folder of the config folder.
    pub fn in_config() -> Option<Self> {
        config_dir().map(|d| Self::new(d.join("queries")))
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Save `query` as readable JSON, replacing a query of the same file name; where.
    pub fn save(&self, query: &SavedQuery) -> Result<PathBuf> {
        let path = self.dir.join(file_name(&query.name)?);
        std::fs::create_dir_all(&self.dir).map_err(|e| file_error(&self.dir, "creating", &e))?;
        let text = serde_json::to_string_pretty(query)
            .map_err(|e| Error::Invalid(format!("the query could not be written: {e}")))?;
        write_file(&path, IfExists::Replace, |out| {
            use std::io::Write;
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n")
        })?;
        Ok(path)
    }

    /// Every saved query, by name, and the files that could not be read with why (a folder
    /// not made yet holds none). At most [`MAX_FILES`] files, each at most 1 MiB.
    pub fn list(&self) -> Result<(Vec<SavedQuery>, Vec<String>)> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
            Err(e) => return Err(file_error(&self.dir, "reading", &e)),
        };
        let (mut queries, mut bad) = (Vec::new(), Vec::new());
        for (n, entry) in entries.enumerate() {
            if n >= MAX_FILES {
                bad.push(format!(
                    "more than {MAX_FILES} files; the others were not read"
                ));
                break;
            }
            let Ok(entry) = entry else { continue };
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            match read_query(&path) {
                Ok(query) => queries.push(query),
                Err(why) => bad.push(why),
            }
        }
        queries.sort_by_key(|q| q.name.to_lowercase());
        Ok((queries, bad))
    }
}

fn read_query(path: &Path) -> std::result::Result<SavedQuery, String> {
    let bytes = files::read_small(path, MAX_FILE_BYTES, "is over 1 MiB; no saved query is")
        .map_err(|e| e.to_string())?;
    let text = files::utf8(path, bytes).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a saved query ({e})", path.display()))
}

/// One query that ran.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ran {
    /// When it last ran, in seconds since 1970.
    pub at: u64,
    /// It in words (`Query Social PK = POST#a91f`).
    pub summary: String,
    /// What ran, as a saved query holds it.
    pub query: Value,
}

/// The last queries run, oldest first (at most [`HISTORY`]); a query run again moves to the
/// end.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct History {
    entries: Vec<Ran>,
}

impl History {
    /// `ran` ran now.
    pub fn add(&mut self, ran: Ran) {
        self.entries.retain(|r| r.query != ran.query);
        self.entries.push(ran);
        let over = self.entries.len().saturating_sub(HISTORY);
        self.entries.drain(..over);
    }

    /// The entries whose words hold every word of `text` (any case), newest first.
    pub fn search(&self, text: &str) -> Vec<&Ran> {
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        self.entries
            .iter()
            .rev()
            .filter(|r| {
                let summary = r.summary.to_lowercase();
                words.iter().all(|w| summary.contains(w))
            })
            .collect()
    }
}

/// Now, in seconds since 1970.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_found_in_every_text_and_filled_or_asked_for() {
        let query = serde_json::json!({
            "table": "Social",
            "form": {"partition": "POST#{post}", "filters": [{"value": "{user}-{user}"}]},
            "sql": "SELECT {'PK': 1} FROM t WHERE x = '{ not a var }' AND y = {2x}",
        });
        assert_eq!(
            variables(&query).into_iter().collect::<Vec<_>>(),
            ["post", "user"]
        );
        let values = BTreeMap::from([
            ("post".to_owned(), "a91f".to_owned()),
            ("user".to_owned(), "7c20".to_owned()),
        ]);
        let filled = fill(&query, &values).unwrap();
        assert_eq!(filled["form"]["partition"], "POST#a91f");
        assert_eq!(filled["form"]["filters"][0]["value"], "7c20-7c20");
        assert_eq!(
            filled["sql"], query["sql"],
            "braces that are not variables stay"
        );
        let missing = fill(&query, &BTreeMap::new()).unwrap_err().to_string();
        assert!(missing.contains("give a value for `{post}`"), "{missing}");
    }

    #[test]
    fn a_saved_query_is_a_readable_file_listed_by_name() {
        let dir = std::env::temp_dir().join(format!("dynoscope-saved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = QueryStore::new(&dir);
        assert_eq!(store.list().unwrap().0, [], "no folder yet: none");
        let query = SavedQuery {
            name: "Likes of a post".into(),
            query: serde_json::json!({"table": "Social", "partition": "POST#{post}"}),
        };
        let path = store.save(&query).unwrap();
        assert_eq!(path.file_name().unwrap(), "likes-of-a-post.json");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\n  \"name\": \"Likes of a post\""), "{text}");
        std::fs::write(dir.join("broken.json"), "{").unwrap();
        let (queries, bad) = store.list().unwrap();
        assert_eq!(queries, [query]);
        assert!(bad[0].contains("broken.json: not a saved query"), "{bad:?}");
        #[cfg(unix)]
        {
            std::fs::remove_file(dir.join("broken.json")).unwrap();
            let fifo = dir.join("fifo.json");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.unwrap().success());
            let (_, bad) = store.list().unwrap();
            assert!(
                bad[0].contains("fifo.json is a FIFO, not a regular file"),
                "{bad:?}"
            );
        }
        assert!(file_name(" #!? ").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_history_keeps_the_last_runs_newest_first_and_finds_them_by_words() {
        let mut history = History::default();
        let ran = |n: usize, summary: &str| Ran {
            at: n as u64,
            summary: summary.into(),
            query: serde_json::json!({ "n": summary }),
        };
        history.add(ran(1, "Query Social PK = POST#a91f"));
        history.add(ran(2, "Scan Videos"));
        history.add(ran(3, "Query Social PK = POST#a91f"));
        let found: Vec<u64> = history.search("").iter().map(|r| r.at).collect();
        assert_eq!(found, [3, 2], "run again: moved to the end, once");
        assert_eq!(history.search("social a91F").len(), 1);
        assert!(history.search("social videos").is_empty());
        for n in 0..HISTORY + 5 {
            history.add(ran(n, &format!("Scan T{n}")));
        }
        assert_eq!(history.search("").len(), HISTORY);
    }
}
