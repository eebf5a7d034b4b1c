//! The marks a user set on connections in the app — the saved connections (read-only,
//! protected) and the connections switched to read-only — kept in one file every front end
//! reads: `connections.json` in the config folder. The app writes it whenever they change; the
//! CLI and the MCP server read it before they connect, so a connection marked read-only or
//! protected in the app is that for them too.

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::connection::{ConnectionId, ConnectionSpec, SavedConnections};
use crate::error::{Error, Result, file_error};
use crate::files::{IfExists, write_file};
use crate::saved::config_dir;

/// The file's name in the config folder.
pub const MARKS_FILE: &str = "connections.json";

/// The largest marks file read: 1 MiB (a few hundred connections take a few KiB).
const MAX_BYTES: u64 = 1 << 20;

/// Every mark, as the app keeps them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Marks {
    /// The connections saved by name (never a secret).
    #[serde(default)]
    pub saved: SavedConnections,
    /// The connections switched to read-only.
    #[serde(default)]
    pub read_only: BTreeSet<ConnectionId>,
}

/// How one place is marked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mark {
    /// Every write there refused.
    pub read_only: bool,
    /// A write there needs this name typed (the saved connection's name).
    pub protected: Option<String>,
}

impl Mark {
    /// Whether anything is marked.
    pub fn any(&self) -> bool {
        self.read_only || self.protected.is_some()
    }
}

impl Marks {
    /// Where the marks are kept: `connections.json` in [`config_dir`]; `None` when no folder is
    /// known (no `HOME`).
    pub fn path() -> Option<PathBuf> {
        config_dir().map(|dir| dir.join(MARKS_FILE))
    }

    /// The marks in `path`; `None` when there is no such file yet.
    ///
    /// # Errors
    /// When the file cannot be read, is over 1 MiB, or is not marks.
    pub fn read(path: &Path) -> Result<Option<Self>> {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(file_error(path, "reading", &e)),
        };
        let mut text = String::new();
        file.take(MAX_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| file_error(path, "reading", &e))?;
        if text.len() as u64 > MAX_BYTES {
            return Err(Error::Invalid(format!(
                "{} is over 1 MiB: it is not dynoscope's saved connections",
                path.display()
            )));
        }
        serde_json::from_str(&text).map(Some).map_err(|e| {
            Error::Invalid(format!(
                "{} does not read as dynoscope's saved connections ({e}): fix it, or remove it \
                 and mark the connections again in the app",
                path.display()
            ))
        })
    }

    /// Write the marks to `path` in place of what is there (a new file, then renamed: a reader
    /// never sees half of it), its folder made when missing.
    ///
    /// # Errors
    /// When the folder or the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<()> {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| file_error(folder, "creating", &e))?;
        }
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Invalid(format!("the marks could not be written: {e}")))?;
        write_file(path, IfExists::Replace, |out| {
            use std::io::Write as _;
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n")
        })
    }

    /// How `spec` is marked: read-only when its saved connection is or it was switched to
    /// read-only; protected under its saved connection's name. The in-memory sandbox is new
    /// data every run and carries no mark; a password in an endpoint's URL does not make it
    /// another place.
    pub fn of(&self, spec: &ConnectionSpec) -> Mark {
        if *spec == (ConnectionSpec::Sandbox { db_path: None }) {
            return Mark::default();
        }
        let spec = spec.clone().without_userinfo();
        let identity = spec.identity();
        let saved = self.saved.0.iter().find(|c| c.spec.identity() == identity);
        Mark {
            read_only: self.read_only.contains(&identity) || saved.is_some_and(|c| c.read_only),
            protected: saved.filter(|c| c.protected).map(|c| c.name.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connection::SavedConnection;

    fn endpoint(url: &str) -> ConnectionSpec {
        ConnectionSpec::Endpoint {
            url: url.into(),
            profile: None,
            region: Some("eu-west-1".into()),
        }
    }

    #[test]
    fn a_place_is_marked_as_the_app_saved_it() {
        let mut marks = Marks::default();
        marks.saved.save(SavedConnection {
            name: "prod".into(),
            spec: endpoint("http://db.example:8000"),
            colour: 3,
            read_only: false,
            protected: true,
        });
        let staging = ConnectionSpec::Sandbox {
            db_path: Some("staging.db".into()),
        };
        marks.read_only.insert(staging.identity());
        assert_eq!(
            marks.of(&endpoint("http://user:pw@db.example:8000")),
            Mark {
                read_only: false,
                protected: Some("prod".into()),
            },
            "a password in the URL is the same place"
        );
        assert!(marks.of(&staging).read_only);
        assert!(!marks.of(&endpoint("http://db.example:8001")).any());
        marks
            .read_only
            .insert(ConnectionSpec::Sandbox { db_path: None }.identity());
        assert!(
            !marks.of(&ConnectionSpec::Sandbox { db_path: None }).any(),
            "a fresh in-memory sandbox is never marked"
        );
    }

    #[test]
    fn marks_are_written_whole_and_read_back() {
        let dir = std::env::temp_dir().join(format!("dynoscope-marks-{}", std::process::id()));
        let path = dir.join("cfg").join(MARKS_FILE);
        assert_eq!(Marks::read(&path).unwrap(), None);
        let mut marks = Marks::default();
        marks.read_only.insert(endpoint("http://h:1").identity());
        marks.write(&path).unwrap();
        assert_eq!(Marks::read(&path).unwrap(), Some(marks));
        std::fs::write(&path, "{\"saved\": 5}").unwrap();
        let error = Marks::read(&path).unwrap_err().to_string();
        assert!(error.contains("does not read as"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
