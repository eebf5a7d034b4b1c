//! Import and export of the open table: a whole table out to a file in any of DynamoDB's
//! formats (a parallel scan with progress and Cancel), and a file into the table (preview,
//! types, dry run, batches through the write gateway with progress and Cancel). The result
//! tab's rows are exported from the grid's own Export… menu.

mod export;
mod import;
mod preview;

use egui::Ui;

use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::scope::Scope;
use dynoscope_core::tally::TallyRule;

use export::TableExport;
use import::FileImport;

/// The import and export feature's state.
#[derive(Default)]
pub(crate) struct TransferFeature {
    export: TableExport,
    import: FileImport,
    /// The open table's counter rules (set by the shell), so an import says the tallies its
    /// children leave behind.
    pub rules: Vec<TallyRule>,
}

impl TransferFeature {
    /// Take in what the work brought back.
    #[must_use]
    fn take_in(&mut self) -> Option<Intent> {
        self.export.poll();
        self.import.poll()
    }

    /// Start afresh on another table: a file read and checked for the table before is read
    /// again for this one (an import or export under way still reports).
    fn afresh(&mut self) {
        self.import.afresh();
        self.export.afresh();
    }

    /// The Import / Export view.
    fn transfer_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        egui::ScrollArea::vertical()
            .id_salt("transfer")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.import.import_ui(ui, scope, &self.rules);
                ui.add_space(12.0);
                ui.separator();
                self.export.export_ui(ui, scope);
            });
    }
}

impl Feature for TransferFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        intents.extend(self.take_in());
    }

    fn subject_changed(&mut self, _subject: Subject<'_>) {
        self.afresh();
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        self.transfer_ui(ui, context.scope);
    }
}
