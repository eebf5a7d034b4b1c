//! The audit log: every tool call and how it ended, one JSON object per line, appended to a
//! file opened when the server starts. The file is the user's alone (0600, its folder 0700
//! when made here), never a symlink nor a FIFO, and each line is bounded: long strings and
//! large values keep their start and say how much was left out.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::audit_entry::Stamped;
pub use crate::audit_entry::{AuditEntry, CallEntry, Event, RefusedCall, RefusedLine};
use dynoscope_core::document::Document as _;
use dynoscope_core::error::{Error, Result};

/// The audit log, shared by every call.
#[derive(Debug)]
pub struct Audit {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Audit {
    /// Open `path` for appending (its folder made when missing, 0700; the file made 0600); an
    /// audit log that cannot be opened — a symlink, a FIFO or anything but a regular file among
    /// them — stops the server before it serves anything.
    pub fn open(path: &Path) -> Result<Self> {
        let failed = |detail: std::io::Error| Error::File {
            action: "opening the audit log",
            path: path.display().to_string(),
            detail: detail.to_string(),
        };
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let mut folders = std::fs::DirBuilder::new();
            folders.recursive(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt as _;
                folders.mode(0o700);
            }
            folders.create(folder).map_err(failed)?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        // Never through a symlink (another file would be appended to), and never blocking on
        // a FIFO: opened without waiting, then only a regular file is kept.
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt as _;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let not_a_file = || {
            failed(std::io::Error::other(
                "it is not a regular file (a FIFO, a device or a folder); give a file",
            ))
        };
        let file = options.open(path).map_err(|e| match e.raw_os_error() {
            #[cfg(unix)]
            Some(libc::ELOOP) => failed(std::io::Error::other(
                "it is a symlink; give the file itself",
            )),
            // A FIFO without a reader, opened without waiting for one.
            #[cfg(unix)]
            Some(libc::ENXIO) => not_a_file(),
            _ => failed(e),
        })?;
        if !file.metadata().map_err(failed)?.is_file() {
            return Err(not_a_file());
        }
        // A log that was there before keeps what it holds but becomes the user's alone too.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = file.metadata().map_err(failed)?.permissions().mode();
            if mode & 0o077 != 0 {
                file.set_permissions(std::fs::Permissions::from_mode(0o600))
                    .map_err(failed)?;
            }
        }
        Ok(Self {
            path: path.to_owned(),
            file: Mutex::new(file),
        })
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `entry` with the time (`at_ms`, its last key); a line that cannot be written is an
    /// error (for the caller to say; the call's own answer is not changed by it).
    pub fn append(&self, entry: impl Into<AuditEntry>) -> Result<()> {
        let at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let stamped = Stamped {
            entry: entry.into(),
            at_ms: at_ms.to_string(),
        };
        let mut budget = MAX_LINE_BYTES;
        let mut line = bounded(stamped.to_json(), &mut budget).to_string();
        line.push('\n');
        let written = match self.file.lock() {
            Ok(mut file) => file.write_all(line.as_bytes()).and_then(|()| file.flush()),
            Err(_) => Err(std::io::Error::other("the audit log's lock was poisoned")),
        };
        written.map_err(|e| Error::File {
            action: "appending to the audit log",
            path: self.path.display().to_string(),
            detail: e.to_string(),
        })
    }
}

/// The bytes of one log line's strings, keys and numbers, about: past them, what is left is
/// said in a few words.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The longest string (or number) a line keeps whole.
pub(crate) const MAX_STRING_BYTES: usize = 1024;

/// The members of one array or object a line keeps.
pub(crate) const MAX_MEMBERS: usize = 64;

/// `value` as a log line holds it, spending `budget` bytes: a string past
/// [`MAX_STRING_BYTES`] (or past the budget) keeps its start and says how many bytes were left
/// out, an array or object keeps [`MAX_MEMBERS`] and says how many more there were.
pub fn bounded(value: Value, budget: &mut usize) -> Value {
    // Each value costs a little, so that many empty ones are bounded too.
    *budget = budget.saturating_sub(4);
    match value {
        Value::String(text) => Value::String(cut(text, budget, "bytes")),
        Value::Number(n) if n.to_string().len() > MAX_STRING_BYTES.min(*budget) => {
            Value::String(cut(n.to_string(), budget, "digits"))
        }
        // Members are kept while the budget lasts and at most MAX_MEMBERS of them: once it is
        // spent the rest are one count, so a wide and deep value cannot grow the line.
        Value::Array(items) => {
            let total = items.len();
            let mut kept: Vec<Value> = Vec::new();
            for item in items {
                if kept.len() == MAX_MEMBERS || *budget == 0 {
                    break;
                }
                kept.push(bounded(item, budget));
            }
            let more = total - kept.len();
            if more > 0 {
                kept.push(Value::String(format!("… {more} more elements left out")));
            }
            Value::Array(kept)
        }
        Value::Object(members) => {
            let total = members.len();
            let mut kept = serde_json::Map::new();
            for (name, member) in members {
                if kept.len() == MAX_MEMBERS || *budget == 0 {
                    break;
                }
                let name = cut(name, budget, "bytes");
                kept.insert(name, bounded(member, budget));
            }
            let more = total - kept.len();
            if more > 0 {
                kept.insert(
                    "…".into(),
                    Value::String(format!("{more} more members left out")),
                );
            }
            Value::Object(kept)
        }
        other => other,
    }
}

/// `text` whole when it fits in [`MAX_STRING_BYTES`] and `budget`, else its start and how many
/// `unit` were left out.
fn cut(text: String, budget: &mut usize, unit: &str) -> String {
    let room = MAX_STRING_BYTES.min(*budget);
    if text.len() <= room {
        *budget -= text.len();
        return text;
    }
    let mut at = room;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    *budget -= at;
    let left_out = text.len() - at;
    format!(
        "{}… ({left_out} more {unit} left out)",
        text.get(..at).unwrap_or_default()
    )
}

/// The default audit log: `mcp-audit.jsonl` in dynoscope's data folder
/// ([`dynoscope_core::places::data_dir`]).
pub fn default_path() -> Option<PathBuf> {
    dynoscope_core::places::default_audit_log()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_line_is_bounded_and_says_what_was_left_out() {
        let big = "x".repeat(10 << 20);
        let entry = json!({"tool": "put_item", "arguments": {
            "a": big, "b": big, "c": big, "d": big,
            "list": (0..1000).collect::<Vec<_>>(),
        }});
        let line = bounded(entry, &mut MAX_LINE_BYTES.to_owned()).to_string();
        assert!(line.len() < 2 * MAX_LINE_BYTES, "{}", line.len());
        assert!(line.contains("more bytes left out"), "{line}");
        assert!(line.contains("936 more elements left out"), "{line}");
        // What is small is kept whole, multi-byte text cut between characters.
        let small = json!({"table": "Social", "n": 1});
        assert_eq!(
            bounded(small.clone(), &mut MAX_LINE_BYTES.to_owned()),
            small
        );
        // Wide and deep: 64 arrays of 64 arrays of 64 strings stay within about the bound.
        let leaf = json!(vec!["a"; 64]);
        let wide = json!(vec![json!(vec![leaf; 64]); 64]);
        let line = bounded(wide, &mut MAX_LINE_BYTES.to_owned()).to_string();
        assert!(line.len() < 2 * MAX_LINE_BYTES, "{}", line.len());
        assert!(line.contains("more elements left out"), "{line}");
        let accents = "é".repeat(MAX_STRING_BYTES);
        assert!(
            bounded(json!(accents), &mut 10_000)
                .as_str()
                .unwrap()
                .contains("left out")
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_log_is_the_users_alone_and_never_a_symlink_or_a_fifo() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("dynoscope-audit-{}", std::process::id()));
        let _gone = std::fs::remove_dir_all(&dir);
        let path = dir.join("made").join("audit.jsonl");
        let audit = Audit::open(&path).unwrap();
        let start = Event::Start {
            connection: "local".into(),
            region: "here".into(),
            writes: false,
        };
        audit.append(start).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        // One made readable by others before is made the user's alone, its lines kept.
        drop(audit);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        Audit::open(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert!(std::fs::read_to_string(&path).unwrap().contains("start"));
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        let link = dir.join("link.jsonl");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let error = Audit::open(&link).unwrap_err().to_string();
        assert!(error.contains("symlink"), "{error}");
        let fifo = dir.join("fifo");
        let mkfifo = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(mkfifo.success());
        let error = Audit::open(&fifo).unwrap_err().to_string();
        assert!(error.contains("not a regular file"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
