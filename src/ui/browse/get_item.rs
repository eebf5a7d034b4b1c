//! Get item…: open any item of the tab's table by its key, without writing a query. The key is
//! typed in one field per key attribute; one consistent `GetItem` reads it (the CLI's `get`,
//! in the same words when there is none), and it becomes the tab's one row, opened, with the
//! form set to the query that reads it again (Reload, F5).

use egui::Ui;

use crate::core::condition::SortOp;
use crate::core::error::Error;
use crate::core::read::{self, Page, Stopped};
use crate::core::value::{Item, cell_text};
use crate::task::Pending;
use crate::ui::Scope;
use crate::ui::browse::tab::TableTab;
use crate::ui::key_fields::KeyFields;
use crate::ui::widgets::error_ui;

/// The Get item… form of a tab.
#[derive(Default)]
pub struct GetItem {
    /// Whether the form is shown.
    pub open: bool,
    keys: KeyFields,
    reading: Option<Pending<(Item, f64)>>,
    error: Option<Error>,
}

impl TableTab {
    /// Draw Get item… (the button, and the form once opened); a found item replaces the rows.
    pub(super) fn get_item_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        if let Some(got) = Pending::take_ready(&mut self.get.reading) {
            match got {
                Ok((item, rcu)) => {
                    self.get.error = None;
                    self.show_got(scope, item, rcu);
                }
                Err(error) => self.get.error = Some(error),
            }
        }
        if !self.get.open {
            return;
        }
        let mut get = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("Get item by its key:");
            if self.get.keys.key_fields_ui(ui, scope.table) {
                self.get.error = None;
            }
            let busy = self.get.reading.is_some();
            get = ui.add_enabled(!busy, egui::Button::new("Get")).clicked();
            if busy {
                ui.spinner();
            }
            if ui.button("Close get").clicked() {
                self.get.open = false;
            }
        });
        if get {
            match self.get.keys.key(scope.table) {
                Ok(key) => {
                    let (client, info) = (scope.connection.client.clone(), scope.table.clone());
                    self.get.reading = Some(scope.spawner.spawn("GetItem", async move {
                        read::get_existing(&client, &info, key).await
                    }));
                }
                Err(error) => self.get.error = Some(error.into()),
            }
        }
        if let Some(error) = &self.get.error {
            error_ui(ui, error);
        }
    }

    /// The item read becomes the tab's one row, opened; the form is the query that reads it.
    fn show_got(&mut self, scope: &Scope<'_>, item: Item, rcu: f64) {
        let info = scope.table;
        self.form.scan = false;
        self.form.index = None;
        self.form.partition = item
            .get(&info.partition.name)
            .map(cell_text)
            .unwrap_or_default();
        self.form.sort_op = None;
        if let Some(sort) = &info.sort {
            self.form.sort_op = Some(SortOp::Eq);
            self.form.sort_value = item.get(&sort.name).map(cell_text).unwrap_or_default();
        }
        self.form.filter_attr.clear();
        match self.form.request(info) {
            Ok(request) => {
                self.cancel();
                let keys = info.grid_key_names(None);
                self.results.start(request, keys, info.item_count);
                self.results.add_page(Page {
                    items: vec![item],
                    consumed_rcu: rcu,
                    ..Page::default()
                });
                self.results.ended(Ok(Stopped::LastPage), None);
                self.results.move_cursor(0, 0, false);
            }
            Err(error) => self.get.error = Some(error),
        }
    }
}
