//! The item view: one item as DynamoDB JSON and plain JSON, both copyable, with how old it is
//! and Reload (F5 over it); its header's Edit, Duplicate, Delete and Close. Rows a write of ours
//! touched are read again here too, so the item shown is the server's.

use egui::{Key, Modifiers, Ui};

use crate::browse::BrowseFeature;
use crate::browse::reread::MAX_AT_ONCE;
use crate::browse::results::Results;
use crate::browse::tabs::TabBody;
use crate::intent::{EditStart, Intent};
use crate::item_size::item_size_ui;
use crate::scope::Scope;
use crate::widgets::error_ui;
use dynoscope_core::report::age_text;
use dynoscope_core::value::{self, Item};

/// Which rendering of the item is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ItemFormat {
    /// `{"likeTally": {"N": "3"}}`
    #[default]
    DynamoDb,
    /// `{"likeTally": 3}`
    Plain,
}

/// Draw `item` with a format switch and a copy button.
pub(super) fn item_view_ui(
    ui: &mut Ui,
    item: &Item,
    key_names: &[String],
    format: &mut ItemFormat,
) {
    let text = match format {
        ItemFormat::DynamoDb => value::item_to_dynamodb_json(item, key_names, true),
        ItemFormat::Plain => value::item_to_plain_json(item, key_names, true),
    };
    // Wrapped: in a small window the item's column is narrow, and a row that does not fit
    // would draw over the Numbers column beside it.
    ui.horizontal_wrapped(|ui| {
        ui.selectable_value(format, ItemFormat::DynamoDb, "DynamoDB JSON");
        ui.selectable_value(format, ItemFormat::Plain, "JSON");
        ui.separator();
        if ui.button("Copy").on_hover_text("Copy this JSON").clicked() {
            ui.ctx().copy_text(text.clone());
        }
    });
    item_size_ui(ui, item);
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let label_id = ui.weak("Item JSON").id;
            // A read-only text: selectable, not editable.
            ui.add(
                egui::TextEdit::multiline(&mut text.as_str())
                    .code_editor()
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label_id);
        });
}

/// The opened row: its table tab's table, its row number and key.
struct Opened {
    table: String,
    row: usize,
    key: Item,
}

impl BrowseFeature {
    /// The row opened in the item view of the tab shown, when it is a table tab's row.
    fn opened(&self, scope: &Scope<'_>) -> Option<Opened> {
        let tab = self.tabs.get(self.active)?;
        let table = tab.body.table()?.to_owned();
        let results = tab.body.results();
        let row = results.selected()?;
        let item = results.rows.item(row)?;
        // Keys are read with the open table's schema: its own rows only.
        let key = (table == scope.table.name)
            .then(|| scope.table.key_of(&item).ok())
            .flatten()?;
        Some(Opened { table, row, key })
    }

    /// Draw the header of the item view: how old the item is and Reload (also F5 with the
    /// pointer over the view), Edit / Duplicate / Delete, Close (or Esc outside a text field).
    /// `editable`: the row is of the open table (it can be edited, copied or deleted).
    #[must_use]
    pub(crate) fn item_header_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        editable: bool,
        item: &Item,
    ) -> Option<Intent> {
        // Esc closes the find bar first, when it is open.
        let finding = self.tab().is_some_and(|t| t.results().find().open);
        let escape = !ui.ctx().text_edit_focused()
            && !finding
            && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape));
        let over_view = ui.rect_contains_pointer(ui.max_rect());
        let f5 = over_view && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F5));
        let mut intent = None;
        let opened = self.opened(scope);
        let from_index = self
            .tab()
            .and_then(|t| t.results().load.request.as_ref())
            .is_some_and(|r| !r.reads_whole_items());
        let mut reload = f5;
        // Wrapped, so that Close stays in a narrow window.
        ui.horizontal_wrapped(|ui| {
            ui.strong("Item");
            if let Some(opened) = &opened {
                reload |= self.freshness_ui(ui, opened);
            }
            if editable && from_index {
                ui.weak("read from an index (maybe partial): edit it from a query of the table");
            }
            if editable && !from_index {
                for (text, start) in [
                    ("Edit item", EditStart::Edit),
                    ("Duplicate", EditStart::Duplicate),
                    ("Delete item", EditStart::Delete),
                ] {
                    if ui.small_button(text).clicked() {
                        intent = Some(Intent::EditItem {
                            item: Box::new(item.clone()),
                            start,
                        });
                    }
                }
            }
            if (ui.small_button("Close").clicked() || escape)
                && let Some(tab) = self.tabs.get_mut(self.active)
            {
                tab.body.results_mut().close_item();
            }
        });
        if let Some(opened) = opened {
            if let Some(error) = self.rereads.failed_for(&opened.table, &opened.key) {
                error_ui(ui, error);
            }
            if reload {
                self.rereads
                    .start(scope.spawner, scope.connection, &opened.table, opened.key);
            }
        }
        intent
    }

    /// How old the opened row is, and Reload; whether Reload was clicked.
    fn freshness_ui(&self, ui: &mut Ui, opened: &Opened) -> bool {
        let Some(results) = self.tabs.get(self.active).map(|t| t.body.results()) else {
            return false;
        };
        let busy = self.rereads.busy(&opened.table, &opened.key);
        if let Some(at) = results.times.read_at(opened.row) {
            let age = age_text(at.elapsed());
            if results.times.gone(opened.row) {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("not on the server any more (read {age})"),
                );
            } else {
                ui.weak(format!("read {age}"));
            }
            // The age moves on while it is shown.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        }
        if busy {
            ui.spinner();
        }
        ui.add_enabled(!busy, egui::Button::new("Reload").small())
            .on_hover_text("Read this item again from the server (F5 with the pointer here)")
            .clicked()
    }

    /// Draw the selected item (decoded once a frame, by the caller) as JSON.
    pub(crate) fn item_ui(&mut self, ui: &mut Ui, item: &Item) {
        let Some(tab) = self.tabs.get(self.active) else {
            return;
        };
        let results = tab.body.results();
        item_view_ui(ui, item, results.key_names(), &mut self.item_format);
    }

    /// A write of ours to `table` ended: read again the rows at `keys` shown in its tabs (at
    /// most [`MAX_AT_ONCE`]; more, as an import's, are left to a run of the query).
    pub(crate) fn reread_written(&mut self, scope: &Scope<'_>, table: &str, keys: &[Item]) {
        self.note_write(table);
        if keys.len() > MAX_AT_ONCE {
            return;
        }
        for key in keys {
            let shown = self.tabs.iter().any(|tab| match &tab.body {
                TabBody::Table(t) => t.table == table && row_of(&t.results, key).is_some(),
                _ => false,
            });
            if shown {
                self.rereads
                    .start(scope.spawner, scope.connection, table, key.clone());
            }
        }
    }

    /// A write of ours went to `table` now: every tab on it knows its rows may be older.
    fn note_write(&mut self, table: &str) {
        let now = std::time::Instant::now();
        for tab in &mut self.tabs {
            if let TabBody::Table(t) = &mut tab.body
                && t.table == table
            {
                t.results.times.written(now);
            }
        }
    }

    /// Items of `table` deleted by a write of ours: their rows leave every tab on it.
    pub(crate) fn remove_deleted(&mut self, table: &str, keys: &[Item]) {
        self.note_write(table);
        for tab in &mut self.tabs {
            if let TabBody::Table(t) = &mut tab.body
                && t.table == table
            {
                t.results.remove_rows(keys);
            }
        }
    }

    /// Put the rows read again in place, in every tab on their table.
    pub(super) fn apply_rereads(&mut self) {
        for done in self.rereads.poll() {
            for tab in &mut self.tabs {
                let TabBody::Table(t) = &mut tab.body else {
                    continue;
                };
                if t.table != done.table {
                    continue;
                }
                let Some(row) = row_of(&t.results, &done.key) else {
                    continue;
                };
                match &done.item {
                    Some(item) => t.results.replace_row(row, item),
                    None => t.results.times.read_again(row, done.at, false),
                }
            }
        }
    }
}

/// The row of `results` at `key`: the opened row first (the item a write or a Reload is almost
/// always about, found without a search), else a search of the rows.
fn row_of(results: &Results, key: &Item) -> Option<usize> {
    let opened = results.selected().filter(|&row| {
        results
            .rows
            .item(row)
            .is_some_and(|item| key.iter().all(|(name, v)| item.get(name) == Some(v)))
    });
    opened.or_else(|| results.row_with_key(key))
}
