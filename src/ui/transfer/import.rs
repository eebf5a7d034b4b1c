//! Import a file into the open table: read and check every line first (a malformed one is
//! named and nothing is written), a preview of the first items and of the columns' types
//! (CSV types can be changed, and the file read again), a dry run, then the import in batches
//! of 25 through the gateway with progress and Cancel, and its report.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use egui::{RichText, Ui};

use crate::core::error::Error;
use crate::core::transfer::import::{self, ImportProgress, ImportReport};
use crate::core::transfer::{self, CellType, Format, ReadItem};
use crate::core::value;
use crate::core::write::Confirmation;
use crate::task::{Job, Pending};
use crate::ui::Scope;
use crate::ui::widgets::{self, error_ui, labelled_text_ui, write_button_ui, writes_to_ui};

/// How many items the preview shows.
const PREVIEW: usize = 10;

/// A file read and checked, waiting to be imported.
struct Preview {
    /// What was read (the path and the format it was read as).
    path: PathBuf,
    format: Format,
    items: Arc<Vec<ReadItem>>,
    /// Every attribute with the types seen.
    columns: Vec<(String, Vec<&'static str>)>,
}

/// The import form, the preview and the run.
#[derive(Default)]
pub(super) struct FileImport {
    path: String,
    format: Option<Format>,
    types: BTreeMap<String, CellType>,
    /// The file the column types were chosen for.
    types_for: Option<PathBuf>,
    choosing: Option<Pending<Option<PathBuf>>>,
    reading: Option<Pending<(Format, Vec<ReadItem>)>>,
    preview: Option<Preview>,
    error: Option<Error>,
    confirm: Option<String>,
    job: Option<Job<ImportProgress, ImportReport>>,
    progress: Option<ImportProgress>,
    report: Option<ImportReport>,
}

impl FileImport {
    pub(super) fn poll(&mut self) {
        if let Some(chosen) = Pending::take_ready(&mut self.choosing) {
            match chosen {
                Ok(Some(path)) => self.path = path.display().to_string(),
                Ok(None) => {
                    self.error = Some(Error::Invalid(
                        "no file chosen (if no dialog appeared: it needs xdg-desktop-portal or \
                         zenity); type the file's path instead"
                            .into(),
                    ));
                }
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(read) = Pending::take_ready(&mut self.reading) {
            match read {
                Ok((format, items)) => {
                    let columns = transfer::column_types(&items);
                    self.preview = Some(Preview {
                        path: PathBuf::from(self.path.trim()),
                        format,
                        items: Arc::new(items),
                        columns,
                    });
                }
                Err(error) => self.error = Some(error),
            }
        }
        let polled = Job::poll_slot(&mut self.job);
        if let Some(last) = polled.progress.into_iter().last() {
            self.progress = Some(last);
        }
        if let Some(done) = polled.done {
            match done {
                Ok(report) => self.report = Some(report),
                Err(error) => self.error = Some(error),
            }
        }
    }

    pub(super) fn afresh(&mut self) {
        if self.job.is_none() {
            self.preview = None;
            self.report = None;
            self.progress = None;
        }
        self.confirm = None;
        self.error = None;
    }

    /// Read and check the file, off the UI thread.
    fn read(&mut self, scope: &Scope<'_>) {
        let path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            self.error = Some(Error::Invalid(
                "give the file (or an S3 export's folder) to import".into(),
            ));
            return;
        }
        self.error = None;
        self.preview = None;
        self.report = None;
        self.confirm = None;
        // Column types belong to the file they were chosen for.
        if self.types_for.as_ref() != Some(&path) {
            self.types.clear();
            self.types_for = Some(path.clone());
        }
        let chosen = self.format;
        let types: HashMap<String, CellType> = self
            .types
            .iter()
            .filter(|(_, kind)| **kind != CellType::Auto)
            .map(|(name, kind)| (name.clone(), *kind))
            .collect();
        let info = scope.table.clone();
        self.reading = Some(scope.spawner.spawn_blocking("Import", move || {
            let format = match chosen {
                Some(format) => format,
                None => transfer::guess_format(&path)?,
            };
            let types = if format == Format::Csv {
                types
            } else {
                HashMap::new()
            };
            let items = import::read_for_import(&path, format, &types, &info)?;
            Ok((format, items))
        }));
    }

    fn start(&mut self, scope: &Scope<'_>, confirmed: bool) {
        let Some(preview) = &self.preview else {
            return;
        };
        let items = preview.items.as_ref().clone();
        let (connection, info) = (scope.connection.clone(), scope.table.clone());
        self.report = None;
        self.progress = None;
        self.job = Some(
            scope
                .spawner
                .spawn_job("Import", move |progress, cancel| async move {
                    Ok(
                        import::import(&connection, &info, items, confirmed, &cancel, |p| {
                            progress.send(p)
                        })
                        .await,
                    )
                }),
        );
    }

    pub(super) fn import_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        ui.heading(format!("Import into {}", scope.table.name));
        ui.horizontal_wrapped(|ui| {
            labelled_text_ui(
                ui,
                "File to import",
                &mut self.path,
                320.0,
                "a .csv, .jsonl or .json file (plain or .gz), or an export's folder",
            );
            if ui
                .add_enabled(self.choosing.is_none(), egui::Button::new("Choose file…"))
                .clicked()
            {
                self.choosing = Some(scope.saver.open(scope.spawner));
            }
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Import format");
            egui::ComboBox::from_id_salt("import format")
                .selected_text(self.format.map_or("by the file", Format::label))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.format, None, "by the file");
                    for format in Format::ALL {
                        ui.selectable_value(&mut self.format, Some(format), format.label());
                    }
                })
                .response
                .labelled_by(label.id);
            let busy = self.reading.is_some() || self.job.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new("Read and check"))
                .clicked()
            {
                self.read(scope);
            }
            if self.reading.is_some() {
                ui.spinner();
                ui.label("Reading and checking every line…");
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
            ui.weak("Nothing was written.");
        }
        if self.preview.is_some() {
            self.preview_ui(ui);
            self.run_ui(ui, scope);
        }
    }

    fn preview_ui(&mut self, ui: &mut Ui) {
        let Some(preview) = &self.preview else {
            return;
        };
        let mut read_again = false;
        ui.separator();
        ui.strong(format!(
            "{} items read from {} as {}, every one checked against the table's key",
            preview.items.len(),
            preview.path.display(),
            preview.format.label()
        ));
        ui.label(RichText::new("First items").weak());
        for read in preview.items.iter().take(PREVIEW) {
            let line = value::item_to_plain_json(&read.item, &[], false);
            ui.label(RichText::new(format!("line {}: {line}", read.line)).monospace());
        }
        ui.label(RichText::new("Columns and the types read").weak());
        egui::Grid::new("import_columns")
            .striped(true)
            .show(ui, |ui| {
                for (name, kinds) in &preview.columns {
                    ui.add(egui::Label::new(name).extend());
                    let mut kinds_text = kinds.join(", ");
                    if kinds.len() > 1 {
                        kinds_text += "  (mixed)";
                    }
                    ui.add(egui::Label::new(kinds_text).extend());
                    if preview.format == Format::Csv {
                        let chosen = self.types.entry(name.clone()).or_default();
                        let before = *chosen;
                        egui::ComboBox::from_id_salt(("cell type", name))
                            .selected_text(format!("read as: {}", chosen.label()))
                            .show_ui(ui, |ui| {
                                for kind in CellType::ALL {
                                    ui.selectable_value(chosen, kind, kind.label());
                                }
                            });
                        read_again |= *chosen != before;
                    }
                    ui.end_row();
                }
            });
        if read_again {
            ui.weak("Read the file again (Read and check) to apply the column types.");
        }
    }

    fn run_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        let Some(preview) = &self.preview else {
            return;
        };
        let count = preview.items.len();
        let running = self.job.is_some();
        let writes_on = writes_to_ui(
            ui,
            &format!(
                "table {} · {} in batches of 25 · {}",
                scope.table.name,
                crate::core::report::plural(count, "item"),
                scope.connection.label()
            ),
            scope.connection,
        );
        let mut send = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Dry run"))
                .clicked()
            {
                self.report = Some(ImportReport {
                    read: count,
                    dry_run: true,
                    ..ImportReport::default()
                });
            }
            let text = format!("Import {count} items");
            if write_button_ui(
                ui,
                scope.connection,
                writes_on && !running && count > 0,
                &text,
            )
            .clicked()
            {
                match import::confirmation(scope.connection, scope.table, count) {
                    Confirmation::NotNeeded => send = Some(false),
                    Confirmation::Ask(question) => self.confirm = Some(question),
                    Confirmation::Refused(error) => self.error = Some(error),
                }
            }
            if ui
                .add_enabled(running, egui::Button::new("Cancel import"))
                .clicked()
                && let Some(job) = &self.job
            {
                job.cancel();
            }
        });
        if let Some(question) = &self.confirm {
            match widgets::confirm_ui(ui, question) {
                Some(true) => {
                    self.confirm = None;
                    send = Some(true);
                }
                Some(false) => self.confirm = None,
                None => {}
            }
        }
        if let Some(confirmed) = send {
            self.start(scope, confirmed);
        }
        if let Some(p) = &self.progress {
            if self.job.is_some() {
                let fraction = p.done as f32 / p.total.max(1) as f32;
                ui.add(
                    egui::ProgressBar::new(fraction)
                        .animate(true)
                        .text(p.to_string()),
                );
            }
        } else if self.job.is_some() {
            ui.spinner();
        }
        if let Some(report) = &self.report {
            let tone = if report.dry_run || report.written == report.read {
                widgets::GOOD
            } else {
                ui.visuals().warn_fg_color
            };
            ui.colored_label(tone, report.summary());
            for line in report.details().iter().take(20) {
                ui.label(line);
            }
        }
    }
}
