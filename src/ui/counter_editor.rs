//! The counter editor: change a number attribute of the open item by an exact delta, sent as
//! ADD (or SET, or exactly), and the result card with what the server returned.

use aws_sdk_dynamodb::types::AttributeValue;
use egui::{Color32, RichText, Ui};

use crate::core::counter::{self, Change, EditMode, EditReport, Outcome};
use crate::core::error::Error;
use crate::core::value::{self, Item};
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::worker::JobId;

/// The editor's form and the last result.
#[derive(Debug)]
pub struct CounterEditor {
    /// How changes are sent.
    pub mode: EditMode,
    /// The attribute to change.
    pub attribute: String,
    /// The amount typed.
    pub amount: String,
    /// Whether `amount` is a delta (`true`) or the new value.
    pub as_delta: bool,
    /// Why the form cannot be sent, shown next to it.
    pub error: Option<Error>,
    /// The edit under way.
    pub pending: Option<JobId>,
    /// The row the pending edit or the report belongs to.
    pub row: Option<usize>,
    /// The last change asked for (to retry it from the server's value).
    pub last_change: Option<Change>,
    /// How the last edit ended.
    pub report: Option<EditReport>,
    /// The user asked to open the last request in the expression builder.
    pub open_in_builder: bool,
}

impl Default for CounterEditor {
    fn default() -> Self {
        Self {
            mode: EditMode::Add,
            attribute: String::new(),
            amount: "1".to_owned(),
            as_delta: true,
            error: None,
            pending: None,
            row: None,
            last_change: None,
            report: None,
            open_in_builder: false,
        }
    }
}

/// An edit the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRequest {
    /// The attribute.
    pub attribute: String,
    /// The change.
    pub change: Change,
    /// The value to start from (`None`: the one in the loaded item). Set when retrying from the
    /// server's value after a failed condition.
    pub from: Option<String>,
}

/// Draw the editor for `item` (whose key attributes are `key_names`); returns an edit to send.
#[must_use]
pub fn counter_editor_ui(
    ui: &mut Ui,
    editor: &mut CounterEditor,
    item: &Item,
    key_names: &[String],
) -> Option<EditRequest> {
    let mut request = None;
    ui.strong("Numbers");
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
    let busy = editor.pending.is_some();
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
            } else {
                ui.horizontal(|ui| {
                    for (text, delta) in [("-1", "-1"), ("+1", "1")] {
                        let button = ui.add_enabled(!busy, egui::Button::new(text));
                        if button.on_hover_text(format!("{text} on {name}")).clicked() {
                            editor.attribute.clone_from(name);
                            request = Some(EditRequest {
                                attribute: name.clone(),
                                change: Change::By(delta.to_owned()),
                                from: None,
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
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Attribute", &mut editor.attribute, 110.0, "play_count");
        ui.radio_value(&mut editor.as_delta, true, "Delta");
        ui.radio_value(&mut editor.as_delta, false, "New value");
        let amount = labelled_text_ui(ui, "Amount", &mut editor.amount, 120.0, "e.g. 5 or -2");
        let enter = amount.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.add_enabled(!busy, egui::Button::new("Send")).clicked() || (enter && !busy) {
            let amount = editor.amount.trim().to_owned();
            request = Some(EditRequest {
                attribute: editor.attribute.trim().to_owned(),
                change: if editor.as_delta {
                    Change::By(amount)
                } else {
                    Change::To(amount)
                },
                from: None,
            });
        }
        if busy {
            ui.spinner();
        }
    });
    if let Some(error) = &editor.error {
        error_ui(ui, error);
    }
    if editor.report.is_some() && ui.small_button("Open in builder").clicked() {
        editor.open_in_builder = true;
    }
    if let Some(retry) = editor.report.as_ref().and_then(|r| report_card_ui(ui, r)) {
        request = editor.last_change.clone().map(|change| EditRequest {
            attribute: retry.0,
            change,
            from: Some(retry.1),
        });
    }
    request
}

/// The result card. Returns `(attribute, server value)` when the user asks to retry from it.
fn report_card_ui(ui: &mut Ui, report: &EditReport) -> Option<(String, String)> {
    let mut retry = None;
    let plan = &report.plan;
    let old = plan
        .planned
        .current
        .as_ref()
        .map_or("(missing)".to_owned(), counter::to_dynamodb);
    let expected = counter::to_dynamodb(&plan.planned.expected);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("{} on {}", plan.update_expression, plan.attribute)).strong());
        match &report.outcome {
            Outcome::Applied {
                new_value,
                consumed_wcu,
                attempts,
            } => {
                let new = new_value.as_deref().unwrap_or("(not returned)");
                ui.label(RichText::new(format!("{old} → {new}")).monospace().size(16.0));
                ui.label(format!("expected {expected} · {consumed_wcu} WCU"));
                if *attempts > 1 {
                    ui.weak(format!("sent {attempts} times: the server throttled the earlier ones"));
                }
                if plan.planned.creates() {
                    ui.label("The attribute was missing: it was created from 0.");
                }
                if let Some(diff) = report.interference() {
                    ui.colored_label(
                        Color32::from_rgb(220, 160, 60),
                        format!(
                            "Someone else changed it in between: the server's value differs from the expected one by {}.",
                            counter::to_dynamodb(&diff)
                        ),
                    );
                }
            }
            Outcome::ConditionFailed { current } => {
                let server = current.clone();
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "Condition failed: the server has {} now, not {old}. Nothing was written.",
                        server.as_deref().unwrap_or("(missing)")
                    ),
                );
                if let Some(server) = server
                    && ui.button(format!("Retry from {server}")).clicked()
                {
                    retry = Some((plan.attribute.clone(), server));
                }
            }
            Outcome::Unknown { error, stored_now } => {
                ui.colored_label(ui.visuals().warn_fg_color, "Outcome unknown");
                ui.label(format!("{error}"));
                ui.label(match stored_now {
                    Ok(value) => format!(
                        "Not re-sent. Stored now: {} (you expected {expected}); decide whether to send again.",
                        value.as_deref().unwrap_or("(missing)")
                    ),
                    Err(e) => format!("Not re-sent, and the value could not be read again: {e}"),
                });
            }
            Outcome::Failed(error) => error_ui(ui, error),
        }
        request_ui(ui, report);
    });
    retry
}

fn request_ui(ui: &mut Ui, report: &EditReport) {
    let plan = &report.plan;
    egui::CollapsingHeader::new("Request")
        .default_open(false)
        .show(ui, |ui| {
            let mut lines = vec![format!("UpdateExpression: {}", plan.update_expression)];
            if let Some(condition) = &plan.condition_expression {
                lines.push(format!("ConditionExpression: {condition}"));
            }
            let mut names: Vec<_> = plan.names.iter().collect();
            names.sort();
            for (k, v) in names {
                lines.push(format!("{k} = {v}"));
            }
            let mut values: Vec<_> = plan.values.iter().collect();
            values.sort_by(|a, b| a.0.cmp(b.0));
            for (k, v) in values {
                lines.push(format!("{k} = {}", value::dynamodb_json(v)));
            }
            ui.label(RichText::new(lines.join("\n")).monospace());
        });
    ui.horizontal(|ui| {
        if ui.button("Copy as JSON").clicked() {
            ui.ctx().copy_text(plan.to_json());
        }
        if ui.button("Copy as AWS CLI").clicked() {
            ui.ctx().copy_text(plan.to_aws_cli());
        }
    });
}
