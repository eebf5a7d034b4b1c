//! Repair all drifted parents of a reconcile: one question for all (the gateway's, asked once),
//! then a guarded `SET` each through the write gateway, in order, stopping at an unknown
//! outcome; each repair's line as it ends, and the parents checked again put in the results.

use egui::Ui;

use crate::intent::Intent;
use crate::scope::Scope;
use crate::widgets::{error_ui, line_ui, write_button_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::error::Error;
use dynoscope_core::report::Line;
use dynoscope_core::tally::{self, ParentCheck, RepairAll, RepairReport, TallyRule};
use dynoscope_core::task::Job;
use dynoscope_core::write::Destination;

type Sending = Job<(String, RepairReport), RepairAll>;

/// The repair of every drifted parent: the question, the run, and what each repair did.
#[derive(Default)]
pub(super) struct RepairAllFlow {
    flow: WriteFlow<Vec<ParentCheck>, Sending>,
    /// Each parent sent and its repair's line, in order.
    lines: Vec<(String, Line)>,
    /// How the run ended.
    ended: Option<Result<RepairAll, Error>>,
    /// Why it could not begin.
    error: Option<Error>,
    /// Where the repairs go (for the notice that they were written).
    target: Option<(Destination, String)>,
}

/// What arrived since the last poll: parents checked again, and the write's notice.
pub(super) struct Arrived {
    pub(super) rechecked: Vec<ParentCheck>,
    pub(super) written: Option<Intent>,
}

impl RepairAllFlow {
    /// Whether a question waits or repairs are under way.
    pub(super) fn busy(&self) -> bool {
        self.flow.busy()
    }

    /// Take in the repairs that ended.
    pub(super) fn poll(&mut self) -> Arrived {
        let mut arrived = Arrived {
            rechecked: Vec::new(),
            written: None,
        };
        let polled = Job::poll_slot(self.flow.sending());
        let mut keys = Vec::new();
        for (partition, report) in polled.progress {
            if let Ok((check, _)) = &report.recheck {
                keys.push(check.key.clone());
                arrived.rechecked.push(check.clone());
            }
            self.lines.push((partition, report.line()));
        }
        if let Some(done) = polled.done {
            self.ended = Some(done);
        }
        if let Some((destination, table)) = &self.target
            && !keys.is_empty()
        {
            arrived.written = Some(Intent::Written {
                destination: Box::new(destination.clone()),
                table: table.clone(),
                keys,
            });
        }
        arrived
    }

    /// Begin repairing the drifted parents of `checks`: sent at once where no question is
    /// asked, otherwise once the question is answered.
    pub(super) fn begin(&mut self, scope: &Scope<'_>, rule: &TallyRule, checks: &[ParentCheck]) {
        let drifted: Vec<ParentCheck> = checks.iter().filter(|c| c.drifted()).cloned().collect();
        let destination = Destination::of(scope.connection);
        let confirmation =
            tally::repair_all_confirmation(&destination, scope.table, rule, drifted.len());
        self.lines.clear();
        self.ended = None;
        self.target = Some((destination, scope.table.name.clone()));
        self.error = self
            .flow
            .begin(drifted, confirmation, send(scope, rule))
            .err();
    }

    /// Draw the button (with `drifted` parents to repair, none when the results cannot be
    /// repaired from), the question, the progress and each repair's line.
    pub(super) fn repair_all_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        rule: &TallyRule,
        checks: &[ParentCheck],
        drifted: usize,
        why_not: Option<&str>,
    ) {
        if drifted > 0 {
            ui.horizontal(|ui| {
                let label = format!("Repair all {drifted} drifted…");
                let allowed = why_not.is_none() && !self.busy();
                if write_button_ui(ui, scope.connection, allowed, &label).clicked() {
                    self.begin(scope, rule, checks);
                }
                if let Some(why) = why_not {
                    ui.weak(why);
                }
                if let Some(job) = self.flow.sending().as_ref() {
                    ui.spinner();
                    if ui.button("Stop after this repair").clicked() {
                        job.cancel();
                    }
                }
            });
        }
        // The sender (its clones of the connection, table and rule) only when a question waits.
        if self.flow.question().is_some() {
            self.flow.question_ui(ui, send(scope, rule));
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        for (partition, line) in &self.lines {
            line_ui(
                ui,
                &Line::new(line.tone, format!("{partition}: {}", line.text)),
            );
        }
        match &self.ended {
            Some(Ok(all)) => {
                ui.strong(format!("Repair: {}.", all.summary()));
            }
            Some(Err(error)) => error_ui(ui, error),
            None => {}
        }
    }
}

/// How the repairs are sent once allowed: one job, a guarded SET after another.
fn send(scope: &Scope<'_>, rule: &TallyRule) -> impl FnOnce(Vec<ParentCheck>, bool) -> Sending {
    let (connection, info, rule) = (scope.connection.clone(), scope.table.clone(), rule.clone());
    let spawner = scope.spawner.clone();
    move |checks, confirmed| {
        spawner.spawn_job("UpdateItem", move |events, stop| async move {
            tally::repair_all(
                &connection,
                &info,
                &rule,
                &checks,
                confirmed,
                &stop,
                |partition, report| events.send((partition.to_owned(), report.clone())),
            )
            .await
        })
    }
}
