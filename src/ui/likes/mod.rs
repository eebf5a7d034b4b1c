//! The like lab: like and unlike by hand as the article's transaction, send the identical
//! request again, storm it with simulated users, and race three ways of counting. Anywhere but
//! the sandbox a like waits for confirmation, and the storm and the lab for the table's name.

mod hand;
mod storm;

use std::time::{Duration, Instant};

use egui::Ui;

use crate::core::error::Error;
use crate::core::expr::builder::Input;
use crate::core::lab::{self, LabRun};
use crate::core::likes::{
    self, LikeOp, LikeReport, LikeRequest, LikeTarget, StormReport, StormStats,
};
use crate::core::number;
use crate::core::tally::{ChildSource, TallyRule};
use crate::task::{Job, Pending};
use crate::ui::{Intent, Scope};

/// The like lab's state.
pub struct LikesFeature {
    parent: String,
    parent_sk: String,
    tally: String,
    child_prefix: String,
    user: String,
    use_token: bool,
    token: String,
    /// The last request sent (what "Send again" replays).
    last_request: Option<LikeRequest>,
    /// A write waiting for confirmation (not the sandbox): the request and whether it is a replay.
    confirm: Option<(LikeRequest, bool)>,
    /// The like under way: what was sent, and its report to come.
    sent: Option<LikeRequest>,
    answer: Option<Pending<LikeReport>>,
    replayed: bool,
    report: Option<LikeReport>,
    error: Option<Error>,
    users: String,
    concurrency: String,
    /// The table name typed to allow a storm or the lab outside the sandbox.
    typed_table: String,
    storm: Option<Job<StormStats, StormReport>>,
    storm_stats: Option<StormStats>,
    storm_result: Option<Result<StormReport, Error>>,
    writers: String,
    increments: String,
    lab: Option<Pending<LabRun>>,
    lab_run: Option<LabRun>,
}

impl Default for LikesFeature {
    fn default() -> Self {
        Self {
            parent: String::new(),
            parent_sk: "META".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            user: "USER#new1".into(),
            use_token: false,
            token: "like-retry-0001".into(),
            last_request: None,
            confirm: None,
            sent: None,
            answer: None,
            replayed: false,
            report: None,
            error: None,
            users: "200".into(),
            concurrency: "16".into(),
            typed_table: String::new(),
            storm: None,
            storm_stats: None,
            storm_result: None,
            writers: "8".into(),
            increments: "25".into(),
            lab: None,
            lab_run: None,
        }
    }
}

impl LikesFeature {
    /// Start from the parent checked in the tally check (else the partition queried in
    /// Browse) and the tally rule in use, when nothing was typed here.
    pub fn prefill(&mut self, checked: &str, queried: &str, rule: Option<TallyRule>) {
        if self.parent.is_empty() {
            self.parent = if checked.is_empty() { queried } else { checked }.to_owned();
        }
        if let Some(rule) = rule
            && let ChildSource::SortKeyPrefix(prefix) = &rule.children
        {
            self.parent_sk.clone_from(&rule.parents.sort_key);
            self.tally.clone_from(&rule.tally);
            self.child_prefix.clone_from(prefix);
        }
    }

    /// Take in what arrived.
    pub fn poll(&mut self) {
        if let Some(answer) = Pending::take_ready(&mut self.answer)
            && let Some(request) = self.sent.take()
        {
            self.report = Some(answer.unwrap_or_else(|e| LikeReport::lost(request, e)));
        }
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
        if let Some(run) = Pending::take_ready(&mut self.lab) {
            self.lab_run = Some(run.unwrap_or_else(|error| LabRun {
                error: Some(error),
                ..LabRun::default()
            }));
        }
    }

    fn target(&self, scope: &Scope<'_>) -> Result<LikeTarget, Error> {
        LikeTarget::new(
            scope.table,
            &self.parent,
            &self.parent_sk,
            &self.tally,
            &self.child_prefix,
        )
    }

    /// Build a like or unlike from the form; send it, or ask first outside the sandbox.
    fn like(&mut self, scope: &Scope<'_>, op: LikeOp) {
        let token = self.use_token.then(|| self.token.trim().to_owned());
        let request = self.target(scope).and_then(|target| {
            likes::like_request(op, &target, &self.user, token, likes::now_secs())
        });
        match request {
            Ok(request) => self.dispatch(scope, request, false),
            Err(error) => self.error = Some(error),
        }
    }

    /// Send now on the sandbox; elsewhere, ask first.
    fn dispatch(&mut self, scope: &Scope<'_>, request: LikeRequest, replay: bool) {
        self.error = None;
        if scope.is_sandbox() {
            self.send(scope, request, replay);
        } else {
            self.confirm = Some((request, replay));
        }
    }

    fn send(&mut self, scope: &Scope<'_>, request: LikeRequest, replay: bool) {
        let (client, info, sent) = (
            scope.connection.client.clone(),
            scope.table.clone(),
            request.clone(),
        );
        self.replayed = replay;
        self.last_request = Some(request.clone());
        self.sent = Some(request);
        self.answer = Some(scope.spawner.spawn("TransactWriteItems", async move {
            Ok(likes::like_and_observe(&client, &info, sent).await)
        }));
    }

    fn start_storm(&mut self, scope: &Scope<'_>) {
        let users = number::whole_in(&self.users, 1, likes::MAX_STORM_USERS, "users");
        let concurrency = number::whole_in(&self.concurrency, 1, 256, "concurrency");
        let (target, users, concurrency) = match (self.target(scope), users, concurrency) {
            (Ok(t), Ok(u), Ok(c)) => (t, u, c),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                self.error = Some(e);
                return;
            }
        };
        self.error = None;
        self.storm_stats = None;
        self.storm_result = None;
        let (client, info, run) = (
            scope.connection.client.clone(),
            scope.table.clone(),
            likes::run_id(),
        );
        self.storm = Some(scope.spawner.spawn_job(
            "TransactWriteItems",
            move |progress, cancel| async move {
                let mut last_sent = Instant::now();
                likes::run_storm(
                    &client,
                    &info,
                    &target,
                    users,
                    concurrency,
                    &run,
                    &cancel,
                    |s| {
                        // A few progress reports a second are enough to draw.
                        if last_sent.elapsed() >= Duration::from_millis(50) {
                            last_sent = Instant::now();
                            progress.send(s.clone());
                        }
                    },
                )
                .await
            },
        ));
    }

    fn run_lab(&mut self, scope: &Scope<'_>) {
        let writers = number::whole_in(&self.writers, 1, lab::MAX_WRITERS, "writers");
        let increments = number::whole_in(&self.increments, 1, lab::MAX_INCREMENTS, "increments");
        let (writers, increments) = match (writers, increments) {
            (Ok(w), Ok(i)) => (w, i),
            (Err(e), _) | (_, Err(e)) => {
                self.error = Some(e);
                return;
            }
        };
        self.lab_run = None;
        let (client, info, run) = (
            scope.connection.client.clone(),
            scope.table.clone(),
            likes::run_id(),
        );
        self.lab = Some(scope.spawner.spawn("UpdateItem", async move {
            Ok(lab::run(&client, &info, writers, increments, &run).await)
        }));
    }

    /// The like transaction's update of the parent, for the builder (the child's write is the
    /// other half of the transaction).
    fn in_builder(&self) -> Option<Intent> {
        let report = self.report.as_ref()?;
        Some(Intent::OpenInBuilder {
            input: Box::new(Input::from_request(&report.request.parent_update())),
            origin: "the like transaction: its Update of the parent (the child's Put or Delete \
                     is the other half)"
                .to_owned(),
        })
    }

    /// Draw the lab.
    #[must_use]
    pub fn view_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<Intent> {
        egui::ScrollArea::vertical()
            .id_salt("likes_scroll")
            .show(ui, |ui| {
                let intent = hand::hand_ui(ui, self, scope);
                ui.separator();
                storm::storm_ui(ui, self, scope);
                ui.separator();
                storm::lab_ui(ui, self, scope);
                intent
            })
            .inner
    }
}
