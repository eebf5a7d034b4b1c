//! The open table exported to S3 in its Table view: where (`s3://BUCKET/PREFIX`), the whole
//! table or a window of writes, point-in-time recovery turned on first when asked; its price
//! said before the gateway's question; then followed (Stop following stops following, not the
//! export) until its files are in S3, where a reconcile reads them. The table's exports listed.

use std::time::Instant;

use egui::Ui;

use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui, lines_ui, write_button_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::error::Error;
use dynoscope_core::exports::{
    self, ExportEvent, ExportInfo, ExportPlan, ExportRun, ExportWindow, S3ExportSpec,
};
use dynoscope_core::report::{Line, Report, age_text};
use dynoscope_core::schema::Described;
use dynoscope_core::task::{Job, Pending, Spawner};

/// What the section holds between frames.
#[derive(Default)]
pub(super) struct ExportForm {
    to: String,
    incremental: bool,
    from: String,
    until: String,
    enable_pitr: bool,
    flow: WriteFlow<ExportPlan, Job<ExportEvent, ExportRun>>,
    /// The price of the export asked about, said with the question.
    price: Option<String>,
    /// The last state said while it runs.
    state: Option<String>,
    /// The last run's report, and when it ended.
    ended: Option<(Vec<Line>, Option<String>, Instant)>,
    listing: Option<Pending<Vec<ExportInfo>>>,
    listed: Option<(Vec<ExportInfo>, Instant)>,
    error: Option<Error>,
}

impl ExportForm {
    /// Another table: forget its exports (a run under way still reports).
    pub(super) fn forget(&mut self) {
        self.flow.drop_question();
        self.listed = None;
        self.ended = None;
        self.error = None;
    }

    /// The spec the fields say.
    pub(super) fn spec(&self, table: &str) -> S3ExportSpec {
        S3ExportSpec {
            table: table.to_owned(),
            to: self.to.trim().to_owned(),
            at: None,
            window: self.incremental.then(|| ExportWindow {
                from: self.from.trim().to_owned(),
                to: self.until.trim().to_owned(),
                new_images_only: false,
            }),
            enable_pitr: self.enable_pitr,
        }
    }

    /// Take in what arrived; true when the table's settings changed (recovery turned on).
    fn poll(&mut self) -> bool {
        let mut changed = false;
        let polled = Job::poll_slot(self.flow.sending());
        for event in polled.progress {
            self.state = Some(match event {
                ExportEvent::Applied(what) => format!("applied: {what}"),
                ExportEvent::State(info) => info.line(),
            });
        }
        if let Some(done) = polled.done {
            self.state = None;
            match done {
                Ok(run) => {
                    changed = run
                        .pitr
                        .as_ref()
                        .is_some_and(dynoscope_core::write::WriteOutcome::applied);
                    self.error = run.failure().cloned();
                    let lines = run.lines();
                    self.ended = Some((lines, run.location.clone(), Instant::now()));
                    self.listed = None;
                }
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(done) = Pending::take_ready(&mut self.listing) {
            match done {
                Ok(list) => self.listed = Some((list, Instant::now())),
                Err(error) => self.error = Some(error),
            }
        }
        changed
    }

    /// Draw the section; true when the table's settings changed (to read it again).
    pub(super) fn export_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        described: &Described,
    ) -> bool {
        let changed = self.poll();
        ui.weak(
            "DynamoDB writes a consistent snapshot (or a window's writes) to S3 without reading \
             the table's capacity; billed per GB. It needs point-in-time recovery on.",
        );
        self.fields_ui(ui, described);
        let ready = !self.flow.busy() && !self.to.trim().is_empty();
        ui.horizontal(|ui| {
            if write_button_ui(ui, scope.connection, ready, "Start export").clicked() {
                self.begin(scope, described);
            }
            self.list_button_ui(ui, scope, described);
        });
        if self.flow.question().is_some()
            && let Some(price) = &self.price
        {
            ui.label(price);
        }
        let send = sender(scope.spawner, scope.connection);
        self.flow.question_ui(ui, send);
        self.running_ui(ui);
        self.ended_ui(ui);
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        self.listed_ui(ui);
        changed
    }

    fn fields_ui(&mut self, ui: &mut Ui, described: &Described) {
        ui.horizontal(|ui| {
            labelled_text_ui(ui, "Export to", &mut self.to, 260.0, "s3://bucket/prefix");
        });
        ui.checkbox(
            &mut self.incremental,
            "Only the writes of a window (incremental)",
        );
        if self.incremental {
            ui.horizontal(|ui| {
                let hint = "2026-12-05T01:00:00Z";
                labelled_text_ui(ui, "From", &mut self.from, 180.0, hint);
                labelled_text_ui(ui, "Until", &mut self.until, 180.0, hint);
            });
        }
        if !described.spec.pitr {
            ui.checkbox(
                &mut self.enable_pitr,
                "Turn point-in-time recovery on first (it is off; billed per GB-month)",
            );
        }
    }

    fn begin(&mut self, scope: &Scope<'_>, described: &Described) {
        self.error = None;
        self.ended = None;
        match self
            .spec(&described.spec.name)
            .plan(scope.connection, described)
        {
            Ok(plan) => {
                self.price = Some(plan.price.clone());
                let confirmation = plan.export.confirmation();
                let send = sender(scope.spawner, scope.connection);
                if let Err(error) = self.flow.begin(plan, confirmation, send) {
                    self.error = Some(error);
                }
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn running_ui(&mut self, ui: &mut Ui) {
        let Some(job) = self.flow.sending() else {
            return;
        };
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(self.state.as_deref().unwrap_or("Starting the export…"));
            if ui
                .button("Stop following")
                .on_hover_text("Stop describing the export; the export goes on in AWS")
                .clicked()
            {
                job.cancel();
            }
        });
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(250));
    }

    fn ended_ui(&mut self, ui: &mut Ui) {
        let Some((lines, location, at)) = &self.ended else {
            return;
        };
        ui.weak(format!("ended {}", age_text(at.elapsed())));
        lines_ui(ui, lines);
        if let Some(location) = location
            && ui
                .button("Copy its address")
                .on_hover_text("Paste it as the export of a reconcile")
                .clicked()
        {
            ui.ctx().copy_text(location.clone());
        }
    }

    /// List exports, beside Start export (the list itself under the run's report).
    fn list_button_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, described: &Described) {
        let can = self.listing.is_none() && described.arn.is_some();
        if ui
            .add_enabled(can, egui::Button::new("List exports"))
            .clicked()
            && let Some(arn) = described.arn.clone()
        {
            let reader = scope.connection.reader();
            self.listing = Some(scope.spawner.spawn("ListExports", async move {
                exports::list_exports(&reader, &arn).await
            }));
        }
        if self.listing.is_some() {
            ui.spinner();
        } else if let Some((_, at)) = &self.listed {
            ui.weak(format!("listed {}", age_text(at.elapsed())));
        }
    }

    fn listed_ui(&self, ui: &mut Ui) {
        match &self.listed {
            Some((list, _)) if list.is_empty() => {
                ui.weak("no exports");
            }
            Some((list, _)) => list.iter().for_each(|e| {
                ui.label(e.line());
            }),
            None => {}
        }
    }
}

/// How a confirmed plan is sent: a job running `exports::run` on a clone of the connection.
fn sender(
    spawner: &Spawner,
    connection: &dynoscope_core::connection::Connection,
) -> impl FnOnce(ExportPlan, bool) -> Job<ExportEvent, ExportRun> {
    let (spawner, connection) = (spawner.clone(), connection.clone());
    move |plan, confirmed| {
        spawner.spawn_job(
            "ExportTableToPointInTime",
            move |progress, cancel| async move {
                let mut tell = |event| progress.send(event);
                Ok(exports::run(&connection, &plan, confirmed, &cancel, &mut tell).await)
            },
        )
    }
}
