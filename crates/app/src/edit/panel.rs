//! The Numbers panel: the item's number attributes with −1, +1 and Edit, and the form that
//! sends a delta or a new value.

use aws_sdk_dynamodb::types::AttributeValue;
use egui::{RichText, Ui};

use crate::edit::EditFeature;
use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui, write_button_ui, writes_to_ui};
use dynoscope_core::counter::{Change, EditMode, EditRequest};
use dynoscope_core::number;
use dynoscope_core::report::Tone;
use dynoscope_core::value::key_shown;
use dynoscope_core::value::{Item, date_of};
use dynoscope_core::write::Destination;

/// Draw the Numbers panel for `item` (whose key attributes are `key_names`) and the form;
/// returns an edit to send. Nothing is sent while `busy`.
#[must_use]
pub(super) fn numbers_ui(
    ui: &mut Ui,
    editor: &mut EditFeature,
    scope: &Scope<'_>,
    item: &Item,
    key_names: &[String],
    busy: bool,
) -> Option<EditRequest> {
    ui.strong("Numbers");
    // The last edit's outcome in one line, always on this line: the rows under it never move
    // when an answer comes, so the next +1 is where the last one was.
    headline_ui(ui, editor);
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("Mode")
            .selected_text(editor.mode.label())
            .show_ui(ui, |ui| {
                for mode in EditMode::ALL {
                    ui.selectable_value(&mut editor.mode, mode, mode.label());
                }
            });
    });
    ui.weak(editor.mode.explain());
    let mut request = numbers_grid_ui(ui, editor, scope, item, key_names, busy);
    ui.separator();
    if let Some(typed) = amount_form_ui(ui, editor, scope, busy) {
        request = Some(typed);
    }
    ui.checkbox(&mut editor.create, "Create the item if missing")
        .on_hover_text("Off: the edit is conditional on the item existing, and a missing item is refused with nothing written.");
    let key = scope
        .table
        .key_of(item)
        .map_or_else(|e| e.to_string(), |k| key_shown(&k, key_names));
    writes_to_ui(
        ui,
        &format!(
            "table {} · {key} · {}",
            scope.table.name,
            scope.connection.label()
        ),
        scope.connection,
    );
    if let Some(error) = &editor.error {
        error_ui(ui, error);
    }
    request
}

/// The last edit's outcome on one line of the panel's own height (cut short with the whole on
/// hover), or that none was sent yet.
fn headline_ui(ui: &mut Ui, editor: &EditFeature) {
    let Some(report) = &editor.report else {
        ui.weak("Last edit: none sent from here yet");
        return;
    };
    let line = report.headline();
    let visuals = ui.visuals();
    let colour = match line.tone {
        Tone::Good => Some(crate::widgets::GOOD),
        Tone::Warn => Some(visuals.warn_fg_color),
        Tone::Bad => Some(visuals.error_fg_color),
        Tone::Title | Tone::Figure | Tone::Plain | Tone::Quiet => None,
    };
    // Monospace: the proportional font has no arrow glyph.
    let mut text = RichText::new(&line.text).monospace();
    if let Some(colour) = colour {
        text = text.color(colour);
    }
    ui.add(egui::Label::new(text).truncate());
}

/// The item's number attributes, a row each with −1, +1 and Edit (a key attribute is not
/// editable); the edit asked for, if any.
fn numbers_grid_ui(
    ui: &mut Ui,
    editor: &mut EditFeature,
    scope: &Scope<'_>,
    item: &Item,
    key_names: &[String],
    busy: bool,
) -> Option<EditRequest> {
    let mut request = None;
    let mut numbers: Vec<(&String, &String)> = item
        .iter()
        .filter_map(|(name, v)| match v {
            AttributeValue::N(n) => Some((name, n)),
            _ => None,
        })
        .collect();
    numbers.sort();
    if numbers.is_empty() {
        ui.weak("This item has no number attributes; type a name below to create one from 0.");
    }
    egui::Grid::new("numbers").num_columns(3).show(ui, |ui| {
        for (name, number) in numbers {
            ui.label(name.as_str());
            ui.label(RichText::new(number.as_str()).monospace());
            if key_names.contains(name) {
                ui.weak("key").on_hover_text(
                    "Part of the key: changing it would make a different item, so it is not editable.",
                );
            } else if let Some(date) = date_of(name, number) {
                // A time held as a number (`createdAt`, epoch seconds) is not a counter.
                ui.weak("a time, not a counter")
                    .on_hover_text(format!("{name} holds a time: {date}"));
            } else {
                ui.horizontal(|ui| {
                    for (text, delta) in [("-1", "-1"), ("+1", "1")] {
                        let button = write_button_ui(ui, scope.connection, !busy, text);
                        if button.on_hover_text(format!("{text} on {name}")).clicked() {
                            editor.attribute.clone_from(name);
                            request = Some(EditRequest {
                                attribute: name.clone(),
                                change: Change::By(delta.to_owned()),
                                from: None,
                                create: editor.create,
                            });
                        }
                    }
                    if ui.small_button("Edit").clicked() {
                        editor.attribute.clone_from(name);
                    }
                });
            }
            ui.end_row();
        }
    });
    request
}

/// The form: an attribute, a delta or a new value, and Send (or Enter); the edit asked for, if
/// any.
fn amount_form_ui(
    ui: &mut Ui,
    editor: &mut EditFeature,
    scope: &Scope<'_>,
    busy: bool,
) -> Option<EditRequest> {
    let mut request = None;
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Attribute", &mut editor.attribute, 110.0, "play_count");
        ui.radio_value(&mut editor.as_delta, true, "Delta");
        ui.radio_value(&mut editor.as_delta, false, "New value");
        let amount = labelled_text_ui(ui, "Amount", &mut editor.amount, 120.0, "e.g. 5 or -2");
        // Taken here, so that the grid does not open another row with the same Enter.
        let enter = amount.lost_focus()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
        // Checked while typing: a number DynamoDB takes, or why not.
        let amount_error = number::parse(editor.amount.trim()).err();
        let can_send =
            !busy && amount_error.is_none() && Destination::writes_off(scope.connection).is_none();
        if write_button_ui(ui, scope.connection, can_send, "Send").clicked() || (enter && can_send)
        {
            let amount = editor.amount.trim().to_owned();
            request = Some(EditRequest {
                attribute: editor.attribute.trim().to_owned(),
                change: if editor.as_delta {
                    Change::By(amount)
                } else {
                    Change::To(amount)
                },
                from: None,
                create: editor.create,
            });
        }
        // A spinner only while an edit is in flight, not while one waits for its yes.
        if editor.write.is_sending() {
            ui.spinner();
        }
        if let Some(error) = amount_error.filter(|_| !editor.amount.trim().is_empty()) {
            ui.colored_label(ui.visuals().error_fg_color, format!("Amount: {error}"));
        }
    });
    request
}
