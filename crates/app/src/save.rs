//! Saving a file where the user says, and choosing a file to read: the system's dialog (or,
//! in tests, an injected picker), the app's own question when the file chosen exists, then the
//! writing, off the UI thread.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::Ui;

use dynoscope_core::error::Result;
use dynoscope_core::saved::QueryStore;
use dynoscope_core::task::{Pending, Spawner};
use dynoscope_core::transfer::IfExists;

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

/// How a save ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveEnd {
    /// The file was written.
    Saved(Saved),
    /// No file was chosen.
    NotChosen,
    /// The file chosen exists and the user kept it.
    Kept(PathBuf),
}

impl SaveEnd {
    /// What an export did, in words: `Exported 4 items to /tmp/x.jsonl`, that no file was
    /// chosen, or that the file chosen was kept; `records` names what the file holds.
    pub fn note(end: Result<Self>, records: &str) -> Result<String> {
        end.map(|end| match end {
            Self::Saved(Saved { path, records: n }) => {
                format!("Exported {n} {records} to {}", path.display())
            }
            Self::NotChosen => "No file chosen; nothing exported. (If no dialog appeared, the \
                                system has none: type the file's path in the field.)"
                .to_owned(),
            Self::Kept(path) => format!("{} was kept as it was; nothing exported.", path.display()),
        })
    }
}

/// Writes a file at a path, replacing what is there only when told to.
pub(crate) type WriteFn = Box<dyn FnOnce(&Path, IfExists) -> Result<usize> + Send>;

/// Saves files through a picker.
#[derive(Clone)]
pub struct Saver {
    picker: Arc<dyn SavePicker>,
    /// Where saved queries are kept (`None`: no config folder is known).
    queries: Option<QueryStore>,
}

impl Default for Saver {
    fn default() -> Self {
        Self::new(Arc::new(SystemSavePicker))
    }
}

impl Saver {
    /// Ask `picker` where files go; saved queries in the config folder.
    pub fn new(picker: Arc<dyn SavePicker>) -> Self {
        Self {
            picker,
            queries: QueryStore::in_config(),
        }
    }

    /// Keep saved queries in `store` instead (tests give a folder of their own).
    #[must_use]
    pub fn with_queries(mut self, store: QueryStore) -> Self {
        self.queries = Some(store);
        self
    }

    /// Where saved queries are kept.
    pub fn queries(&self) -> Option<&QueryStore> {
        self.queries.as_ref()
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

    /// Save at the path `typed` (see [`typed_path`]), or, when none is typed, where the
    /// dialog says (suggesting `suggested_name`); when the file exists, ask whether to replace
    /// it ([`Saving::question_ui`]); then `write` there, on a blocking thread. The system's
    /// dialog may not ask, and a test's picker never does, so the question is always the
    /// app's.
    pub fn save(
        &self,
        spawner: &Spawner,
        suggested_name: String,
        typed: &str,
        write: impl FnOnce(&Path, IfExists) -> Result<usize> + Send + 'static,
    ) -> Saving {
        let mut saving = Saving {
            spawner: spawner.clone(),
            state: SaveState::Ended(Ok(SaveEnd::NotChosen)),
            write: Some(Box::new(write)),
        };
        saving.state = match typed_path(typed, &suggested_name) {
            Some(path) => saving.chosen(path),
            None => SaveState::Choosing(self.pick(spawner, suggested_name)),
        };
        saving
    }
}

/// The file a path typed names: `~/` is the home folder, and a folder that exists gets
/// `suggested_name` in it; `None` when nothing is typed.
pub(crate) fn typed_path(typed: &str, suggested_name: &str) -> Option<PathBuf> {
    let typed = typed.trim();
    if typed.is_empty() {
        return None;
    }
    let home =
        (typed.strip_prefix("~/")).or_else(|| typed.strip_prefix("~\\").filter(|_| cfg!(windows)));
    let path = match (home, dynoscope_core::files::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(typed),
    };
    Some(if path.is_dir() {
        path.join(suggested_name)
    } else {
        path
    })
}

/// Where a save is.
enum SaveState {
    Choosing(Pending<Option<PathBuf>>),
    /// The file chosen exists: the question is shown.
    Asking(PathBuf),
    Writing(PathBuf, Pending<usize>),
    Ended(Result<SaveEnd>),
}

/// A save under way: the file chosen, asked about when it exists, then written.
pub struct Saving {
    spawner: Spawner,
    state: SaveState,
    write: Option<WriteFn>,
}

impl Saving {
    /// How the save in `slot` ended, once it has; the slot is empty then.
    pub fn take_ended(slot: &mut Option<Self>) -> Option<Result<SaveEnd>> {
        let saving = slot.as_mut()?;
        saving.poll();
        if !matches!(saving.state, SaveState::Ended(_)) {
            return None;
        }
        match slot.take()?.state {
            SaveState::Ended(end) => Some(end),
            _ => None,
        }
    }

    /// Whether the file is being written (not chosen or asked about).
    pub fn writing(&self) -> bool {
        matches!(self.state, SaveState::Writing(..))
    }

    fn poll(&mut self) {
        let state = std::mem::replace(&mut self.state, SaveState::Ended(Ok(SaveEnd::NotChosen)));
        self.state = match state {
            SaveState::Choosing(pending) => {
                let mut slot = Some(pending);
                match (Pending::take_ready(&mut slot), slot) {
                    (None, Some(pending)) => SaveState::Choosing(pending),
                    (None, None) | (Some(Ok(None)), _) => SaveState::Ended(Ok(SaveEnd::NotChosen)),
                    (Some(Err(error)), _) => SaveState::Ended(Err(error)),
                    (Some(Ok(Some(path))), _) => self.chosen(path),
                }
            }
            SaveState::Writing(path, pending) => {
                let mut slot = Some(pending);
                match (Pending::take_ready(&mut slot), slot) {
                    (None, Some(pending)) => SaveState::Writing(path, pending),
                    (None, None) => SaveState::Ended(Ok(SaveEnd::NotChosen)),
                    (Some(written), _) => SaveState::Ended(
                        written.map(|records| SaveEnd::Saved(Saved { path, records })),
                    ),
                }
            }
            other => other,
        };
    }

    /// The file is known: asked about when it exists, else written.
    fn chosen(&mut self, path: PathBuf) -> SaveState {
        if exists(&path) {
            SaveState::Asking(path)
        } else {
            self.start(path, IfExists::Refuse)
        }
    }

    fn start(&mut self, path: PathBuf, if_exists: IfExists) -> SaveState {
        let Some(write) = self.write.take() else {
            return SaveState::Ended(Ok(SaveEnd::NotChosen));
        };
        let at = path.clone();
        let pending = self
            .spawner
            .spawn_blocking("Export", move || write(&at, if_exists));
        SaveState::Writing(path, pending)
    }

    /// The question when the file chosen exists: **Replace** writes it (beside it first, in
    /// its place once complete), **Cancel** keeps it.
    pub fn question_ui(&mut self, ui: &mut Ui) {
        let SaveState::Asking(path) = &self.state else {
            return;
        };
        match replace_question_ui(ui, path) {
            Some(true) => {
                let path = path.clone();
                self.state = self.start(path, IfExists::Replace);
            }
            Some(false) => self.state = SaveState::Ended(Ok(SaveEnd::Kept(path.clone()))),
            None => {}
        }
    }
}

/// Whether something is at `path` (a link too, even a broken one).
pub(crate) fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// "Replace …?" with **Replace** and **Cancel**: `Some(true)` to replace, `Some(false)` to keep
/// the file, `None` while unanswered.
#[must_use]
pub(crate) fn replace_question_ui(ui: &mut Ui, path: &Path) -> Option<bool> {
    let mut answer = None;
    ui.group(|ui| {
        ui.label(format!("Replace {}?", path.display()));
        ui.weak(
            "It exists. The new file is written beside it and takes its place only when \
             complete (a link is replaced itself, never the file it points to).",
        );
        ui.horizontal(|ui| {
            if ui.button("Replace").clicked() {
                answer = Some(true);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(false);
            }
        });
    });
    answer
}
