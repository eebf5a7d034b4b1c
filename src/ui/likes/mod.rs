//! The like lab: like and unlike by hand as the article's transaction, send the identical
//! request again, storm it with simulated users, and race three ways of counting. On an
//! endpoint not on this machine a like waits for confirmation, and the storm and the lab for
//! the table's name; the write gateway decides which.

mod hand;
mod storm;

use std::time::{Duration, Instant};

use egui::Ui;

use crate::core::cancel::CancelToken;
use crate::core::error::Error;
use crate::core::expr::builder::Input;
use crate::core::lab::{self, LabRun};
use crate::core::likes::{
    self, LikeOp, LikeReport, LikeRequest, LikeTarget, StormPlan, StormReport, StormStats,
};
use crate::core::number;
use crate::core::tally::{ChildSource, TallyRule};
use crate::core::write::Destination;
use crate::task::{Job, Pending};
use crate::ui::write_flow::WriteFlow;
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
    /// The like asked about (the request, and whether it is a replay), or under way.
    like: WriteFlow<(LikeRequest, bool), LikeInFlight>,
    replayed: bool,
    report: Option<LikeReport>,
    error: Option<Error>,
    users: String,
    concurrency: String,
    /// Create the parent when it does not exist (off: a like on a missing parent writes nothing).
    create_parent: bool,
    /// The table name typed to allow a storm or the lab on an endpoint not on this machine.
    typed_table: String,
    storm: Option<Job<StormStats, StormReport>>,
    storm_stats: Option<StormStats>,
    storm_result: Option<Result<StormReport, Error>>,
    writers: String,
    increments: String,
    lab: Option<Pending<LabRun>>,
    lab_run: Option<LabRun>,
    /// What the storm or the lab under way writes, said when it ends so that the rows shown
    /// and the table's facts are read again.
    running_writes: Vec<Intent>,
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
            like: WriteFlow::default(),
            replayed: false,
            report: None,
            error: None,
            users: "200".into(),
            concurrency: "16".into(),
            create_parent: false,
            typed_table: String::new(),
            storm: None,
            storm_stats: None,
            storm_result: None,
            writers: "8".into(),
            increments: "25".into(),
            lab: None,
            lab_run: None,
            running_writes: Vec::new(),
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

    /// Start afresh (another table or connection), keeping the writes under way — a like, a
    /// storm, a lab run — so that their outcome is still shown when it arrives.
    pub fn afresh(&mut self) {
        let storm_running = self.storm.is_some();
        let mut like = std::mem::take(&mut self.like);
        like.drop_question();
        *self = Self {
            like,
            replayed: self.replayed,
            storm: self.storm.take(),
            storm_stats: self.storm_stats.take().filter(|_| storm_running),
            lab: self.lab.take(),
            running_writes: std::mem::take(&mut self.running_writes),
            ..Self::default()
        };
    }

    /// Take in what arrived.
    #[must_use]
    pub fn poll(&mut self) -> Vec<Intent> {
        let mut written = Vec::new();
        if let Some(answer) = self
            .like
            .sending()
            .as_mut()
            .and_then(|sent| Pending::take_ready(&mut sent.answer))
            && let Some(LikeInFlight {
                request, replay, ..
            }) = self.like.sending().take()
        {
            self.replayed = replay;
            written.push(Intent::Written {
                destination: Box::new(request.destination.clone()),
                table: request.target.table.clone(),
                keys: request.keys(),
            });
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
        if self.storm.is_none() && self.lab.is_none() {
            written.append(&mut self.running_writes);
        }
        if let Some(run) = Pending::take_ready(&mut self.lab) {
            self.lab_run = Some(run.unwrap_or_else(|error| LabRun {
                error: Some(error),
                ..LabRun::default()
            }));
        }
        if self.storm.is_none() && self.lab.is_none() {
            written.append(&mut self.running_writes);
        }
        written
    }

    fn target(&self, scope: &Scope<'_>) -> Result<LikeTarget, Error> {
        let mut target = LikeTarget::new(
            scope.table,
            &self.parent,
            &self.parent_sk,
            &self.tally,
            &self.child_prefix,
        )?;
        target.create_parent = self.create_parent;
        Ok(target)
    }

    /// Build a like or unlike from the form; send it, or ask first when the gateway says so.
    fn like(&mut self, scope: &Scope<'_>, op: LikeOp) {
        let token = self.use_token.then(|| self.token.trim().to_owned());
        let request = self.target(scope).and_then(|target| {
            likes::like_request(
                &Destination::of(scope.connection),
                op,
                &target,
                &self.user,
                token,
                likes::now_secs(),
            )
        });
        match request {
            Ok(request) => self.dispatch(scope, request, false),
            Err(error) => self.error = Some(error),
        }
    }

    /// Send now when no confirmation is needed (the sandbox, this machine); else ask first.
    fn dispatch(&mut self, scope: &Scope<'_>, request: LikeRequest, replay: bool) {
        let confirmation = request.write_plan().confirmation();
        let last_request = &mut self.last_request;
        self.error = self
            .like
            .begin((request, replay), confirmation, |sent, confirmed| {
                send_like(scope, last_request, sent, confirmed)
            })
            .err();
    }

    /// The storm as planned from the form, on the open table and connection.
    fn storm_plan(&self, scope: &Scope<'_>) -> Result<StormPlan, Error> {
        let users = number::whole_in(&self.users, 1, likes::MAX_STORM_USERS, "users")?;
        let concurrency = number::whole_in(&self.concurrency, 1, 100_000, "concurrency")?;
        StormPlan::new(
            &Destination::of(scope.connection),
            &self.target(scope)?,
            users,
            concurrency,
            &likes::run_id(),
        )
    }

    /// Start the storm; `confirmed`: the table's name was typed where a confirmation is needed.
    fn start_storm(&mut self, scope: &Scope<'_>, confirmed: bool) {
        let plan = match self.storm_plan(scope) {
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

    /// Run the counter lab; `confirmed` as for the storm.
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

/// A like sent: the request, whether it replays the last one, and its report to come.
#[derive(Debug)]
struct LikeInFlight {
    request: LikeRequest,
    replay: bool,
    answer: Option<Pending<LikeReport>>,
}

/// Send a like through the write gateway (`confirmed`: the user said yes to its question); it
/// becomes the last request, the one "Send again" replays.
fn send_like(
    scope: &Scope<'_>,
    last_request: &mut Option<LikeRequest>,
    (request, replay): (LikeRequest, bool),
    confirmed: bool,
) -> LikeInFlight {
    let (connection, info, sent) = (
        scope.connection.clone(),
        scope.table.clone(),
        request.clone(),
    );
    *last_request = Some(request.clone());
    LikeInFlight {
        request,
        replay,
        answer: Some(scope.spawner.spawn("TransactWriteItems", async move {
            likes::like_and_observe(&connection, &info, sent, confirmed, &CancelToken::default())
                .await
        })),
    }
}
