//! The staging area: each staged item with its attribute-level diff, Edit / Discard, and the
//! commit — one transaction or item by item — through the gateway, asked first off this
//! machine; then each item's outcome, with the server's item beside a conflict.

use egui::{Color32, RichText, Ui};

use crate::items::ItemsFeature;
use crate::scope::Scope;
use crate::widgets::{self, error_ui, lines_ui, write_button_ui, writes_to_ui};
use dynoscope_core::items::{
    ChangeKind, CommitMode, Diff, ItemOutcome, MAX_TRANSACTION, TallyEffect, tally_effects,
};
use dynoscope_core::value::{self, Item};

/// What the user asked of the staging panel.
pub(super) enum StagedAction {
    /// Open the editor on the staged item with this key.
    Edit(Item),
    /// Drop the change of this key.
    Discard(Item),
    /// Drop every change.
    DiscardAll,
    /// Commit, as the mode says.
    Commit,
    /// Base the change of this key on the server's item.
    Rebase(Item, Option<Item>),
    /// The question answered: send (`true`) or not.
    Confirmed(bool),
    /// Stage this parent's tally moved as its staged children move.
    KeepTally(TallyEffect),
}

fn diff_ui(ui: &mut Ui, diff: &Diff) {
    let color = match diff {
        Diff::Changed { .. } => Color32::from_rgb(200, 160, 60),
        Diff::Added { .. } => widgets::GOOD,
        Diff::Removed { .. } => ui.visuals().error_fg_color,
    };
    ui.label(RichText::new(diff.line()).monospace().color(color));
}

impl ItemsFeature {
    /// Draw the staged changes and the last commit's outcome.
    pub(super) fn staged_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<StagedAction> {
        let key_names = scope.key_names();
        let mut action = None;
        // What the staged children do to their parents' tallies.
        let effects = self
            .staged
            .get(&Self::place(scope))
            .map(|s| tally_effects(s.changes(), scope.table, &self.rules))
            .unwrap_or_default();
        let fixing = self.fixing.is_some();
        // Borrowed, not copied: the frame draws the changes as staged.
        let staging = &*self.staging(scope);
        let count = staging.changes().len();
        ui.strong(format!("Staged changes ({count})"));
        if count == 0 {
            ui.weak("Nothing staged. Edit, duplicate or delete an item (select a row in Browse), or make a new one.");
        }
        ui.push_id("staged", |ui| {
            for change in staging.changes() {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        let tag = match change.kind() {
                            ChangeKind::Create => "NEW",
                            ChangeKind::Update => "EDIT",
                            ChangeKind::Delete => "DELETE",
                        };
                        ui.label(RichText::new(tag).small().strong());
                        ui.label(change.title(&key_names));
                        if change.kind() != ChangeKind::Delete && ui.small_button("Edit").clicked()
                        {
                            action = Some(StagedAction::Edit(change.key.clone()));
                        }
                        if ui.small_button("Discard").clicked() {
                            action = Some(StagedAction::Discard(change.key.clone()));
                        }
                    });
                    for diff in change.diff() {
                        if !key_names.iter().any(|k| k == diff.name())
                            || change.kind() != ChangeKind::Update
                        {
                            diff_ui(ui, &diff);
                        }
                    }
                });
            }
        });
        for effect in effects {
            let line = effect.line(&key_names);
            if effect.drifts() {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(ui.visuals().warn_fg_color, line);
                    let drift = effect.drift();
                    let text = format!(
                        "Stage the tally's {}{} too",
                        if drift > bigdecimal::BigDecimal::default() {
                            "+"
                        } else {
                            ""
                        },
                        dynoscope_core::number::to_dynamodb(&drift)
                    );
                    if ui
                        .add_enabled(!fixing, egui::Button::new(text))
                        .on_hover_text(
                            "The parent's tally set to keep up with its children, in the same \
                             commit (as one transaction: the article's like and unlike)",
                        )
                        .clicked()
                    {
                        action = Some(StagedAction::KeepTally(effect.clone()));
                    }
                });
            } else {
                ui.weak(line);
            }
        }
        if count > 0 {
            action = action.or(self.commit_ui(ui, scope, count));
        }
        action.or(self.report_ui(ui, scope))
    }

    fn commit_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, count: usize) -> Option<StagedAction> {
        let mut action = None;
        let busy = self.write.is_sending();
        ui.horizontal_wrapped(|ui| {
            ui.label("Commit");
            ui.radio_value(
                &mut self.mode,
                CommitMode::Transaction,
                "as one transaction (all or nothing)",
            )
            .on_hover_text(format!(
                "TransactWriteItems, at most {MAX_TRANSACTION} items"
            ));
            ui.radio_value(&mut self.mode, CommitMode::EachItem, "item by item");
        });
        let writes_on = writes_to_ui(
            ui,
            &format!(
                "table {} · {} · {}",
                scope.table.name,
                dynoscope_core::report::plural(count, "item"),
                scope.connection.label()
            ),
            scope.connection,
        );
        ui.horizontal_wrapped(|ui| {
            let fits = self.mode == CommitMode::EachItem || count <= MAX_TRANSACTION;
            let text = format!("Commit {count} staged");
            if write_button_ui(ui, scope.connection, writes_on && fits && !busy, &text).clicked() {
                action = Some(StagedAction::Commit);
            }
            if ui
                .add_enabled(!busy, egui::Button::new("Discard all"))
                .clicked()
            {
                action = Some(StagedAction::DiscardAll);
            }
            if busy {
                ui.spinner();
            }
            if !fits {
                ui.weak(format!(
                    "More than {MAX_TRANSACTION} items: commit item by item."
                ));
            }
        });
        ui.weak(
            "Each item is written only if the attributes you changed still hold what was read \
             (a new one: only if its key is free; a delete: only if nothing it had changed).",
        );
        if let Some(question) = self.write.question_mut()
            && let Some(answer) = widgets::confirm_ui(ui, question)
        {
            action = Some(StagedAction::Confirmed(answer));
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        action
    }

    fn report_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) -> Option<StagedAction> {
        let report = self.report.clone()?;
        let staged: Vec<dynoscope_core::items::Change> = self.staging(scope).changes().to_vec();
        let key_names = scope.key_names();
        let mut action = None;
        ui.separator();
        lines_ui(
            ui,
            &report.lines(&key_names, &scope.connection.pricing(scope.table)),
        );
        let created_or_deleted = report
            .items
            .iter()
            .any(|r| matches!(&r.outcome, ItemOutcome::Written { item: None }))
            || self.created;
        if created_or_deleted {
            ui.weak("The grid shows rows as they were read: run the query again (F5) to see new and deleted items.");
        }
        for result in &report.items {
            let (server, title) = match &result.outcome {
                ItemOutcome::Conflict { server } => (server, "The server's item now"),
                ItemOutcome::Unknown { stored_now, .. } => (stored_now, "Stored now"),
                _ => continue,
            };
            egui::CollapsingHeader::new(format!(
                "{title}: {}",
                dynoscope_core::value::key_shown(&result.key, &key_names)
            ))
            .default_open(true)
            .show(ui, |ui| {
                server_item_ui(ui, server.as_ref(), &staged, &result.key, &key_names);
                let conflict = matches!(result.outcome, ItemOutcome::Conflict { .. })
                    && staged.iter().any(|c| c.key == result.key);
                // A new item that met an existing one gets another key, never written over it.
                if conflict && !result.kind.may_keep_over() {
                    ui.horizontal_wrapped(|ui| {
                        ui.weak("Edit the staged item to give it another key, or");
                        if ui.button("Discard my change").clicked() {
                            action = Some(StagedAction::Discard(result.key.clone()));
                        }
                    });
                } else if conflict {
                    ui.horizontal_wrapped(|ui| {
                        if ui
                            .button("Keep my change over it")
                            .on_hover_text(
                                "Stage my item again, conditional on the server's item as shown",
                            )
                            .clicked()
                        {
                            action = Some(StagedAction::Rebase(result.key.clone(), server.clone()));
                        }
                        if ui.button("Discard my change").clicked() {
                            action = Some(StagedAction::Discard(result.key.clone()));
                        }
                    });
                }
            });
        }
        action
    }
}

/// The server's item beside a staged change that met it: what changed there since it was read,
/// then the whole item (or that there is none).
fn server_item_ui(
    ui: &mut Ui,
    server: Option<&Item>,
    staged: &[dynoscope_core::items::Change],
    key: &Item,
    key_names: &[String],
) {
    // What changed meanwhile, then the whole item.
    if let Some(change) = staged.iter().find(|c| c.key == *key) {
        let meanwhile = change.changed_meanwhile(server);
        if !meanwhile.is_empty() {
            ui.label("Changed on the server since it was read:");
            for diff in &meanwhile {
                diff_ui(ui, diff);
            }
        }
    }
    match server {
        Some(item) => {
            let key = dynoscope_core::value::key_shown(key, key_names);
            egui::CollapsingHeader::new("The whole item")
                .id_salt(("server item", key))
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(value::item_to_dynamodb_json(item, key_names, true))
                            .monospace(),
                    );
                });
        }
        None => {
            ui.weak("No such item.");
        }
    }
}
