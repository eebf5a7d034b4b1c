//! The features that work on the open table, and how the shell hands each the intents meant
//! for it.

use crate::browse::{BrowseFeature, ItemFormat};
use crate::compare::CompareFeature;
use crate::edit::EditFeature;
use crate::expr::ExprFeature;
use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::items::ItemsFeature;
use crate::likes::LikesFeature;
use crate::scope::Scope;
use crate::shell::View;
use crate::shell::remembered::Remembered;
use crate::tally::TallyFeature;
use crate::transfer::TransferFeature;
use crate::watch::WatchFeature;

/// The features that work on the open table; opening another table starts them afresh.
pub(super) struct TableFeatures {
    pub(super) browse: BrowseFeature,
    pub(super) edit: EditFeature,
    pub(super) items: ItemsFeature,
    pub(super) tally: TallyFeature,
    pub(super) likes: LikesFeature,
    pub(super) expr: ExprFeature,
    pub(super) transfer: TransferFeature,
    pub(super) watch: WatchFeature,
    pub(super) admin: crate::admin::AdminFeature,
    pub(super) compare: CompareFeature,
}

impl TableFeatures {
    pub(super) fn new(tally: TallyFeature, remembered: &mut Remembered) -> Self {
        Self {
            browse: BrowseFeature::restored(
                std::mem::take(&mut remembered.tabs),
                std::mem::take(&mut remembered.columns),
                std::mem::take(&mut remembered.history),
                ItemFormat::default(),
            ),
            edit: EditFeature::default(),
            items: ItemsFeature::default(),
            tally,
            likes: LikesFeature::default(),
            expr: ExprFeature::new(""),
            transfer: TransferFeature::default(),
            watch: WatchFeature::default(),
            admin: crate::admin::AdminFeature::default(),
            compare: CompareFeature::default(),
        }
    }

    /// Every feature, as the shell knows it.
    fn all(&mut self) -> [&mut dyn Feature; 10] {
        [
            &mut self.browse,
            &mut self.transfer,
            &mut self.tally,
            &mut self.likes,
            &mut self.edit,
            &mut self.expr,
            &mut self.items,
            &mut self.watch,
            &mut self.admin,
            &mut self.compare,
        ]
    }

    /// The subject changed (another connection, or a table opened): each feature starts
    /// afresh on it its own way. Browse shows the table's result tab (every tab keeps its
    /// rows); the edit form follows its own subject; writes under way (an edit, a like, a
    /// storm, a lab run, a repair, a commit, an import, a stream being turned on) are kept, so
    /// their outcome is still shown.
    pub(super) fn subject_changed(&mut self, subject: Subject<'_>) {
        for feature in self.all() {
            feature.subject_changed(subject);
        }
    }

    /// Draw `view` of the table in `context`: the tally check and the Table view also see the
    /// rows of the table's tab.
    pub(super) fn view_ui(
        &mut self,
        ui: &mut egui::Ui,
        view: View,
        context: &Context<'_>,
        intents: &mut Vec<Intent>,
    ) {
        let table = &context.scope.table.name;
        match view {
            View::Browse => self.browse.view_ui(ui, context, intents),
            View::Tally => {
                let loaded = Some(self.browse.loaded(table));
                let context = Context { loaded, ..*context };
                self.tally.view_ui(ui, &context, intents);
            }
            View::Items => {
                // The counter rules of the table, so staged children say their tally.
                self.items.rules = self.tally.tally_rules();
                self.items.view_ui(ui, context, intents);
            }
            View::Likes => self.likes.view_ui(ui, context, intents),
            View::Watch => self.watch.view_ui(ui, context, intents),
            View::Transfer => {
                self.transfer.rules = self.tally.tally_rules();
                self.transfer.view_ui(ui, context, intents);
            }
            View::Expr => self.expr.view_ui(ui, context, intents),
            View::Table => {
                self.admin.rules = self.tally.tally_rules();
                let loaded = Some(self.browse.loaded(table));
                let context = Context { loaded, ..*context };
                self.admin.view_ui(ui, &context, intents);
            }
            View::Compare => {
                self.compare.rule = self.tally.rule_in_use();
                self.compare.view_ui(ui, context, intents);
            }
        }
    }

    /// Take in what their work brought back; intents for other features.
    #[must_use]
    pub(super) fn poll(&mut self) -> Vec<Intent> {
        let mut intents = Vec::new();
        for feature in self.all() {
            feature.poll(&mut intents);
        }
        intents
    }

    /// Hand `intent` to the feature it is meant for; the view to show, if it changes.
    #[must_use]
    pub(super) fn route(&mut self, intent: Intent, scope: &Scope<'_>) -> Option<View> {
        match intent {
            Intent::OpenInBuilder { input, origin } => {
                self.expr.open(*input, origin);
                Some(View::Expr)
            }
            Intent::ShowQuery(preset) => {
                self.browse.show(scope, &preset);
                Some(View::Browse)
            }
            Intent::EditNumber {
                item,
                attribute,
                change,
            } => {
                self.edit.start(scope, &item, attribute, change);
                None
            }
            Intent::Written {
                destination,
                table,
                keys,
            } => {
                // Rows on screen are of the active connection; a write to another is not
                // theirs.
                if destination.is(scope.connection) {
                    self.browse.reread_written(scope, &table, &keys);
                }
                None
            }
            Intent::Deleted {
                destination,
                table,
                keys,
            } => {
                if destination.is(scope.connection) {
                    self.browse.remove_deleted(&table, &keys);
                }
                None
            }
            Intent::EditItem { item, start } => {
                self.items.start(scope, &item, start);
                Some(View::Items)
            }
            // The shell opens and lists tables before routing.
            Intent::OpenTable(_) | Intent::ListTables => None,
        }
    }
}
