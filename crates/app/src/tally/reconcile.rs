//! Reconcile many parents: choose where they come from (the table, the loaded rows, an index,
//! or the files of an export) and how they are read (the plan the estimate says is cheaper,
//! or the user's), check them with progress and Cancel, list them by severity with totals, and
//! export the result. The panel is drawn in `reconcile_view.rs`.

use std::time::Instant;

use crate::intent::Intent;
use crate::save::{SaveEnd, Saving};
use crate::scope::{Loaded, Scope};
use crate::tally::repair_all::RepairAllFlow;
use dynoscope_core::error::Error;
use dynoscope_core::number;
use dynoscope_core::spec::{
    ExportAt, PlanChoice, ReconcileFrom, ReconcileRun, RuleSpec, TallySpec,
};
use dynoscope_core::tally::{
    self, Checked, Estimate, ParentCheck, ParentSource, PassRead, ReconcileEvent, Reconciled,
    TallyRule,
};
use dynoscope_core::task::Job;
use dynoscope_core::transfer::{self, Format};

/// Where the parents come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SourceChoice {
    /// Every parent of the table.
    Table,
    /// The rows loaded in the grid.
    Loaded,
    /// A Query on an index.
    IndexQuery,
    /// The files of a DynamoDB export, read here.
    Export,
}

/// One reconcile run: its job while it goes, and its results.
pub(super) struct Run {
    pub(super) job: Option<Job<ReconcileEvent, ReconcileRun>>,
    /// How it reads, in words (once the job has planned it).
    pub(super) plan: String,
    /// Words about what it read (an export's files), as they came.
    pub(super) notes: Vec<String>,
    /// Parents to check, once found.
    pub(super) total: Option<usize>,
    /// Items read so far to find parents or in one pass, and their cost.
    pub(super) read: PassRead,
    /// Items the table holds, as last described (for a one pass's progress).
    pub(super) table_items: Option<u64>,
    /// The parents checked, those that could not be, and whether it was cancelled.
    pub(super) all: Reconciled,
    pub(super) started: Instant,
    pub(super) finished: Option<Instant>,
}

/// The reconcile form, and the last run.
pub(super) struct Reconcile {
    pub(super) source: SourceChoice,
    pub(super) plan: PlanChoice,
    pub(super) index: String,
    pub(super) index_partition: String,
    pub(super) concurrency: String,
    /// The export to read (a folder or a file).
    pub(super) export_path: String,
    /// Where the export is in S3, for the Athena SQL.
    pub(super) s3_location: String,
    pub(super) run: Option<Run>,
    /// Why the run could not start, or failed.
    pub(super) error: Option<Error>,
    pub(super) note: Option<String>,
    /// What the last copied program is and how to run it.
    pub(super) program_note: Option<String>,
    export: Option<Saving>,
    /// Where to save the results, as typed (empty: ask with the dialog).
    pub(super) export_to: String,
    pub(super) export_note: Option<Result<String, Error>>,
    /// Repairing every drifted parent of the last run.
    pub(super) repair_all: RepairAllFlow,
}

impl Default for Reconcile {
    fn default() -> Self {
        Self {
            source: SourceChoice::Table,
            plan: PlanChoice::Auto,
            index: String::new(),
            index_partition: String::new(),
            concurrency: "8".to_owned(),
            export_path: String::new(),
            s3_location: String::new(),
            run: None,
            error: None,
            note: None,
            program_note: None,
            export: None,
            export_to: String::new(),
            export_note: None,
            repair_all: RepairAllFlow::default(),
        }
    }
}

impl Reconcile {
    pub(super) fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|run| run.job.is_some())
    }

    /// Take in the checks, repairs and files that arrived; a repair's notice that it wrote.
    #[must_use]
    pub(super) fn poll(&mut self) -> Option<Intent> {
        let arrived = self.repair_all.poll();
        for check in arrived.rechecked {
            self.replace(check);
        }
        if let Some(run) = &mut self.run {
            let polled = Job::poll_slot(&mut run.job);
            for event in polled.progress {
                match event {
                    ReconcileEvent::Read(read) => {
                        run.read.items += read.items;
                        run.read.pages += read.pages;
                        run.read.rcu += read.rcu;
                        run.all.checked.add_read(&read);
                    }
                    ReconcileEvent::Found(parents) => run.total = Some(parents),
                    ReconcileEvent::Checked(checked) => run.all.add(*checked),
                    ReconcileEvent::Planned { plan, .. } => run.plan = plan,
                    ReconcileEvent::Noted(words) => run.notes.push(words),
                }
            }
            if let Some(done) = polled.done {
                run.finished = Some(Instant::now());
                match done {
                    // The job's own result: what was checked, as the CLI and an agent get it.
                    Ok(done) => run.all = done.all,
                    Err(error) => self.error = Some(error),
                }
            }
        }
        if let Some(end) = Saving::take_ended(&mut self.export) {
            self.export_note = Some(SaveEnd::note(end, "parents"));
        }
        arrived.written
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub(super) fn replace(&mut self, check: ParentCheck) {
        if let Some(run) = &mut self.run {
            run.all.checked.replace(check);
        }
    }

    /// The live source chosen (an export is not one).
    pub(super) fn source(
        &self,
        scope: &Scope<'_>,
        loaded: Loaded<'_>,
    ) -> Result<ParentSource, Error> {
        Ok(match self.source {
            SourceChoice::Table | SourceChoice::Export => ParentSource::Scan,
            SourceChoice::Loaded => ParentSource::Loaded(loaded.rows.clone()),
            SourceChoice::IndexQuery => {
                let (key, _) = scope.table.keys_of(Some(&self.index)).ok_or_else(|| {
                    Error::Invalid("choose the index to query for parents".into())
                })?;
                ParentSource::IndexQuery {
                    index: self.index.clone(),
                    partition: key.kind.parse(self.index_partition.trim())?,
                }
            }
        })
    }

    /// The estimate for the source chosen (`None` for an export, which costs no reads).
    pub(super) fn estimate(&self, scope: &Scope<'_>, loaded: Loaded<'_>) -> Option<Estimate> {
        if self.source == SourceChoice::Export {
            return None;
        }
        // Only the number of loaded rows counts: the rows themselves are not cloned each frame.
        let source = match self.source {
            SourceChoice::Loaded => {
                return Some(tally::estimate_loaded(scope.table, loaded.rows.len()));
            }
            SourceChoice::IndexQuery => ParentSource::IndexQuery {
                index: self.index.clone(),
                partition: aws_sdk_dynamodb::types::AttributeValue::Null(true),
            },
            _ => ParentSource::Scan,
        };
        Some(tally::estimate(scope.table, &source))
    }

    pub(super) fn start(&mut self, scope: &Scope<'_>, rule: &TallyRule, loaded: Loaded<'_>) {
        match self.try_start(scope, rule, loaded) {
            Ok(run) => {
                self.error = None;
                self.export_note = None;
                self.run = Some(run);
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn try_start(
        &mut self,
        scope: &Scope<'_>,
        rule: &TallyRule,
        loaded: Loaded<'_>,
    ) -> Result<Run, Error> {
        let concurrency = number::whole_in(&self.concurrency, 1, 64, "concurrency")?;
        let info = scope.table.clone();
        let from = if self.source == SourceChoice::Export {
            let typed = self.export_path.trim();
            if typed.is_empty() {
                return Err(Error::Invalid(
                    "give the export's folder or file, or its s3:// location".into(),
                ));
            }
            ReconcileFrom::Export(ExportAt {
                location: typed.to_owned(),
                format: Format::S3Export,
            })
        } else {
            ReconcileFrom::Table(self.source(scope, loaded)?)
        };
        let spec = TallySpec {
            table: info.name.clone(),
            pk: None,
            rule: RuleSpec::of(rule),
            plan: self.plan,
            concurrency,
        };
        let table_items = (self.source != SourceChoice::Export)
            .then_some(info.item_count)
            .flatten()
            .and_then(|n| u64::try_from(n).ok());
        let connection = scope.connection.clone();
        let job = scope
            .spawner
            .spawn_job("Reconcile", move |events, cancel| async move {
                let on_event = |event| events.send(event);
                spec.reconcile_job(&connection, &info, &from, &cancel, on_event)
                    .await
            });
        Ok(Run {
            job: Some(job),
            plan: "planning".to_owned(),
            notes: Vec::new(),
            total: None,
            read: PassRead::default(),
            table_items,
            all: Reconciled::default(),
            started: Instant::now(),
            finished: None,
        })
    }

    pub(super) fn export(&mut self, scope: &Scope<'_>, checked: &Checked, csv: bool) {
        let (contents, extension) = if csv {
            (checked.csv(), "csv")
        } else {
            (checked.json(&scope.connection.pricing(scope.table)), "json")
        };
        let records = checked.checks.len();
        let name = format!("{}-reconcile.{extension}", scope.table.name);
        self.export_note = None;
        self.export = Some(scope.saver.save(
            scope.spawner,
            name,
            &self.export_to,
            move |path, if_exists| transfer::write_text_file(path, &contents, records, if_exists),
        ));
    }

    /// The question when the file chosen for the results exists.
    pub(super) fn export_question_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(saving) = &mut self.export {
            saving.question_ui(ui);
        }
    }

    /// The Athena SQL for `rule` over the export at the S3 location typed in.
    pub(super) fn athena_sql(&self, scope: &Scope<'_>, rule: &TallyRule) -> Result<String, Error> {
        let table = tally::athena_table(&scope.table.name);
        tally::athena_sql(scope.table, rule, self.s3_location.trim(), &table)
    }
}
