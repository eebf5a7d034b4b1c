//! The like lab: like and unlike by hand as the article's transaction, send the identical
//! request again, storm it with simulated users, and race three ways of counting.

use egui::{Color32, RichText, Ui};

use crate::core::error::Error;
use crate::core::lab::LabResult;
use crate::core::likes::{LikeOp, LikeOutcome, LikeReport, LikeRequest, Snapshot, StormStats};
use crate::ui::status_bar::format_rcu;
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::worker::{CancelToken, JobId};

/// The like lab's state.
#[derive(Debug)]
pub struct LikesPanel {
    /// The parent's partition key value.
    pub parent: String,
    /// The parent's sort key.
    pub parent_sk: String,
    /// The tally attribute.
    pub tally: String,
    /// Children's sort-key prefix.
    pub child_prefix: String,
    /// The user liking.
    pub user: String,
    /// Send with a ClientRequestToken.
    pub use_token: bool,
    /// The token.
    pub token: String,
    /// The last request sent (what "Send again" replays).
    pub last_request: Option<LikeRequest>,
    /// A write waiting for confirmation (not the sandbox): the request and whether it is a replay.
    pub confirm: Option<(LikeRequest, bool)>,
    /// The like under way.
    pub job: Option<JobId>,
    /// Whether the last report is a replay.
    pub replayed: bool,
    /// The last report.
    pub report: Option<LikeReport>,
    /// Why something could not be sent.
    pub error: Option<Error>,
    /// Storm: users (typed).
    pub users: String,
    /// Storm: concurrency (typed).
    pub concurrency: String,
    /// The table name typed to allow a storm or lab outside the sandbox.
    pub typed_table: String,
    /// The storm under way.
    pub storm_job: Option<JobId>,
    /// Stops the storm.
    pub storm_cancel: Option<CancelToken>,
    /// The storm's progress.
    pub storm_stats: Option<StormStats>,
    /// The storm's verdict.
    pub storm_result: Option<Result<(StormStats, Snapshot, Snapshot), Error>>,
    /// Lab: writers (typed).
    pub writers: String,
    /// Lab: increments per writer (typed).
    pub increments: String,
    /// The lab under way.
    pub lab_job: Option<JobId>,
    /// The lab's results.
    pub lab_result: Option<Result<Vec<LabResult>, Error>>,
}

impl Default for LikesPanel {
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
            job: None,
            replayed: false,
            report: None,
            error: None,
            users: "200".into(),
            concurrency: "16".into(),
            typed_table: String::new(),
            storm_job: None,
            storm_cancel: None,
            storm_stats: None,
            storm_result: None,
            writers: "8".into(),
            increments: "25".into(),
            lab_job: None,
            lab_result: None,
        }
    }
}

/// What the user asked the like lab for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LikesAction {
    /// Build and send a like or unlike.
    Send(LikeOp),
    /// Send the last request again, unchanged.
    SendAgain,
    /// Send the write waiting for confirmation.
    Confirm,
    /// Drop the write waiting for confirmation.
    DropConfirm,
    /// Start a storm.
    StartStorm,
    /// Stop the storm.
    CancelStorm,
    /// Run the counter lab.
    RunLab,
    /// Open the last request in the expression builder.
    OpenInBuilder,
}

/// Where the panel writes, for the safety checks.
#[derive(Debug, Clone)]
pub struct WriteTarget<'a> {
    /// The table.
    pub table: &'a str,
    /// The endpoint, as shown.
    pub endpoint: &'a str,
    /// Whether it is the embedded sandbox (no confirmation needed).
    pub sandbox: bool,
}

/// Draw the panel; returns what the user asked for.
#[must_use]
pub fn likes_panel_ui(
    ui: &mut Ui,
    panel: &mut LikesPanel,
    at: &WriteTarget<'_>,
) -> Option<LikesAction> {
    let mut action = None;
    ui.heading("Like and unlike by hand");
    ui.weak("One TransactWriteItems: Put the child if absent + ADD 1 to the tally (unlike: Delete if present + ADD -1).");
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Parent", &mut panel.parent, 120.0, "POST#a91f");
        labelled_text_ui(ui, "Parent sort key", &mut panel.parent_sk, 60.0, "META");
        labelled_text_ui(ui, "Tally attribute", &mut panel.tally, 90.0, "likeTally");
        labelled_text_ui(ui, "Child prefix", &mut panel.child_prefix, 60.0, "LIKE#");
    });
    let busy = panel.job.is_some();
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "User", &mut panel.user, 110.0, "USER#7c20");
        ui.checkbox(&mut panel.use_token, "ClientRequestToken");
        if panel.use_token {
            labelled_text_ui(ui, "Token", &mut panel.token, 130.0, "1–36 characters");
        }
        if ui.add_enabled(!busy, egui::Button::new("Like")).clicked() {
            action = Some(LikesAction::Send(LikeOp::Like));
        }
        if ui.add_enabled(!busy, egui::Button::new("Unlike")).clicked() {
            action = Some(LikesAction::Send(LikeOp::Unlike));
        }
        let can_replay = panel.last_request.is_some() && !busy;
        if ui
            .add_enabled(can_replay, egui::Button::new("Send again"))
            .on_hover_text("Replays the identical request, as a client retry would")
            .clicked()
        {
            action = Some(LikesAction::SendAgain);
        }
        if busy {
            ui.spinner();
        }
    });
    if let Some((request, _)) = &panel.confirm {
        ui.group(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "This {} writes to table {} at {} (not the sandbox).",
                    request.op.name(),
                    at.table,
                    at.endpoint
                ),
            );
            ui.horizontal(|ui| {
                if ui.button("Confirm write").clicked() {
                    action = Some(LikesAction::Confirm);
                }
                if ui.button("Don't write").clicked() {
                    action = Some(LikesAction::DropConfirm);
                }
            });
        });
    }
    if let Some(error) = &panel.error {
        error_ui(ui, error);
    }
    if let Some(report) = &panel.report {
        report_ui(ui, report, panel.replayed);
        if ui.small_button("Open in builder").clicked() {
            action = Some(LikesAction::OpenInBuilder);
        }
    }
    ui.separator();
    if let Some(a) = storm_ui(ui, panel, at) {
        action = Some(a);
    }
    ui.separator();
    if let Some(a) = lab_ui(ui, panel, at) {
        action = Some(a);
    }
    action
}

fn arrow(
    before: &Result<Snapshot, Error>,
    after: &Result<Snapshot, Error>,
    part: impl Fn(&Snapshot) -> String,
) -> String {
    let show = |s: &Result<Snapshot, Error>| s.as_ref().map_or("?".to_owned(), &part);
    format!("{} → {}", show(before), show(after))
}

fn report_ui(ui: &mut Ui, report: &LikeReport, replayed: bool) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        let what = format!(
            "{}{} {} as {}",
            if replayed { "Sent again: " } else { "" },
            report.request.op.name(),
            report.request.target.parent,
            report.request.user
        );
        ui.strong(what);
        let tally = |s: &Snapshot| s.tally.clone().unwrap_or_else(|| "missing".into());
        egui::Grid::new("like_side_by_side").num_columns(2).show(ui, |ui| {
            ui.weak("Tally");
            ui.label(RichText::new(arrow(&report.before, &report.after, tally)).size(22.0).monospace());
            ui.end_row();
            ui.weak("Counted children");
            ui.label(
                RichText::new(arrow(&report.before, &report.after, |s| s.children.to_string()))
                    .size(22.0)
                    .monospace(),
            );
            ui.end_row();
        });
        match &report.sent.outcome {
            LikeOutcome::Committed { consumed_wcu } => {
                ui.colored_label(Color32::from_rgb(90, 180, 90), format!("Committed · {consumed_wcu} WCU"));
            }
            LikeOutcome::Cancelled { reasons } => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("Cancelled: [{}]", reasons.join(", ")),
                );
                ui.label("The whole transaction was cancelled: nothing was written and the tally did not move.");
            }
            LikeOutcome::Failed(error) => error_ui(ui, error),
        }
        if report.sent.conflicts > 0 {
            ui.label(format!(
                "{} TransactionConflict cancellation(s) retried ({} attempts).",
                report.sent.conflicts, report.sent.attempts
            ));
        }
        for snapshot in [&report.before, &report.after] {
            if let Err(error) = snapshot {
                error_ui(ui, error);
            }
        }
        egui::CollapsingHeader::new("Request").show(ui, |ui| {
            ui.label(RichText::new(report.request.to_json()).monospace());
        });
        ui.horizontal(|ui| {
            if ui.button("Copy as JSON").clicked() {
                ui.ctx().copy_text(report.request.to_json());
            }
            if ui.button("Copy as AWS CLI").clicked() {
                ui.ctx().copy_text(report.request.to_aws_cli());
            }
        });
    });
}

fn guard_ui(ui: &mut Ui, panel: &mut LikesPanel, at: &WriteTarget<'_>) -> bool {
    if at.sandbox {
        return true;
    }
    labelled_text_ui(
        ui,
        "Type the table name to allow",
        &mut panel.typed_table,
        120.0,
        at.table,
    );
    panel.typed_table.trim() == at.table
}

fn storm_ui(ui: &mut Ui, panel: &mut LikesPanel, at: &WriteTarget<'_>) -> Option<LikesAction> {
    let mut action = None;
    ui.heading("Storm");
    ui.weak("Every user likes; every 5th sends the like twice (a client retry); every 7th then unlikes.");
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Users", &mut panel.users, 60.0, "1–10000");
        labelled_text_ui(ui, "Concurrency", &mut panel.concurrency, 40.0, "16");
        let allowed = guard_ui(ui, panel, at);
        let running = panel.storm_job.is_some();
        if ui
            .add_enabled(allowed && !running, egui::Button::new("Start storm"))
            .clicked()
        {
            action = Some(LikesAction::StartStorm);
        }
        if ui
            .add_enabled(running, egui::Button::new("Cancel storm"))
            .clicked()
        {
            action = Some(LikesAction::CancelStorm);
        }
    });
    if let Some(stats) = &panel.storm_stats {
        let text = format!(
            "{} of {} operations · {:.0} ops/s · {} committed · {} WCU",
            stats.done,
            stats.planned,
            stats.ops_per_sec(),
            stats.committed,
            format_rcu(stats.consumed_wcu)
        );
        if panel.storm_job.is_some() {
            let fraction = stats.done as f32 / stats.planned.max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).animate(true).text(text));
        } else {
            ui.label(text);
        }
        for (reasons, count) in &stats.cancelled {
            ui.label(format!("Cancelled {reasons}: {count}"));
        }
        if stats.conflicts_retried > 0 {
            ui.label(format!(
                "TransactionConflict retried: {}",
                stats.conflicts_retried
            ));
        }
    }
    match &panel.storm_result {
        Some(Ok((_, before, after))) => {
            let tally = after.tally.clone().unwrap_or_else(|| "missing".into());
            let equal = after.tally.as_deref() == Some(after.children.to_string().as_str());
            let verdict = format!(
                "Tally {} → {} · counted children {} → {} · {}",
                before.tally.as_deref().unwrap_or("missing"),
                tally,
                before.children,
                after.children,
                if equal { "EQUAL" } else { "NOT EQUAL" }
            );
            let color = if equal {
                Color32::from_rgb(90, 180, 90)
            } else {
                ui.visuals().error_fg_color
            };
            // Monospace: the proportional font has no arrow glyph.
            ui.label(RichText::new(verdict).monospace().size(16.0).color(color));
        }
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
    action
}

fn lab_ui(ui: &mut Ui, panel: &mut LikesPanel, at: &WriteTarget<'_>) -> Option<LikesAction> {
    let mut action = None;
    ui.heading("Counter lab");
    ui.weak("K writers increment a scratch item by three methods; scratch items are deleted afterwards.");
    ui.horizontal_wrapped(|ui| {
        labelled_text_ui(ui, "Writers", &mut panel.writers, 40.0, "1–64");
        labelled_text_ui(ui, "Increments each", &mut panel.increments, 50.0, "1–1000");
        let allowed = guard_ui(ui, panel, at);
        let running = panel.lab_job.is_some();
        if ui
            .add_enabled(allowed && !running, egui::Button::new("Run counter lab"))
            .clicked()
        {
            action = Some(LikesAction::RunLab);
        }
        if running {
            ui.spinner();
        }
    });
    match &panel.lab_result {
        Some(Ok(results)) => {
            egui::Grid::new("lab_results")
                .striped(true)
                .num_columns(8)
                .show(ui, |ui| {
                    for title in [
                        "Method",
                        "Expected",
                        "Final",
                        "Lost updates",
                        "Failed conditions",
                        "RCU",
                        "WCU",
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
                        ui.label(format_rcu(r.consumed_rcu));
                        ui.label(format_rcu(r.consumed_wcu));
                        ui.label(r.elapsed_ms.to_string());
                        ui.end_row();
                    }
                });
        }
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
    action
}
