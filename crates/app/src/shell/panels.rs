//! The side panels: the tables list on the left and the table's details on the right, each
//! shown or hidden by the user; the details start folded in a narrow window.

use egui::Ui;

use crate::scope::Scope;
use crate::shell::views::theme_ui;
use crate::shell::{DynoscopeApp, UNREADABLE_KEY};

/// A window at least this wide shows the table's details beside the view by default.
pub(super) const WIDE: f32 = 1100.0;

/// Which side panels are shown.
#[derive(Debug, Default)]
pub(super) struct Panels {
    /// The tables list on the left, as set (`None`: shown).
    tables: Option<bool>,
    /// The table's details on the right, as set (`None`: shown in a wide window).
    details: Option<bool>,
    /// The window was wide enough for the details, as of the last frame.
    pub(super) wide: bool,
}

impl Panels {
    pub(super) fn tables_shown(&self) -> bool {
        self.tables.unwrap_or(true)
    }

    pub(super) fn details_shown(&self) -> bool {
        self.details.unwrap_or(self.wide)
    }

    /// The buttons that show and hide the side panels.
    pub(super) fn toggles_ui(&mut self, ui: &mut Ui) {
        let tables = self.tables_shown();
        let text = if tables { "Hide tables" } else { "Show tables" };
        if ui
            .small_button(text)
            .on_hover_text("Show or hide the list of tables")
            .clicked()
        {
            self.tables = Some(!tables);
        }
        let details = self.details_shown();
        let text = if details {
            "Hide details"
        } else {
            "Show details"
        };
        if ui
            .small_button(text)
            .on_hover_text("Show or hide the table's details (keys, indexes, cost, metrics)")
            .clicked()
        {
            self.details = Some(!details);
        }
    }
}

impl DynoscopeApp {
    /// The status bar: what loaded, and notes on the connection and the saved settings.
    pub(super) fn status_bar_ui(&mut self, ui: &mut Ui) {
        let others = [];
        let shown = self.workspaces.get_mut(self.active);
        let (mut browse, mut note) = (None, None);
        if let Some(workspace) = shown {
            note = workspace.seeded_note();
            let scope = workspace.tables.open_info().map(|table| Scope {
                spawner: &self.spawner,
                connection: &workspace.connection,
                table,
                saver: &self.saver,
                others: &others,
            });
            browse = Some((&mut workspace.features.browse, scope));
        }
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            ui.add_space(2.0);
            if let Some((browse, scope)) = browse {
                browse.status_ui(ui, scope.as_ref());
            }
            // The side panels' toggles and the theme on a row of their own: the view's row
            // above stays whole at any width.
            ui.horizontal_wrapped(|ui| {
                self.panels.toggles_ui(ui);
                ui.separator();
                if theme_ui(ui, &mut self.theme) {
                    self.theme_applied = false;
                }
                if let Some(note) = note {
                    ui.separator();
                    ui.weak(note);
                }
            });
            if let Some(error) = self.marks.as_ref().and_then(|m| m.error.as_deref()) {
                ui.colored_label(ui.visuals().warn_fg_color, error);
            }
            if self.unreadable.is_some() {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "The settings of an earlier run could not be read (last connection, \
                         table, counter rules); they are kept aside as `{UNREADABLE_KEY}`."
                    ),
                );
            }
        });
    }
}
