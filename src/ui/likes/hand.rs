//! Like and unlike by hand: the form, the confirmation outside the sandbox, and the card with
//! the tally and the counted children before and after, side by side.

use egui::{RichText, Ui};

use crate::core::likes::{LikeOp, LikeReport};
use crate::ui::likes::LikesFeature;
use crate::ui::widgets::{self, error_ui, labelled_text_ui, lines_ui, writes_to_ui};
use crate::ui::{Intent, Scope};

/// Draw the form, a confirmation when one is waiting, and the last report.
pub(super) fn hand_ui(ui: &mut Ui, lab: &mut LikesFeature, scope: &Scope<'_>) -> Option<Intent> {
    ui.heading("Like and unlike by hand");
    ui.weak(
        "One TransactWriteItems: Put the child if absent + ADD 1 to the tally (unlike: Delete \
         if present + ADD -1).",
    );
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(
            ui,
            "Parent",
            &mut lab.parent,
            120.0,
            "parent's partition key",
        );
        labelled_text_ui(ui, "Parent sort key", &mut lab.parent_sk, 60.0, "META");
        labelled_text_ui(ui, "Tally attribute", &mut lab.tally, 90.0, "likeTally");
        labelled_text_ui(ui, "Child prefix", &mut lab.child_prefix, 60.0, "LIKE#");
        ui.checkbox(&mut lab.create_parent, "Create the parent if missing");
    });
    writes_to_ui(
        ui,
        &format!(
            "table {} · parent {} / {} and its child · {}",
            scope.table.name,
            if lab.parent.trim().is_empty() {
                "(type the parent)"
            } else {
                lab.parent.trim()
            },
            lab.parent_sk.trim(),
            scope.connection.label()
        ),
        scope.connection,
    );
    let busy = lab.like.busy();
    let mut op = None;
    let mut again = false;
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "User", &mut lab.user, 110.0, "USER#7c20");
        ui.checkbox(&mut lab.use_token, "ClientRequestToken");
        if lab.use_token {
            labelled_text_ui(ui, "Token", &mut lab.token, 130.0, "1–36 characters");
        }
        if widgets::write_button_ui(ui, scope.connection, !busy, "Like").clicked() {
            op = Some(LikeOp::Like);
        }
        if widgets::write_button_ui(ui, scope.connection, !busy, "Unlike").clicked() {
            op = Some(LikeOp::Unlike);
        }
        let can_replay = lab.last_request.is_some() && !busy;
        again = widgets::write_button_ui(ui, scope.connection, can_replay, "Send again")
            .on_hover_text("Replays the identical request, as a client retry would")
            .clicked();
        if lab.like.is_sending() {
            ui.spinner();
        }
    });
    if let Some(op) = op {
        lab.like(scope, op);
    }
    if again && let Some(request) = lab.last_request.clone() {
        lab.dispatch(scope, request, true);
    }
    confirm_ui(ui, lab, scope);
    if let Some(error) = &lab.error {
        error_ui(ui, error);
    }
    let report = lab.report.as_ref()?;
    report_ui(ui, report, lab.replayed);
    if ui.small_button("Open in builder").clicked() {
        return lab.in_builder();
    }
    None
}

/// The write waiting for confirmation: the gateway's question, naming table, item and endpoint.
fn confirm_ui(ui: &mut Ui, lab: &mut LikesFeature, scope: &Scope<'_>) {
    let last_request = &mut lab.last_request;
    lab.like.question_ui(ui, |sent, confirmed| {
        super::send_like(scope, last_request, sent, confirmed)
    });
}

fn report_ui(ui: &mut Ui, report: &LikeReport, replayed: bool) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        let prefix = if replayed { "Sent again: " } else { "" };
        ui.strong(format!("{prefix}{}", report.title()));
        ui.weak(format!(
            "table {} · {}",
            report.request.target.table,
            report.request.destination.place()
        ));
        egui::Grid::new("like_side_by_side")
            .num_columns(2)
            .show(ui, |ui| {
                let big = |text: String| RichText::new(text).size(22.0).monospace();
                ui.weak("Tally");
                ui.label(big(report.tally_change()));
                ui.end_row();
                ui.weak("Counted children");
                ui.label(big(report.children_change()));
                ui.end_row();
            });
        lines_ui(ui, &report.lines());
        let json = report.request.to_json();
        egui::CollapsingHeader::new("Request").show(ui, |ui| {
            ui.label(RichText::new(&json).monospace());
        });
        ui.horizontal(|ui| {
            if ui.button("Copy as JSON").clicked() {
                ui.ctx().copy_text(json.clone());
            }
            if ui.button("Copy as AWS CLI").clicked() {
                ui.ctx().copy_text(report.request.to_aws_cli());
            }
        });
    });
}
