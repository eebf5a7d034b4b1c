//! Watch: a table's stream (or, without one, polling) folded by the core watch into each
//! parent's stored tally beside its counted children, live: a chart of both for the parent
//! chosen, the records newest first with each one's attribute diff, the parents whose tally
//! diverged (worst first), and the summary when the watch ends. Pause keeps reading the stream
//! and holds what arrives, the display frozen; Resume shows what was held.

mod chart;
mod form;
mod log;
mod panel;
mod records;
mod stream;

use std::collections::VecDeque;

use egui::Ui;

use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::scope::Scope;
use dynoscope_core::error::Error;
use dynoscope_core::report::Line;
use dynoscope_core::stream::Until;
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::Job;
use dynoscope_core::watch::{self, WatchEvent, WatchProgress, Watched};

use form::WatchForm;
use log::WatchLog;
use stream::EnableStream;

/// The most reports held while paused; beyond, the oldest are dropped from the display (the
/// watch itself folds them all: its summary is whole).
const MAX_HELD: usize = 50_000;

/// The watch view's state.
#[derive(Default)]
pub(crate) struct WatchFeature {
    form: WatchForm,
    /// The watch under way; dropping it cancels it.
    job: Option<Job<WatchProgress, Watched>>,
    /// What the watch (under way or ended) showed.
    log: Option<WatchLog>,
    /// Whether the watch under way polls (no stream) rather than reads a stream.
    polling: bool,
    /// The display is frozen; what arrives is held.
    paused: bool,
    held: VecDeque<WatchProgress>,
    /// Reports dropped from the display while paused (beyond [`MAX_HELD`]).
    dropped: u64,
    /// How the last watch ended: its summary lines, or the error that ended it.
    ended: Option<Result<Vec<Line>, Error>>,
    /// Why the form could not start a watch.
    error: Option<Error>,
    /// Records shown are of the parents containing this.
    filter: String,
    /// The record whose diff is shown, by sequence number.
    selected: Option<String>,
    /// Turning the table's stream on.
    enable: EnableStream,
}

impl WatchFeature {
    /// The parent carried from the view left (else the partition queried in Browse, when
    /// nothing was typed here) and the tally check's rule in use; a watch under way keeps its
    /// own.
    pub(crate) fn carry(&mut self, carried: &str, queried: &str, rule: Option<TallyRule>) {
        if self.job.is_some() {
            return;
        }
        if !carried.is_empty() {
            carried.clone_into(&mut self.form.pk);
        } else if self.form.pk.is_empty() {
            queried.clone_into(&mut self.form.pk);
        }
        if let Some(rule) = rule {
            self.form.use_rule(&rule);
        }
    }

    /// The parent watched (or to watch).
    pub(crate) fn parent(&self) -> &str {
        &self.form.pk
    }

    /// Start watching as the form says; `polling`: every few seconds, without a stream.
    fn start(&mut self, scope: &Scope<'_>, polling: bool) {
        let planned = self
            .form
            .spec(&scope.table.name, polling)
            .and_then(|spec| Ok(spec.plan(scope.table)?));
        let plan = match planned {
            Ok(plan) => plan,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        self.error = None;
        self.ended = None;
        self.selected = None;
        self.paused = false;
        self.held.clear();
        self.dropped = 0;
        self.polling = polling;
        self.log = Some(WatchLog::new(&plan.rule.tally));
        if let watch::WatchScope::One { pk, .. } = &plan.scope {
            self.filter.clone_from(pk);
        } else {
            self.filter.clear();
        }
        let (connection, info) = (scope.connection.clone(), scope.table.clone());
        let op = if polling { "GetItem" } else { "GetRecords" };
        self.job = Some(
            scope
                .spawner
                .spawn_job(op, move |progress, cancel| async move {
                    watch::watch(
                        &connection,
                        &info,
                        &plan,
                        Until::Cancelled,
                        None,
                        &cancel,
                        |p| progress.send(p),
                    )
                    .await
                }),
        );
    }

    /// Stop the watch: it ends what it was reading and says its summary.
    fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
        self.resume();
    }

    /// Show what was held while paused, and go on showing.
    fn resume(&mut self) {
        self.paused = false;
        if let Some(log) = &mut self.log {
            for progress in self.held.drain(..) {
                log.take(progress);
            }
        }
    }

    /// Take in one report: into the display, or held while paused.
    fn take(&mut self, progress: WatchProgress) {
        if self.paused {
            self.held.push_back(progress);
            // Only records are dropped: the start, a divergence or its close are always shown.
            if self.held.len() > MAX_HELD
                && let Some(oldest) = self
                    .held
                    .iter()
                    .position(|p| matches!(p, WatchProgress::Event(WatchEvent::Change(_))))
            {
                self.held.remove(oldest);
                self.dropped += 1;
            }
        } else if let Some(log) = &mut self.log {
            log.take(progress);
        }
    }
}

impl Feature for WatchFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        let polled = Job::poll_slot(&mut self.job);
        for progress in polled.progress {
            self.take(progress);
        }
        if let Some(done) = polled.done {
            self.resume();
            self.ended = Some(done.map(|watched| watch::summary(&watched)));
        }
        self.enable.poll(intents);
    }

    fn subject_changed(&mut self, _subject: Subject<'_>) {
        // The watch was of the table that is no longer open: dropped, it stops. A stream being
        // turned on still says how that went.
        let enable = std::mem::take(&mut self.enable).kept();
        *self = Self {
            enable,
            ..Self::default()
        };
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        // The whole view scrolls: the summary and the divergences can be long.
        egui::ScrollArea::vertical()
            .id_salt("watch_view")
            .auto_shrink([false, false])
            .show(ui, |ui| panel::panel_ui(ui, self, context.scope));
    }
}
