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
use dynoscope_core::table::TableInfo;
use dynoscope_core::tally::{
    self, Checked, Estimate, ParentCheck, ParentSource, PassRead, ReconcileEvent, ReconcilePlan,
    Reconciled, TallyRule,
};
use dynoscope_core::task::{Job, Progress};
use dynoscope_core::transfer::{self, Format, S3Location, StreamProgress};

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

/// How the children are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PlanChoice {
    /// The cheaper by the estimate.
    Cheaper,
    /// A parallel scan, each item once.
    OnePass,
    /// A COUNT query per parent.
    PerParent,
}

/// One reconcile run: its job while it goes, and its results.
pub(super) struct Run {
    pub(super) job: Option<Job<ReconcileEvent, bool>>,
    /// How it reads, in words.
    pub(super) plan: String,
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
            plan: PlanChoice::Cheaper,
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
                }
            }
            if let Some(done) = polled.done {
                run.finished = Some(Instant::now());
                match done {
                    Ok(cancelled) => run.all.cancelled = cancelled,
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
        let (rule, info) = (rule.clone(), scope.table.clone());
        let table_items = info.item_count.and_then(|n| u64::try_from(n).ok());
        if self.source == SourceChoice::Export {
            return self.export_run(scope, info, rule, table_items);
        }
        let source = self.source(scope, loaded)?;
        let plan = match self.plan {
            PlanChoice::Cheaper => tally::estimate(&info, &source).plan(concurrency),
            PlanChoice::OnePass => ReconcilePlan::OnePass {
                segments: concurrency,
            },
            PlanChoice::PerParent => ReconcilePlan::PerParent { concurrency },
        };
        let client = scope.connection.reader();
        let job = scope
            .spawner
            .spawn_job("Reconcile", move |events, cancel| async move {
                tally::reconcile(&client, &info, &rule, &source, plan, &cancel, |event| {
                    events.send(event)
                })
                .await
            });
        Ok(self.new_run(job, plan.label(), table_items))
    }

    /// A reconcile from an export's files here, or from its objects in S3 (`s3://…`, read with
    /// the connection's S3 client): no request to the table, no read capacity.
    fn export_run(
        &self,
        scope: &Scope<'_>,
        info: TableInfo,
        rule: TallyRule,
        table_items: Option<u64>,
    ) -> Result<Run, Error> {
        let typed = self.export_path.trim();
        if typed.is_empty() {
            return Err(Error::Invalid(
                "give the export's folder or file, or its s3:// location".into(),
            ));
        }
        let (connection, location) = (scope.connection.clone(), typed.to_owned());
        let plan = if matches!(S3Location::parse(&location), Ok(Some(_))) {
            "one pass over the export's objects in S3"
        } else {
            "one pass over the export's files"
        };
        let job = scope
            .spawner
            .spawn_job("Reconcile", move |events, cancel| async move {
                let mut seen = 0;
                let progress = events.clone();
                let on_progress = move |read: StreamProgress| {
                    let items = read.items - seen;
                    seen = read.items;
                    progress.send(ReconcileEvent::Read(PassRead {
                        items,
                        ..PassRead::default()
                    }));
                };
                let at = (location.as_str(), Format::S3Export);
                let read =
                    tally::check_export_at(&connection, (&info, &rule), at, &cancel, on_progress)
                        .await?;
                Ok(send_checks(&events, read.checks))
            });
        Ok(self.new_run(job, plan.into(), table_items))
    }

    fn new_run(
        &self,
        job: Job<ReconcileEvent, bool>,
        plan: String,
        table_items: Option<u64>,
    ) -> Run {
        Run {
            job: Some(job),
            plan,
            total: None,
            read: PassRead::default(),
            table_items: if self.source == SourceChoice::Export {
                None
            } else {
                table_items
            },
            all: Reconciled::default(),
            started: Instant::now(),
            finished: None,
        }
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

/// Every parent's check of a pass over an export handed to the view; whether it was cancelled.
fn send_checks(
    events: &Progress<ReconcileEvent>,
    checks: Option<Vec<dynoscope_core::error::Result<ParentCheck>>>,
) -> bool {
    let Some(checks) = checks else {
        return true;
    };
    events.send(ReconcileEvent::Found(checks.len()));
    for check in checks {
        events.send(ReconcileEvent::Checked(Box::new(check)));
    }
    false
}
