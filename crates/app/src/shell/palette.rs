//! The Ctrl+K palette as the shell uses it: what it lists (the tables, the views, new tabs,
//! the saved queries and the history) and what a choice does.

use egui::{Key, Modifiers, Ui};

use crate::DynoscopeApp;
use crate::browse::{PartiqlForm, SqlForm, TabKind};
use crate::palette::Choice;
use crate::shell::View;
use crate::shell::views::go_to;

/// The views the palette goes to, in its order, with their words.
const VIEWS: [(View, &str); 9] = [
    (View::Browse, "Go to Browse"),
    (View::Items, "Go to Items (staged changes)"),
    (View::Tally, "Go to Tally check"),
    (View::Watch, "Go to Watch"),
    (View::Likes, "Go to Like lab"),
    (View::Compare, "Go to Compare (another connection)"),
    (View::Expr, "Go to Expressions"),
    (View::Transfer, "Go to Import / Export"),
    (
        View::Table,
        "Go to Table (settings, delete items, code, delete table)",
    ),
];

impl DynoscopeApp {
    /// Ctrl+K opens or closes the palette; draw it, and do what was chosen.
    pub(super) fn palette_ui(&mut self, ui: &mut Ui) {
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::K)) {
            self.palette.toggle(&self.spawner, self.saver.queries());
        }
        if !self.palette.is_open() {
            return;
        }
        let mut actions: Vec<String> = VIEWS.iter().map(|(_, words)| (*words).to_owned()).collect();
        actions.push("New PartiQL tab".to_owned());
        actions.push("New SQL tab (over the other tabs' rows)".to_owned());
        let Some(workspace) = self.workspaces.get_mut(self.active) else {
            return;
        };
        let choice = self.palette.ui(
            ui,
            workspace.tables.names(),
            &actions,
            workspace.features.browse.history(),
        );
        match choice {
            Some(Choice::Table(table)) => workspace.open_table(&self.spawner, &table),
            Some(Choice::Action(i)) => {
                if let Some((view, _)) = VIEWS.get(i) {
                    let from = workspace.view;
                    go_to(&mut workspace.view, from, *view, &mut workspace.features);
                } else {
                    let kind = if i == VIEWS.len() {
                        TabKind::Partiql(PartiqlForm::default())
                    } else {
                        TabKind::Sql(SqlForm::default())
                    };
                    workspace.features.browse.open_query(kind, false);
                    workspace.view = View::Browse;
                }
            }
            Some(Choice::Query(kind)) => {
                if let TabKind::Table { table, .. } = &kind
                    && workspace.tables.open_name() != Some(table.as_str())
                {
                    workspace.open_table(&self.spawner, table);
                }
                workspace.features.browse.open_query(kind, true);
                workspace.view = View::Browse;
            }
            None => {}
        }
    }
}
