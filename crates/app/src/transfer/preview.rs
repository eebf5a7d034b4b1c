//! What a check of a file to import found, drawn: how many items, the files read and those
//! left out, the first items, and the columns with their types (for CSV, each column's type
//! chosen); and the check under way with Cancel.

use std::collections::BTreeMap;

use egui::{RichText, Ui};

use dynoscope_core::import::{ImportCheck, MAX_COLUMNS};
use dynoscope_core::report::plural;
use dynoscope_core::table::human_bytes;
use dynoscope_core::transfer::{CellType, Format, StreamProgress};
use dynoscope_core::value;

/// Items of the preview shown.
const PREVIEW: usize = 10;

/// Files listed; the others are counted.
const FILES_SHOWN: usize = 20;

/// The check under way: a spinner, how far it is, and **Cancel reading**; `true` when that
/// was clicked.
#[must_use]
pub(super) fn checking_ui(ui: &mut Ui, progress: Option<&StreamProgress>) -> bool {
    ui.spinner();
    ui.label(match progress {
        Some(p) => format!(
            "Reading and checking every line… {} items, {} read",
            p.items,
            human_bytes(i64::try_from(p.bytes).unwrap_or(i64::MAX))
        ),
        None => "Reading and checking every line…".to_owned(),
    });
    ui.button("Cancel reading").clicked()
}

/// The preview of `checked`; `types` holds each CSV column's choice. `true` when a choice
/// changed (the file must be read again for it).
/// What the preview shows of a check, written once when the check arrives (not every frame:
/// an item may be 400 KB of JSON).
pub(super) struct Shown {
    lines: Vec<String>,
    columns: Vec<(String, String)>,
}

impl Shown {
    /// The preview's lines and columns of `checked`.
    pub(super) fn of(checked: &ImportCheck) -> Self {
        let lines = checked
            .preview
            .iter()
            .take(PREVIEW)
            .map(|read| {
                let line = value::item_to_plain_json(&read.item, &[], false);
                format!("line {}: {line}", read.line)
            })
            .collect();
        let columns = checked
            .columns
            .list()
            .into_iter()
            .map(|(name, kinds)| {
                let mut text = kinds.join(", ");
                if kinds.len() > 1 {
                    text += "  (mixed)";
                }
                (name, text)
            })
            .collect();
        Self { lines, columns }
    }
}

pub(super) fn preview_ui(
    ui: &mut Ui,
    checked: &ImportCheck,
    shown: &Shown,
    types: &mut BTreeMap<String, CellType>,
) -> bool {
    let mut read_again = false;
    ui.separator();
    ui.strong(format!(
        "{} read from {} as {}, every one checked against the table",
        plural(checked.items, "item"),
        checked.path.display(),
        checked.format.label()
    ));
    files_ui(ui, checked);
    ui.label(RichText::new("First items").weak());
    for line in &shown.lines {
        ui.label(RichText::new(line).monospace());
    }
    ui.label(RichText::new("Columns and the types read").weak());
    egui::Grid::new("import_columns")
        .striped(true)
        .show(ui, |ui| {
            for (name, kinds_text) in &shown.columns {
                ui.add(egui::Label::new(name).extend());
                ui.add(egui::Label::new(kinds_text).extend());
                if checked.format == Format::Csv {
                    let chosen = types.entry(name.clone()).or_default();
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
    if checked.columns.more {
        ui.weak(format!("… more attributes than the {MAX_COLUMNS} listed"));
    }
    read_again
}

/// The files read (with their items) and the entries left out.
fn files_ui(ui: &mut Ui, checked: &ImportCheck) {
    if checked.files.len() > 1 || !checked.skipped.is_empty() {
        ui.label(RichText::new(format!("Read {}", plural(checked.files.len(), "file"))).weak());
        for file in checked.files.iter().take(FILES_SHOWN) {
            ui.label(format!(
                "{} ({})",
                file.path.display(),
                plural(file.items, "item")
            ));
        }
        if checked.files.len() > FILES_SHOWN {
            ui.weak(format!("… and {} more", checked.files.len() - FILES_SHOWN));
        }
    }
    for skipped in &checked.skipped {
        ui.colored_label(ui.visuals().warn_fg_color, skipped);
    }
}
