//! Items: the editor (an item's attributes in a form or as JSON), the staging area with each
//! item's diff, and the commit through the write gateway. Changes are staged per connection
//! and table, and kept when another table is opened.

mod editor;
mod staged;

use std::collections::HashMap;

use egui::Ui;

use crate::feature::{Context, Feature};
use crate::intent::{EditStart, Intent};
use crate::scope::Scope;
use crate::write_flow::WriteFlow;
use dynoscope_core::connection::ConnectionId;
use dynoscope_core::error::Error;
use dynoscope_core::items::{
    Change, CommitMode, CommitPlan, CommitReport, Staging, TallyEffect, commit, plan_commit,
};
use dynoscope_core::read;
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::Pending;
use dynoscope_core::value::Item;
use dynoscope_core::value::key_shown;
use dynoscope_core::write::Destination;

use editor::{Editor, EditorAction, Subject};
use staged::StagedAction;

/// The items feature's state.
pub(crate) struct ItemsFeature {
    editor: Option<Editor>,
    /// Staged changes by connection and table.
    staged: HashMap<(ConnectionId, String), Staging>,
    mode: CommitMode,
    /// The commit asked about, or under way.
    write: WriteFlow<CommitPlan, Committing>,
    report: Option<CommitReport>,
    /// The last commit created items (the grid does not show them until read again).
    created: bool,
    error: Option<Error>,
    /// A note after staging: what was staged.
    note: Option<String>,
    /// The open table's counter rules: a staged child says which tally it moves.
    pub rules: Vec<TallyRule>,
    /// A parent read to stage its tally's change beside its children's.
    fixing: Option<Pending<(TallyEffect, Item)>>,
}

impl Default for ItemsFeature {
    fn default() -> Self {
        Self {
            editor: None,
            staged: HashMap::new(),
            mode: CommitMode::Transaction,
            write: WriteFlow::default(),
            report: None,
            created: false,
            error: None,
            note: None,
            rules: Vec::new(),
            fixing: None,
        }
    }
}

impl ItemsFeature {
    fn place(scope: &Scope<'_>) -> (ConnectionId, String) {
        (scope.connection.spec.identity(), scope.table.name.clone())
    }

    fn staging(&mut self, scope: &Scope<'_>) -> &mut Staging {
        self.staged.entry(Self::place(scope)).or_default()
    }

    /// Changes staged on the open table.
    pub(crate) fn staged_count(&self, scope: Option<&Scope<'_>>) -> usize {
        scope
            .and_then(|s| self.staged.get(&Self::place(s)))
            .map_or(0, |s| s.changes().len())
    }

    /// Start on `item` (a row of the open table) as `start` says.
    pub(crate) fn start(&mut self, scope: &Scope<'_>, item: &Item, start: EditStart) {
        let key_names = scope.key_names();
        self.error = None;
        self.note = None;
        match start {
            EditStart::New => self.editor = Some(Editor::blank(scope.table)),
            EditStart::Edit => {
                // An item already staged is edited from its staged state, based on its read.
                let staged = scope
                    .table
                    .key_of(item)
                    .ok()
                    .and_then(|key| self.staging(scope).get(&key).cloned());
                self.editor = Some(match staged {
                    Some(Change {
                        before: Some(before),
                        after: Some(after),
                        ..
                    }) => Editor::new(Subject::Existing(before), &after, &key_names),
                    Some(Change {
                        key,
                        before: None,
                        after: Some(after),
                    }) => {
                        let mut editor =
                            Editor::new(Subject::New { copy_of: None }, &after, &key_names);
                        editor.replaces = Some(key);
                        editor
                    }
                    _ => Editor::new(Subject::Existing(item.clone()), item, &key_names),
                });
            }
            EditStart::Duplicate => {
                let from = scope
                    .table
                    .key_of(item)
                    .map(|k| key_shown(&k, &key_names))
                    .unwrap_or_default();
                let subject = Subject::New {
                    copy_of: Some((from, item.clone())),
                };
                self.editor = Some(Editor::new(subject, item, &key_names));
            }
            EditStart::Delete => match Change::delete(scope.table, item.clone()) {
                Ok(change) => {
                    self.note = Some(format!("Staged: {}.", change.title(&key_names)));
                    self.staging(scope).stage(change);
                }
                Err(error) => self.error = Some(error),
            },
        }
    }

    /// Take in a commit's outcome; intents to show written items in the grid.
    #[must_use]
    fn take_in(&mut self) -> Vec<Intent> {
        let Some(done) = self
            .write
            .sending()
            .as_mut()
            .and_then(|c| Pending::take_ready(&mut c.answer))
        else {
            return Vec::new();
        };
        let Some(sent) = self.write.sending().take() else {
            return Vec::new();
        };
        self.created = sent
            .changes
            .iter()
            .any(|c| c.kind() == dynoscope_core::items::ChangeKind::Create);
        match done {
            Ok(report) => {
                // Every item committed (or refused) is read back into the rows shown: a write,
                // a delete, or the server's item that refused it.
                let intents = vec![Intent::Written {
                    destination: Box::new(sent.destination),
                    table: sent.to.1.clone(),
                    keys: report.items.iter().map(|r| r.key.clone()).collect(),
                }];
                if let Some(staging) = self.staged.get_mut(&sent.to) {
                    staging.apply(&report, &sent.changes);
                }
                self.report = Some(report);
                intents
            }
            Err(error) => {
                // The commit's task stopped: what it wrote is not known.
                self.error = Some(Error::TaskDied {
                    op: "commit",
                    detail: format!("{error}; the outcome is unknown: read the items again"),
                });
                Vec::new()
            }
        }
    }

    fn act(&mut self, scope: &Scope<'_>, action: StagedAction) {
        match action {
            StagedAction::Edit(key) => {
                if let Some(change) = self.staging(scope).get(&key).cloned() {
                    let after = change.after.clone().unwrap_or_default();
                    let subject = match change.before {
                        Some(before) => Subject::Existing(before),
                        None => Subject::New { copy_of: None },
                    };
                    let mut editor = Editor::new(subject, &after, &scope.key_names());
                    editor.replaces = Some(change.key);
                    self.editor = Some(editor);
                }
            }
            StagedAction::Discard(key) => {
                self.staging(scope).discard(&key);
                self.report = None;
            }
            StagedAction::DiscardAll => {
                self.staging(scope).clear();
                self.write.drop_question();
                self.report = None;
            }
            StagedAction::Rebase(key, server) => {
                self.staging(scope).rebase(&key, server);
                self.report = None;
            }
            StagedAction::Commit => self.plan(scope),
            StagedAction::KeepTally(effect) => self.keep_tally(scope, effect),
            StagedAction::Confirmed(yes) => {
                self.note = None;
                self.write
                    .answered(yes, |plan, confirmed| send(scope, plan, confirmed));
            }
        }
    }

    /// Stage the parent's tally moved as its staged children move: from the parent as staged,
    /// or else as read now (one consistent GetItem), conditional on that as every change is.
    fn keep_tally(&mut self, scope: &Scope<'_>, effect: TallyEffect) {
        let staged = self
            .staging(scope)
            .get(&effect.parent)
            .and_then(|c| c.after.clone());
        if let Some(parent) = staged {
            self.stage_tally(scope, &effect, &parent);
        } else {
            let (client, info) = (scope.connection.reader(), scope.table.clone());
            self.fixing = Some(scope.spawner.spawn("GetItem", async move {
                let (parent, _) = read::get_existing(&client, &info, effect.parent.clone()).await?;
                Ok((effect, parent))
            }));
        }
    }

    fn stage_tally(&mut self, scope: &Scope<'_>, effect: &TallyEffect, parent: &Item) {
        match effect.fix(scope.table, parent) {
            Ok(change) => {
                self.note = Some(format!(
                    "Staged: {}, in the same commit as its children.",
                    change.title(&scope.key_names())
                ));
                self.staging(scope).stage(change);
                self.error = None;
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn plan(&mut self, scope: &Scope<'_>) {
        self.error = None;
        self.report = None;
        let changes = self.staging(scope).changes().to_vec();
        let begun =
            plan_commit(scope.connection, scope.table, &changes, self.mode).and_then(|plan| {
                let confirmation = plan.confirmation();
                self.write.begin(plan, confirmation, |plan, confirmed| {
                    send(scope, plan, confirmed)
                })
            });
        if begun.is_ok() && self.write.is_sending() {
            self.note = None;
        }
        self.error = begun.err();
    }

    /// Start afresh on another table or connection: the editor, a question waiting and the
    /// last report were about the one before (changes stay staged with their table; a commit
    /// under way still reports).
    fn afresh(&mut self) {
        self.editor = None;
        self.write.drop_question();
        self.report = None;
        self.note = None;
        self.error = None;
    }

    /// The Items view: the editor beside the staged changes.
    fn items_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        if let Some(read) = Pending::take_ready(&mut self.fixing) {
            match read {
                Ok((effect, parent)) => self.stage_tally(scope, &effect, &parent),
                Err(error) => self.error = Some(error),
            }
        }
        // A question is about the changes it was asked for: once they change, it is gone.
        let asked_for = self.write.asking().map(|plan| plan.changes.clone());
        if asked_for.is_some_and(|changes| changes != self.staging(scope).changes()) {
            self.write.drop_question();
        }
        ui.horizontal(|ui| {
            if ui.button("New item").clicked() {
                self.start(scope, &Item::new(), EditStart::New);
            }
            if let Some(note) = &self.note {
                ui.weak(note);
            }
        });
        ui.separator();
        let mut staged_action = None;
        if self.editor.is_none() {
            ui.weak(
                "Select a row in Browse and choose Edit item, Duplicate or Delete item, or make \
                 a New item.",
            );
            egui::ScrollArea::vertical()
                .id_salt("staged_column")
                .show(ui, |ui| staged_action = self.staged_ui(ui, scope));
            if let Some(action) = staged_action {
                self.act(scope, action);
            }
            return;
        }
        // The editor wider than the staged changes beside it.
        egui_extras::StripBuilder::new(ui)
            .size(egui_extras::Size::relative(0.58))
            .size(egui_extras::Size::remainder())
            .horizontal(|mut strip| {
                strip.cell(|ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("editor_column")
                        .show(ui, |ui| self.editor_column_ui(ui, scope));
                });
                strip.cell(|ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("staged_column")
                        .show(ui, |ui| staged_action = self.staged_ui(ui, scope));
                });
            });
        if let Some(action) = staged_action {
            self.act(scope, action);
        }
    }

    fn editor_column_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        match editor.editor_ui(ui, scope.table) {
            Some(EditorAction::Stage(change)) => {
                self.note = Some(format!("Staged: {}.", change.title(&scope.key_names())));
                // A staged new item given another key replaces its staged self.
                if let Some(old) = editor.replaces.take()
                    && old != change.key
                {
                    self.staging(scope).discard(&old);
                }
                self.editor = None;
                self.error = None;
                self.report = None;
                self.staging(scope).stage(change);
            }
            Some(EditorAction::Cancel) => self.editor = None,
            None => {}
        }
    }
}

/// A commit sent: where it went, the changes it sent, and its answer to come.
struct Committing {
    to: (ConnectionId, String),
    destination: Destination,
    changes: Vec<Change>,
    answer: Option<Pending<CommitReport>>,
}

/// Send a commit through the write gateway (`confirmed`: the user said yes to its question).
fn send(scope: &Scope<'_>, plan: CommitPlan, confirmed: bool) -> Committing {
    let (connection, info) = (scope.connection.clone(), scope.table.clone());
    let changes = plan.changes.clone();
    Committing {
        to: ItemsFeature::place(scope),
        destination: Destination::of(scope.connection),
        changes,
        answer: Some(scope.spawner.spawn("commit", async move {
            Ok(commit(&connection, &info, &plan, confirmed).await)
        })),
    }
}

impl Feature for ItemsFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        intents.extend(self.take_in());
    }

    fn subject_changed(&mut self, _subject: crate::feature::Subject<'_>) {
        self.afresh();
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        self.items_ui(ui, context.scope);
    }
}
