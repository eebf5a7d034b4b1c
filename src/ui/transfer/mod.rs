//! Import and export of the open table: a whole table out to a file in any of DynamoDB's
//! formats (a parallel scan with progress and Cancel), and a file into the table (preview,
//! types, dry run, batches through the write gateway with progress and Cancel). The result
//! tab's rows are exported from the grid's own Export… menu.

mod export;
mod import;
mod preview;

use egui::Ui;

use crate::ui::{Intent, Scope};

use export::TableExport;
use import::FileImport;

/// The import and export feature's state.
#[derive(Default)]
pub struct TransferFeature {
    export: TableExport,
    import: FileImport,
}

impl TransferFeature {
    /// Take in what the work brought back.
    #[must_use]
    pub fn poll(&mut self) -> Option<Intent> {
        self.export.poll();
        self.import.poll()
    }

    /// Start afresh on another table: a file read and checked for the table before is read
    /// again for this one (an import or export under way still reports).
    pub fn afresh(&mut self) {
        self.import.afresh();
        self.export.afresh();
    }

    /// The Import / Export view.
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        egui::ScrollArea::vertical()
            .id_salt("transfer")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.import.import_ui(ui, scope);
                ui.add_space(12.0);
                ui.separator();
                self.export.export_ui(ui, scope);
            });
    }
}
