//! The features that work on the open table, and how the shell hands each the intents meant
//! for it.

use crate::ui::browse::{BrowseFeature, ItemFormat, TabSpec};
use crate::ui::edit::EditFeature;
use crate::ui::expr::ExprFeature;
use crate::ui::items::ItemsFeature;
use crate::ui::likes::LikesFeature;
use crate::ui::shell::View;
use crate::ui::tally::TallyFeature;
use crate::ui::transfer::TransferFeature;
use crate::ui::{Intent, Scope};

/// The features that work on the open table; opening another table starts them afresh.
pub(super) struct TableFeatures {
    pub(super) browse: BrowseFeature,
    pub(super) edit: EditFeature,
    pub(super) items: ItemsFeature,
    pub(super) tally: TallyFeature,
    pub(super) likes: LikesFeature,
    pub(super) expr: ExprFeature,
    pub(super) transfer: TransferFeature,
}

impl TableFeatures {
    pub(super) fn new(tally: TallyFeature, tabs: Vec<TabSpec>) -> Self {
        Self {
            browse: BrowseFeature::restored(tabs, ItemFormat::default()),
            edit: EditFeature::default(),
            items: ItemsFeature::default(),
            tally,
            likes: LikesFeature::default(),
            expr: ExprFeature::new(""),
            transfer: TransferFeature::default(),
        }
    }

    /// Start afresh on `table` (empty: none yet); the tally feature was opened on it by the
    /// caller. Browse shows the table's result tab (every tab keeps its rows);
    /// the edit form follows its own subject; writes under way (an edit, a like, a storm, a
    /// lab run) are kept, so their outcome is still shown.
    pub(super) fn restart(&mut self, table: &str) {
        if table.is_empty() {
            self.browse.connection_changed();
        } else {
            self.browse.table_opened(table);
        }
        self.likes.afresh();
        self.expr.afresh(table);
        self.items.afresh();
        self.transfer.afresh();
    }

    /// Take in what their work brought back; intents for other features.
    #[must_use]
    pub(super) fn poll(&mut self) -> Vec<Intent> {
        self.browse
            .poll()
            .into_iter()
            .chain(self.transfer.poll())
            .chain(self.tally.poll())
            .chain(self.likes.poll())
            .chain(self.edit.poll())
            .chain(self.expr.poll())
            .chain(self.items.poll())
            .collect()
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
            Intent::EditItem { item, start } => {
                self.items.start(scope, &item, start);
                Some(View::Items)
            }
            // The shell opens tables before routing.
            Intent::OpenTable(_) => None,
        }
    }
}
