//! The builder's fields: each expression with its clause helpers and positioned error, the
//! name and value placeholders, and pasting a request back in.

use egui::{RichText, Ui};

use crate::widgets::{error_ui, labelled_text_ui};
use dynoscope_core::error::Error;
use dynoscope_core::expr::builder::{Compiled, Field, Input, ValueRow};
use dynoscope_core::value::AttrType;

fn helpers(field: Field) -> &'static [(&'static str, &'static str)] {
    match field {
        Field::Update => &[
            ("SET", " SET attr = 1"),
            ("+ / -", " SET attr = attr + 1"),
            ("if_not_exists", " SET attr = if_not_exists(attr, 0) + 1"),
            (
                "list_append",
                " SET list_attr = list_append(list_attr, :list)",
            ),
            ("REMOVE", " REMOVE attr"),
            ("ADD", " ADD attr 1"),
            ("DELETE", " DELETE set_attr :set"),
        ],
        Field::Condition | Field::Filter => &[
            ("=", " attr = 1"),
            ("BETWEEN", " attr BETWEEN 1 AND 10"),
            ("IN", " attr IN (1, 2)"),
            ("AND", " AND "),
            ("OR", " OR "),
            ("NOT", " NOT "),
            ("( )", " ( )"),
            ("attribute_exists", " attribute_exists(attr)"),
            ("attribute_not_exists", " attribute_not_exists(attr)"),
            ("attribute_type", " attribute_type(attr, 'N')"),
            ("begins_with", " begins_with(attr, 'prefix')"),
            ("contains", " contains(attr, 'x')"),
            ("size", " size(attr) > 0"),
        ],
        Field::KeyCondition => &[
            ("pk =", "PK = 'value'"),
            ("AND sk =", " AND SK = 'value'"),
            ("begins_with", " AND begins_with(SK, 'prefix')"),
            ("BETWEEN", " AND SK BETWEEN 'a' AND 'z'"),
            ("<  <=  >  >=", " AND SK >= 'value'"),
        ],
        Field::Projection => &[("path", "attr"), ("nested", ", a.b[0].c")],
    }
}

/// One expression field: its clause helpers, its text, and its error under the text.
pub(super) fn field_ui(ui: &mut Ui, input: &mut Input, field: Field, compiled: &Compiled) {
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        ui.strong(field.name());
        for (label, template) in helpers(field) {
            if ui
                .small_button(*label)
                .on_hover_text(template.trim())
                .clicked()
            {
                input.texts.entry(field).or_default().push_str(template);
            }
        }
    });
    let text = input.texts.entry(field).or_default();
    let label_id = ui.weak(format!("{} text", field.name())).id;
    // A stable id: error lines appear and disappear above, and focus must stay put.
    ui.add(
        egui::TextEdit::singleline(text)
            .id_salt(("expression_field", field.name()))
            .code_editor()
            .desired_width(f32::INFINITY),
    )
    .labelled_by(label_id);
    // The error's two lines have their place whether or not there is one, so the fields below
    // never move while typing.
    let line = ui.text_style_height(&egui::TextStyle::Monospace);
    let height = 2.0 * line + ui.spacing().item_spacing.y;
    ui.allocate_ui_with_layout(
        egui::vec2(ui.available_width(), height),
        egui::Layout::top_down(egui::Align::Min),
        |ui| {
            ui.set_min_height(height);
            if let Some((_, error)) = compiled.errors.iter().find(|(f, _)| *f == field) {
                let column = text.chars().take(error.position).count();
                let color = ui.visuals().error_fg_color;
                ui.label(
                    RichText::new(format!("{text}\n{}^ {}", " ".repeat(column), error.message))
                        .monospace()
                        .color(color),
                );
            }
        },
    );
}

/// The name placeholders.
pub(super) fn names_ui(ui: &mut Ui, input: &mut Input) {
    ui.horizontal(|ui| {
        ui.strong("Names");
        ui.weak("(every name is aliased, reserved words too; #placeholders added here keep their names)");
        if ui.small_button("+ name").clicked() {
            input
                .names
                .push((format!("#n{}", input.names.len()), String::new()));
        }
    });
    let mut remove = None;
    for (i, (placeholder, name)) in input.names.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Name placeholder", placeholder, 70.0, "#n");
            labelled_text_ui(ui, "is attribute", name, 140.0, "count");
            if ui.small_button("x").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        input.names.remove(i);
    }
}

/// The value placeholders, each typed.
pub(super) fn values_ui(ui: &mut Ui, input: &mut Input) {
    ui.horizontal(|ui| {
        ui.strong("Values");
        ui.weak("(typed literals such as 1 or 'text' become placeholders by themselves)");
        if ui.small_button("+ value").clicked() {
            input.values.push(ValueRow {
                placeholder: format!(":v{}", input.values.len()),
                kind: AttrType::N,
                text: "1".into(),
            });
        }
    });
    let mut remove = None;
    for (i, row) in input.values.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Value placeholder", &mut row.placeholder, 70.0, ":v");
            egui::ComboBox::from_id_salt(("value_type", i))
                .selected_text(row.kind.tag())
                .width(60.0)
                .show_ui(ui, |ui| {
                    for kind in AttrType::ALL {
                        ui.selectable_value(&mut row.kind, kind, kind.tag());
                    }
                })
                .response
                .accessible_name("Value type");
            labelled_text_ui(ui, "is", &mut row.text, 200.0, "1");
            if ui.small_button("x").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        input.values.remove(i);
    }
}

/// Paste a request: parsed back into the builder.
pub(super) fn paste_ui(
    ui: &mut Ui,
    input: &mut Input,
    paste: &mut String,
    paste_error: &mut Option<Error>,
    origin: &mut Option<String>,
) {
    egui::CollapsingHeader::new("Paste a request").show(ui, |ui| {
        ui.weak("A low-level JSON request with its expressions, names and values, or an aws dynamodb command as Copy as AWS CLI writes it; it is parsed back into the builder.");
        let label_id = ui.weak("Pasted request").id;
        ui.add(egui::TextEdit::multiline(paste).code_editor().desired_rows(4).desired_width(f32::INFINITY))
            .labelled_by(label_id);
        if ui.button("Parse into the builder").clicked() {
            match Input::from_paste(paste) {
                Ok(mut pasted) => {
                    if pasted.table.is_empty() {
                        pasted.table.clone_from(&input.table);
                    }
                    *input = pasted;
                    *paste_error = None;
                    *origin = Some("a pasted request".into());
                }
                Err(e) => *paste_error = Some(e),
            }
        }
        if let Some(error) = paste_error {
            error_ui(ui, error);
        }
    });
}
