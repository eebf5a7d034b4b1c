//! Counter rules: those saved for the table (one in use), those suggested by the loaded rows,
//! and the form to write one.

use egui::{RichText, Ui};

use crate::scope::Scope;
use crate::tally::TallyFeature;
use crate::tally::rule_form::{RuleForm, rule_editor_ui};
use dynoscope_core::tally::Rule;

/// Draw the rules; using, removing or saving one changes the saved rules at once.
pub(super) fn rules_ui(
    ui: &mut Ui,
    tally: &mut TallyFeature,
    scope: &Scope<'_>,
    suggested: &[Rule],
) {
    ui.heading("Counter rules");
    let rules = tally.rules().clone();
    // A table of the same name on another connection (staging beside prod) may have its rules
    // already: offered, never applied unasked.
    let elsewhere: Vec<Rule> = match (&tally.place, rules.is_empty()) {
        (Some(place), true) => tally.book.elsewhere(&place.spec, &place.table),
        _ => Vec::new(),
    };
    if !elsewhere.is_empty() {
        ui.label(format!(
            "Rules of {} on another connection:",
            scope.table.name
        ));
        for rule in elsewhere {
            ui.horizontal(|ui| {
                ui.label(RichText::new(rule.describe()).monospace());
                if ui.small_button("Use here").clicked() {
                    tally.add_rule(rule.clone());
                }
            });
        }
    }
    let new: Vec<&Rule> = suggested.iter().filter(|r| !rules.contains(r)).collect();
    if !new.is_empty() {
        ui.label("Suggested from the loaded rows:");
        for rule in new.into_iter().take(6) {
            ui.horizontal(|ui| {
                ui.label(RichText::new(rule.describe()).monospace());
                if ui.small_button("Use").clicked() {
                    tally.add_rule(rule.clone());
                }
                if ui.small_button("Edit").clicked() {
                    tally.form = RuleForm::from_rule(rule);
                    tally.form_open = true;
                }
            });
        }
    } else if rules.is_empty() {
        ui.weak(
            "Query an item collection (a parent and its children) to get suggestions, or write a rule.",
        );
    }
    let mut remove = None;
    for (i, rule) in rules.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui
                .radio(
                    tally.selected == Some(i),
                    RichText::new(rule.describe()).monospace(),
                )
                .clicked()
            {
                tally.select(Some(i));
            }
            if ui.small_button("Remove").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        tally.rules().remove(i);
        tally.select(None);
    }
    ui.toggle_value(&mut tally.form_open, "Write a rule…");
    if tally.form_open
        && let Some(rule) = rule_editor_ui(ui, &mut tally.form, scope.table, &mut tally.error)
    {
        tally.add_rule(rule);
        tally.form_open = false;
    }
}
