//! Like and unlike by hand: the form, the confirmation outside the sandbox, and the card with
//! the tally and the counted children before and after, side by side. "Send again" replays the
//! identical request, as a client retry would.

use egui::{RichText, Ui};

use crate::intent::Intent;
use crate::likes::target::{TargetForm, target_ui};
use crate::scope::Scope;
use crate::widgets::{self, error_ui, labelled_text_ui, lines_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::error::Error;
use dynoscope_core::expr::builder::Input;
use dynoscope_core::likes::{self, LikeOp, LikeReport, LikeRequest};
use dynoscope_core::spec::LikeSpec;
use dynoscope_core::task::Pending;
use dynoscope_core::write::Destination;

/// Likes by hand.
pub(super) struct HandFeature {
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
}

impl Default for HandFeature {
    fn default() -> Self {
        Self {
            user: "USER#new1".into(),
            use_token: true,
            token: likes::fresh_token(),
            last_request: None,
            like: WriteFlow::default(),
            replayed: false,
            report: None,
            error: None,
        }
    }
}

impl HandFeature {
    /// Take in the like's answer: its report, and the rows it wrote.
    pub(super) fn poll(&mut self, intents: &mut Vec<Intent>) {
        if let Some(answer) = self
            .like
            .sending()
            .as_mut()
            .and_then(|sent| Pending::take_ready(&mut sent.answer))
            && let Some(LikeInFlight {
                request,
                replay,
                pricing,
                ..
            }) = self.like.sending().take()
        {
            self.replayed = replay;
            intents.push(Intent::Written {
                destination: Box::new(request.destination.clone()),
                table: request.target.table.clone(),
                keys: request.keys(),
            });
            self.report = Some(answer.unwrap_or_else(|e| LikeReport::lost(request, pricing, e)));
        }
    }

    /// Start afresh, keeping a like under way (its question is dropped: it was about the
    /// subject before).
    pub(super) fn subject_changed(&mut self) {
        let mut like = std::mem::take(&mut self.like);
        like.drop_question();
        *self = Self {
            like,
            replayed: self.replayed,
            ..Self::default()
        };
    }

    /// Build a like or unlike from the form; send it, or ask first when the gateway says so.
    fn like(&mut self, scope: &Scope<'_>, target: &TargetForm, op: LikeOp) {
        let token = self.use_token.then(|| self.token.trim().to_owned());
        // The next like gets a fresh token: one token is one request (Send again replays it).
        if self.use_token {
            self.token = likes::fresh_token();
        }
        // Checked by the like spec, in the words of the CLI's and the MCP server's likes.
        let spec = LikeSpec {
            user: self.user.clone(),
            ..target.spec(scope.table)
        };
        let request = spec
            .plan(scope.table)
            .map_err(Error::from)
            .and_then(|(target, user)| {
                likes::like_request(
                    &Destination::of(scope.connection),
                    op,
                    &target,
                    &user,
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
            .begin(
                (request, replay),
                confirmation,
                |(request, replay), confirmed| {
                    send_like(scope, last_request, request, replay, confirmed)
                },
            )
            .err();
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
}

/// A like sent: the request, whether it replays the last one, and its report to come.
#[derive(Debug)]
pub(super) struct LikeInFlight {
    request: LikeRequest,
    replay: bool,
    /// What the table's writes cost, for a like whose task is lost.
    pricing: dynoscope_core::cost::Pricing,
    answer: Option<Pending<LikeReport>>,
}

/// Send a like through the write gateway (`confirmed`: the user said yes to its question); it
/// becomes the last request, the one "Send again" replays.
fn send_like(
    scope: &Scope<'_>,
    last_request: &mut Option<LikeRequest>,
    request: LikeRequest,
    replay: bool,
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
        pricing: scope.connection.pricing(scope.table),
        answer: Some(scope.spawner.spawn("TransactWriteItems", async move {
            likes::like_and_observe(&connection, &info, sent, confirmed, &CancelToken::default())
                .await
        })),
    }
}

/// Draw the target and the form, a confirmation when one is waiting, and the last report.
pub(super) fn hand_ui(
    ui: &mut Ui,
    hand: &mut HandFeature,
    target: &mut TargetForm,
    scope: &Scope<'_>,
) -> Option<Intent> {
    ui.heading("Like and unlike by hand");
    ui.weak(
        "One TransactWriteItems: Put the child if absent + ADD 1 to the tally (unlike: Delete \
         if present + ADD -1).",
    );
    target_ui(ui, target);
    writes_to_ui(
        ui,
        &format!(
            "table {} · parent {} / {} and its child · {}",
            scope.table.name,
            target.parent_text(),
            target.parent_sk.trim(),
            scope.connection.label()
        ),
        scope.connection,
    );
    let busy = hand.like.busy();
    let mut op = None;
    let mut again = false;
    let mut retoken = None;
    ui.horizontal_wrapped(|ui| {
        user_ui(ui, hand);
        if widgets::write_button_ui(ui, scope.connection, !busy, "Like").clicked() {
            op = Some(LikeOp::Like);
        }
        if widgets::write_button_ui(ui, scope.connection, !busy, "Unlike").clicked() {
            op = Some(LikeOp::Unlike);
        }
        (again, retoken) = replay_ui(ui, hand, scope, busy);
        if hand.like.is_sending() {
            ui.spinner();
        }
    });
    if let Some(op) = op {
        hand.like(scope, target, op);
    }
    if again && let Some(request) = hand.last_request.clone() {
        hand.dispatch(scope, request, true);
    }
    if let Some(request) = retoken {
        hand.dispatch(scope, request, false);
    }
    let last_request = &mut hand.last_request;
    hand.like.question_ui(ui, |(request, replay), confirmed| {
        send_like(scope, last_request, request, replay, confirmed)
    });
    if let Some(error) = &hand.error {
        error_ui(ui, error);
    }
    let report = hand.report.as_ref()?;
    report_ui(ui, report, hand.replayed);
    if ui.small_button("Open in builder").clicked() {
        return hand.in_builder();
    }
    None
}

/// The user who likes, and the ClientRequestToken when one is sent.
fn user_ui(ui: &mut Ui, hand: &mut HandFeature) {
    labelled_text_ui(ui, "User", &mut hand.user, 110.0, "USER#7c20");
    ui.checkbox(&mut hand.use_token, "ClientRequestToken")
        .on_hover_text(
            "An idempotent transaction: the same token within 10 minutes is applied once. \
             Each Like or Unlike gets a fresh one.",
        );
    if hand.use_token {
        labelled_text_ui(ui, "Token", &mut hand.token, 190.0, "1–36 characters");
        if ui.small_button("New token").clicked() {
            hand.token = likes::fresh_token();
        }
    }
}

/// Send the last request again as it was, or under a fresh token: whether to send it again, and
/// the request to send under its new token.
fn replay_ui(
    ui: &mut Ui,
    hand: &HandFeature,
    scope: &Scope<'_>,
    busy: bool,
) -> (bool, Option<LikeRequest>) {
    let can_replay = hand.last_request.is_some() && !busy;
    let again = widgets::write_button_ui(ui, scope.connection, can_replay, "Send again")
        .on_hover_text("Replays the identical request, its token too, as a client's retry would")
        .clicked();
    let with_token = hand
        .last_request
        .as_ref()
        .is_some_and(|r| r.token.is_some());
    if widgets::write_button_ui(
        ui,
        scope.connection,
        can_replay && with_token,
        "Send again, new token",
    )
    .on_hover_text("The same request under a fresh token: DynamoDB takes it as a new one")
    .clicked()
        && let Some(mut request) = hand.last_request.clone()
    {
        request.token = Some(likes::fresh_token());
        return (again, Some(request));
    }
    (again, None)
}

fn report_ui(ui: &mut Ui, report: &LikeReport, replayed: bool) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        let prefix = if replayed { "Sent again: " } else { "" };
        ui.strong(format!("{prefix}{}", report.title()));
        ui.weak(format!(
            "table {} · {}",
            report.request.target.table,
            report.request.destination.place()
        ));
        egui::Grid::new("like_side_by_side")
            .num_columns(2)
            .show(ui, |ui| {
                let big = |text: String| RichText::new(text).size(22.0).monospace();
                ui.weak("Tally");
                ui.label(big(report.tally_change()));
                ui.end_row();
                ui.weak("Counted children");
                ui.label(big(report.children_change()));
                ui.end_row();
            });
        lines_ui(ui, &report.details());
        let json = report.request.to_json();
        egui::CollapsingHeader::new("Request").show(ui, |ui| {
            ui.label(RichText::new(&json).monospace());
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy as JSON").clicked() {
                ui.ctx().copy_text(json.clone());
            }
            if ui.button("Copy as AWS CLI").clicked() {
                ui.ctx().copy_text(report.request.to_aws_cli());
            }
            // A whole program: a fresh token each run, resent with it after a lost answer.
            for (target, label) in widgets::PROGRAM_COPIES {
                if ui.button(label).clicked()
                    && let Ok(program) = report.request.program(target, false)
                {
                    ui.ctx().copy_text(program.code);
                }
            }
        });
    });
}
