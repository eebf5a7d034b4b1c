//! Saving a file where the user says, and choosing a file to read: the system's dialog (or,
//! in tests, an injected picker), then the writing, both off the UI thread.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::core::error::Result;
use crate::task::{Pending, Spawner};

/// Asks the user where to save a file. The app uses the system dialog; tests inject their own
/// so that no real dialog ever opens.
pub trait SavePicker: Send + Sync {
    /// Called on a blocking thread; `None` when the user cancels or no dialog is available.
    fn pick_save_path(&self, suggested_name: &str) -> Option<PathBuf>;

    /// A file to read, chosen on a blocking thread; `None` when the user cancels.
    fn pick_open_path(&self) -> Option<PathBuf>;
}

/// The system's save dialog (xdg-desktop-portal, or zenity, through rfd).
#[derive(Debug, Default)]
pub struct SystemSavePicker;

impl SavePicker for SystemSavePicker {
    fn pick_save_path(&self, suggested_name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Save")
            .set_file_name(suggested_name)
            .save_file()
    }

    fn pick_open_path(&self) -> Option<PathBuf> {
        rfd::FileDialog::new().set_title("Import").pick_file()
    }
}

/// A file written: where, and how many records it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The file.
    pub path: PathBuf,
    /// Records written.
    pub records: usize,
}

impl Saved {
    /// What an export did, in words: `Exported 4 items to /tmp/x.jsonl`, or that no file was
    /// chosen; `records` names what the file holds.
    pub fn note(saved: Result<Option<Self>>, records: &str) -> Result<String> {
        saved.map(|saved| match saved {
            Some(Self { path, records: n }) => {
                format!("Exported {n} {records} to {}", path.display())
            }
            None => "No file chosen; nothing exported. (If no dialog appeared: the save dialog \
                     needs xdg-desktop-portal or zenity.)"
                .to_owned(),
        })
    }
}

/// Saves files through a picker.
#[derive(Clone)]
pub struct Saver {
    picker: Arc<dyn SavePicker>,
}

impl Default for Saver {
    fn default() -> Self {
        Self::new(Arc::new(SystemSavePicker))
    }
}

impl Saver {
    /// Ask `picker` where files go.
    pub fn new(picker: Arc<dyn SavePicker>) -> Self {
        Self { picker }
    }

    /// Ask which file to read.
    pub fn open(&self, spawner: &Spawner) -> Pending<Option<PathBuf>> {
        let picker = Arc::clone(&self.picker);
        spawner.spawn_blocking("Choose file", move || Ok(picker.pick_open_path()))
    }

    /// Ask where to save (suggesting `suggested_name`), without writing.
    pub fn pick(&self, spawner: &Spawner, suggested_name: String) -> Pending<Option<PathBuf>> {
        let picker = Arc::clone(&self.picker);
        spawner.spawn_blocking("Choose file", move || {
            Ok(picker.pick_save_path(&suggested_name))
        })
    }

    /// Ask where to save (suggesting `suggested_name`), then `write` there, on a blocking
    /// thread; `None` when no file was chosen.
    pub fn save(
        &self,
        spawner: &Spawner,
        suggested_name: String,
        write: impl FnOnce(&Path) -> Result<usize> + Send + 'static,
    ) -> Pending<Option<Saved>> {
        let picker = Arc::clone(&self.picker);
        spawner.spawn_blocking("Export", move || {
            let Some(path) = picker.pick_save_path(&suggested_name) else {
                return Ok(None);
            };
            let records = write(&path)?;
            Ok(Some(Saved { path, records }))
        })
    }
}
