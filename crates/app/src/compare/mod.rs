//! Compare: the open table run again on another open connection and shown side by side — one
//! partition (the one the Browse tab queried), every item, or the counters under the tally
//! check's rule — rows matched by key, what is only on one side and each attribute that
//! differs highlighted. The comparison is core's (`DiffSpec`); this asks for it and lays out
//! its result.

mod sides;

use std::time::Instant;

use egui::Ui;

use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::scope::OpenConnection;
use crate::widgets::{error_ui, lines_ui};
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::error::Error;
use dynoscope_core::report::Report;
use dynoscope_core::spec::{Compared, DiffSpec, RuleSpec};
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::Pending;

/// What is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum What {
    /// One partition's items.
    #[default]
    Partition,
    /// Every item.
    Table,
    /// Every parent's tally and counted children, under the tally check's rule.
    Counters,
}

/// A comparison that answered, with what it was asked.
struct Done {
    compared: Compared,
    /// Side A's and side B's connection names.
    names: (String, String),
    at: Instant,
}

/// The compare feature's state.
#[derive(Default)]
pub(crate) struct CompareFeature {
    /// The other connection, by name.
    other: Option<String>,
    /// Side B's table (empty: the open table's name).
    to_table: String,
    what: What,
    /// The partition compared (from the Browse tab, or typed).
    pk: String,
    /// The tally check's rule in use, set by the shell each frame.
    pub rule: Option<TallyRule>,
    running: Option<Pending<Compared>>,
    /// Stops the comparison under way.
    stop: CancelToken,
    /// The names of the two sides of the comparison under way.
    names: (String, String),
    done: Option<Done>,
    error: Option<Error>,
}

impl CompareFeature {
    /// Start on the partition the view left showed.
    pub(crate) fn carry(&mut self, partition: &str) {
        if !partition.trim().is_empty() {
            partition.trim().clone_into(&mut self.pk);
        }
    }

    /// The comparison asked, checked: the spec, or why it cannot be made.
    fn spec(&self, table: &str) -> Result<DiffSpec, Error> {
        let to_table = match self.to_table.trim() {
            "" => table.to_owned(),
            other => other.to_owned(),
        };
        let (pk, rule) = match self.what {
            What::Partition if self.pk.trim().is_empty() => {
                return Err(Error::Invalid(
                    "type the partition key value to compare".into(),
                ));
            }
            What::Partition => (Some(self.pk.trim().to_owned()), None),
            What::Table => (None, None),
            What::Counters => match &self.rule {
                Some(rule) => (None, Some(RuleSpec::of(rule))),
                None => {
                    return Err(Error::Invalid(
                        "no tally rule for this table: add one in the Tally check first".into(),
                    ));
                }
            },
        };
        Ok(DiffSpec {
            table: table.to_owned(),
            to_table,
            pk,
            keys: Vec::new(),
            rule,
            from_export: None,
            to_export: None,
        })
    }

    /// Start comparing the open table on this connection with `other`.
    fn start(&mut self, context: &Context<'_>, other: &OpenConnection) {
        let scope = context.scope;
        self.error = None;
        let spec = match self.spec(&scope.table.name) {
            Ok(spec) => spec,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let (a, b) = (scope.connection.clone(), other.connection.clone());
        let stop = CancelToken::default();
        let run_stop = stop.clone();
        let work = async move { spec.compare_on(&a, &b, &run_stop).await };
        let a_name = scope.connection.name().unwrap_or_else(|| "this".to_owned());
        let names = (a_name, other.name.clone());
        self.running = Some(context.scope.spawner.spawn("Compare", work));
        self.stop = stop;
        self.names = names;
    }

    /// The form: the other connection, its table, what to compare; Compare and Cancel.
    fn form_ui(&mut self, ui: &mut Ui, context: &Context<'_>) {
        let others = context.scope.others;
        if others.is_empty() {
            ui.weak(
                "Open a second connection (the bar above: Connect another place) to compare \
                 this table with it.",
            );
            return;
        }
        if self
            .other
            .as_ref()
            .is_none_or(|name| others.iter().all(|o| &o.name != name))
        {
            self.other = others.first().map(|o| o.name.clone());
        }
        let table = &context.scope.table.name;
        ui.horizontal_wrapped(|ui| {
            sides::other_ui(ui, &mut self.other, others);
            crate::widgets::labelled_text_ui(ui, "Its table", &mut self.to_table, 120.0, table);
        });
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.what, What::Partition, "One partition");
            ui.selectable_value(&mut self.what, What::Table, "Every item");
            ui.selectable_value(&mut self.what, What::Counters, "Counters (tally rule)");
            if self.what == What::Partition {
                crate::widgets::labelled_text_ui(ui, "Partition", &mut self.pk, 140.0, "POST#a91f");
            }
        });
        let running = self.running.is_some();
        ui.horizontal(|ui| {
            let chosen = others
                .iter()
                .find(|o| Some(&o.name) == self.other.as_ref())
                .cloned();
            let compare = ui.add_enabled(!running, egui::Button::new("Run the comparison"));
            if compare.clicked()
                && let Some(other) = chosen
            {
                self.start(context, &other);
            }
            if running {
                ui.spinner();
                ui.label("Reading both sides…");
                if ui.button("Cancel").clicked() {
                    self.stop.cancel();
                }
            }
        });
    }
}

impl Feature for CompareFeature {
    fn poll(&mut self, _intents: &mut Vec<Intent>) {
        let Some(result) = Pending::take_ready(&mut self.running) else {
            return;
        };
        let names = std::mem::take(&mut self.names);
        match result {
            Ok(compared) => {
                self.done = Some(Done {
                    compared,
                    names,
                    at: Instant::now(),
                });
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn subject_changed(&mut self, subject: Subject<'_>) {
        // Another table or connection: a comparison of the last one is not this one's.
        if subject.table.is_some() || subject.connection.is_some() {
            // A comparison of the last one under way is stopped: its answer is not this one's.
            self.stop.cancel();
            if let Some(running) = self.running.take() {
                running.abort();
            }
            self.done = None;
            self.error = None;
            self.to_table.clear();
        }
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        ui.heading("Compare with another connection");
        self.form_ui(ui, context);
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        let Some(done) = &self.done else {
            return;
        };
        ui.separator();
        let age = dynoscope_core::report::age_text(done.at.elapsed());
        ui.weak(format!(
            "Compared {age}: A is {}, B is {}.",
            done.names.0, done.names.1
        ));
        let report: &dyn Report = match &done.compared {
            Compared::Items(diff) => diff.as_ref(),
            Compared::Tallies(diff) => diff,
        };
        egui::ScrollArea::vertical()
            .id_salt("compare_result")
            .show(ui, |ui| {
                match &done.compared {
                    Compared::Items(diff) => sides::items_ui(ui, diff, &done.names),
                    Compared::Tallies(diff) => sides::tallies_ui(ui, diff, &done.names),
                }
                ui.separator();
                lines_ui(ui, &report.lines());
            });
    }
}
