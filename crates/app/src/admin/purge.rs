//! Deleting many items of the open table: every item (the table kept) or one partition's. A
//! dry run counts them first — the first keys, the read's cost, the counters they move — and
//! the delete needs that count typed back; it reads the items again, stops at the count, can be
//! cancelled between batches, and repairs the tallies after when that is chosen.

use std::time::Instant;

use egui::{RichText, Ui};

use crate::admin::purge_job::{Ended, delete_job};
use crate::intent::Intent;
use crate::scope::{Loaded, Scope};
use crate::widgets::{error_ui, line_ui, protected_name_ui, write_button_ui};
use dynoscope_core::purge::{self, PurgeCount, PurgeReport, PurgeSource, TallyChoice, check_typed};
use dynoscope_core::report::age_text;
use dynoscope_core::rows::RowSet;
use dynoscope_core::spec::{PurgeScope, PurgeSpec};
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::{Job, Pending};

/// Which items a delete takes (none chosen when the section opens: the widest is never the
/// default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Take {
    /// Every item of the table.
    Table,
    /// One partition's, by the key below.
    Partition,
    /// The rows selected in the grid's tab on this table.
    Selected,
    /// Every row loaded in that tab.
    Loaded,
}

/// What a count is asked to count, as it leaves the UI thread.
enum Asked {
    /// A Query or Scan, planned by the purge's spec.
    Read(PurgeSource),
    /// The grid's rows (all, or those in `chosen`), turned into keys by the count's task.
    Rows {
        rows: dynoscope_core::rows::Rows,
        chosen: Option<RowSet>,
    },
}

impl Asked {
    /// What the delete reads: the plan, or the keys of the rows (read again when counted).
    fn source(
        self,
        info: &dynoscope_core::table::TableInfo,
    ) -> dynoscope_core::error::Result<PurgeSource> {
        match self {
            Self::Read(source) => Ok(source),
            Self::Rows { rows, chosen } => {
                let mut keys = Vec::new();
                for row in 0..rows.len() {
                    let at = u32::try_from(row).unwrap_or(u32::MAX);
                    if chosen.as_ref().is_some_and(|c| !c.contains(at)) {
                        continue;
                    }
                    if let Some(item) = rows.item(row) {
                        keys.push(info.key_of(&item)?);
                    }
                }
                Ok(PurgeSource::Keys(keys))
            }
        }
    }
}

/// What is deleted, as chosen.
#[derive(Default)]
pub(super) struct PurgeForm {
    take: Option<Take>,
    pk: String,
    sk_prefix: String,
    /// The count under way, with what it counts (the grid's rows turned into keys there, off
    /// the UI thread).
    counting: Option<Pending<(PurgeCount, PurgeSource)>>,
    /// The last count, with what it counted and when.
    counted: Option<(PurgeCount, PurgeSource, Instant)>,
    typed: String,
    /// A protected connection's name, typed too.
    typed_name: String,
    choice: Option<TallyChoice>,
    /// The delete under way: its progress, and at the end its report with the tallies' lines.
    deleting: Option<Job<PurgeReport, Ended>>,
    progress: Option<PurgeReport>,
    ended: Option<Vec<dynoscope_core::report::Line>>,
    error: Option<dynoscope_core::error::Error>,
}

impl PurgeForm {
    /// Take in what arrived; a write to the table when a delete ended.
    pub(super) fn poll(
        &mut self,
        table: &str,
        intents: &mut Vec<Intent>,
        destination: Option<dynoscope_core::write::Destination>,
    ) {
        if let Some(done) = Pending::take_ready(&mut self.counting) {
            match done {
                Ok((counted, source)) => self.counted = Some((counted, source, Instant::now())),
                Err(error) => {
                    self.counted = None;
                    self.error = Some(error);
                }
            }
        }
        let polled = Job::poll_slot(&mut self.deleting);
        if let Some(last) = polled.progress.into_iter().last() {
            self.progress = Some(last);
        }
        if let Some(done) = polled.done {
            self.progress = None;
            self.counted = None;
            self.typed.clear();
            let (mut gone, mut repaired) = (Vec::new(), Vec::new());
            match done {
                Ok((lines, deleted, parents)) => {
                    self.ended = Some(lines);
                    (gone, repaired) = (deleted, parents);
                }
                Err(error) => self.error = Some(error),
            }
            if let Some(destination) = destination {
                // Every item the run wrote is read back: the repaired parents too.
                if !repaired.is_empty() {
                    intents.push(Intent::Written {
                        destination: Box::new(destination.clone()),
                        table: table.to_owned(),
                        keys: repaired,
                    });
                }
                intents.push(Intent::Deleted {
                    destination: Box::new(destination),
                    table: table.to_owned(),
                    keys: gone,
                });
            }
        }
    }

    /// Another table: forget the last count and report (a delete under way still reports).
    pub(super) fn forget(&mut self) {
        self.counting = None;
        self.counted = None;
        self.typed.clear();
        self.ended = None;
        self.error = None;
    }

    /// Draw the section.
    pub(super) fn purge_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        loaded: Option<Loaded<'_>>,
        rules: &[TallyRule],
    ) {
        let busy = self.counting.is_some() || self.deleting.is_some();
        let chosen = loaded.and_then(|l| l.chosen).map_or(0, RowSet::len);
        let rows = loaded.map_or(0, |l| l.rows.len());
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(
                &mut self.take,
                Some(Take::Table),
                "Every item (the table is kept)",
            );
            ui.radio_value(&mut self.take, Some(Take::Partition), "One partition");
            if chosen > 0 {
                ui.radio_value(
                    &mut self.take,
                    Some(Take::Selected),
                    format!("The {chosen} selected rows"),
                );
            }
            if rows > 0 {
                ui.radio_value(
                    &mut self.take,
                    Some(Take::Loaded),
                    format!("The {rows} rows of the Browse tab"),
                );
            }
        });
        if self.take == Some(Take::Partition) {
            ui.horizontal(|ui| {
                let label = ui.label(format!("{} =", scope.table.partition.name));
                ui.add(egui::TextEdit::singleline(&mut self.pk).desired_width(120.0))
                    .labelled_by(label.id);
                if let Some(sort) = &scope.table.sort {
                    let label = ui.label(format!("{} begins with", sort.name));
                    ui.add(egui::TextEdit::singleline(&mut self.sk_prefix).desired_width(100.0))
                        .labelled_by(label.id);
                }
            });
        }
        if self.take.is_none() {
            ui.weak("Choose which items to delete, then count them.");
        }
        if ui
            .add_enabled(
                !busy && self.take.is_some(),
                egui::Button::new("Count (dry run)"),
            )
            .clicked()
        {
            self.count(scope, loaded, rules);
        }
        if self.counting.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Counting…");
            });
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        self.confirm_ui(ui, scope);
        if let Some(report) = &self.progress {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "{} deleted of {} read",
                    report.deleted, report.read
                ));
                if let Some(job) = &self.deleting
                    && ui
                        .button("Cancel")
                        .on_hover_text("Send no other batch")
                        .clicked()
                {
                    job.cancel();
                }
            });
        }
        for line in self.ended.iter().flatten() {
            line_ui(ui, line);
        }
    }

    fn count(&mut self, scope: &Scope<'_>, loaded: Option<Loaded<'_>>, rules: &[TallyRule]) {
        self.error = None;
        self.ended = None;
        self.counted = None;
        self.choice = None;
        let asked = match self.asked(scope, loaded) {
            Ok(asked) => asked,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let (connection, info, rules) = (
            scope.connection.clone(),
            scope.table.clone(),
            rules.to_vec(),
        );
        self.counting = Some(scope.spawner.spawn("Scan", async move {
            let source = asked.source(&info)?;
            let stop = dynoscope_core::cancel::CancelToken::default();
            let counted = purge::count(&connection, &info, &source, &rules, &stop, |_| {}).await?;
            Ok((counted, source))
        }));
    }

    /// The items to delete as chosen: a Query or Scan, or the grid's rows (shared, not copied).
    fn asked(
        &self,
        scope: &Scope<'_>,
        loaded: Option<Loaded<'_>>,
    ) -> dynoscope_core::error::Result<Asked> {
        let rows = |chosen: Option<RowSet>| Asked::Rows {
            rows: loaded.map(|l| l.rows.clone()).unwrap_or_default(),
            chosen,
        };
        let Some(take) = self.take else {
            return Err(dynoscope_core::error::Error::Invalid(
                "choose which items to delete".into(),
            ));
        };
        match take {
            Take::Selected => Ok(rows(Some(
                loaded.and_then(|l| l.chosen).cloned().unwrap_or_default(),
            ))),
            Take::Loaded => Ok(rows(None)),
            Take::Table | Take::Partition => {
                let spec = PurgeSpec {
                    table: scope.table.name.clone(),
                    scope: match take {
                        Take::Partition => PurgeScope::Partition {
                            pk: self.pk.clone(),
                            sk_prefix: Some(self.sk_prefix.clone()),
                        },
                        _ => PurgeScope::Table,
                    },
                    tallies: self.choice,
                };
                Ok(Asked::Read(spec.plan(scope.table)?))
            }
        }
    }

    fn confirm_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        if self.counting.is_some() {
            return;
        }
        let Some((counted, source, at)) = &self.counted else {
            return;
        };
        ui.group(|ui| {
            for (i, line) in counted
                .lines(&scope.table.name, &scope.table.key_names())
                .iter()
                .enumerate()
            {
                if i == 0 {
                    ui.label(RichText::new(line).strong());
                } else {
                    ui.label(line);
                }
            }
            let pricing = scope.connection.pricing(scope.table);
            ui.weak(format!(
                "counted {} · the count read {} RCU ({})",
                age_text(at.elapsed()),
                dynoscope_core::report::capacity(counted.rcu),
                pricing.read(counted.rcu).money_text()
            ));
            if counted.items == 0 {
                return;
            }
            if counted.drifts() {
                ui.horizontal(|ui| {
                    ui.radio_value(
                        &mut self.choice,
                        Some(TallyChoice::Repair),
                        "Repair the tallies after",
                    );
                    ui.radio_value(
                        &mut self.choice,
                        Some(TallyChoice::Leave),
                        "Leave them too high",
                    );
                });
            }
            ui.horizontal(|ui| {
                let label = ui.label(format!("Type {} to delete them", counted.items));
                ui.add(egui::TextEdit::singleline(&mut self.typed).desired_width(80.0))
                    .labelled_by(label.id);
            });
            let named = protected_name_ui(ui, scope.connection, &mut self.typed_name);
            let typed = check_typed(counted.items, &self.typed).is_ok() && named;
            let chosen = !counted.drifts() || self.choice.is_some();
            let text = format!("Delete {} items", counted.items);
            if write_button_ui(
                ui,
                scope.connection,
                typed && chosen && self.deleting.is_none(),
                &text,
            )
            .clicked()
            {
                let (counted, source) = (counted.clone(), source.clone());
                self.deleting = Some(delete_job(scope, counted, source, self.choice));
                self.ended = None;
            }
        });
    }
}
