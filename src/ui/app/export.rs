//! Exporting the loaded rows from the status bar.

use crate::core::value;
use crate::worker::Command;

use super::DynoscopeApp;

impl DynoscopeApp {
    pub(super) fn export(&mut self, format: crate::core::export::ExportFormat) {
        let Some(request) = &self.results.request else {
            return;
        };
        let partition = match &request.mode {
            crate::core::ops::BrowseMode::Query { partition, .. } => {
                Some(value::cell_text(partition))
            }
            crate::core::ops::BrowseMode::Scan { .. } => None,
        };
        self.next_job += 1;
        self.export_job = Some(self.next_job);
        self.export_note = None;
        self.worker.send(Command::Export {
            job: self.next_job,
            items: std::sync::Arc::clone(&self.results.items),
            key_names: self.results.key_names.clone(),
            format,
            suggested_name: crate::core::export::suggested_file_name(
                &request.table,
                partition.as_deref(),
            ),
        });
    }
}
