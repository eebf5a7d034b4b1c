//! Editing a number of the open item, sent as `ADD` (or SET, or exactly): the Numbers panel,
//! the edit under way, and the card with what the server returned.

mod card;
mod panel;

use egui::Ui;

use crate::core::counter::{self, Change, EditMode, EditReport, EditRequest, Outcome, UpdatePlan};
use crate::core::error::Error;
use crate::core::expr::builder::Input;
use crate::core::value::Item;
use crate::task::Pending;
use crate::ui::{Intent, Scope};

/// The edit feature's state: the form, the edit under way and the last result.
pub struct EditFeature {
    mode: EditMode,
    attribute: String,
    amount: String,
    as_delta: bool,
    /// Why the form cannot be sent, shown next to it.
    error: Option<Error>,
    /// The edit under way: what was sent, and its answer to come.
    sent: Option<UpdatePlan>,
    answer: Option<Pending<Outcome>>,
    /// The last change asked for (to retry it from the server's value).
    last_change: Option<Change>,
    report: Option<EditReport>,
}

impl Default for EditFeature {
    fn default() -> Self {
        Self {
            mode: EditMode::Add,
            attribute: String::new(),
            amount: "1".to_owned(),
            as_delta: true,
            error: None,
            sent: None,
            answer: None,
            last_change: None,
            report: None,
        }
    }
}

impl EditFeature {
    /// Take in an answer; the server's value for the grid, when it told one.
    #[must_use]
    pub fn poll(&mut self) -> Option<Intent> {
        let answer = Pending::take_ready(&mut self.answer)?;
        let plan = self.sent.take()?;
        let report = match answer {
            Ok(outcome) => EditReport { plan, outcome },
            // The task died: the request may have left, so the outcome is unknown.
            Err(error) => EditReport::lost(plan, error),
        };
        let intent = report
            .outcome
            .server_value()
            .map(|value| Intent::ServerValue {
                key: report.plan.key.clone(),
                attribute: report.plan.attribute.clone(),
                value: value.to_owned(),
            });
        self.report = Some(report);
        intent
    }

    /// Plan `request` on `item` and send it; a plan that fails is explained, never sent.
    fn send(&mut self, scope: &Scope<'_>, item: &Item, request: EditRequest) {
        if self.answer.is_some() {
            self.error = Some(Error::Invalid(
                "an edit is under way: wait for its answer before sending another".into(),
            ));
            return;
        }
        match counter::plan_edit(scope.table, item, &request, self.mode) {
            Ok(plan) => {
                self.error = None;
                self.last_change = Some(request.change);
                let client = scope.connection.client.clone();
                let sent = plan.clone();
                self.answer = Some(scope.spawner.spawn("UpdateItem", async move {
                    Ok(counter::update_counter(&client, &sent).await)
                }));
                self.sent = Some(plan);
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// Open the editor on `attribute` of `item`; with a `change`, send it now.
    pub fn start(
        &mut self,
        scope: &Scope<'_>,
        item: &Item,
        attribute: String,
        change: Option<Change>,
    ) {
        self.attribute.clone_from(&attribute);
        self.error = None;
        if let Some(change) = change {
            self.send(
                scope,
                item,
                EditRequest {
                    attribute,
                    change,
                    from: None,
                },
            );
        }
    }

    /// Draw the Numbers panel for `item` and the last result.
    #[must_use]
    pub fn panel_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, item: &Item) -> Option<Intent> {
        let key_names = scope.key_names();
        let busy = self.answer.is_some();
        let mut request = panel::numbers_ui(ui, self, item, &key_names, busy);
        let mut intent = None;
        if let Some(report) = &self.report {
            if ui.small_button("Open in builder").clicked() {
                intent = Some(Intent::OpenInBuilder {
                    input: Box::new(Input::from_request(&report.plan.request())),
                    origin: "the ADD edit".to_owned(),
                });
            }
            if let (Some(from), Some(change)) = (
                card::card_ui(ui, report, scope.connection),
                &self.last_change,
            ) {
                request = Some(EditRequest {
                    attribute: report.plan.attribute.clone(),
                    change: change.clone(),
                    from: Some(from),
                });
            }
        }
        if let Some(request) = request {
            self.send(scope, item, request);
        }
        intent
    }
}
