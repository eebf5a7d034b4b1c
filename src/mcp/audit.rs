//! The audit log: every tool call and how it ended, one JSON object per line, appended to a
//! file opened when the server starts.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::core::error::{Error, Result};

/// The audit log, shared by every call.
#[derive(Debug)]
pub struct Audit {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Audit {
    /// Open `path` for appending (its folder made when missing); an audit log that cannot be
    /// opened stops the server before it serves anything.
    pub fn open(path: &Path) -> Result<Self> {
        let failed = |detail: std::io::Error| Error::File {
            action: "opening the audit log",
            path: path.display().to_string(),
            detail: detail.to_string(),
        };
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(failed)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(failed)?;
        Ok(Self {
            path: path.to_owned(),
            file: Mutex::new(file),
        })
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `entry` with the time; a line that cannot be written is an error (for the caller
    /// to say; the call's own answer is not changed by it).
    pub fn append(&self, mut entry: Value) -> Result<()> {
        let at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        entry["at_ms"] = json!(at_ms.to_string());
        let mut line = entry.to_string();
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

/// The default audit log: `mcp-audit.jsonl` in dynoscope's data folder
/// (`$XDG_DATA_HOME/dynoscope`, else `~/.local/share/dynoscope`; on macOS
/// `~/Library/Application Support/dynoscope`).
pub fn default_path() -> Option<PathBuf> {
    let home = || std::env::var_os("HOME").map(PathBuf::from);
    let folder = if cfg!(target_os = "macos") {
        home()?.join("Library/Application Support")
    } else if cfg!(windows) {
        PathBuf::from(std::env::var_os("APPDATA")?)
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home().map(|h| h.join(".local/share")))?
    };
    Some(folder.join("dynoscope").join("mcp-audit.jsonl"))
}
