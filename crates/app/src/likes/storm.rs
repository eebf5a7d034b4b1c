//! The storm: simulated users like (some twice, some then unlike) at a concurrency; then what
//! it changed is compared. Allowed outside the sandbox only once the table's name is typed.

use std::time::{Duration, Instant};

use egui::Ui;

use crate::intent::Intent;
use crate::likes::load::load_chart_ui;
use crate::likes::target::TargetForm;
use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui, lines_ui, writes_to_ui};
use crate::write_flow::typed_confirmation_ui;
use dynoscope_core::error::Error;
use dynoscope_core::likes::{self, StormPlan, StormReport, StormStats};
use dynoscope_core::spec::{self, StormSpec};
use dynoscope_core::task::Job;
use dynoscope_core::write::Destination;

/// The storm.
pub(super) struct StormFeature {
    users: String,
    concurrency: String,
    /// The table name typed to allow a storm on an endpoint not on this machine.
    typed_table: String,
    storm: Option<Job<StormStats, StormReport>>,
    storm_stats: Option<StormStats>,
    storm_result: Option<Result<StormReport, Error>>,
    error: Option<Error>,
    /// What the storm under way writes, said when it ends so that the rows shown and the
    /// table's facts are read again.
    running_writes: Vec<Intent>,
}

impl Default for StormFeature {
    fn default() -> Self {
        Self {
            users: "200".into(),
            concurrency: "16".into(),
            typed_table: String::new(),
            storm: None,
            storm_stats: None,
            storm_result: None,
            error: None,
            running_writes: Vec::new(),
        }
    }
}

impl StormFeature {
    /// Take in the storm's progress and its end; once it ended, the rows it wrote.
    pub(super) fn poll(&mut self, intents: &mut Vec<Intent>) {
        let polled = Job::poll_slot(&mut self.storm);
        if let Some(stats) = polled.progress.into_iter().last() {
            self.storm_stats = Some(stats);
        }
        if let Some(done) = polled.done {
            if let Ok(report) = &done {
                self.storm_stats = Some(report.stats.clone());
            }
            self.storm_result = Some(done);
        }
        if self.storm.is_none() {
            intents.append(&mut self.running_writes);
        }
    }

    /// Start afresh, keeping a storm under way and its progress.
    pub(super) fn subject_changed(&mut self) {
        let running = self.storm.is_some();
        *self = Self {
            storm: self.storm.take(),
            storm_stats: self.storm_stats.take().filter(|_| running),
            running_writes: std::mem::take(&mut self.running_writes),
            ..Self::default()
        };
    }

    /// The storm as planned from the form, on the open table and connection, by the storm
    /// spec the CLI's `storm` fills in too.
    fn storm_plan(&self, scope: &Scope<'_>, target: &TargetForm) -> Result<StormPlan, Error> {
        let count = |text: &str, what: &str| {
            spec::count_from_one(text).map_err(|why| Error::Invalid(format!("{what} {why}")))
        };
        let spec = StormSpec {
            target: target.spec(scope.table),
            users: count(&self.users, "users")?,
            concurrency: count(&self.concurrency, "concurrency")?,
        };
        Ok(spec.plan(
            scope.table,
            &Destination::of(scope.connection),
            &likes::run_id(),
        )?)
    }

    /// Start the storm; `confirmed`: the table's name was typed where a confirmation is needed.
    fn start_storm(&mut self, scope: &Scope<'_>, target: &TargetForm, confirmed: bool) {
        let plan = match self.storm_plan(scope, target) {
            Ok(plan) => plan,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        self.error = None;
        self.storm_stats = None;
        self.storm_result = None;
        self.running_writes.push(Intent::Written {
            destination: Box::new(plan.destination.clone()),
            table: plan.target.table.clone(),
            keys: vec![plan.target.parent_key()],
        });
        let (connection, info) = (scope.connection.clone(), scope.table.clone());
        self.storm = Some(scope.spawner.spawn_job(
            "TransactWriteItems",
            move |progress, cancel| async move {
                let mut last_sent = Instant::now();
                likes::run_storm(&connection, &info, &plan, confirmed, &cancel, |s| {
                    // A few progress reports a second are enough to draw.
                    if last_sent.elapsed() >= Duration::from_millis(50) {
                        last_sent = Instant::now();
                        progress.send(s.clone());
                    }
                })
                .await
            },
        ));
    }
}

/// Draw the storm: users, concurrency, progress, and the verdict.
pub(super) fn storm_ui(
    ui: &mut Ui,
    lab: &mut StormFeature,
    target: &TargetForm,
    scope: &Scope<'_>,
) {
    ui.heading("Storm");
    ui.weak(
        "Every user likes; every 5th sends the like twice (a client retry); every 7th then \
         unlikes.",
    );
    // Where it writes, on a line of its own (on a read-only connection: why it cannot).
    let writable = writes_to_ui(
        ui,
        &format!(
            "table {} · the parent's tally and children · {}",
            scope.table.name,
            scope.connection.label()
        ),
        scope.connection,
    );
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Users", &mut lab.users, 60.0, "1–10000");
        labelled_text_ui(ui, "Concurrency", &mut lab.concurrency, 40.0, "16");
        // The storm's own question once its form plans; the table's until then.
        let confirmation = lab.storm_plan(scope, target).map_or_else(
            |_| {
                Destination::of(scope.connection)
                    .confirmation(&format!("table {}", scope.table.name))
            },
            |plan| plan.confirmation(),
        );
        let (allowed, confirmed) =
            typed_confirmation_ui(ui, confirmation, &mut lab.typed_table, &scope.table.name);
        let running = lab.storm.is_some();
        let enabled = allowed && writable && !running;
        if crate::widgets::write_button_ui(ui, scope.connection, enabled, "Start storm").clicked() {
            lab.start_storm(scope, target, confirmed);
        }
        if ui
            .add_enabled(running, egui::Button::new("Cancel storm"))
            .clicked()
            && let Some(storm) = &lab.storm
        {
            storm.cancel();
        }
    });
    let pricing = scope.connection.pricing(scope.table);
    if let Ok(plan) = lab.storm_plan(scope, target) {
        lines_ui(ui, &plan.estimate(&pricing));
    }
    if let Some(stats) = &lab.storm_stats {
        if lab.storm.is_some() {
            let fraction = stats.done as f32 / stats.planned.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(fraction)
                    .animate(true)
                    .text(stats.progress(&pricing)),
            );
        } else {
            ui.label(stats.progress(&pricing));
        }
        lines_ui(ui, &stats.details());
    }
    if let Some(error) = &lab.error {
        error_ui(ui, error);
    }
    match &lab.storm_result {
        Some(Ok(report)) => {
            lines_ui(ui, &report.verdict());
            lines_ui(ui, &report.cost());
        }
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
    if let Some(stats) = &lab.storm_stats {
        load_chart_ui(ui, &target.spec(scope.table).pk, stats);
    }
}
