//! Editing a number of the open item, sent as `ADD` (or SET, or exactly): the Numbers panel,
//! the edit under way, and the card with what the server returned.

mod card;
mod panel;

use egui::Ui;

use crate::feature::{Context, Feature};
use crate::intent::Intent;
use crate::scope::Scope;
use crate::write_flow::WriteFlow;
use dynoscope_core::counter::{
    self, Change, EditMode, EditReport, EditRequest, Outcome, UpdatePlan,
};
use dynoscope_core::error::Error;
use dynoscope_core::expr::builder::Input;
use dynoscope_core::task::Pending;
use dynoscope_core::value::Item;
use dynoscope_core::write::Destination;

/// What the form is about: the connection, the table and the item's key. When it changes, the
/// form starts afresh, so a write never lands on an item the user is no longer looking at.
#[derive(Debug, Clone, PartialEq)]
struct Subject {
    destination: Destination,
    table: String,
    key: Option<Item>,
}

/// The edit feature's state: the form, the edit under way and the last result.
pub(crate) struct EditFeature {
    /// What the form and the last card are about.
    subject: Option<Subject>,
    mode: EditMode,
    attribute: String,
    amount: String,
    as_delta: bool,
    /// Create the item when it does not exist (off: a missing item is refused).
    create: bool,
    /// The edit asked about, or under way.
    write: WriteFlow<(UpdatePlan, Change), InFlight>,
    /// Why the form cannot be sent, shown next to it.
    error: Option<Error>,
    /// The last change asked for (to retry it from the server's value).
    last_change: Option<Change>,
    report: Option<EditReport>,
    /// A card arrived that offers a retry: scroll it into view once (the next step is there;
    /// any other card stays where it is, below the Numbers, and nothing moves).
    show_retry: bool,
}

impl Default for EditFeature {
    fn default() -> Self {
        Self {
            subject: None,
            mode: EditMode::Add,
            attribute: String::new(),
            amount: "1".to_owned(),
            as_delta: true,
            create: false,
            write: WriteFlow::default(),
            error: None,
            last_change: None,
            report: None,
            show_retry: false,
        }
    }
}

impl EditFeature {
    /// Take in an answer; the server's value for the grid, when it told one.
    #[must_use]
    fn take_in(&mut self) -> Option<Intent> {
        let answer = Pending::take_ready(&mut self.write.sending().as_mut()?.answer)?;
        let InFlight { plan, pricing, .. } = self.write.sending().take()?;
        let report = match answer {
            Ok(outcome) => EditReport {
                plan,
                outcome,
                pricing,
            },
            // The task died: the request may have left, so the outcome is unknown.
            Err(error) => EditReport::lost(plan, pricing, error),
        };
        // Whatever the server holds now is read back into the rows shown: the value a write
        // of ours left, or the one that refused it.
        let sent = !matches!(report.outcome, Outcome::Failed(_));
        let intent = sent.then(|| Intent::Written {
            destination: Box::new(report.plan.destination.clone()),
            table: report.plan.table.clone(),
            keys: vec![report.plan.key.clone()],
        });
        self.show_retry = report.retry_from().is_some();
        self.report = Some(report);
        intent
    }

    /// Start afresh when the connection, the table or the item is not the one the form was
    /// filled in for. An edit under way keeps going; its card names its own item.
    fn follow(&mut self, scope: &Scope<'_>, item: &Item) {
        let subject = Subject {
            destination: Destination::of(scope.connection),
            table: scope.table.name.clone(),
            key: scope.table.key_of(item).ok(),
        };
        if self.subject.as_ref() == Some(&subject) {
            return;
        }
        if self.subject.is_some() {
            let mode = self.mode;
            // The question was about the old subject; an edit under way goes on.
            let mut write = std::mem::take(&mut self.write);
            write.drop_question();
            *self = Self {
                mode,
                write,
                ..Self::default()
            };
        }
        self.subject = Some(subject);
    }

    /// Plan `request` on `item`; send it, or ask first when the gateway says so. A plan that
    /// fails is explained, never sent.
    fn send(&mut self, scope: &Scope<'_>, item: &Item, request: EditRequest) {
        let destination = Destination::of(scope.connection);
        let planned = counter::plan_edit(&destination, scope.table, item, &request, self.mode)
            .and_then(|plan| Ok((plan.write_plan()?.confirmation(), plan)));
        let begun = planned.and_then(|(confirmation, plan)| {
            let last_change = &mut self.last_change;
            self.write.begin(
                (plan, request.change),
                confirmation,
                |(plan, change), confirmed| dispatch(scope, last_change, plan, change, confirmed),
            )
        });
        self.error = begun.err();
    }

    /// Open the editor on `attribute` of `item`; with a `change`, send it now.
    pub(crate) fn start(
        &mut self,
        scope: &Scope<'_>,
        item: &Item,
        attribute: String,
        change: Option<Change>,
    ) {
        self.follow(scope, item);
        self.attribute.clone_from(&attribute);
        self.error = None;
        if let Some(change) = change {
            let create = self.create;
            self.send(
                scope,
                item,
                EditRequest {
                    attribute,
                    change,
                    from: None,
                    create,
                },
            );
        }
    }

    /// Draw the Numbers panel for `item` and the last result.
    #[must_use]
    fn panel_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, item: &Item) -> Option<Intent> {
        self.follow(scope, item);
        let key_names = scope.key_names();
        let busy = self.write.busy();
        // While a question waits, the form is what the question is about: it cannot change.
        let mut request = ui
            .add_enabled_ui(self.write.asking().is_none(), |ui| {
                panel::numbers_ui(ui, self, scope, item, &key_names, busy)
            })
            .inner;
        let last_change = &mut self.last_change;
        self.write.question_ui(ui, |(plan, change), confirmed| {
            dispatch(scope, last_change, plan, change, confirmed)
        });
        let mut intent = None;
        if let Some(report) = &self.report {
            let shown = ui.scope(|ui| {
                let mut retry = None;
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
                    retry = Some(EditRequest {
                        attribute: report.plan.attribute.clone(),
                        change: change.clone(),
                        from: Some(from),
                        create: report.plan.create,
                    });
                }
                retry
            });
            if std::mem::take(&mut self.show_retry)
                && !ui.clip_rect().contains_rect(shown.response.rect)
            {
                shown
                    .response
                    .scroll_to_me_animation(None, egui::style::ScrollAnimation::none());
            }
            request = request.or(shown.inner);
        }
        if let Some(request) = request {
            self.send(scope, item, request);
        }
        intent
    }
}

/// An edit sent: its plan, and its answer to come.
#[derive(Debug)]
struct InFlight {
    plan: UpdatePlan,
    /// What the table's writes cost.
    pricing: dynoscope_core::cost::Pricing,
    answer: Option<Pending<Outcome>>,
}

/// Send `plan` through the write gateway (`confirmed`: the user said yes to its question).
fn dispatch(
    scope: &Scope<'_>,
    last_change: &mut Option<Change>,
    plan: UpdatePlan,
    change: Change,
    confirmed: bool,
) -> InFlight {
    *last_change = Some(change);
    let connection = scope.connection.clone();
    let sent = plan.clone();
    InFlight {
        plan,
        pricing: scope.connection.pricing(scope.table),
        answer: Some(scope.spawner.spawn("UpdateItem", async move {
            Ok(counter::update_counter(&connection, &sent, confirmed).await)
        })),
    }
}

impl Feature for EditFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        intents.extend(self.take_in());
    }

    /// The form follows its own subject (connection, table, item key) each frame it is drawn,
    /// keeping only an edit under way, whose card names its own item.
    fn subject_changed(&mut self, _subject: crate::feature::Subject<'_>) {}

    /// The number editor of the selected row.
    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, intents: &mut Vec<Intent>) {
        if let Some(item) = context.selected {
            intents.extend(self.panel_ui(ui, context.scope, item));
        }
    }
}
