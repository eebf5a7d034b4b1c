//! The eframe shell: it owns the features, lays their panels out, polls the work they started,
//! and carries the [`Intent`]s one feature returns to the feature they are meant for. It
//! decides nothing about DynamoDB and formats nothing a feature shows.

mod features;
mod marks;
mod palette;
mod panels;
mod remembered;
mod views;
mod workspace;

use std::collections::BTreeMap;
use std::path::PathBuf;

use egui::Ui;

use crate::connection::{Asked, ConnectionFeature, Strip};
use crate::palette::Palette;
use crate::save::Saver;
use crate::scope::OpenConnection;
use crate::tables::TablesFeature;
use crate::tally::TallyFeature;
use dynoscope_core::connection::{ConnectOptions, ConnectionSpec, Marks};
use dynoscope_core::error::Error;
use dynoscope_core::tally::RuleBook;
use dynoscope_core::task::Spawner;

use features::TableFeatures;
use marks::MarksFile;
use panels::{Panels, WIDE};
use workspace::{Frame, Workspace};

pub use remembered::Remembered;
pub(crate) use remembered::Theme;

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
    Compare,
}

/// The dynoscope desktop app.
pub struct DynoscopeApp {
    spawner: Spawner,
    saver: Saver,
    connection: ConnectionFeature,
    /// The open connections, each with its tables and tabs, in the order opened.
    workspaces: Vec<Workspace>,
    /// The one shown.
    active: usize,
    /// The connection asked to be closed (its place in the strip and its name, both checked
    /// again before it goes), until the user says yes or no.
    closing: Option<(usize, String)>,
    /// What the first connection to answer starts with: the remembered table, tabs, columns
    /// and history.
    restore: Option<(TablesFeature, TableFeatures)>,
    /// The counter rules as remembered, the base of every connection's.
    rule_book: RuleBook,
    /// What to remember: the last connection made (or asked for).
    last_connection: ConnectionSpec,
    /// The last table opened (remembered while no connection is open).
    last_table: Option<String>,
    /// Settings saved by an earlier run that could not be read; kept aside when saving.
    unreadable: Option<String>,
    /// The theme chosen, and whether it still has to be applied.
    theme: Theme,
    theme_applied: bool,
    /// The side panels, as the user set them or as the window's width has them.
    panels: Panels,
    /// Ctrl+K: tables, views, saved queries, history.
    palette: Palette,
    /// The file the connections' marks are kept in for the command line (none in the tests).
    marks: Option<MarksFile>,
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
        let rule_book = remembered.take_rule_book();
        let tally = TallyFeature::new(rule_book.clone());
        Self {
            connection: ConnectionFeature::new(
                &spawner,
                &spec,
                options,
                std::mem::take(&mut remembered.read_only),
                std::mem::take(&mut remembered.connections),
            ),
            workspaces: Vec::new(),
            active: 0,
            closing: None,
            restore: Some((
                TablesFeature::new(remembered.table.clone()),
                TableFeatures::new(tally, &mut remembered),
            )),
            rule_book,
            last_connection: spec,
            last_table: remembered.table,
            unreadable: None,
            theme: remembered.theme,
            theme_applied: false,
            panels: Panels::default(),
            palette: Palette::default(),
            saver: Saver::default(),
            marks: None,
            spawner,
        }
    }

    /// Keep the connections' marks in the file at `path`, which holds `stored` (`None`: not
    /// there yet): written whenever they change. (The app starts with the file's marks:
    /// [`Remembered::take_marks`].)
    #[must_use]
    pub fn with_marks_file(mut self, path: PathBuf, stored: Option<Marks>) -> Self {
        self.keep_marks_in(path, stored);
        self
    }

    /// From now on, keep the connections' marks in the file at `path`, which holds `stored`.
    pub fn keep_marks_in(&mut self, path: PathBuf, stored: Option<Marks>) {
        self.marks = Some(MarksFile::new(path, stored));
    }

    /// Start knowing that the marks file at `path` could not be read (`error`): say so, and
    /// never write over it.
    #[must_use]
    pub fn with_unreadable_marks(mut self, path: PathBuf, error: &Error) -> Self {
        self.marks = Some(MarksFile::unreadable(path, error));
        self
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

    /// What to remember when the app closes: the shown connection's tabs and history, every
    /// connection's rules and column layouts.
    pub fn remembered(&self) -> Remembered {
        let mut rule_book = self.rule_book.clone();
        let mut columns = BTreeMap::new();
        for workspace in &self.workspaces {
            let identity = workspace.connection.spec.identity();
            rule_book.take_from(&workspace.features.tally.rule_book(), &identity);
            columns.extend(workspace.features.browse.layouts());
        }
        rule_book.prune();
        let shown = self.workspaces.get(self.active);
        let features = shown
            .map(|w| &w.features)
            .or(self.restore.as_ref().map(|(_, f)| f));
        if let Some(features) = features {
            columns.extend(features.browse.layouts());
        }
        Remembered {
            // Never a password typed into an endpoint's URL (it is not used: requests are
            // signed).
            connection: Some(self.last_connection.clone().without_userinfo()),
            table: shown
                .and_then(Workspace::last_table)
                .or(self.last_table.clone()),
            rules: BTreeMap::default(),
            rule_book,
            tabs: features.map(|f| f.browse.specs()).unwrap_or_default(),
            columns,
            history: features
                .map(|f| f.browse.history().clone())
                .unwrap_or_default(),
            theme: self.theme,
            read_only: self.connection.read_only_connections(),
            connections: self.connection.saved_connections(),
        }
    }

    /// Take in everything that arrived, on every connection: a connection that answered opens
    /// beside the others (or in place of the one to the same place, reconnected) and is shown.
    fn poll(&mut self) {
        let labels: Vec<_> = self
            .workspaces
            .iter()
            .map(|w| w.connection.label())
            .collect();
        if let Some(arrived) = self.connection.poll(&labels) {
            self.last_connection = arrived.connection.spec.clone();
            let identity = arrived.connection.spec.identity();
            let same = self
                .workspaces
                .iter()
                .position(|w| w.connection.spec.identity() == identity);
            if let Some(at) = same {
                self.workspaces[at].reconnected(&self.spawner, arrived);
                self.active = at;
            } else {
                let (tables, features) = self.restore.take().unwrap_or_else(|| {
                    let tally = TallyFeature::new(self.remembered().rule_book);
                    let mut none = Remembered::default();
                    (
                        TablesFeature::new(None),
                        TableFeatures::new(tally, &mut none),
                    )
                });
                let workspace = Workspace::new(&self.spawner, arrived, tables, features);
                self.workspaces.push(workspace);
                self.active = self.workspaces.len() - 1;
            }
        }
        for workspace in &mut self.workspaces {
            workspace.poll(&self.spawner);
        }
        if let Some(file) = &mut self.marks {
            file.keep(&self.spawner, self.connection.marks());
        }
    }

    /// Close the open connection at `at`; its neighbour is shown.
    fn close(&mut self, at: usize) {
        if at >= self.workspaces.len() {
            return;
        }
        let closed = self.workspaces.remove(at);
        self.rule_book.take_from(
            &closed.features.tally.rule_book(),
            &closed.connection.spec.identity(),
        );
        if self.active >= at && self.active > 0 {
            self.active -= 1;
        }
        if let Some(shown) = self.workspaces.get(self.active) {
            self.last_connection = shown.connection.spec.clone();
        }
    }

    /// Draw the whole app into `ui` (also what the UI tests drive).
    pub fn ui(&mut self, ui: &mut Ui) {
        if !std::mem::replace(&mut self.theme_applied, true) {
            ui.ctx().set_theme(self.theme.preference());
        }
        self.poll();
        self.palette_ui(ui);
        egui::Panel::top("connection_bar").show(ui, |ui| {
            ui.add_space(4.0);
            self.connection_bar_ui(ui);
            ui.add_space(2.0);
        });
        self.status_bar_ui(ui);
        self.panels.wide = ui.available_width() >= WIDE;
        if self.workspaces.is_empty() {
            self.unconnected_ui(ui);
            return;
        }
        let others: Vec<OpenConnection> = (self.workspaces.iter().enumerate())
            .filter(|(at, _)| *at != self.active)
            .map(|(_, w)| w.open_connection())
            .collect();
        let mut frame = Frame {
            spawner: &self.spawner,
            saver: &self.saver,
            panels: &mut self.panels,
            others: &others,
        };
        if let Some(workspace) = self.workspaces.get_mut(self.active) {
            workspace.ui(ui, &mut frame);
        }
    }

    /// No connection open yet: the tables list says so (Refresh says why), and the middle
    /// where to connect.
    fn unconnected_ui(&mut self, ui: &mut Ui) {
        if let Some((tables, _)) = &mut self.restore
            && self.panels.tables_shown()
        {
            egui::Panel::left("tables")
                .resizable(true)
                .default_size(190.0)
                .show(ui, |ui| {
                    // Nothing to open without a connection: a choice is not taken.
                    let _ = tables.list_ui(ui, &self.spawner, None);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.weak("Not connected: connect with the bar above.");
        });
    }

    /// The connection bar over the open connections; a tab picked is shown, one closed goes.
    fn connection_bar_ui(&mut self, ui: &mut Ui) {
        let chips: Vec<_> = self.workspaces.iter().map(Workspace::chip).collect();
        let open: Vec<_> = self.workspaces.iter().map(|w| &w.connection).collect();
        let active = (!chips.is_empty()).then_some(self.active);
        let strip = Strip {
            chips: &chips,
            active,
        };
        match self.connection.bar_ui(ui, &self.spawner, &strip, &open) {
            Some(Asked::Show(at)) if at < self.workspaces.len() => {
                self.active = at;
                self.last_connection = self.workspaces[at].connection.spec.clone();
                self.connection.show(&self.workspaces[at].connection);
            }
            Some(Asked::Close(at)) => {
                self.closing = self.workspaces.get(at).map(|w| (at, w.named.name.clone()));
            }
            _ => {}
        }
        self.closing_ui(ui);
    }

    /// The question before a connection is closed: its tabs, rows and anything still running
    /// on it (a write's outcome not yet seen included) go with it.
    fn closing_ui(&mut self, ui: &mut Ui) {
        let Some((at, name)) = self.closing.clone() else {
            return;
        };
        if self.workspaces.get(at).is_none_or(|w| w.named.name != name) {
            self.closing = None;
            return;
        }
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "Close {name}? Its tabs and rows go, and so does anything still running on \
                     it: a write's outcome not yet shown would not be shown."
                ),
            );
            if ui.button(format!("Close {name} now")).clicked() {
                self.closing = None;
                self.close(at);
            }
            if ui.button("Keep it open").clicked() {
                self.closing = None;
            }
        });
    }
}
