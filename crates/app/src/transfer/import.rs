//! Import a file into the open table: read and check every line first, streamed (a malformed
//! one is named and nothing is written), with progress and Cancel; a preview of the first items,
//! the columns' types and the files read (CSV types can be changed, and the file read again);
//! a dry run; then the import, the files read again and sent in batches of 25 through the
//! gateway with progress and Cancel, and its report.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use egui::{RichText, Ui};

use crate::intent::Intent;
use crate::scope::Scope;
use crate::transfer::preview::{Shown, checking_ui, preview_ui};
use crate::widgets::{self, error_ui, labelled_text_ui, write_button_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::error::Error;
use dynoscope_core::import::{self, CheckLimits, ImportCheck, ImportProgress, ImportReport};
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::{Job, Pending};
use dynoscope_core::transfer::{self, CellType, Format, StreamProgress};
use dynoscope_core::write::Destination;

/// The import form, the preview and the run.
#[derive(Default)]
pub(super) struct FileImport {
    path: String,
    format: Option<Format>,
    /// Lines that are not items are skipped (and written to `FILE.rejected`) rather than the
    /// import refused.
    skip_invalid: bool,
    types: BTreeMap<String, CellType>,
    /// The file the column types were chosen for.
    types_for: Option<PathBuf>,
    choosing: Option<Pending<Option<PathBuf>>>,
    reading: Option<Job<StreamProgress, ImportCheck>>,
    read_progress: Option<StreamProgress>,
    checked: Option<Arc<ImportCheck>>,
    /// What the preview shows of `checked`, written when it arrived.
    shown: Option<Shown>,
    error: Option<Error>,
    /// The import asked about (the file as checked), or under way.
    write: WriteFlow<Arc<ImportCheck>, Importing>,
    progress: Option<ImportProgress>,
    report: Option<ImportReport>,
}

impl FileImport {
    #[must_use]
    pub(super) fn poll(&mut self) -> Option<Intent> {
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
        let polled = Job::poll_slot(&mut self.reading);
        if let Some(last) = polled.progress.into_iter().last() {
            self.read_progress = Some(last);
        }
        match polled.done {
            Some(Ok(checked)) => {
                self.shown = Some(Shown::of(&checked));
                self.checked = Some(Arc::new(checked));
            }
            Some(Err(error)) => self.error = Some(error),
            None => {}
        }
        let polled = Job::poll_slot(&mut self.write.sending().as_mut()?.job);
        if let Some(last) = polled.progress.into_iter().last() {
            self.progress = Some(last);
        }
        let done = polled.done?;
        match done {
            Ok(report) => self.report = Some(report),
            Err(error) => self.error = Some(error),
        }
        // Its items are too many to read back one by one; the table's facts are.
        self.write
            .sending()
            .take()
            .map(|importing| importing.written)
    }

    pub(super) fn afresh(&mut self) {
        if !self.write.is_sending() {
            self.checked = None;
            self.report = None;
            self.progress = None;
        }
        self.reading = None;
        self.write.drop_question();
        self.error = None;
    }

    /// Read and check the file, off the UI thread.
    fn read(&mut self, scope: &Scope<'_>, rules: &[TallyRule]) {
        let path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            self.error = Some(Error::Invalid(
                "give the file (or an S3 export's folder) to import".into(),
            ));
            return;
        }
        self.error = None;
        self.checked = None;
        self.report = None;
        self.write.drop_question();
        self.read_progress = None;
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
        let (info, rules) = (scope.table.clone(), rules.to_vec());
        let connection = scope.connection.clone();
        let limits = CheckLimits {
            skip_invalid: self.skip_invalid,
            ..CheckLimits::default()
        };
        self.reading = Some(
            scope
                .spawner
                .spawn_blocking_job("Import", move |progress, cancel| {
                    let format = match chosen {
                        Some(format) => format,
                        None => transfer::guess_format(&path)?,
                    };
                    let types = if format == Format::Csv {
                        types
                    } else {
                        HashMap::new()
                    };
                    let sources = import::import_sources(&path, &connection, &cancel)?;
                    import::check_import(
                        &sources,
                        format,
                        &types,
                        &info,
                        &rules,
                        limits,
                        &cancel,
                        |p| progress.send(p),
                    )
                }),
        );
    }

    /// The form, the preview and the run; `rules` are the table's counter rules, whose children
    /// in the file are said per parent.
    pub(super) fn import_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, rules: &[TallyRule]) {
        ui.heading(format!("Import into {}", scope.table.name));
        ui.horizontal_wrapped(|ui| {
            labelled_text_ui(
                ui,
                "File to import",
                &mut self.path,
                320.0,
                "a .csv, .jsonl or .json file (plain or .gz), an export's folder, or s3://… of one",
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
            let busy = self.reading.is_some() || self.write.is_sending();
            let skip = ui
                .add_enabled(
                    !busy,
                    egui::Checkbox::new(&mut self.skip_invalid, "Skip invalid lines"),
                )
                .on_hover_text(
                    "Import the lines DynamoDB would take; the others go to FILE.rejected, \
                     each after a # line saying why, to fix and import again",
                );
            if ui
                .add_enabled(!busy, egui::Button::new("Read and check"))
                .clicked()
                // What is skipped is decided by the check: a file read is read again.
                || (skip.changed() && (self.checked.is_some() || self.error.is_some()))
            {
                self.read(scope, rules);
            }
            if let Some(reading) = &self.reading
                && checking_ui(ui, self.read_progress.as_ref())
            {
                reading.cancel();
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
            if self.skip_invalid || self.report.is_some() {
                ui.weak("Nothing was written.");
            } else {
                ui.weak("Nothing was written. Skip invalid lines imports the others.");
            }
        }
        if let (Some(checked), Some(shown)) = (self.checked.clone(), &self.shown) {
            if preview_ui(ui, &checked, shown, &mut self.types) {
                ui.weak("Read the file again (Read and check) to apply the column types.");
            }
            invalid_ui(ui, &checked);
            for line in checked.tallies.lines() {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            }
            ui.label(checked.estimate(&scope.connection.pricing(scope.table)));
            self.run_ui(ui, scope, &checked);
        }
    }

    fn run_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, checked: &ImportCheck) {
        let count = checked.items;
        let running = self.write.is_sending();
        let writes_on = writes_to_ui(
            ui,
            &format!(
                "table {} · {} in batches of 25 · {}",
                scope.table.name,
                dynoscope_core::report::plural(count, "item"),
                scope.connection.label()
            ),
            scope.connection,
        );
        let mut import_it = false;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!running, egui::Button::new("Dry run"))
                .clicked()
            {
                self.report = Some(ImportReport::dry_run(checked));
            }
            let text = format!("Import {}", dynoscope_core::report::plural(count, "item"));
            if write_button_ui(
                ui,
                scope.connection,
                writes_on && !self.write.busy() && count > 0,
                &text,
            )
            .clicked()
            {
                import_it = true;
            }
            if ui
                .add_enabled(running, egui::Button::new("Cancel import"))
                .clicked()
                && let Some(Importing { job: Some(job), .. }) = self.write.sending()
            {
                job.cancel();
            }
        });
        if import_it && let Some(checked) = self.checked.clone() {
            let confirmation = import::confirmation(scope.connection, scope.table, count);
            let (report, progress) = (&mut self.report, &mut self.progress);
            let begun = self
                .write
                .begin(checked, confirmation, |checked, confirmed| {
                    start(scope, report, progress, checked, confirmed)
                });
            if let Err(error) = begun {
                self.error = Some(error);
            }
        }
        let (report, progress) = (&mut self.report, &mut self.progress);
        self.write.question_ui(ui, |checked, confirmed| {
            start(scope, report, progress, checked, confirmed)
        });
        if let Some(p) = &self.progress {
            if self.write.is_sending() {
                let fraction = p.done as f32 / p.total.max(1) as f32;
                ui.add(
                    egui::ProgressBar::new(fraction)
                        .animate(true)
                        .text(p.line(&scope.connection.pricing(scope.table))),
                );
            }
        } else if self.write.is_sending() {
            ui.spinner();
        }
        if let Some(report) = &self.report {
            let tone = if report.ending() == dynoscope_core::ending::Ending::Done {
                widgets::GOOD
            } else {
                ui.visuals().warn_fg_color
            };
            ui.colored_label(tone, report.summary(&scope.connection.pricing(scope.table)));
            for line in report.details().iter().take(20) {
                ui.label(line);
            }
        }
    }
}

/// The lines a check skipped, listed (the first 100), and where an import writes them.
fn invalid_ui(ui: &mut Ui, checked: &ImportCheck) {
    let mut lines = checked.invalid.lines().into_iter();
    let Some(head) = lines.next() else {
        return;
    };
    ui.colored_label(ui.visuals().warn_fg_color, head);
    egui::ScrollArea::vertical()
        .id_salt("skipped lines")
        .max_height(120.0)
        .show(ui, |ui| {
            for line in lines {
                ui.label(RichText::new(line).monospace());
            }
        });
    ui.weak(format!(
        "An import writes them, each after a # line saying why, to {} (fix them there and import that file).",
        checked.rejected.display()
    ));
}

/// An import under way, and what it writes (said when it ends: the table's facts are read
/// again).
struct Importing {
    job: Option<Job<ImportProgress, ImportReport>>,
    written: Intent,
}

/// Import `checked` through the write gateway (`confirmed`: the user said yes to its
/// question); the last report and progress make way for its own.
fn start(
    scope: &Scope<'_>,
    report: &mut Option<ImportReport>,
    progress: &mut Option<ImportProgress>,
    checked: Arc<ImportCheck>,
    confirmed: bool,
) -> Importing {
    let (connection, info) = (scope.connection.clone(), scope.table.clone());
    *report = None;
    *progress = None;
    let written = Intent::Written {
        destination: Box::new(Destination::of(scope.connection)),
        table: info.name.clone(),
        keys: Vec::new(),
    };
    let job = scope
        .spawner
        .spawn_job("Import", move |progress, cancel| async move {
            Ok(import::import(
                &connection,
                &info,
                &checked,
                import::BATCHES_AT_ONCE,
                confirmed,
                &cancel,
                |p| progress.send(p),
            )
            .await)
        });
    Importing {
        job: Some(job),
        written,
    }
}
