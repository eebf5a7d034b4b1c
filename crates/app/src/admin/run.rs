//! One table change at a time, from the plan to the report: the gateway's question through the
//! app's one write flow, the change sent and followed off the UI thread (each state said as it
//! comes, Cancel stops the waiting, not the change), and the report in lines.

use egui::Ui;

use crate::widgets::error_ui;
use crate::write_flow::WriteFlow;
use dynoscope_core::admin::{self, AdminEvent, AdminReport};
use dynoscope_core::connection::Connection;
use dynoscope_core::ending::Ending;
use dynoscope_core::error::Error;
use dynoscope_core::report::Report;
use dynoscope_core::report::Tone;
use dynoscope_core::task::{Job, Spawner};
use dynoscope_core::write::WritePlan;

/// A change to a table, its question, its run and what it said.
#[derive(Default)]
pub(super) struct AdminRun {
    flow: WriteFlow<WritePlan, Job<AdminEvent, AdminReport>>,
    /// What the run said so far (applied, waiting).
    said: Vec<String>,
    /// The last report's lines and how they read.
    ended: Option<(Vec<String>, Tone)>,
    error: Option<Error>,
}

impl AdminRun {
    /// Begin `plan` on `connection`: sent at once here, asked about elsewhere, refused
    /// read-only.
    pub(super) fn begin(&mut self, spawner: &Spawner, connection: &Connection, plan: WritePlan) {
        self.error = None;
        self.ended = None;
        self.said.clear();
        let confirmation = plan.confirmation();
        let send = sender(spawner, connection);
        if let Err(error) = self.flow.begin(plan, confirmation, send) {
            self.error = Some(error);
        }
    }

    /// A change could not be planned: say why.
    pub(super) fn refuse(&mut self, error: Error) {
        self.ended = None;
        self.error = Some(error);
    }

    /// Another table: forget what the last run said and any question waiting (a change under
    /// way still reports when it ends).
    pub(super) fn forget(&mut self) {
        self.flow.drop_question();
        self.said.clear();
        self.ended = None;
        self.error = None;
    }

    /// Whether a question waits or a change is under way.
    pub(super) fn busy(&self) -> bool {
        self.flow.busy()
    }

    /// Take in what arrived; the report, once the run ended.
    pub(super) fn poll(&mut self) -> Option<AdminReport> {
        let polled = Job::poll_slot(self.flow.sending());
        for event in polled.progress {
            self.said.push(match event {
                AdminEvent::Applied(what) => format!("applied: {what}"),
                AdminEvent::State(state) => format!("waiting: {state}"),
            });
        }
        match polled.done? {
            Ok(report) => {
                let tone = match (report.failure(), report.ending()) {
                    (None, Ending::Done) => Tone::Good,
                    (None, _) => Tone::Warn,
                    (Some(error), _) => {
                        self.error = Some(error.clone());
                        Tone::Warn
                    }
                };
                let texts = report.lines().into_iter().map(|l| l.text).collect();
                self.ended = Some((texts, tone));
                Some(report)
            }
            Err(error) => {
                self.error = Some(error);
                None
            }
        }
    }

    /// The question, the run's progress with Stop waiting, and the report.
    pub(super) fn status_ui(&mut self, ui: &mut Ui, spawner: &Spawner, connection: &Connection) {
        self.flow.question_ui(ui, sender(spawner, connection));
        if let Some(job) = self.flow.sending() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(self.said.last().map_or("Sending…", String::as_str));
                if ui
                    .button("Stop waiting")
                    .on_hover_text("Stop describing the table; the change goes on on the server")
                    .clicked()
                {
                    job.cancel();
                }
            });
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
        if let Some((lines, tone)) = &self.ended {
            for line in lines {
                match tone {
                    Tone::Good => {
                        ui.colored_label(ui.visuals().widgets.active.fg_stroke.color, line)
                    }
                    _ => ui.colored_label(ui.visuals().warn_fg_color, line),
                };
            }
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
    }
}

/// How a confirmed plan is sent: a job running `admin::run` on a clone of the connection.
fn sender(
    spawner: &Spawner,
    connection: &Connection,
) -> impl FnOnce(WritePlan, bool) -> Job<AdminEvent, AdminReport> {
    let (spawner, connection) = (spawner.clone(), connection.clone());
    move |plan, confirmed| {
        spawner.spawn_job("UpdateTable", move |progress, cancel| async move {
            let mut tell = |event| progress.send(event);
            Ok(admin::run(&connection, &plan, confirmed, &cancel, &mut tell).await)
        })
    }
}
