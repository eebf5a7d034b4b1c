//! The eframe shell: it owns the features, lays their panels out, polls the work they started,
//! and carries the [`Intent`]s one feature returns to the feature they are meant for. It
//! decides nothing about DynamoDB and formats nothing a feature shows.

mod features;
mod palette;
mod panels;
mod remembered;
mod views;

use egui::Ui;

use crate::connection::ConnectionFeature;
use crate::palette::Palette;
use crate::save::Saver;
use crate::tables::TablesFeature;
use crate::tally::TallyFeature;
use crate::{Context, Feature, Intent, QueryPreset, Scope, Subject};
use dynoscope_core::connection::{ConnectOptions, ConnectionSpec};
use dynoscope_core::task::Spawner;
use dynoscope_core::value::Item;

use features::TableFeatures;
use panels::{Panels, WIDE};

pub use remembered::{Remembered, Theme};

use views::view_tabs_ui;

/// The central view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Browse,
    Items,
    Tally,
    Likes,
    Watch,
    Expr,
    Transfer,
    Table,
}

/// The dynoscope desktop app.
pub struct DynoscopeApp {
    spawner: Spawner,
    saver: Saver,
    connection: ConnectionFeature,
    tables: TablesFeature,
    features: TableFeatures,
    view: View,
    /// What to remember: the last connection made (or asked for) and the last table opened.
    last_connection: ConnectionSpec,
    last_table: Option<String>,
    /// Settings saved by an earlier run that could not be read; kept aside when saving.
    unreadable: Option<String>,
    /// The theme chosen, and whether it still has to be applied.
    theme: Theme,
    theme_applied: bool,
    /// The tables list the browse tabs were last checked against.
    listed_seen: u64,
    /// A sample place picked on the first screen: its table, opening, then its partition read.
    sample: Option<(String, String)>,
    /// The side panels, as the user set them or as the window's width has them.
    panels: Panels,
    /// Ctrl+K: tables, views, saved queries, history.
    palette: Palette,
}

/// Where settings that could not be read are kept.
const UNREADABLE_KEY: &str = "dynoscope-unreadable-settings";

impl DynoscopeApp {
    /// Start on `spec` with `options` (timeout, read-only); the remembered table opens when the
    /// connection has it.
    pub fn new(
        spawner: Spawner,
        spec: ConnectionSpec,
        options: ConnectOptions,
        mut remembered: Remembered,
    ) -> Self {
        let tally = TallyFeature::new(remembered.take_rule_book());
        Self {
            connection: ConnectionFeature::new(
                &spawner,
                &spec,
                options,
                std::mem::take(&mut remembered.read_only),
            ),
            tables: TablesFeature::new(remembered.table.clone()),
            features: TableFeatures::new(tally, &mut remembered),
            view: View::Browse,
            last_connection: spec,
            last_table: remembered.table,
            unreadable: None,
            theme: remembered.theme,
            theme_applied: false,
            listed_seen: 0,
            sample: None,
            panels: Panels::default(),
            palette: Palette::default(),
            saver: Saver::default(),
            spawner,
        }
    }

    /// Save files through `saver` (tests give one that never opens a dialog).
    #[must_use]
    pub fn with_saver(mut self, saver: Saver) -> Self {
        self.saver = saver;
        self
    }

    /// Start knowing that the saved settings (`raw`) could not be read: say so, and keep them.
    #[must_use]
    pub fn with_unreadable(mut self, raw: Option<String>) -> Self {
        self.unreadable = raw;
        self
    }

    /// What to remember when the app closes.
    pub fn remembered(&self) -> Remembered {
        Remembered {
            connection: Some(self.last_connection.clone()),
            table: self.last_table.clone(),
            rules: Default::default(),
            rule_book: self.features.tally.rule_book(),
            tabs: self.features.browse.specs(),
            columns: self.features.browse.layouts(),
            history: self.features.browse.history().clone(),
            theme: self.theme,
            read_only: self.connection.read_only_connections(),
        }
    }

    /// Start the table features afresh on the open table.
    fn table_opened(&mut self, table: &str) {
        self.features.subject_changed(Subject {
            connection: self.connection.active().map(|c| &c.spec),
            table: Some(table),
        });
        self.view = View::Browse;
        self.last_table = Some(table.to_owned());
    }

    /// Open `table` as if chosen in the list.
    fn open_table(&mut self, table: &str) {
        if let Some(connection) = self.connection.active() {
            self.tables.open(&self.spawner, connection, table);
            self.table_opened(table);
        }
    }

    /// Take in everything that arrived; intents the features returned.
    fn poll(&mut self) -> Vec<Intent> {
        if self.connection.poll()
            && let Some(connection) = self.connection.active()
        {
            self.last_connection = connection.spec.clone();
            self.tables.connected(&self.spawner, connection);
            self.features.subject_changed(Subject {
                connection: Some(&connection.spec),
                table: None,
            });
        }
        if let Some(table) = self.tables.poll(&self.spawner, self.connection.active()) {
            self.table_opened(&table);
        }
        if self.tables.listed() != self.listed_seen {
            self.listed_seen = self.tables.listed();
            self.features.browse.tables_listed(self.tables.names());
        }
        self.features.poll()
    }

    /// Draw the whole app into `ui` (also what the UI tests drive).
    pub fn ui(&mut self, ui: &mut Ui) {
        if !std::mem::replace(&mut self.theme_applied, true) {
            ui.ctx().set_theme(self.theme.preference());
        }
        let mut intents = self.poll();
        // A sample place picked: once its table is described, its partition is read.
        if let Some((table, _)) = &self.sample
            && self.tables.open_info().is_some_and(|i| &i.name == table)
            && let Some((_, partition)) = self.sample.take()
        {
            intents.push(Intent::ShowQuery(QueryPreset {
                partition,
                ..QueryPreset::default()
            }));
        }
        self.palette_ui(ui);
        egui::Panel::top("connection_bar").show(ui, |ui| {
            ui.add_space(4.0);
            let trouble = self.tables.failing();
            self.connection.bar_ui(ui, &self.spawner, trouble);
            ui.add_space(2.0);
        });
        self.status_bar_ui(ui);
        let wide = ui.available_width() >= WIDE;
        let opened = if self.panels.tables_shown() {
            egui::Panel::left("tables")
                .resizable(true)
                .default_size(190.0)
                .show(ui, |ui| {
                    self.tables
                        .list_ui(ui, &self.spawner, self.connection.active())
                })
                .inner
        } else {
            None
        };
        self.panels.wide = wide;
        if let Some(table) = opened {
            self.table_opened(&table);
        }
        self.table_panels_ui(ui, &mut intents);
        let (open, intents): (Vec<Intent>, Vec<Intent>) = intents
            .into_iter()
            .partition(|i| matches!(i, Intent::OpenTable(_) | Intent::ListTables));
        for intent in open {
            match intent {
                Intent::OpenTable(table) => self.open_table(&table),
                Intent::ListTables => self
                    .tables
                    .list_again(&self.spawner, self.connection.active()),
                _ => {}
            }
        }
        // A write of ours to the open table changes its facts (item count, size).
        let wrote_open_table = intents.iter().any(|i| match i {
            Intent::Written {
                destination, table, ..
            }
            | Intent::Deleted {
                destination, table, ..
            } => {
                self.connection.active().is_some_and(|c| destination.is(c))
                    && self.tables.open_name() == Some(table.as_str())
            }
            _ => false,
        });
        if wrote_open_table && let Some(connection) = self.connection.active() {
            self.tables.refresh(&self.spawner, connection);
        }
        let Some(scope) = scope(&self.spawner, &self.saver, &self.connection, &self.tables) else {
            return;
        };
        for intent in intents {
            if let Some(view) = self.features.route(intent, &scope) {
                self.view = view;
            }
        }
    }

    /// The description, the item view and the central view.
    fn table_panels_ui(&mut self, ui: &mut Ui, intents: &mut Vec<Intent>) {
        // The description first: picking the region it is priced as changes the scope.
        if self.tables.open_name().is_some() && self.panels.details_shown() {
            egui::Panel::right("describe")
                .resizable(true)
                .default_size(260.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        intents.extend(self.tables.describe_ui(
                            ui,
                            &self.spawner,
                            self.connection.active(),
                        ));
                    });
                });
        }
        let scope = scope(&self.spawner, &self.saver, &self.connection, &self.tables);
        let features = &mut self.features;
        // The selected row, decoded once a frame for every panel that shows it.
        let selected = features.browse.selected_item();
        // The item view serves the grid, in Browse only: the builder has its own key fields,
        // and the other views no use for it.
        if let Some(scope) = &scope
            && self.view == View::Browse
            && let Some(item) = &selected
        {
            item_view_ui(ui, features, scope, item, intents);
        }
        egui::CentralPanel::default().show(ui, |ui| match &scope {
            Some(scope) => {
                let features = &mut self.features;
                ui.horizontal_wrapped(|ui| {
                    view_tabs_ui(ui, &mut self.view, features, scope);
                });
                ui.separator();
                let context = |loaded| Context {
                    scope,
                    loaded,
                    selected: selected.as_ref(),
                };
                match self.view {
                    View::Browse => features.browse.view_ui(ui, &context(None), intents),
                    View::Tally => {
                        let loaded = features.browse.loaded(&scope.table.name);
                        features.tally.view_ui(ui, &context(Some(loaded)), intents);
                    }
                    View::Items => {
                        // The counter rules of the table, so staged children say their tally.
                        features.items.rules = features.tally.tally_rules();
                        features.items.view_ui(ui, &context(None), intents);
                    }
                    View::Likes => features.likes.view_ui(ui, &context(None), intents),
                    View::Watch => features.watch.view_ui(ui, &context(None), intents),
                    View::Transfer => {
                        features.transfer.rules = features.tally.tally_rules();
                        features.transfer.view_ui(ui, &context(None), intents);
                    }
                    View::Expr => features.expr.view_ui(ui, &context(None), intents),
                    View::Table => {
                        features.admin.rules = features.tally.tally_rules();
                        let loaded = features.browse.loaded(&scope.table.name);
                        features.admin.view_ui(ui, &context(Some(loaded)), intents);
                    }
                }
            }
            None => {
                let sandbox = self
                    .connection
                    .active()
                    .is_some_and(|c| matches!(c.spec, ConnectionSpec::Sandbox { .. }));
                if let Some((table, partition)) = self.tables.placeholder_ui(ui, sandbox) {
                    self.sample = Some((table.clone(), partition));
                    intents.push(Intent::OpenTable(table));
                }
            }
        });
    }
}

/// The context of the table features, when a connection is active and a table described.
/// Borrows the fields it needs, not the app, so the features can be changed meanwhile.
fn scope<'a>(
    spawner: &'a Spawner,
    saver: &'a Saver,
    connection: &'a ConnectionFeature,
    tables: &'a TablesFeature,
) -> Option<Scope<'a>> {
    Some(Scope {
        spawner,
        connection: connection.active()?,
        table: tables.open_info()?,
        saver,
    })
}

/// The item view under the grid: the selected row, and the counter editor beside it when the
/// row is from a table tab on the open table.
fn item_view_ui(
    ui: &mut Ui,
    features: &mut TableFeatures,
    scope: &Scope<'_>,
    item: &Item,
    intents: &mut Vec<Intent>,
) {
    // In a small window two fifths of it: the grid keeps rows in view.
    let tall = ui.available_height() >= 700.0;
    let height = if tall {
        360.0
    } else {
        ui.available_height() * 0.4
    };
    egui::Panel::bottom("item_view")
        .resizable(true)
        .default_size(height)
        .show(ui, |ui| {
            let editable = features.browse.editable(&scope.table.name);
            intents.extend(features.browse.item_header_ui(ui, scope, editable, item));
            ui.columns(2, |columns| {
                features.browse.item_ui(&mut columns[0], item);
                egui::ScrollArea::vertical().id_salt("counter_editor").show(
                    &mut columns[1],
                    |ui| {
                        if features.browse.editable(&scope.table.name) {
                            let context = Context {
                                scope,
                                loaded: None,
                                selected: Some(item),
                            };
                            features.edit.view_ui(ui, &context, intents);
                        } else {
                            ui.weak(
                                "This row is not from a table tab on the open table: \
                                 edit it from such a tab.",
                            );
                        }
                    },
                );
            });
        });
}
