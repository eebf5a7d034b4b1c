//! What every feature is handed by the shell each frame: the open table's [`Scope`] (where to
//! start work, the connection, the table, where files go, the other connections) and the rows
//! [`Loaded`] in the grid. Borrowed from the shell, never kept.

use crate::save::Saver;
use dynoscope_core::connection::Connection;
use dynoscope_core::read::BrowseRequest;
use dynoscope_core::rows::Rows;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::Spawner;

/// What a feature working on the open table is given each frame: where to start work, the
/// connection, the table, and where files are saved. Borrowed from the shell, never kept.
#[derive(Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// Starts background work.
    pub(crate) spawner: &'a Spawner,
    /// The active connection.
    pub(crate) connection: &'a Connection,
    /// The open table, described.
    pub(crate) table: &'a TableInfo,
    /// Asks where to save and writes files.
    pub(crate) saver: &'a Saver,
    /// The other open connections (to run the same read on, and compare).
    pub(crate) others: &'a [OpenConnection],
}

/// An open connection as the others see it: its name, colour and connection.
#[derive(Debug, Clone)]
pub(crate) struct OpenConnection {
    /// What the user calls it.
    pub(crate) name: String,
    /// Its colour, an index into `COLOURS`.
    pub(crate) colour: usize,
    /// The connection.
    pub(crate) connection: Connection,
}

impl Scope<'_> {
    /// The table's key attribute names.
    pub(crate) fn key_names(&self) -> Vec<String> {
        self.table.key_names()
    }
}

/// The rows loaded in the grid, as other features may read them.
#[derive(Clone, Copy)]
pub(crate) struct Loaded<'a> {
    /// Counts the runs; with the number of rows it says when the rows changed.
    pub(crate) run: u64,
    /// The request the rows came from.
    pub(crate) request: Option<&'a BrowseRequest>,
    /// The rows, in the compact store (a clone shares its chunks).
    pub(crate) rows: &'a Rows,
    /// The rows selected in the grid, by their place in `rows`.
    pub(crate) chosen: Option<&'a dynoscope_core::rows::RowSet>,
}
