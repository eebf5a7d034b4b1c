//! Reconcile many parents: choose them, count their children concurrently, and list them by
//! |drift| with totals; export the result.

use std::time::Instant;

use bigdecimal::BigDecimal;
use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};

use crate::core::counter::to_dynamodb;
use crate::core::error::Error;
use crate::core::number;
use crate::core::table::TableInfo;
use crate::core::tally_ops::ParentCheck;
use crate::ui::status_bar::format_rcu;
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::worker::{CancelToken, JobId};

/// Where the parents come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceChoice {
    /// A Scan with the parent filter.
    Scan,
    /// The rows loaded in the grid.
    Loaded,
    /// A Query on an index.
    IndexQuery,
}

/// Totals over the checks so far, kept as results arrive rather than recounted each frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Parents whose tally disagrees (a missing tally included).
    pub drifted: usize,
    /// Parents with no tally.
    pub missing: usize,
    /// Sum of the stored tallies, exactly.
    pub stored: BigDecimal,
    /// Sum of the counted children.
    pub counted: u64,
    /// Read capacity consumed.
    pub rcu: f64,
}

impl Totals {
    /// Count `c` in (`add`) or out of the totals.
    fn apply(&mut self, c: &ParentCheck, add: bool) {
        let stored = c
            .stored
            .as_deref()
            .and_then(|s| number::parse(s).ok())
            .unwrap_or_default();
        let (drifted, missing) = (usize::from(c.drifted()), usize::from(c.stored.is_none()));
        if add {
            self.drifted += drifted;
            self.missing += missing;
            self.stored += stored;
            self.counted += c.count.count;
            self.rcu += c.count.consumed_rcu;
        } else {
            self.drifted -= drifted;
            self.missing -= missing;
            self.stored -= stored;
            self.counted -= c.count.count;
            self.rcu -= c.count.consumed_rcu;
        }
    }
}

/// The state of a reconcile run and its results.
#[derive(Debug)]
pub struct Reconcile {
    /// Where parents come from.
    pub source: SourceChoice,
    /// Index for [`SourceChoice::IndexQuery`].
    pub index: String,
    /// Its partition key value.
    pub index_partition: String,
    /// Parents counted at once (typed).
    pub concurrency: String,
    /// The run under way, or the last one.
    pub job: Option<JobId>,
    /// Parents to check (known once found).
    pub total: Option<usize>,
    /// Checks so far, sorted by severity.
    pub checks: Vec<ParentCheck>,
    /// Totals over `checks`.
    pub totals: Totals,
    /// Parents that could not be checked.
    pub failures: Vec<Error>,
    /// When the run started.
    pub started: Option<Instant>,
    /// When it ended.
    pub finished: Option<Instant>,
    /// Stops the run.
    pub cancel: Option<CancelToken>,
    /// Whether the last run was cancelled.
    pub cancelled: bool,
    /// Why the run could not start, or the form is wrong.
    pub error: Option<Error>,
}

impl Default for Reconcile {
    fn default() -> Self {
        Self {
            source: SourceChoice::Scan,
            index: String::new(),
            index_partition: String::new(),
            concurrency: "8".to_owned(),
            job: None,
            total: None,
            checks: Vec::new(),
            totals: Totals::default(),
            failures: Vec::new(),
            started: None,
            finished: None,
            cancel: None,
            cancelled: false,
            error: None,
        }
    }
}

impl Reconcile {
    /// Whether a run is under way.
    pub fn running(&self) -> bool {
        self.cancel.is_some()
    }

    /// Forget the results of the last run.
    pub fn clear_results(&mut self) {
        self.checks.clear();
        self.totals = Totals::default();
        self.failures.clear();
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub fn replace(&mut self, check: ParentCheck) {
        if let Some(at) = self
            .checks
            .iter()
            .position(|c| c.partition == check.partition)
        {
            let old = self.checks.remove(at);
            self.totals.apply(&old, false);
        }
        self.add(check);
    }

    /// Add one result, keeping the list sorted: missing tallies, then by |drift|.
    pub fn add(&mut self, check: ParentCheck) {
        self.totals.apply(&check, true);
        let key = |c: &ParentCheck| (std::cmp::Reverse(c.severity()), c.partition.clone());
        let at = self
            .checks
            .binary_search_by_key(&key(&check), key)
            .unwrap_or_else(|i| i);
        self.checks.insert(at, check);
    }
}

/// What the user asked the reconcile panel for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReconcileAction {
    /// Start a run.
    Start,
    /// Stop the run; keep the results.
    Cancel,
    /// Export the results (`true`: CSV, `false`: JSON).
    Export {
        /// CSV rather than JSON.
        csv: bool,
    },
    /// Check this parent on its own (and offer a repair).
    Open(String),
}

/// Draw the panel; returns what the user asked for.
#[must_use]
pub fn reconcile_ui(
    ui: &mut Ui,
    state: &mut Reconcile,
    info: &TableInfo,
) -> Option<ReconcileAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("Parents from");
        ui.radio_value(&mut state.source, SourceChoice::Scan, "Scan for parents");
        ui.radio_value(
            &mut state.source,
            SourceChoice::Loaded,
            "Rows loaded in the grid",
        );
        ui.radio_value(
            &mut state.source,
            SourceChoice::IndexQuery,
            "Query an index",
        );
        if state.source == SourceChoice::IndexQuery {
            egui::ComboBox::from_label("Parent index")
                .selected_text(state.index.clone())
                .show_ui(ui, |ui| {
                    for index in &info.indexes {
                        ui.selectable_value(&mut state.index, index.name.clone(), &index.name);
                    }
                });
            labelled_text_ui(
                ui,
                "Index key",
                &mut state.index_partition,
                110.0,
                "partition value",
            );
        }
    });
    ui.horizontal(|ui| {
        labelled_text_ui(ui, "Concurrency", &mut state.concurrency, 40.0, "8");
        if ui
            .add_enabled(!state.running(), egui::Button::new("Reconcile"))
            .clicked()
        {
            action = Some(ReconcileAction::Start);
        }
        if ui
            .add_enabled(state.running(), egui::Button::new("Cancel reconcile"))
            .clicked()
        {
            action = Some(ReconcileAction::Cancel);
        }
    });
    if let Some(error) = &state.error {
        error_ui(ui, error);
    }
    if state.job.is_none() {
        return action;
    }
    progress_ui(ui, state);
    for failure in state.failures.iter().take(3) {
        error_ui(ui, failure);
    }
    totals_ui(ui, state);
    if !state.checks.is_empty() && !state.running() {
        ui.horizontal(|ui| {
            if ui.button("Export CSV").clicked() {
                action = Some(ReconcileAction::Export { csv: true });
            }
            if ui.button("Export JSON").clicked() {
                action = Some(ReconcileAction::Export { csv: false });
            }
        });
    }
    if let Some(open) = results_ui(ui, state) {
        action = Some(ReconcileAction::Open(open));
    }
    action
}

fn progress_ui(ui: &mut Ui, state: &Reconcile) {
    let done = state.checks.len() + state.failures.len();
    let secs = match (state.started, state.finished) {
        (Some(s), Some(f)) => f.duration_since(s).as_secs_f64(),
        (Some(s), None) => s.elapsed().as_secs_f64(),
        _ => 0.0,
    };
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let rcu = state.totals.rcu;
    let text = match state.total {
        Some(total) => format!(
            "{done} of {total} parents · {rate:.1} parents/s · {} RCU",
            format_rcu(rcu)
        ),
        None => "Finding parents…".to_owned(),
    };
    if state.running() {
        let fraction = state.total.map_or(0.0, |t| done as f32 / t.max(1) as f32);
        ui.add(egui::ProgressBar::new(fraction).animate(true).text(text));
    } else {
        ui.label(text);
        if state.cancelled {
            ui.weak("Cancelled: the results so far are kept.");
        }
    }
}

fn totals_ui(ui: &mut Ui, state: &Reconcile) {
    let Totals {
        drifted,
        missing,
        stored,
        counted,
        ..
    } = &state.totals;
    let drifted = *drifted;
    let text = format!(
        "{} parents checked · {drifted} drifted ({missing} missing a tally) · stored total {} · counted total {counted}",
        state.checks.len(),
        to_dynamodb(stored)
    );
    if drifted > 0 {
        ui.colored_label(ui.visuals().warn_fg_color, text);
    } else {
        ui.label(text);
    }
}

fn results_ui(ui: &mut Ui, state: &Reconcile) -> Option<String> {
    let mut open = None;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let warn = ui.visuals().warn_fg_color;
    ui.push_id("reconcile_results", |ui| {
        ui.style_mut().interaction.selectable_labels = false;
        TableBuilder::new(ui)
            .striped(true)
            .sense(egui::Sense::click())
            .max_scroll_height(320.0)
            .column(Column::initial(170.0).resizable(true))
            .columns(Column::initial(100.0).resizable(true), 3)
            .column(Column::remainder())
            .header(row_height, |mut header| {
                for title in ["Parent", "Stored", "Counted", "Drift", "Cost"] {
                    header.col(|ui| {
                        ui.strong(title);
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, state.checks.len(), |mut row| {
                    let Some(check) = state.checks.get(row.index()) else {
                        return;
                    };
                    let color = if check.drifted() { warn } else { ui_default() };
                    row.col(|ui| {
                        ui.label(RichText::new(&check.partition).color(color));
                    });
                    row.col(|ui| {
                        ui.label(check.stored.as_deref().unwrap_or("missing"));
                    });
                    row.col(|ui| {
                        ui.label(check.count.count.to_string());
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(check.drift_text()).color(color));
                    });
                    row.col(|ui| {
                        ui.weak(format!(
                            "{} p · {} RCU",
                            check.count.pages,
                            format_rcu(check.count.consumed_rcu)
                        ));
                    });
                    if row.response().clicked() {
                        open = Some(check.partition.clone());
                    }
                });
            });
    });
    open
}

/// "No colour": the label keeps the theme's text colour.
fn ui_default() -> Color32 {
    Color32::PLACEHOLDER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tally_ops::Count;

    fn check(pk: &str, stored: Option<&str>, counted: u64) -> ParentCheck {
        ParentCheck {
            key: Default::default(),
            partition: pk.to_owned(),
            stored: stored.map(str::to_owned),
            count: Count {
                count: counted,
                pages: 1,
                consumed_rcu: 0.5,
                elapsed_ms: 0,
                method: String::new(),
            },
            drift: crate::core::tally::drift(stored, counted).unwrap(),
            last_touched: None,
        }
    }

    #[test]
    fn running_totals_equal_a_recount() {
        let mut r = Reconcile::default();
        r.add(check("POST#1", Some("3"), 3));
        r.add(check("POST#2", Some("226"), 225));
        r.add(check("POST#3", None, 298));
        // A repair re-checks POST#2.
        r.replace(check("POST#2", Some("225"), 225));
        assert_eq!(r.checks.len(), 3);
        assert_eq!(r.totals.drifted, 1);
        assert_eq!(r.totals.missing, 1);
        assert_eq!(to_dynamodb(&r.totals.stored), "228");
        assert_eq!(r.totals.counted, 526);
        assert_eq!(r.checks[0].partition, "POST#3", "missing tally first");
        r.clear_results();
        assert_eq!(r.totals, Totals::default());
    }
}
