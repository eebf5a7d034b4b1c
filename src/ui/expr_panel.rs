//! The expression builder: compose each expression with clause helpers, name and value
//! placeholders (typed), see errors as you type with their position, paste a request back in,
//! copy the request as code, and run it.

use egui::{RichText, Ui};

use crate::core::error::Error;
use crate::core::expr::builder::{self, Compiled, Field, Input, Kind, VALUE_TYPES};
use crate::core::expr::codegen::Target;
use crate::core::expr::run::RunResult;
use crate::core::value;
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::worker::JobId;

/// The builder's state.
#[derive(Debug)]
pub struct ExprPanel {
    /// What is being built.
    pub input: Input,
    /// Pasted request text.
    pub paste: String,
    /// Why the paste failed.
    pub paste_error: Option<Error>,
    /// The code shown.
    pub target: Target,
    /// The run under way.
    pub job: Option<JobId>,
    /// The last run.
    pub result: Option<Result<RunResult, Error>>,
    /// Where the builder's content came from, when the app opened it.
    pub origin: Option<String>,
}

impl ExprPanel {
    /// An empty builder for `table`.
    pub fn new(table: &str) -> Self {
        Self {
            input: Input::new(table),
            paste: String::new(),
            paste_error: None,
            target: Target::Json,
            job: None,
            result: None,
            origin: None,
        }
    }
}

/// What the user asked the builder for.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprAction {
    /// Use the row selected in Browse as the target item.
    UseSelectedItem,
    /// Run the compiled request.
    Run,
}

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

/// Draw the builder; `compiled` is the input compiled this frame; `has_selection` whether a row
/// is selected in Browse.
#[must_use]
pub fn expr_panel_ui(
    ui: &mut Ui,
    panel: &mut ExprPanel,
    compiled: &Compiled,
    has_selection: bool,
    key_names: &[String],
    indexes: &[String],
) -> Option<ExprAction> {
    let mut action = None;
    ui.heading("Expression builder");
    if let Some(origin) = &panel.origin {
        ui.weak(format!("Opened from {origin}"));
    }
    ui.horizontal_wrapped(|ui| {
        for kind in Kind::ALL {
            ui.selectable_value(&mut panel.input.kind, kind, kind.label());
        }
        ui.separator();
        if matches!(panel.input.kind, Kind::Query | Kind::Scan) {
            let shown = panel
                .input
                .index
                .clone()
                .unwrap_or_else(|| "(table)".to_owned());
            egui::ComboBox::from_label("On index")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut panel.input.index, None, "(table)");
                    for index in indexes {
                        ui.selectable_value(&mut panel.input.index, Some(index.clone()), index);
                    }
                });
            return;
        }
        match &panel.input.item {
            Some(item) => {
                let keys: Vec<String> = key_names
                    .iter()
                    .filter_map(|k| item.get(k).map(|v| format!("{k}={}", value::cell_text(v))))
                    .collect();
                ui.label(format!("Item: {}", keys.join(", ")));
            }
            None => {
                ui.weak("No item");
            }
        }
        if ui
            .add_enabled(has_selection, egui::Button::new("Use selected row"))
            .on_hover_text("The row selected in Browse becomes the item to update, delete or put")
            .clicked()
        {
            action = Some(ExprAction::UseSelectedItem);
        }
    });
    for field in panel.input.kind.fields() {
        field_ui(ui, panel, *field, compiled);
    }
    names_ui(ui, panel);
    values_ui(ui, panel);
    for problem in &compiled.problems {
        ui.colored_label(ui.visuals().warn_fg_color, problem);
    }
    ui.separator();
    match &compiled.request {
        Some(request) => {
            ui.horizontal_wrapped(|ui| {
                ui.strong("Copy as");
                for target in Target::ALL {
                    if ui
                        .selectable_label(panel.target == target, target.label())
                        .clicked()
                    {
                        panel.target = target;
                    }
                }
                if ui.button("Copy request").clicked() {
                    ui.ctx().copy_text(request.render(panel.target));
                }
                let busy = panel.job.is_some();
                if ui.add_enabled(!busy, egui::Button::new("Run")).clicked() {
                    action = Some(ExprAction::Run);
                }
                if busy {
                    ui.spinner();
                }
            });
            let code = request.render(panel.target);
            let label_id = ui.weak("Generated request").id;
            ui.add(
                egui::TextEdit::multiline(&mut code.as_str())
                    .code_editor()
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label_id);
        }
        None => {
            ui.weak("Fix the marked fields to see the request.");
        }
    }
    match &panel.result {
        Some(Ok(result)) => {
            ui.label(RichText::new(&result.summary).strong());
            for item in result.items.iter().take(5) {
                ui.label(RichText::new(value::item_to_plain_json(item, &[], false)).monospace());
            }
        }
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
    ui.separator();
    paste_ui(ui, panel);
    action
}

fn field_ui(ui: &mut Ui, panel: &mut ExprPanel, field: Field, compiled: &Compiled) {
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        ui.strong(field.name());
        for (label, template) in helpers(field) {
            if ui
                .small_button(*label)
                .on_hover_text(template.trim())
                .clicked()
            {
                panel
                    .input
                    .texts
                    .entry(field)
                    .or_default()
                    .push_str(template);
            }
        }
    });
    let text = panel.input.texts.entry(field).or_default();
    let label_id = ui.weak(format!("{} text", field.name())).id;
    // A stable id: error lines appear and disappear above, and focus must stay put.
    ui.add(
        egui::TextEdit::singleline(text)
            .id_salt(("expression_field", field.name()))
            .code_editor()
            .desired_width(f32::INFINITY),
    )
    .labelled_by(label_id);
    if let Some((_, error)) = compiled.errors.iter().find(|(f, _)| *f == field) {
        let column = text.chars().take(error.position).count();
        let color = ui.visuals().error_fg_color;
        ui.label(
            RichText::new(format!("{text}\n{}^ {}", " ".repeat(column), error.message))
                .monospace()
                .color(color),
        );
    }
}

fn names_ui(ui: &mut Ui, panel: &mut ExprPanel) {
    ui.horizontal(|ui| {
        ui.strong("Names");
        ui.weak("(every name is aliased anyway; add #placeholders here when you type them)");
        if ui.small_button("+ name").clicked() {
            panel
                .input
                .names
                .push((format!("#n{}", panel.input.names.len()), String::new()));
        }
    });
    let mut remove = None;
    for (i, (placeholder, name)) in panel.input.names.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Name placeholder", placeholder, 70.0, "#n");
            labelled_text_ui(ui, "is attribute", name, 140.0, "count");
            if ui.small_button("x").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        panel.input.names.remove(i);
    }
}

fn values_ui(ui: &mut Ui, panel: &mut ExprPanel) {
    ui.horizontal(|ui| {
        ui.strong("Values");
        ui.weak("(typed literals such as 1 or 'text' become placeholders by themselves)");
        if ui.small_button("+ value").clicked() {
            panel.input.values.push((
                format!(":v{}", panel.input.values.len()),
                "N".into(),
                "1".into(),
            ));
        }
    });
    let mut remove = None;
    for (i, (placeholder, tag, text)) in panel.input.values.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Value placeholder", placeholder, 70.0, ":v");
            egui::ComboBox::from_id_salt(("value_type", i))
                .selected_text(tag.as_str())
                .width(60.0)
                .show_ui(ui, |ui| {
                    for t in VALUE_TYPES {
                        ui.selectable_value(tag, t.to_owned(), t);
                    }
                })
                .response
                .accessible_name("Value type");
            labelled_text_ui(ui, "is", text, 200.0, "1");
            if ui.small_button("x").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        panel.input.values.remove(i);
    }
}

fn paste_ui(ui: &mut Ui, panel: &mut ExprPanel) {
    egui::CollapsingHeader::new("Paste a request").show(ui, |ui| {
        ui.weak("A low-level JSON request with its expressions, names and values; it is parsed back into the builder.");
        let label_id = ui.weak("Pasted request").id;
        ui.add(egui::TextEdit::multiline(&mut panel.paste).code_editor().desired_rows(4).desired_width(f32::INFINITY))
            .labelled_by(label_id);
        if ui.button("Parse into the builder").clicked() {
            match builder::Input::from_request_json(&panel.paste) {
                Ok(mut input) => {
                    if input.table.is_empty() {
                        input.table.clone_from(&panel.input.table);
                    }
                    panel.input = input;
                    panel.paste_error = None;
                    panel.origin = Some("a pasted request".into());
                }
                Err(e) => panel.paste_error = Some(e),
            }
        }
        if let Some(error) = &panel.paste_error {
            error_ui(ui, error);
        }
    });
}
