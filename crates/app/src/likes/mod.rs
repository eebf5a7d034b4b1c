//! The like lab: three tools, each its own feature with its own state and work — likes by hand
//! (`hand`: the article's transaction, and the identical request sent again), the storm
//! (`storm`: simulated users) and the counter lab (`lab`: three ways of counting raced) — over
//! one target form (`target`: the parent, its tally and its children's prefix). On an endpoint
//! not on this machine a like waits for confirmation, and the storm and the lab for the table's
//! name; the write gateway decides which.

mod hand;
mod lab;
mod load;
mod storm;
mod target;

use egui::Ui;

use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use dynoscope_core::tally::TallyRule;

use hand::HandFeature;
use lab::LabFeature;
use storm::StormFeature;
use target::TargetForm;

/// The like lab's three features and their shared target.
#[derive(Default)]
pub(crate) struct LikesFeature {
    /// The connection and table the tools are on: the same again (a table reopened, a
    /// connection switched back to) keeps their forms and results.
    subject: Option<(dynoscope_core::connection::ConnectionId, String)>,
    target: TargetForm,
    hand: HandFeature,
    storm: StormFeature,
    lab: LabFeature,
}

impl LikesFeature {
    /// The parent carried from the view left (else the partition queried in Browse, when
    /// nothing was typed here) and the tally rule in use.
    pub(crate) fn carry(&mut self, parent: &str, queried: &str, rule: Option<TallyRule>) {
        self.target.prefill(parent, queried, rule);
    }

    /// The parent liked.
    pub(crate) fn parent(&self) -> &str {
        &self.target.parent
    }
}

impl Feature for LikesFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        self.hand.poll(intents);
        self.storm.poll(intents);
        self.lab.poll(intents);
    }

    /// Each tool starts afresh, keeping the writes under way — a like, a storm, a lab run — so
    /// that their outcome is still shown when it arrives.
    fn subject_changed(&mut self, subject: Subject<'_>) {
        let now = subject.connection.map(|spec| {
            (
                spec.identity(),
                subject.table.unwrap_or_default().to_owned(),
            )
        });
        if now.is_some() && now == self.subject {
            return;
        }
        self.subject = now;
        self.target = TargetForm::default();
        self.hand.subject_changed();
        self.storm.subject_changed();
        self.lab.subject_changed();
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, intents: &mut Vec<Intent>) {
        let scope = context.scope;
        egui::ScrollArea::vertical()
            .id_salt("likes_scroll")
            .show(ui, |ui| {
                intents.extend(hand::hand_ui(ui, &mut self.hand, &mut self.target, scope));
                ui.separator();
                storm::storm_ui(ui, &mut self.storm, &self.target, scope);
                ui.separator();
                lab::lab_ui(ui, &mut self.lab, scope);
            });
    }
}
