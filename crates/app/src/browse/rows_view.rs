//! What every result tab shows under its form: the column chooser and Find, the find bar, the
//! grid's keyboard, and the grid; and the export of a tab's rows.

use egui::Ui;

use crate::browse::columns::columns_menu_ui;
use crate::browse::find::find_bar_ui;
use crate::browse::grid::{GridAction, results_grid_ui};
use crate::browse::keys::grid_keys_ui;
use crate::browse::results::Results;
use crate::save::{SaveEnd, Saving};
use crate::scope::Scope;
use crate::widgets::error_ui;
use dynoscope_core::error::Error;
use dynoscope_core::report::age_text;
use dynoscope_core::transfer::{self, Format};

/// Draw the rows of a tab; a number edit asked for in the grid (only when `editable`: rows of
/// the open table, whose keys the edit form can trust).
#[must_use]
pub(super) fn rows_ui(
    ui: &mut Ui,
    results: &mut Results,
    loading: bool,
    editable: bool,
) -> Option<GridAction> {
    if !results.rows.is_empty() {
        ui.horizontal(|ui| {
            columns_menu_ui(ui, results);
            if ui
                .button("Find…")
                .on_hover_text("Find text in the loaded rows (Ctrl+F)")
                .clicked()
            {
                results.open_find();
            }
            // Shortened in a narrow window, whole on hover.
            let hint = "Click a header to sort (right-click: move, hide) · arrows, Page Up/Down move · Ctrl+C copies · Ctrl+K goes anywhere";
            ui.add(egui::Label::new(egui::RichText::new(hint).weak()).truncate())
                .on_hover_text(hint);
        });
    }
    find_bar_ui(ui, results);
    grid_keys_ui(ui, results);
    results_grid_ui(ui, results, loading, editable)
}

/// A tab's export: the file being chosen, asked about or written, and what became of the last
/// one.
#[derive(Default)]
pub(super) struct Export {
    /// Where to save, as typed (empty: ask with the dialog).
    pub path: String,
    saving: Option<Saving>,
    note: Option<Result<String, Error>>,
    /// Said beside the export's outcome: its rows are older than a write of ours.
    older: Option<String>,
}

impl Export {
    /// Take in a finished export.
    pub(super) fn poll(&mut self) {
        if let Some(end) = Saving::take_ended(&mut self.saving) {
            let older = self.older.take();
            self.note = Some(SaveEnd::note(end, "items").map(|note| match older {
                Some(older) => format!("{note} {older}"),
                None => note,
            }));
        }
    }

    /// At the path typed (or where the dialog says), write `results`' rows (all loaded, in server order) as `format`,
    /// gzipped when the file's name ends in `.gz`; a file that exists is replaced only when
    /// the user says so.
    pub(super) fn start(
        &mut self,
        scope: &Scope<'_>,
        results: &Results,
        name: String,
        format: Format,
    ) {
        // A clone shares the row store's full chunks; the file is written on a worker.
        let rows = results.rows.clone();
        let keys = results.key_names().to_vec();
        self.note = None;
        self.older = results.times.written_since_read().map(|written| {
            format!(
                "Some rows were read before a write of ours {}: they may not be what the \
                 server holds now.",
                age_text(written.elapsed())
            )
        });
        self.saving = Some(scope.saver.save(
            scope.spawner,
            name,
            &self.path,
            move |path, if_exists| {
                // Gzipped when the name ends in `.gz` (the writer's rule).
                transfer::write_rows_file(path, &rows, &keys, format, false, if_exists)
            },
        ));
    }

    /// Draw the question when the file exists, the outcome, or that it is under way.
    pub(super) fn ui(&mut self, ui: &mut Ui) {
        if let Some(saving) = &mut self.saving {
            saving.question_ui(ui);
        }
        match &self.note {
            Some(Ok(note)) => {
                ui.label(note);
            }
            Some(Err(error)) => error_ui(ui, error),
            None if self.saving.as_ref().is_some_and(Saving::writing) => {
                ui.weak("Exporting…");
            }
            None => {}
        }
    }
}
