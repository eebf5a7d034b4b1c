//! The tally check: counter rules (saved, or suggested from the loaded rows), one parent's
//! stored tally beside its counted children, a guarded repair, sharded counters, and reconcile.

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, Plot};

use crate::core::counter::{Outcome, UpdatePlan, to_dynamodb};
use crate::core::error::Error;
use crate::core::table::TableInfo;
use crate::core::tally::{Rule, ShardRule, TallyRule};
use crate::core::tally_ops::{ParentCheck, ShardTotal};
use crate::core::value::{self, Item};
use crate::ui::reconcile_panel::{Reconcile, ReconcileAction, reconcile_ui};
use crate::ui::rule_editor::{RuleForm, rule_editor_ui};
use crate::ui::status_bar::format_rcu;
use crate::ui::widgets::{error_ui, labelled_text_ui};
use crate::worker::JobId;

/// A proposed or sent repair.
#[derive(Debug, Clone)]
pub struct Repair {
    /// The conditional SET, shown before it is sent.
    pub plan: UpdatePlan,
    /// The repair under way.
    pub job: Option<JobId>,
    /// What happened, in words, once it ended.
    pub result: Option<Result<String, Error>>,
}

/// The tally panel's state.
#[derive(Debug, Default)]
pub struct TallyPanel {
    /// Rules saved for this connection and table.
    pub rules: Vec<Rule>,
    /// The rule in use.
    pub selected: Option<usize>,
    /// The rule form.
    pub form: RuleForm,
    /// Whether the form is open.
    pub form_open: bool,
    /// The parent (or shard partition) typed in.
    pub partition: String,
    /// Why the last request could not be made or failed.
    pub error: Option<Error>,
    /// The check under way.
    pub check_job: Option<JobId>,
    /// The last check and the parent item as read.
    pub check: Option<(ParentCheck, Item)>,
    /// The sum under way.
    pub shards_job: Option<JobId>,
    /// The last shard sum.
    pub shards: Option<ShardTotal>,
    /// The proposed or sent repair.
    pub repair: Option<Repair>,
    /// Reconcile.
    pub reconcile: Reconcile,
    /// The last export's outcome, in words.
    pub export_note: Option<Result<String, Error>>,
}

impl TallyPanel {
    /// The selected tally rule, if the selected rule is one.
    pub fn tally_rule(&self) -> Option<&TallyRule> {
        match self.selected.and_then(|i| self.rules.get(i)) {
            Some(Rule::Tally(rule)) => Some(rule),
            _ => None,
        }
    }

    /// The selected shard rule, if the selected rule is one.
    pub fn shard_rule(&self) -> Option<&ShardRule> {
        match self.selected.and_then(|i| self.rules.get(i)) {
            Some(Rule::Shards(rule)) => Some(rule),
            _ => None,
        }
    }

    fn add_rule(&mut self, rule: Rule) {
        let at = match self.rules.iter().position(|r| *r == rule) {
            Some(at) => at,
            None => {
                self.rules.push(rule);
                self.rules.len() - 1
            }
        };
        self.selected = Some(at);
        self.check = None;
        self.shards = None;
        self.repair = None;
    }
}

/// What the user asked the tally panel for.
#[derive(Debug, Clone, PartialEq)]
pub enum TallyAction {
    /// The saved rules changed.
    RulesChanged,
    /// Check the parent typed in.
    Check,
    /// Sum the shards of the partition typed in.
    SumShards,
    /// List the checked parent's children in the grid.
    ShowChildren,
    /// Propose a repair for the checked parent.
    ProposeRepair,
    /// Send the proposed repair.
    ConfirmRepair,
    /// Something in the reconcile section.
    Reconcile(ReconcileAction),
    /// Open the proposed repair in the expression builder.
    OpenRepairInBuilder,
}

/// Draw the panel for `info`, with rules `suggested` from the loaded rows.
#[must_use]
pub fn tally_panel_ui(
    ui: &mut Ui,
    panel: &mut TallyPanel,
    info: &TableInfo,
    suggested: &[Rule],
) -> Vec<TallyAction> {
    let mut actions = Vec::new();
    rules_ui(ui, panel, info, suggested, &mut actions);
    ui.separator();
    if let Some(error) = &panel.error {
        error_ui(ui, error);
    }
    if panel.tally_rule().is_some() {
        single_ui(ui, panel, info, &mut actions);
        ui.separator();
        ui.heading("Reconcile many parents");
        if let Some(action) = reconcile_ui(ui, &mut panel.reconcile, info) {
            actions.push(TallyAction::Reconcile(action));
        }
        export_note_ui(ui, panel);
    } else if panel.shard_rule().is_some() {
        shards_ui(ui, panel, info, &mut actions);
    } else {
        ui.weak("Choose or write a rule to check a tally or sum a sharded counter.");
    }
    actions
}

fn rules_ui(
    ui: &mut Ui,
    panel: &mut TallyPanel,
    info: &TableInfo,
    suggested: &[Rule],
    actions: &mut Vec<TallyAction>,
) {
    ui.heading("Counter rules");
    let new: Vec<&Rule> = suggested
        .iter()
        .filter(|r| !panel.rules.contains(r))
        .collect();
    if !new.is_empty() {
        ui.label("Suggested from the loaded rows:");
        for rule in new.into_iter().take(6) {
            ui.horizontal(|ui| {
                ui.label(RichText::new(rule.describe()).monospace());
                if ui.small_button("Use").clicked() {
                    panel.add_rule(rule.clone());
                    actions.push(TallyAction::RulesChanged);
                }
                if ui.small_button("Edit").clicked() {
                    panel.form = RuleForm::from_rule(rule);
                    panel.form_open = true;
                }
            });
        }
    } else if panel.rules.is_empty() {
        ui.weak("Query an item collection (a parent and its children) to get suggestions, or write a rule.");
    }
    let mut remove = None;
    for (i, rule) in panel.rules.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui
                .radio(
                    panel.selected == Some(i),
                    RichText::new(rule.describe()).monospace(),
                )
                .clicked()
            {
                panel.selected = Some(i);
                panel.check = None;
                panel.shards = None;
                panel.repair = None;
            }
            if ui.small_button("Remove").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        panel.rules.remove(i);
        panel.selected = None;
        actions.push(TallyAction::RulesChanged);
    }
    ui.toggle_value(&mut panel.form_open, "Write a rule…");
    if panel.form_open
        && let Some(rule) = rule_editor_ui(ui, &mut panel.form, info, &mut panel.error)
    {
        panel.add_rule(rule);
        panel.form_open = false;
        actions.push(TallyAction::RulesChanged);
    }
}

fn single_ui(
    ui: &mut Ui,
    panel: &mut TallyPanel,
    info: &TableInfo,
    actions: &mut Vec<TallyAction>,
) {
    ui.heading("One parent");
    ui.horizontal(|ui| {
        let label = format!("Parent {} ({}) =", info.partition.name, info.partition.kind);
        let response = labelled_text_ui(ui, &label, &mut panel.partition, 180.0, "POST#a91f");
        let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let busy = panel.check_job.is_some();
        if ui.add_enabled(!busy, egui::Button::new("Check")).clicked() || (enter && !busy) {
            actions.push(TallyAction::Check);
        }
        if busy {
            ui.spinner();
        }
    });
    let Some((check, _)) = &panel.check else {
        return;
    };
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
            ui.label(big(check
                .stored
                .clone()
                .unwrap_or_else(|| "missing".to_owned())));
            ui.label(big(check.count.count.to_string()));
            let drift = big(check.drift_text());
            ui.label(if check.drifted() {
                drift.color(warn)
            } else {
                drift
            });
            ui.end_row();
        });
    ui.label(verdict(check));
    ui.weak(format!(
        "How: {} · {} page{} · {} RCU · {} ms",
        check.count.method,
        check.count.pages,
        if check.count.pages == 1 { "" } else { "s" },
        format_rcu(check.count.consumed_rcu),
        check.count.elapsed_ms
    ));
    ui.horizontal(|ui| {
        if ui.button("Show children").clicked() {
            actions.push(TallyAction::ShowChildren);
        }
        if check.drifted() && ui.button("Repair…").clicked() {
            actions.push(TallyAction::ProposeRepair);
        }
    });
    if let Some(repair) = &panel.repair {
        repair_ui(ui, repair, check, actions);
    }
}

fn verdict(check: &ParentCheck) -> String {
    let children = format!("{} children", check.count.count);
    match (&check.stored, &check.drift) {
        (None, _) => format!("The tally is missing (not 0); there are {children}."),
        (Some(_), Some(d)) if *d == bigdecimal::BigDecimal::default() => {
            format!("The stored tally equals the {children}.")
        }
        (Some(stored), Some(d)) => format!(
            "The stored tally {stored} is off by {} from the {children}.",
            if *d > bigdecimal::BigDecimal::default() {
                format!("+{}", to_dynamodb(d))
            } else {
                to_dynamodb(d)
            }
        ),
        (Some(_), None) => String::new(),
    }
}

fn repair_ui(ui: &mut Ui, repair: &Repair, check: &ParentCheck, actions: &mut Vec<TallyAction>) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong("Guarded repair");
        ui.label(
            "A drift is a bug to find: a retried increment, a write outside the transaction, a \
             failed decrement. Repair it, then look for the cause.",
        );
        match &check.last_touched {
            Some((name, when)) => ui.label(format!("Last touched: {name} = {when}")),
            None => ui.weak("The parent does not record when a like or unlike last touched it."),
        };
        let plan = &repair.plan;
        let mut lines = vec![format!("UpdateExpression: {}", plan.update_expression)];
        if let Some(condition) = &plan.condition_expression {
            lines.push(format!("ConditionExpression: {condition}"));
        }
        let mut values: Vec<_> = plan.values.iter().collect();
        values.sort_by(|a, b| a.0.cmp(b.0));
        lines.push(format!("#a = {}", plan.attribute));
        for (k, v) in values {
            lines.push(format!("{k} = {}", value::dynamodb_json(v)));
        }
        ui.label(RichText::new(lines.join("\n")).monospace());
        ui.weak("It sets the tally to the counted children only if the tally still holds the value observed; otherwise nothing is overwritten and the parent is checked again.");
        match (&repair.job, &repair.result) {
            (Some(_), _) => {
                ui.spinner();
            }
            (None, None) => {
                ui.horizontal(|ui| {
                    if ui.button("Confirm repair").clicked() {
                        actions.push(TallyAction::ConfirmRepair);
                    }
                    if ui.button("Open in builder").clicked() {
                        actions.push(TallyAction::OpenRepairInBuilder);
                    }
                });
            }
            (None, Some(Ok(text))) => {
                ui.label(text);
            }
            (None, Some(Err(error))) => error_ui(ui, error),
        }
    });
}

/// What a repair did, in words, given the check made afterwards.
pub fn repair_result_text(
    outcome: &Outcome,
    recheck: Option<&ParentCheck>,
) -> Result<String, Error> {
    let after = recheck.map_or(String::new(), |c| {
        format!(
            " Checked again: stored {} · counted {} · drift {}.",
            c.stored.as_deref().unwrap_or("missing"),
            c.count.count,
            c.drift_text()
        )
    });
    match outcome {
        Outcome::Applied { new_value, .. } => Ok(format!(
            "Repaired: the tally is {} now.{after}",
            new_value.as_deref().unwrap_or("(not returned)")
        )),
        Outcome::ConditionFailed { current } => Ok(format!(
            "Not repaired: the tally moved meanwhile (it is {} now), so nothing was overwritten.{after}",
            current.as_deref().unwrap_or("missing")
        )),
        Outcome::Unknown { error, .. } => Ok(format!(
            "Outcome unknown ({error}); nothing was re-sent.{after}"
        )),
        Outcome::Failed(error) => Err(error.clone()),
    }
}

fn shards_ui(
    ui: &mut Ui,
    panel: &mut TallyPanel,
    info: &TableInfo,
    actions: &mut Vec<TallyAction>,
) {
    ui.heading("Sharded counter");
    ui.horizontal(|ui| {
        let label = format!(
            "Counter {} ({}) =",
            info.partition.name, info.partition.kind
        );
        labelled_text_ui(ui, &label, &mut panel.partition, 180.0, "VID#c0de");
        let busy = panel.shards_job.is_some();
        if ui
            .add_enabled(!busy, egui::Button::new("Sum shards"))
            .clicked()
        {
            actions.push(TallyAction::SumShards);
        }
        if busy {
            ui.spinner();
        }
    });
    let Some(total) = &panel.shards else {
        return;
    };
    ui.label(
        RichText::new(format!("Total {}", to_dynamodb(&total.total)))
            .size(24.0)
            .monospace(),
    );
    ui.label(format!(
        "summed on read over {} shards · {} page{} · {} RCU",
        total.shards.len(),
        total.pages,
        if total.pages == 1 { "" } else { "s" },
        format_rcu(total.consumed_rcu)
    ));
    if let Some(hot) = total.hot.and_then(|i| total.shards.get(i)) {
        let share = hot
            .1
            .as_ref()
            .and_then(|v| percent(v, &total.total))
            .unwrap_or_else(|| "0".to_owned());
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "Hot shard: {} holds {} ({share}% of the total)",
                hot.0,
                hot.1.as_ref().map(to_dynamodb).unwrap_or_default()
            ),
        );
    }
    let bars: Vec<Bar> = total
        .shards
        .iter()
        .enumerate()
        .map(|(i, (sk, v))| {
            let height = v.as_ref().and_then(as_plot_height).unwrap_or_default();
            let bar = Bar::new(i as f64, height).name(sk.clone()).width(0.7);
            if Some(i) == total.hot {
                bar.fill(ui.visuals().warn_fg_color)
            } else {
                bar
            }
        })
        .collect();
    Plot::new("shards_plot")
        .height(220.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .y_axis_label("value")
        .x_axis_label("shard")
        .show(ui, |plot| plot.bar_chart(BarChart::new("shards", bars)));
    for (sk, v) in &total.shards {
        ui.label(format!(
            "{sk}: {}",
            v.as_ref().map_or("(missing)".to_owned(), to_dynamodb)
        ));
    }
}

/// Bar heights are drawing coordinates, not data: the exact values are printed beside the chart.
fn as_plot_height(value: &bigdecimal::BigDecimal) -> Option<f64> {
    use bigdecimal::ToPrimitive as _;
    value.to_f64()
}

/// `part` as a percentage of `total` with one decimal, exactly; `None` when the total is 0.
fn percent(part: &bigdecimal::BigDecimal, total: &bigdecimal::BigDecimal) -> Option<String> {
    if *total == bigdecimal::BigDecimal::default() {
        return None;
    }
    let ratio = (part * bigdecimal::BigDecimal::from(100)) / total;
    Some(
        ratio
            .with_scale_round(1, bigdecimal::RoundingMode::HalfUp)
            .to_string(),
    )
}

fn export_note_ui(ui: &mut Ui, panel: &TallyPanel) {
    match &panel.export_note {
        Some(Ok(note)) => {
            ui.label(note);
        }
        Some(Err(error)) => error_ui(ui, error),
        None => {}
    }
}
