//! The connections' marks (saved connections, read-only, protected) kept in the one file the
//! command line and the MCP server read too: written, off the UI thread, whenever they change.

use std::path::PathBuf;

use dynoscope_core::connection::Marks;
use dynoscope_core::task::{Pending, Spawner};

/// The marks file, and what was last written to it.
pub(super) struct MarksFile {
    path: PathBuf,
    /// What the file holds (or is being written with); `None` when there is no file yet.
    stored: Option<Marks>,
    writing: Option<Pending<()>>,
    /// The file could not be read: it is left as it is, never written over.
    unreadable: bool,
    /// Why the file could not be read, or the last write failed.
    pub error: Option<String>,
}

impl MarksFile {
    /// The file at `path`, holding `stored` (`None`: no file yet, so the marks are written
    /// once, the first time they are kept).
    pub(super) fn new(path: PathBuf, stored: Option<Marks>) -> Self {
        Self {
            path,
            writing: None,
            unreadable: false,
            error: None,
            stored,
        }
    }

    /// The file at `path` that could not be read (`error`): it is never written over, and the
    /// app says so.
    pub(super) fn unreadable(path: PathBuf, error: &dynoscope_core::error::Error) -> Self {
        Self {
            error: Some(format!(
                "{error}. This run keeps its marks on the connections to itself, and the command \
                 line reads none."
            )),
            unreadable: true,
            ..Self::new(path, None)
        }
    }

    /// Keep `now` in the file: a write starts when it differs from what the file holds and no
    /// write is under way. A failed write is said and not retried until the marks change.
    pub(super) fn keep(&mut self, spawner: &Spawner, now: Marks) {
        if let Some(result) = Pending::take_ready(&mut self.writing) {
            self.error = result.err().map(|e| {
                format!(
                    "The saved connections could not be kept for the command line: {e}. \
                     Its writes do not see this run's read-only or protected marks."
                )
            });
        }
        if self.unreadable || self.writing.is_some() || self.stored.as_ref() == Some(&now) {
            return;
        }
        let path = self.path.clone();
        let marks = now.clone();
        self.stored = Some(now);
        self.writing = Some(spawner.spawn_blocking("SaveMarks", move || marks.write(&path)));
    }
}
