//! The result card: the edit's report in the core's words, Retry from the server's value, and
//! the request with Copy as JSON, Copy as AWS CLI and Copy as a whole program.

use egui::{RichText, Ui};

use crate::widgets::{self, lines_ui, write_button_ui};
use dynoscope_core::connection::Connection;
use dynoscope_core::counter::EditReport;
use dynoscope_core::report::Report;

/// Draw the card; returns the server's value when the user asks to retry from it. Copied code
/// connects where the edit was sent.
pub(super) fn card_ui(ui: &mut Ui, report: &EditReport, connection: &Connection) -> Option<String> {
    let mut retry = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        lines_ui(ui, &report.lines());
        if let Some(server) = report.retry_from()
            && write_button_ui(ui, connection, true, &format!("Retry from {server}")).clicked()
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
            ui.label(RichText::new(plan.request_lines().join("\n")).monospace());
        });
    ui.horizontal(|ui| {
        if ui.button("Copy as JSON").clicked() {
            ui.ctx().copy_text(plan.to_json());
        }
        if ui.button("Copy as AWS CLI").clicked() {
            ui.ctx().copy_text(plan.to_aws_cli());
        }
        // A whole program: the new value printed, sent once when not safe to repeat. A menu,
        // so that the row fits the panel's narrow column.
        ui.menu_button("Copy as program", |ui| {
            for (target, label) in widgets::PROGRAM_COPIES {
                if ui.button(label).clicked()
                    && let Ok(program) = plan.program(target)
                {
                    ui.ctx().copy_text(program.code);
                    ui.close();
                }
            }
        });
    });
}
