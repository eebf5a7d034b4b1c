//! The counter lab: K writers increment scratch items by three methods, in rounds, and what
//! each method lost is shown. Allowed outside the sandbox only once the table's name is typed.

use egui::{RichText, Ui};

use crate::intent::Intent;
use crate::scope::Scope;
use crate::widgets::{error_ui, labelled_text_ui, lines_ui, writes_to_ui};
use crate::write_flow::typed_confirmation_ui;
use dynoscope_core::cost::Pricing;
use dynoscope_core::error::Error;
use dynoscope_core::lab::{self, LabResult, LabRun};
use dynoscope_core::likes;
use dynoscope_core::number;
use dynoscope_core::report::capacity;
use dynoscope_core::task::Pending;
use dynoscope_core::write::Destination;

/// The counter lab.
pub(super) struct LabFeature {
    writers: String,
    increments: String,
    /// The table name typed to allow the lab on an endpoint not on this machine.
    typed_table: String,
    lab: Option<Pending<LabRun>>,
    lab_run: Option<LabRun>,
    error: Option<Error>,
    /// What the run under way writes, said when it ends so that the table's facts are read
    /// again.
    running_writes: Vec<Intent>,
}

impl Default for LabFeature {
    fn default() -> Self {
        Self {
            writers: "8".into(),
            increments: "25".into(),
            typed_table: String::new(),
            lab: None,
            lab_run: None,
            error: None,
            running_writes: Vec::new(),
        }
    }
}

impl LabFeature {
    /// Take in the run's end; then what it wrote.
    pub(super) fn poll(&mut self, intents: &mut Vec<Intent>) {
        if let Some(run) = Pending::take_ready(&mut self.lab) {
            self.lab_run = Some(run.unwrap_or_else(|error| LabRun {
                error: Some(error),
                ..LabRun::default()
            }));
        }
        if self.lab.is_none() {
            intents.append(&mut self.running_writes);
        }
    }

    /// Start afresh, keeping a run under way.
    pub(super) fn subject_changed(&mut self) {
        *self = Self {
            lab: self.lab.take(),
            running_writes: std::mem::take(&mut self.running_writes),
            ..Self::default()
        };
    }

    /// Run the counter lab; `confirmed`: the table's name was typed where a confirmation is
    /// needed.
    fn run_lab(&mut self, scope: &Scope<'_>, confirmed: bool) {
        let writers = number::whole_in(&self.writers, 1, lab::MAX_WRITERS, "writers");
        let increments = number::whole_in(&self.increments, 1, lab::MAX_INCREMENTS, "increments");
        let (writers, increments) = match (writers, increments) {
            (Ok(w), Ok(i)) => (w, i),
            (Err(e), _) | (_, Err(e)) => {
                self.error = Some(e);
                return;
            }
        };
        self.error = None;
        self.lab_run = None;
        // The lab's scratch items are its own; the table's facts move all the same.
        self.running_writes.push(Intent::Written {
            destination: Box::new(Destination::of(scope.connection)),
            table: scope.table.name.clone(),
            keys: Vec::new(),
        });
        let (connection, info, run) = (
            scope.connection.clone(),
            scope.table.clone(),
            likes::run_id(),
        );
        self.lab = Some(scope.spawner.spawn("UpdateItem", async move {
            Ok(lab::run(&connection, &info, writers, increments, &run, confirmed).await)
        }));
    }
}

/// Draw the counter lab: writers, increments, and each method's result.
pub(super) fn lab_ui(ui: &mut Ui, lab: &mut LabFeature, scope: &Scope<'_>) {
    ui.heading("Counter lab");
    ui.weak(
        "K writers increment a scratch item by three methods, in rounds: each round every writer \
         reads, then every writer writes. Scratch items are deleted afterwards.",
    );
    // Where it writes, on a line of its own (on a read-only connection: why it cannot).
    let writable = writes_to_ui(
        ui,
        &format!(
            "table {} · three SCRATCH#dynoscope-lab-… items · {}",
            scope.table.name,
            scope.connection.label()
        ),
        scope.connection,
    );
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Writers", &mut lab.writers, 40.0, "1–64");
        labelled_text_ui(ui, "Increments each", &mut lab.increments, 50.0, "1–100");
        let confirmation = lab::confirmation(&Destination::of(scope.connection), scope.table);
        let (allowed, confirmed) =
            typed_confirmation_ui(ui, confirmation, &mut lab.typed_table, &scope.table.name);
        let running = lab.lab.is_some();
        let enabled = allowed && writable && !running;
        if crate::widgets::write_button_ui(ui, scope.connection, enabled, "Run counter lab")
            .clicked()
        {
            lab.run_lab(scope, confirmed);
        }
        if running {
            ui.spinner();
        }
    });
    if let Some(error) = &lab.error {
        error_ui(ui, error);
    }
    let Some(run) = &lab.lab_run else {
        return;
    };
    let pricing = scope.connection.pricing(scope.table);
    if !run.results.is_empty() {
        results_grid_ui(ui, &run.results, &pricing);
    }
    let loads: Vec<_> = run.results.iter().map(|r| r.load().line()).collect();
    lines_ui(ui, &loads);
    for problem in run.problems() {
        ui.colored_label(ui.visuals().error_fg_color, problem);
    }
}

/// Each method's result, a row each: expected and final values, lost updates, failed
/// conditions, what it consumed and cost, and how long it took.
fn results_grid_ui(ui: &mut Ui, results: &[LabResult], pricing: &Pricing) {
    egui::Grid::new("lab_results")
        .striped(true)
        .num_columns(9)
        .show(ui, |ui| {
            for title in [
                "Method",
                "Expected",
                "Final",
                "Lost updates",
                "Failed conditions",
                "RCU",
                "WCU",
                "Cost",
                "ms",
            ] {
                ui.strong(title);
            }
            ui.end_row();
            for r in results {
                ui.label(r.method.label());
                ui.label(r.expected.to_string());
                ui.label(r.final_value.clone().unwrap_or_else(|| "missing".into()));
                let lost = RichText::new(r.lost.to_string());
                ui.label(if r.lost > 0 {
                    lost.color(ui.visuals().error_fg_color)
                } else {
                    lost
                });
                ui.label(r.conditional_failures.to_string());
                ui.label(capacity(r.consumed_rcu));
                ui.label(capacity(r.consumed_wcu));
                ui.label(r.cost(pricing)).on_hover_text(pricing.note());
                ui.label(r.elapsed_ms.to_string());
                ui.end_row();
            }
        });
}
