//! The desktop app: one folder per feature — connection, tables, browse, edit, items, tally,
//! likes, watch, expr, transfer, compare — each owning its state, its panels and the work it starts; the [`shell`] lays them out
//! and carries [`Intent`]s between them; each keeps the one [`Feature`] contract (poll, draw,
//! start afresh on a changed [`Subject`]). Drawing functions take `&mut Ui` and end in `_ui`.

mod admin;
pub mod browse;
mod compare;
mod connection;
mod edit;
mod expr;
mod feature;
mod intent;
mod item_size;
mod items;
mod key_fields;
mod likes;
mod metrics;
mod palette;
mod save;
mod shell;
mod tables;
mod tally;
mod transfer;
mod watch;
mod widgets;
mod write_flow;

use dynoscope_core::connection::Connection;
use dynoscope_core::read::BrowseRequest;
use dynoscope_core::rows::Rows;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::Spawner;

pub use feature::{Context, Feature, Subject};
pub use intent::{EditStart, Intent, QueryPreset};
pub use save::{SavePicker, Saver, SystemSavePicker};
pub use shell::{DynoscopeApp, Remembered};

/// What a feature working on the open table is given each frame: where to start work, the
/// connection, the table, and where files are saved. Borrowed from the shell, never kept.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    /// Starts background work.
    pub spawner: &'a Spawner,
    /// The active connection.
    pub connection: &'a Connection,
    /// The open table, described.
    pub table: &'a TableInfo,
    /// Asks where to save and writes files.
    pub saver: &'a Saver,
    /// The other open connections (to run the same read on, and compare).
    pub others: &'a [OpenConnection],
}

/// An open connection as the others see it: its name, colour and connection.
#[derive(Debug, Clone)]
pub struct OpenConnection {
    /// What the user calls it.
    pub name: String,
    /// Its colour, an index into `COLOURS`.
    pub colour: usize,
    /// The connection.
    pub connection: Connection,
}

impl Scope<'_> {
    /// The table's key attribute names.
    pub fn key_names(&self) -> Vec<String> {
        self.table.key_names()
    }
}

/// The rows loaded in the grid, as other features may read them.
#[derive(Clone, Copy)]
pub struct Loaded<'a> {
    /// Counts the runs; with the number of rows it says when the rows changed.
    pub run: u64,
    /// The request the rows came from.
    pub request: Option<&'a BrowseRequest>,
    /// The rows, in the compact store (a clone shares its chunks).
    pub rows: &'a Rows,
    /// The rows selected in the grid, by their place in `rows`.
    pub chosen: Option<&'a dynoscope_core::rows::RowSet>,
}
