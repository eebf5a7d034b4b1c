//! Export the whole open table: a parallel scan with progress and Cancel, then the file in the
//! format chosen (gzipped when asked, or when the file name ends in `.gz`).

use std::path::PathBuf;

use egui::Ui;

use crate::save::{self, SaveEnd};
use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui};
use dynoscope_core::error::Error;
use dynoscope_core::limits::{self, AtOnce};
use dynoscope_core::read::{self, ScanProgress};
use dynoscope_core::report::{capacity, plural};
use dynoscope_core::task::{Job, Pending};
use dynoscope_core::transfer::{self, Format, IfExists};

/// What an export wrote.
pub(super) struct Exported {
    path: PathBuf,
    items: usize,
    pages: usize,
    rcu: f64,
}

/// The export of a whole table.
pub(super) struct TableExport {
    format: Format,
    gzip: bool,
    segments: String,
    /// Where to save, as typed (empty: ask with the dialog).
    to: String,
    choosing: Option<Pending<Option<PathBuf>>>,
    /// The file chosen exists: the question is shown.
    asking: Option<PathBuf>,
    /// The file chosen (and whether to replace it), the export to start.
    chosen: Option<(PathBuf, IfExists)>,
    job: Option<Job<ScanProgress, Option<Exported>>>,
    progress: Option<ScanProgress>,
    note: Option<Result<String, Error>>,
    /// What the exported table's reads cost, as it was when the export started.
    pricing: Option<dynoscope_core::cost::Pricing>,
}

impl Default for TableExport {
    fn default() -> Self {
        Self {
            format: Format::DynamoDbJsonLines,
            gzip: false,
            segments: "4".to_owned(),
            to: String::new(),
            choosing: None,
            asking: None,
            chosen: None,
            job: None,
            progress: None,
            note: None,
            pricing: None,
        }
    }
}

impl TableExport {
    pub(super) fn poll(&mut self) {
        if let Some(chosen) = Pending::take_ready(&mut self.choosing) {
            match chosen {
                // The system's dialog may not have asked; the app always does.
                Ok(Some(path)) if save::exists(&path) => self.asking = Some(path),
                Ok(Some(path)) => self.chosen = Some((path, IfExists::Refuse)),
                Ok(None) => self.note = Some(SaveEnd::note(Ok(SaveEnd::NotChosen), "items")),
                Err(error) => self.note = Some(Err(error)),
            }
        }
        let polled = Job::poll_slot(&mut self.job);
        if let Some(last) = polled.progress.into_iter().last() {
            self.progress = Some(last);
        }
        if let Some(done) = polled.done {
            let pricing = self.pricing.take();
            self.note = Some(done.map(|exported| match exported {
                Some(e) => format!(
                    "Exported {} to {} (read in {} · {})",
                    plural(e.items, "item"),
                    e.path.display(),
                    plural(e.pages, "page"),
                    match &pricing {
                        Some(pricing) => pricing.read(e.rcu).text(),
                        None => format!("{} RCU", capacity(e.rcu)),
                    }
                ),
                None => {
                    "Cancelled: no file written (part of a table is not an export of it).".into()
                }
            }));
        }
    }

    pub(super) fn afresh(&mut self) {
        if self.job.is_none() {
            self.note = None;
            self.progress = None;
        }
    }

    fn start(&mut self, scope: &Scope<'_>, path: PathBuf, if_exists: IfExists) {
        let segments = limits::segments_typed(&self.segments, 4)
            .and_then(|n| limits::check_segments(n, scope.table, false).map(|()| n));
        let segments = match segments {
            Ok(n) => AtOnce::new(n, "segments").map_or(1, |a| a.at_once),
            Err(error) => {
                self.note = Some(Err(error));
                return;
            }
        };
        let (client, info) = (scope.connection.reader(), scope.table.clone());
        let (format, gzip) = (self.format, self.gzip);
        self.pricing = Some(scope.connection.pricing(scope.table));
        self.progress = None;
        self.note = None;
        self.job = Some(
            scope
                .spawner
                .spawn_job("Export", move |progress, cancel| async move {
                    // Refused before the scan rather than after it.
                    transfer::check_target(&path, if_exists)?;
                    let read =
                        read::scan_table(&client, &info, segments, &cancel, |p| progress.send(p))
                            .await?;
                    let Some(read) = read else {
                        return Ok(None);
                    };
                    let keys = info.key_names();
                    let rows = read.rows;
                    let written = tokio::task::spawn_blocking(move || {
                        transfer::write_rows_file(&path, &rows, &keys, format, gzip, if_exists)
                            .map(|n| (n, path))
                    })
                    .await
                    .map_err(|e| Error::TaskDied {
                        op: "Export",
                        detail: e.to_string(),
                    })??;
                    Ok(Some(Exported {
                        path: written.1,
                        items: written.0,
                        pages: read.pages,
                        rcu: read.rcu,
                    }))
                }),
        );
    }

    /// The format, gzip and segments, and how many segments run at once.
    fn format_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Export format");
            egui::ComboBox::from_id_salt("export format")
                .selected_text(self.format.label())
                .show_ui(ui, |ui| {
                    for format in Format::ALL {
                        ui.selectable_value(&mut self.format, format, format.label());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.checkbox(&mut self.gzip, "gzip");
            labelled_text_ui(ui, "Segments", &mut self.segments, 30.0, "4");
            // The whole table is read in at most as many segments as run at once.
            let at_once = limits::segments_typed(&self.segments, 4)
                .and_then(|n| AtOnce::new(n, "segments"))
                .ok()
                .and_then(|a| a.note("segments"));
            if let Some(note) = at_once {
                ui.weak(note);
            }
        });
    }

    pub(super) fn export_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        if let Some((path, if_exists)) = self.chosen.take() {
            self.start(scope, path, if_exists);
        }
        ui.heading(format!("Export {}", scope.table.name));
        ui.weak("Every item, read in a parallel scan; numbers exact, sets, binary and nested values kept.");
        let pricing = scope.connection.pricing(scope.table);
        ui.label(dynoscope_core::cost::whole_read(
            scope.table.size_bytes,
            scope.table.item_count,
            &pricing,
        ));
        self.format_ui(ui);
        ui.horizontal_wrapped(|ui| {
            labelled_text_ui(
                ui,
                "Save to",
                &mut self.to,
                300.0,
                "a file or folder (empty: ask with a dialog)",
            );
            let busy = self.job.is_some() || self.choosing.is_some() || self.asking.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new("Export table…"))
                .clicked()
            {
                let name =
                    transfer::suggested_file_name(&scope.table.name, None, self.format, self.gzip);
                self.note = None;
                match save::typed_path(&self.to, &name) {
                    Some(path) if save::exists(&path) => self.asking = Some(path),
                    Some(path) => self.chosen = Some((path, IfExists::Refuse)),
                    None => self.choosing = Some(scope.saver.pick(scope.spawner, name)),
                }
            }
            if ui
                .add_enabled(self.job.is_some(), egui::Button::new("Cancel export"))
                .clicked()
                && let Some(job) = &self.job
            {
                job.cancel();
            }
        });
        if let Some(path) = self.asking.clone()
            && let Some(replace) = save::replace_question_ui(ui, &path)
        {
            self.asking = None;
            if replace {
                self.chosen = Some((path, IfExists::Replace));
            } else {
                self.note = Some(SaveEnd::note(Ok(SaveEnd::Kept(path)), "items"));
            }
        }
        if let Some(p) = self.progress.filter(|_| self.job.is_some()) {
            let total = scope.table.item_count.and_then(|n| u64::try_from(n).ok());
            let text = format!(
                "Read {} items{} · {} pages · {}",
                p.items,
                total.map(|t| format!(" of about {t}")).unwrap_or_default(),
                p.pages,
                pricing.read(p.rcu)
            );
            let fraction = total.map_or(0.0, |t| p.items as f32 / t.max(1) as f32);
            ui.add(
                egui::ProgressBar::new(fraction.min(1.0))
                    .animate(true)
                    .text(text),
            );
        } else if self.job.is_some() {
            ui.spinner();
        }
        match &self.note {
            Some(Ok(note)) => {
                ui.label(note);
            }
            Some(Err(error)) => error_ui(ui, error),
            None => {}
        }
    }
}
