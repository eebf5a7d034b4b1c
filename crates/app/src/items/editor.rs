//! The item editor: a form of typed attributes (keys fixed for an item that exists), or the
//! whole item as DynamoDB JSON or plain JSON text; mistakes are shown where they are, and
//! nothing is staged until the item is whole.

use egui::{RichText, Ui};

use crate::item_size::{SizeMemo, size_text_ui, typed_hash};
use crate::widgets::error_ui;
use dynoscope_core::items::{
    Change, Field, FieldError, TextError, TextFormat, fields_of, item_from_text, item_of, item_text,
};
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::{AttrType, Item};

/// What is being edited.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Subject {
    /// An item that exists, as it was read: its key cannot change.
    Existing(Item),
    /// A new item (blank, or a copy under a new key).
    New {
        /// What it was copied from: in words, and the item (`None`: blank).
        copy_of: Option<(String, Item)>,
    },
}

impl Subject {
    /// The item as it was read (or copied).
    fn was(&self) -> Option<&Item> {
        match self {
            Subject::Existing(item)
            | Subject::New {
                copy_of: Some((_, item)),
            } => Some(item),
            Subject::New { copy_of: None } => None,
        }
    }
}

/// How the item is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shown {
    /// One row per attribute.
    Form,
    /// One text.
    Text(TextFormat),
}

/// The editor's state.
pub(super) struct Editor {
    pub(super) subject: Subject,
    fields: Vec<Field>,
    shown: Shown,
    text: String,
    field_errors: Vec<FieldError>,
    text_error: Option<TextError>,
    /// Why the item cannot be staged (a key missing, a key changed).
    error: Option<dynoscope_core::error::Error>,
    /// The attribute being added.
    adding: Field,
    /// The key of the staged new item this editor edits, which its item replaces.
    pub(super) replaces: Option<Item>,
    /// The size of what is typed, made again when it changes.
    size: SizeMemo,
}

/// What the user asked of the editor.
pub(super) enum EditorAction {
    /// Stage this change.
    Stage(Change),
    /// Close without staging.
    Cancel,
}

impl Editor {
    /// Edit `item` (as shown: staged or read) of `subject`.
    pub(super) fn new(subject: Subject, item: &Item, key_names: &[String]) -> Self {
        Self {
            subject,
            fields: fields_of(item, key_names),
            shown: Shown::Form,
            text: String::new(),
            field_errors: Vec::new(),
            text_error: None,
            error: None,
            adding: blank_field(),
            replaces: None,
            size: SizeMemo::default(),
        }
    }

    /// A blank new item with the table's key attributes to fill in.
    pub(super) fn blank(info: &TableInfo) -> Self {
        let mut editor = Self::new(Subject::New { copy_of: None }, &Item::new(), &[]);
        let keys = std::iter::once(&info.partition).chain(info.sort.as_ref());
        editor.fields = keys
            .map(|key| Field {
                name: key.name.clone(),
                kind: key.kind.attr_type(),
                text: String::new(),
            })
            .collect();
        editor
    }

    /// The item as it was read (or copied), whose types plain JSON text keeps.
    fn was(&self) -> Option<&Item> {
        self.subject.was()
    }

    /// The item the editor holds now, or `None` with its mistakes recorded.
    fn current(&mut self) -> Option<Item> {
        match self.shown {
            Shown::Form => match item_of(&self.fields) {
                Ok(item) => {
                    self.field_errors.clear();
                    Some(item)
                }
                Err(errors) => {
                    self.field_errors = errors;
                    None
                }
            },
            Shown::Text(format) => match item_from_text(&self.text, format, self.was()) {
                Ok(item) => {
                    self.text_error = None;
                    Some(item)
                }
                Err(error) => {
                    self.text_error = Some(error);
                    None
                }
            },
        }
    }

    /// Show the item another way, when what is shown now is a whole item.
    fn switch(&mut self, to: Shown, key_names: &[String]) {
        if to == self.shown {
            return;
        }
        let Some(item) = self.current() else {
            return;
        };
        match to {
            Shown::Form => self.fields = fields_of(&item, key_names),
            Shown::Text(format) => self.text = item_text(&item, key_names, format),
        }
        self.shown = to;
    }

    /// The change the editor holds, for table `info`.
    fn change(&mut self, info: &TableInfo) -> Option<Change> {
        let item = self.current()?;
        let change = match &self.subject {
            Subject::Existing(before) => Change::edit(info, before.clone(), item),
            Subject::New {
                copy_of: Some((_, from)),
            } => Change::copy(info, from, item),
            Subject::New { copy_of: None } => Change::create(info, item),
        };
        match change {
            Ok(change) => Some(change),
            Err(error) => {
                self.error = Some(error);
                None
            }
        }
    }

    /// Draw the editor.
    pub(super) fn editor_ui(&mut self, ui: &mut Ui, info: &TableInfo) -> Option<EditorAction> {
        let key_names = info.key_names();
        let title = match &self.subject {
            Subject::Existing(item) => format!(
                "Edit {}",
                dynoscope_core::value::key_shown(
                    &info.key_of(item).unwrap_or_default(),
                    &key_names
                )
            ),
            Subject::New {
                copy_of: Some((from, _)),
            } => {
                format!("New item, a copy of {from}: give it a new key")
            }
            Subject::New { copy_of: None } => "New item".to_owned(),
        };
        ui.strong(title);
        // The buttons first: always in view, however long the item.
        let mut action = None;
        ui.horizontal(|ui| {
            if ui.button("Stage changes").clicked() {
                self.error = None;
                if let Some(change) = self.change(info) {
                    action = Some(EditorAction::Stage(change));
                }
            }
            if ui.button("Cancel edit").clicked() {
                action = Some(EditorAction::Cancel);
            }
        });
        let mut to = self.shown;
        ui.horizontal(|ui| {
            ui.label("Edit as");
            ui.selectable_value(&mut to, Shown::Form, "Form");
            ui.selectable_value(
                &mut to,
                Shown::Text(TextFormat::DynamoDb),
                "DynamoDB JSON text",
            );
            ui.selectable_value(&mut to, Shown::Text(TextFormat::Plain), "JSON text");
        });
        self.switch(to, &key_names);
        let fixed_keys = matches!(self.subject, Subject::Existing(_));
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        self.size_ui(ui);
        match self.shown {
            Shown::Form => self.form_ui(ui, &key_names, fixed_keys),
            Shown::Text(_) => self.text_ui(ui),
        }
        if fixed_keys {
            ui.weak("Keys are not edited in place: Duplicate the item under a new key, then delete this one.");
        }
        action
    }

    /// The size of the item typed, as it will be written, or why there is none yet.
    fn size_ui(&mut self, ui: &mut Ui) {
        let typed = match self.shown {
            Shown::Form => typed_hash(
                self.fields
                    .iter()
                    .flat_map(|f| [f.name.as_str(), f.kind.tag(), f.text.as_str()]),
            ),
            Shown::Text(format) => typed_hash([self.text.as_str(), text_format_tag(format)]),
        };
        let (shown, fields, text) = (self.shown, &self.fields, &self.text);
        let was = self.subject.was();
        let line = self.size.line(typed, || match shown {
            Shown::Form => item_of(fields).ok(),
            Shown::Text(format) => item_from_text(text, format, was).ok(),
        });
        match line {
            Some(line) => size_text_ui(ui, line),
            None => {
                ui.weak("Size: when the item is whole");
            }
        }
    }

    fn form_ui(&mut self, ui: &mut Ui, key_names: &[String], fixed_keys: bool) {
        let mut remove = None;
        // Adding first: in view above a long item.
        ui.horizontal_wrapped(|ui| {
            let name = crate::widgets::labelled_text_ui(
                ui,
                "New attribute",
                &mut self.adding.name,
                110.0,
                "name",
            );
            type_ui(ui, "new type", &mut self.adding.kind);
            let label = ui.label("Value");
            let width = (ui.available_width() - 110.0).clamp(120.0, 260.0);
            value_ui(ui, &mut self.adding, true, width).labelled_by(label.id);
            let add = ui.button("Add attribute").clicked()
                || (name.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
            if add && self.adding.name.trim().is_empty() {
                self.error = Some(dynoscope_core::error::Error::Invalid(
                    "give the new attribute a name".into(),
                ));
            }
            if add && !self.adding.name.trim().is_empty() {
                self.error = None;
                let field = std::mem::replace(&mut self.adding, blank_field());
                self.fields.push(Field {
                    name: field.name.trim().to_owned(),
                    ..field
                });
            }
        });
        ui.separator();
        for (row, field) in self.fields.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                let is_key = key_names.contains(&field.name);
                let mut text = RichText::new(&field.name);
                if is_key {
                    text = text.strong();
                }
                let size = egui::vec2(120.0, ui.spacing().interact_size.y);
                let layout = egui::Layout::left_to_right(egui::Align::Center);
                let name = ui
                    .allocate_ui_with_layout(size, layout, |ui| {
                        ui.set_min_width(size.x);
                        ui.add(egui::Label::new(text).truncate())
                    })
                    .inner
                    .on_hover_text(&field.name);
                ui.add_enabled_ui(!is_key, |ui| {
                    type_ui(ui, ("type", row), &mut field.kind);
                });
                let locked = is_key && fixed_keys;
                let width = (ui.available_width() - 80.0).max(120.0);
                value_ui(ui, field, !locked, width).labelled_by(name.id);
                if !is_key
                    && ui
                        .small_button("Remove")
                        .on_hover_text(format!("Remove {}", field.name))
                        .clicked()
                {
                    remove = Some(row);
                }
            });
        }
        if let Some(row) = remove {
            self.fields.remove(row);
        }
        for error in &self.field_errors {
            ui.colored_label(ui.visuals().error_fg_color, error.to_string());
        }
    }

    fn text_ui(&mut self, ui: &mut Ui) {
        let label = ui.weak("Item text");
        ui.add(
            egui::TextEdit::multiline(&mut self.text)
                .code_editor()
                .desired_rows(12)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
        // Checked as it is typed: where the first mistake is.
        if let Shown::Text(format) = self.shown {
            self.text_error = item_from_text(&self.text, format, self.was()).err();
        }
        if let Some(error) = &self.text_error {
            ui.colored_label(ui.visuals().error_fg_color, error.to_string());
        }
    }
}

fn text_format_tag(format: TextFormat) -> &'static str {
    match format {
        TextFormat::DynamoDb => "ddb",
        TextFormat::Plain => "plain",
    }
}

fn blank_field() -> Field {
    Field {
        name: String::new(),
        kind: AttrType::S,
        text: String::new(),
    }
}

/// The type menu of a field.
fn type_ui(ui: &mut Ui, id: impl std::hash::Hash + std::fmt::Debug, kind: &mut AttrType) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(kind.tag())
        .width(60.0)
        .show_ui(ui, |ui| {
            for each in AttrType::ALL {
                ui.selectable_value(kind, each, each.tag());
            }
        });
}

/// The value of a field: one line for a scalar, a code box for nested values and sets.
fn value_ui(ui: &mut Ui, field: &mut Field, enabled: bool, width: f32) -> egui::Response {
    let hint = field.kind.example();
    let edit = if field.kind.is_nested() {
        egui::TextEdit::multiline(&mut field.text)
            .code_editor()
            .desired_rows(2)
    } else {
        egui::TextEdit::singleline(&mut field.text)
    };
    ui.add_enabled(
        enabled && field.kind != AttrType::Null,
        edit.desired_width(width).hint_text(hint),
    )
}
