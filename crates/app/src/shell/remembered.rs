//! What is remembered between runs: the last connection and table, the counter rules, the
//! tabs and each table's column layout.
//! Never secrets.

use std::collections::{BTreeMap, BTreeSet};

use crate::browse::TabSpec;
use crate::shell::{DynoscopeApp, UNREADABLE_KEY};
use dynoscope_core::connection::{ConnectionId, ConnectionSpec, Marks, SavedConnections};
use dynoscope_core::rows::ColumnLayout;
use dynoscope_core::saved::History;
use dynoscope_core::tally::{Rule, RuleBook};

/// Saved with eframe's storage when the app closes.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Remembered {
    /// The last connection used.
    pub connection: Option<ConnectionSpec>,
    /// The last table opened.
    pub table: Option<String>,
    /// Rules as earlier versions saved them, keyed by the connection's label and the table;
    /// read once and moved into `rule_book`.
    #[serde(default)]
    pub rules: BTreeMap<String, Vec<Rule>>,
    /// Counter rules by connection identity and table.
    #[serde(default)]
    pub rule_book: RuleBook,
    /// The result tabs: their names, tables and forms (not their rows).
    #[serde(default)]
    pub tabs: Vec<TabSpec>,
    /// System, dark or light.
    #[serde(default)]
    pub theme: Theme,
    /// The connections switched to read-only.
    #[serde(default)]
    pub read_only: BTreeSet<ConnectionId>,
    /// Each table's column layout in the grid: order, hidden, dates.
    #[serde(default)]
    pub columns: BTreeMap<String, ColumnLayout>,
    /// The queries the tabs ran, searchable from Ctrl+K.
    #[serde(default)]
    pub history: History,
    /// The connections saved by name (never a secret).
    #[serde(default)]
    pub connections: SavedConnections,
}

impl Remembered {
    /// Start with `marks` (the marks file's, which the command line reads too) in place of the
    /// saved connections and read-only switches remembered with the window.
    pub fn take_marks(&mut self, marks: Marks) {
        self.connections = marks.saved;
        self.read_only = marks.read_only;
    }

    /// The rule book with the rules of earlier versions taken in.
    pub fn take_rule_book(&mut self) -> RuleBook {
        let mut book = std::mem::take(&mut self.rule_book);
        book.adopt_legacy(std::mem::take(&mut self.rules));
        book
    }
}

/// The theme chosen in the app.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Theme {
    /// Follow the desktop.
    #[default]
    System,
    /// Dark.
    Dark,
    /// Light.
    Light,
}

impl Theme {
    /// Every choice, as offered.
    pub const ALL: [Self; 3] = [Self::System, Self::Dark, Self::Light];

    /// What the menu calls it.
    pub fn label(self) -> &'static str {
        match self {
            Self::System => "System",
            Self::Dark => "Dark",
            Self::Light => "Light",
        }
    }

    /// egui's preference for it.
    pub fn preference(self) -> egui::ThemePreference {
        match self {
            Self::System => egui::ThemePreference::System,
            Self::Dark => egui::ThemePreference::Dark,
            Self::Light => egui::ThemePreference::Light,
        }
    }
}

/// The app in its window: drawn each frame, and remembered (never secrets) when it closes.
impl eframe::App for DynoscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        DynoscopeApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Some(raw) = &self.unreadable {
            storage.set_string(UNREADABLE_KEY, raw.clone());
        }
        eframe::set_value(storage, eframe::APP_KEY, &self.remembered());
    }
}
