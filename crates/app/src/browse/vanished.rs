//! Tabs on a table that is no longer listed: closed when the tables are listed, and said so
//! until dismissed.

use egui::Ui;

use crate::browse::BrowseFeature;

impl BrowseFeature {
    /// The connection's tables were listed: a tab on a table not among `names` (deleted, here
    /// or elsewhere, or gone since the last run) is closed, and said so until dismissed. A tab
    /// whose write has not answered stays.
    pub(crate) fn tables_listed(&mut self, names: &[String]) {
        let mut at = 0;
        while at < self.tabs.len() {
            let gone = self.tabs[at]
                .body
                .table()
                .filter(|t| !names.iter().any(|n| n == t))
                .map(str::to_owned);
            match gone {
                Some(table) if !self.tabs[at].body.writing() => {
                    let name = self.tabs[at].name.clone();
                    self.close_tab(at);
                    self.closed_gone.push(format!("{name} (on {table})"));
                }
                _ => at += 1,
            }
        }
    }

    /// Tabs closed because their table is gone, said above the tabs until dismissed.
    pub(super) fn closed_gone_ui(&mut self, ui: &mut Ui) {
        if self.closed_gone.is_empty() {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "Closed {}: the table is not on this connection any more (deleted).",
                    self.closed_gone.join(", ")
                ),
            );
            if ui.button("Dismiss").clicked() {
                self.closed_gone.clear();
            }
        });
    }
}
