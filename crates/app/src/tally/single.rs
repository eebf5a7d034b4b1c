//! One parent: its stored tally beside its counted children, how they were counted, and the
//! guarded repair of a drift.

use egui::{RichText, Ui};

use crate::intent::Intent;
use crate::scope::Scope;
use crate::tally::TallyFeature;
use crate::widgets::{labelled_text_ui, line_ui, protected_name_ui, write_button_ui, writes_to_ui};
use dynoscope_core::connection::Connection;
use dynoscope_core::counter::UpdatePlan;
use dynoscope_core::expr::builder::Input;
use dynoscope_core::report::Line;
use dynoscope_core::tally::{self as tally_core, RepairReport};
use dynoscope_core::tally::{ParentCheck, TallyRule};
use dynoscope_core::task::Pending;
use dynoscope_core::value::key_shown;
use dynoscope_core::write::Destination;

/// Draw the check of one parent under `rule`.
pub(super) fn single_ui(
    ui: &mut Ui,
    tally: &mut TallyFeature,
    scope: &Scope<'_>,
    rule: &TallyRule,
) -> Option<Intent> {
    let info = scope.table;
    ui.heading("One parent");
    ui.horizontal(|ui| {
        let label = format!("Parent {} ({}) =", info.partition.name, info.partition.kind);
        let response = labelled_text_ui(ui, &label, &mut tally.partition, 180.0, "POST#a91f");
        let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let busy = tally.checking.is_some();
        if ui.add_enabled(!busy, egui::Button::new("Check")).clicked() || (enter && !busy) {
            tally.check_parent(scope, rule);
        }
        if busy {
            ui.spinner();
        }
    });
    let (check, _) = tally.check.as_ref()?;
    if let Some(at) = tally.checked_at {
        // Its age: writes since are not in it (Check again reads it afresh).
        ui.weak(format!(
            "Read {}; writes since are not in it.",
            dynoscope_core::report::age_text(at.elapsed())
        ));
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs(1));
    }
    side_by_side_ui(ui, check, &scope.connection.pricing(info));
    let mut show_children = false;
    let mut propose = false;
    ui.horizontal(|ui| {
        show_children = ui.button("Show children").clicked();
        propose = check.drifted() && ui.button("Repair…").clicked();
    });
    // A repair refused because the tally moved: the new proposal, from what is stored now.
    if let Some(repair) = &tally.repair
        && repair.moved
        && check.drifted()
    {
        let refused = repair.result.clone();
        tally.propose_repair(scope, rule);
        if let Some(repair) = &mut tally.repair {
            repair.refused = refused;
        }
    }
    let (check, _) = tally.check.as_ref()?;
    let mut intent = None;
    if let Some(repair) = &mut tally.repair {
        match repair_ui(ui, repair, check, scope.connection) {
            Some(RepairAction::Confirm) => tally.confirm_repair(scope, rule),
            Some(RepairAction::OpenInBuilder) => intent = tally.repair_in_builder(),
            None => {}
        }
    }
    if propose {
        tally.propose_repair(scope, rule);
    }
    if show_children {
        match tally.children_preset(scope, rule) {
            Ok(preset) => intent = Some(Intent::ShowQuery(preset)),
            Err(error) => tally.error = Some(error),
        }
    }
    intent
}

fn side_by_side_ui(ui: &mut Ui, check: &ParentCheck, pricing: &dynoscope_core::cost::Pricing) {
    ui.label(RichText::new(format!("Parent {}", check.partition)).strong());
    let warn = ui.visuals().warn_fg_color;
    egui::Grid::new("tally_side_by_side")
        .num_columns(3)
        .min_col_width(110.0)
        .show(ui, |ui| {
            for title in ["Stored tally", "Counted children", "Drift"] {
                ui.weak(title);
            }
            ui.end_row();
            let big = |text: String| RichText::new(text).size(26.0).monospace();
            ui.label(big(check.stored_text().to_owned()));
            ui.label(big(check.count.count.to_string()));
            let drift = big(check.drift_text());
            ui.label(if check.drifted() {
                drift.color(warn)
            } else {
                drift
            });
            ui.end_row();
        });
    ui.label(check.verdict());
    ui.weak(check.how(pricing));
}

/// What the user asked of the proposed repair.
enum RepairAction {
    Confirm,
    OpenInBuilder,
}

fn repair_ui(
    ui: &mut Ui,
    repair: &mut Repair,
    check: &ParentCheck,
    connection: &Connection,
) -> Option<RepairAction> {
    let mut action = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong("Guarded repair");
        if let Some(refused) = &repair.refused {
            line_ui(ui, refused);
            ui.label("A new proposal, from the tally as stored now:");
        }
        ui.label(
            "A drift is a bug to find: a retried increment, a write outside the transaction, a \
             failed decrement. Repair it, then look for the cause.",
        );
        match &check.last_touched {
            Some((name, when)) => ui.label(format!("Last touched: {name} = {when}")),
            None => ui.weak("The parent does not record when a like or unlike last touched it."),
        };
        ui.label(RichText::new(repair.plan.request_lines().join("\n")).monospace());
        let plan = &repair.plan;
        writes_to_ui(
            ui,
            &format!(
                "table {} · {} · {}",
                plan.table,
                key_shown(&plan.key, &[]),
                plan.destination.place()
            ),
            connection,
        );
        ui.weak(
            "It sets the tally to the counted children only if the tally still holds the value \
             observed; otherwise nothing is overwritten and the parent is checked again.",
        );
        match (&repair.sending, &repair.result) {
            (Some(_), _) => {
                ui.spinner();
            }
            (None, None) => {
                let named = protected_name_ui(ui, connection, &mut repair.typed_name);
                ui.horizontal(|ui| {
                    if write_button_ui(ui, connection, named, "Confirm repair").clicked() {
                        action = Some(RepairAction::Confirm);
                    }
                    if ui.button("Open in builder").clicked() {
                        action = Some(RepairAction::OpenInBuilder);
                    }
                });
            }
            (None, Some(line)) => line_ui(ui, line),
        }
    });
    action
}

/// A proposed or sent repair.
pub(super) struct Repair {
    /// The conditional SET, shown before it is sent.
    pub(super) plan: UpdatePlan,
    /// The repair under way.
    pub(super) sending: Option<Pending<RepairReport>>,
    /// What happened, in words, once it ended.
    pub(super) result: Option<Line>,
    /// The tally moved before it was sent (refused, nothing written): a new proposal, from
    /// the parent as checked again, is due.
    pub(super) moved: bool,
    /// Why the last proposal was not applied, shown above the new one.
    pub(super) refused: Option<Line>,
    /// A protected connection's name, typed before Confirm repair.
    pub(super) typed_name: String,
}

impl TallyFeature {
    fn propose_repair(&mut self, scope: &Scope<'_>, rule: &TallyRule) {
        let Some((check, _)) = &self.check else {
            return;
        };
        match tally_core::repair_plan(&Destination::of(scope.connection), scope.table, rule, check)
        {
            Ok(plan) => {
                self.repair = Some(Repair {
                    plan,
                    sending: None,
                    result: None,
                    moved: false,
                    refused: None,
                    typed_name: String::new(),
                });
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn confirm_repair(&mut self, scope: &Scope<'_>, rule: &TallyRule) {
        let Some(repair) = &mut self.repair else {
            return;
        };
        let (connection, info, rule) =
            (scope.connection.clone(), scope.table.clone(), rule.clone());
        let plan = repair.plan.clone();
        repair.result = None;
        // "Confirm repair", under the request and where it goes, is the confirmation.
        repair.sending = Some(scope.spawner.spawn("UpdateItem", async move {
            Ok(tally_core::repair(&connection, &info, &rule, &plan, true).await)
        }));
    }

    fn repair_in_builder(&self) -> Option<Intent> {
        let repair = self.repair.as_ref()?;
        Some(Intent::OpenInBuilder {
            input: Box::new(Input::from_request(&repair.plan.request())),
            origin: "the guarded repair".to_owned(),
        })
    }
}
