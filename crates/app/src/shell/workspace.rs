//! One open connection's window onto its tables: the connection, named and coloured, its
//! tables list, the table features with their tabs, and the view shown. Each connection has
//! its own, so switching connections keeps every tab, row and run of the others.

use egui::Ui;

use crate::connection::{Arrived, Chip, Health};
use crate::feature::{Context, Feature, Subject};
use crate::intent::{Intent, QueryPreset};
use crate::save::Saver;
use crate::scope::{OpenConnection, Scope};
use crate::shell::View;
use crate::shell::features::TableFeatures;
use crate::shell::panels::Panels;
use crate::shell::views::view_tabs_ui;
use crate::tables::TablesFeature;
use dynoscope_core::connection::{Connection, ConnectionSpec, SavedConnection};
use dynoscope_core::task::Spawner;
use dynoscope_core::value::Item;

/// What a workspace is drawn with: the app's spawner, saver and panels, and the other open
/// connections (to run a comparison on).
pub(super) struct Frame<'a> {
    pub(super) spawner: &'a Spawner,
    pub(super) saver: &'a Saver,
    pub(super) panels: &'a mut Panels,
    pub(super) others: &'a [OpenConnection],
}

/// One open connection and everything shown on it.
pub(super) struct Workspace {
    /// How it is named and shown.
    pub(super) named: SavedConnection,
    pub(super) connection: Connection,
    /// What to know about it (the in-memory sandbox kept on reconnecting).
    pub(super) note: Option<String>,
    pub(super) tables: TablesFeature,
    pub(super) features: TableFeatures,
    pub(super) view: View,
    /// The tables list the browse tabs were last checked against.
    listed_seen: u64,
    /// A sample place picked on the first screen: its table, opening, then its partition read.
    sample: Option<(String, String)>,
    /// Intents its features returned while another connection was shown.
    waiting: Vec<Intent>,
}

impl Workspace {
    /// A workspace on the connection that has just `arrived`, its tables listed.
    pub(super) fn new(
        spawner: &Spawner,
        arrived: Arrived,
        mut tables: TablesFeature,
        mut features: TableFeatures,
    ) -> Self {
        tables.connected(spawner, &arrived.connection);
        features.subject_changed(Subject {
            connection: Some(&arrived.connection.spec),
            table: None,
        });
        Self {
            named: arrived.named,
            connection: arrived.connection,
            note: arrived.note,
            tables,
            features,
            view: View::Browse,
            listed_seen: 0,
            sample: None,
            waiting: Vec::new(),
        }
    }

    /// The same place connected again: the new connection replaces the old one, and the
    /// features start afresh on it (tabs keep their forms).
    pub(super) fn reconnected(&mut self, spawner: &Spawner, arrived: Arrived) {
        self.named = arrived.named;
        self.connection = arrived.connection;
        self.note = arrived.note;
        self.tables.connected(spawner, &self.connection);
        self.features.subject_changed(Subject {
            connection: Some(&self.connection.spec),
            table: None,
        });
    }

    /// Its tab in the connection strip.
    pub(super) fn chip(&self) -> Chip {
        // The dot follows the last request on the connection, whatever sent it (a query, a
        // like, the table list): no answer is failing, any answer (an error code too) is good.
        let health = match self.connection.last_answered() {
            Some(false) => Health::Failing,
            None if self.tables.failing() => Health::Failing,
            Some(true) | None => Health::Good,
        };
        Chip {
            name: self.named.name.clone(),
            colour: self.named.colour,
            label: self.connection.label(),
            read_only: self.connection.is_read_only(),
            protected: self.connection.is_protected(),
            health,
        }
    }

    /// It as another workspace sees it.
    pub(super) fn open_connection(&self) -> OpenConnection {
        OpenConnection {
            name: self.named.name.clone(),
            colour: self.named.colour,
            connection: self.connection.clone(),
        }
    }

    /// What to know about the connection: the sandbox kept, or what seeding did.
    pub(super) fn seeded_note(&self) -> Option<String> {
        self.note.clone().or_else(|| self.connection.seeded_note())
    }

    /// The table open, if any.
    pub(super) fn last_table(&self) -> Option<String> {
        self.tables.open_name().map(str::to_owned)
    }

    /// Start the table features afresh on the open table.
    fn table_opened(&mut self, table: &str) {
        self.features.subject_changed(Subject {
            connection: Some(&self.connection.spec),
            table: Some(table),
        });
        self.view = View::Browse;
    }

    /// Open `table` as if chosen in the list.
    pub(super) fn open_table(&mut self, spawner: &Spawner, table: &str) {
        self.tables.open(spawner, &self.connection, table);
        self.table_opened(table);
    }

    /// Take in everything that arrived; the intents are kept until it is shown.
    pub(super) fn poll(&mut self, spawner: &Spawner) {
        if let Some(table) = self.tables.poll(spawner, Some(&self.connection)) {
            self.table_opened(&table);
        }
        if self.tables.listed() != self.listed_seen {
            self.listed_seen = self.tables.listed();
            self.features.browse.tables_listed(self.tables.names());
        }
        let intents = self.features.poll();
        self.waiting.extend(intents);
    }

    /// Draw it: the tables list, the description, the item view and the central view; then do
    /// what its features asked.
    pub(super) fn ui(&mut self, ui: &mut Ui, frame: &mut Frame<'_>) {
        let mut intents = std::mem::take(&mut self.waiting);
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
        let opened = if frame.panels.tables_shown() {
            egui::Panel::left("tables")
                .resizable(true)
                .default_size(190.0)
                .show(ui, |ui| {
                    self.tables
                        .list_ui(ui, frame.spawner, Some(&self.connection))
                })
                .inner
        } else {
            None
        };
        if let Some(table) = opened {
            self.table_opened(&table);
        }
        self.table_panels_ui(ui, frame, &mut intents);
        self.act(frame, intents);
    }

    /// Do what the features asked: open or list tables, refresh the facts of a table written
    /// to, and hand the rest to the feature each is meant for.
    fn act(&mut self, frame: &Frame<'_>, intents: Vec<Intent>) {
        let (open, intents): (Vec<Intent>, Vec<Intent>) = intents
            .into_iter()
            .partition(|i| matches!(i, Intent::OpenTable(_) | Intent::ListTables));
        for intent in open {
            match intent {
                Intent::OpenTable(table) => self.open_table(frame.spawner, &table),
                Intent::ListTables => self
                    .tables
                    .list_again(frame.spawner, Some(&self.connection)),
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
                destination.is(&self.connection) && self.tables.open_name() == Some(table.as_str())
            }
            _ => false,
        });
        if wrote_open_table {
            self.tables.refresh(frame.spawner, &self.connection);
        }
        let Some(table) = self.tables.open_info() else {
            return;
        };
        let scope = Scope {
            spawner: frame.spawner,
            connection: &self.connection,
            table,
            saver: frame.saver,
            others: frame.others,
        };
        for intent in intents {
            if let Some(view) = self.features.route(intent, &scope) {
                self.view = view;
            }
        }
    }

    /// The description, the item view and the central view.
    fn table_panels_ui(&mut self, ui: &mut Ui, frame: &Frame<'_>, intents: &mut Vec<Intent>) {
        // The description first: picking the region it is priced as changes the scope.
        if self.tables.open_name().is_some() && frame.panels.details_shown() {
            egui::Panel::right("describe")
                .resizable(true)
                .default_size(260.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        intents.extend(self.tables.describe_ui(
                            ui,
                            frame.spawner,
                            Some(&self.connection),
                        ));
                    });
                });
        }
        let scope = self.tables.open_info().map(|table| Scope {
            spawner: frame.spawner,
            connection: &self.connection,
            table,
            saver: frame.saver,
            others: frame.others,
        });
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
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(scope) = &scope {
                ui.horizontal_wrapped(|ui| {
                    view_tabs_ui(ui, &mut self.view, features, scope);
                });
                ui.separator();
                let context = Context {
                    scope,
                    loaded: None,
                    selected: selected.as_ref(),
                };
                features.view_ui(ui, self.view, &context, intents);
            } else {
                let sandbox = matches!(self.connection.spec, ConnectionSpec::Sandbox { .. });
                if let Some((table, partition)) = self.tables.placeholder_ui(ui, sandbox) {
                    self.sample = Some((table.clone(), partition));
                    intents.push(Intent::OpenTable(table));
                }
            }
        });
    }
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
    // Two fifths of the room at first (at 1280×800 the grid keeps nine rows of the
    // collection beside its item); the split is dragged from there and remembered with the
    // window's state.
    let height = ui.available_height() * 0.4;
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
