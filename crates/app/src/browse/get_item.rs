//! Get item…: open any item of the tab's table by its key, without writing a query. The key is
//! typed in one field per key attribute; one consistent `GetItem` reads it (the CLI's `get`,
//! in the same words when there is none), and it becomes the tab's one row, opened, with the
//! form set to the query that reads it again (Reload, F5).

use egui::Ui;

use crate::key_fields::KeyFields;
use crate::scope::Scope;
use crate::widgets::error_ui;
use dynoscope_core::error::Error;
use dynoscope_core::read;
use dynoscope_core::task::Pending;
use dynoscope_core::value::Item;

/// The Get item… form of a tab.
#[derive(Default)]
pub(super) struct GetItem {
    /// Whether the form is shown.
    pub open: bool,
    keys: KeyFields,
    reading: Option<Pending<(Item, f64)>>,
    error: Option<Error>,
}

impl GetItem {
    /// Draw the form once opened; the item found (and the read capacity it took), once read.
    pub(super) fn get_item_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<(Item, f64)> {
        let mut found = None;
        if let Some(got) = Pending::take_ready(&mut self.reading) {
            match got {
                Ok(item) => {
                    self.error = None;
                    found = Some(item);
                }
                Err(error) => self.error = Some(error),
            }
        }
        if !self.open {
            return found;
        }
        let mut get = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("Get item by its key:");
            if self.keys.key_fields_ui(ui, scope.table) {
                self.error = None;
            }
            let busy = self.reading.is_some();
            get = ui.add_enabled(!busy, egui::Button::new("Get")).clicked();
            if busy {
                ui.spinner();
            }
            if ui.button("Close get").clicked() {
                self.open = false;
            }
        });
        if get {
            match self.keys.key(scope.table) {
                Ok(key) => {
                    let (client, info) = (scope.connection.reader(), scope.table.clone());
                    self.reading = Some(scope.spawner.spawn("GetItem", async move {
                        read::get_existing(&client, &info, key).await
                    }));
                }
                Err(error) => self.error = Some(error.into()),
            }
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        found
    }
}
