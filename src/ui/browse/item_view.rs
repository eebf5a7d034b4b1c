//! The item view: one item as DynamoDB JSON and plain JSON, both copyable.

use egui::Ui;

use crate::core::value::{self, Item};

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
pub fn item_view_ui(ui: &mut Ui, item: &Item, key_names: &[String], format: &mut ItemFormat) {
    let text = match format {
        ItemFormat::DynamoDb => value::item_to_dynamodb_json(item, key_names, true),
        ItemFormat::Plain => value::item_to_plain_json(item, key_names, true),
    };
    ui.horizontal(|ui| {
        ui.selectable_value(format, ItemFormat::DynamoDb, "DynamoDB JSON");
        ui.selectable_value(format, ItemFormat::Plain, "JSON");
        ui.separator();
        if ui.button("Copy").on_hover_text("Copy this JSON").clicked() {
            ui.ctx().copy_text(text.clone());
        }
    });
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
