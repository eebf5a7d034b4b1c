//! A table without a stream: why it cannot be watched, and the two ways out — turn the stream
//! on (a change to the table's settings, through the one write flow: asked about off this
//! machine, refused on a read-only connection), or poll the parent every few seconds.

use egui::Ui;

use crate::intent::Intent;
use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui, write_button_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::error::Error;
use dynoscope_core::report::Report;
use dynoscope_core::stream::{self, EnableReport, enable_plan};
use dynoscope_core::task::Pending;
use dynoscope_core::write::{Destination, WriteOutcome, WritePlan};

/// The stream being turned on: its write and where it went.
#[derive(Debug)]
pub(super) struct Sending {
    answer: Option<Pending<EnableReport>>,
    destination: Destination,
    table: String,
}

/// Turning a table's stream on.
#[derive(Debug, Default)]
pub(super) struct EnableStream {
    flow: WriteFlow<WritePlan, Sending>,
    /// How the last one went, in words.
    said: Option<String>,
    error: Option<Error>,
}

impl EnableStream {
    /// What is kept when the subject changes: a write under way (its outcome still said).
    pub(super) fn kept(mut self) -> Self {
        self.flow.drop_question();
        Self {
            flow: self.flow,
            ..Self::default()
        }
    }

    /// Take in the answer; once the table changed (or may have), it is described again.
    pub(super) fn poll(&mut self, intents: &mut Vec<Intent>) {
        let Some(answer) = self
            .flow
            .sending()
            .as_mut()
            .and_then(|s| Pending::take_ready(&mut s.answer))
        else {
            return;
        };
        let Some(sending) = self.flow.sending().take() else {
            return;
        };
        let report = match answer {
            Ok(report) => report,
            // The task died: the change may have left, so its outcome is unknown, said so.
            Err(error @ Error::TaskDied { .. }) => EnableReport {
                table: sending.table.clone(),
                outcome: WriteOutcome::lost(error),
                listed: None,
                wait_error: None,
            },
            Err(error) => {
                self.said = None;
                self.error = Some(error);
                return;
            }
        };
        self.error = None;
        self.said = Some(
            report
                .lines()
                .into_iter()
                .map(|l| l.text)
                .collect::<Vec<_>>()
                .join("; "),
        );
        // The table changed, or may have (sent, or lost with its task): it is described again.
        if report.outcome.attempts() > 0 || matches!(report.outcome, WriteOutcome::Unknown { .. }) {
            intents.push(Intent::Written {
                destination: Box::new(sending.destination),
                table: sending.table,
                keys: Vec::new(),
            });
        }
    }

    /// What turning the stream on said, drawn once the table lists its stream (the offer that
    /// showed it is gone by then).
    pub(super) fn said_ui(&self, ui: &mut Ui) {
        if let Some(said) = &self.said {
            ui.label(said);
        }
    }

    /// Send (or ask about) turning the stream of the open table on.
    fn begin(&mut self, scope: &Scope<'_>) {
        let plan = enable_plan(scope.connection, scope.table);
        let confirmation = plan.confirmation();
        let begun = self.flow.begin(plan, confirmation, |plan, confirmed| {
            send(scope, plan, confirmed)
        });
        self.error = begun.err();
        self.said = None;
    }
}

fn send(scope: &Scope<'_>, plan: WritePlan, confirmed: bool) -> Sending {
    let connection = scope.connection.clone();
    let destination = plan.destination.clone();
    let table = scope.table.name.clone();
    let answer = scope.spawner.spawn("UpdateTable", async move {
        let stop = CancelToken::default();
        stream::enable(&connection, &plan, &table, confirmed, &stop).await
    });
    Sending {
        answer: Some(answer),
        destination,
        table: scope.table.name.clone(),
    }
}

/// Say why the table cannot be watched (`why`), and offer the stream turned on or polling.
/// Returns whether Start polling was clicked.
pub(super) fn no_stream_ui(
    ui: &mut Ui,
    enable: &mut EnableStream,
    poll_seconds: &mut String,
    scope: &Scope<'_>,
    why: &Error,
    watching: bool,
) -> bool {
    let mut poll = false;
    ui.group(|ui| {
        ui.colored_label(ui.visuals().warn_fg_color, why.to_string());
        let name = &scope.table.name;
        writes_to_ui(
            ui,
            &format!("the settings of table {name}"),
            scope.connection,
        );
        ui.horizontal(|ui| {
            if write_button_ui(ui, scope.connection, !enable.flow.busy(), "Enable stream").clicked()
            {
                enable.begin(scope);
            }
            if enable.flow.is_sending() {
                ui.spinner();
            }
        });
        enable
            .flow
            .question_ui(ui, |plan, confirmed| send(scope, plan, confirmed));
        if let Some(said) = &enable.said {
            ui.label(said);
        }
        if let Some(error) = &enable.error {
            error_ui(ui, error);
        }
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Poll every (seconds)", poll_seconds, 40.0, "5");
            poll = ui
                .add_enabled(!watching, egui::Button::new("Start polling"))
                .clicked();
        });
        ui.weak(
            "Polling reads the parent and counts its children each time (RCU per poll shown): \
             it sees a drift, but cannot name the write that made it.",
        );
    });
    poll
}
