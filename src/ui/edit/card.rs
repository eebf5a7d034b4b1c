//! The result card: the edit's report in the core's words, Retry from the server's value, and
//! the request with Copy as JSON and Copy as AWS CLI.

use egui::{RichText, Ui};

use crate::core::counter::EditReport;
use crate::core::value;
use crate::ui::widgets::lines_ui;

/// Draw the card; returns the server's value when the user asks to retry from it.
pub(super) fn card_ui(ui: &mut Ui, report: &EditReport) -> Option<String> {
    let mut retry = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        lines_ui(ui, &report.lines());
        if let Some(server) = report.retry_from()
            && ui.button(format!("Retry from {server}")).clicked()
        {
            retry = Some(server.to_owned());
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
