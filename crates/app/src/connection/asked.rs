//! What the connection bar reports: how a connection is doing, and what the user asked.

use dynoscope_core::connection::{ConnectOptions, ConnectionSpec, SavedConnection};

/// How the active connection is doing, as the dot shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Health {
    /// Not connected.
    None,
    /// Connected, and the last request answered.
    Good,
    /// The last attempt or request failed.
    Failing,
}

/// What the user asked of the bar.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Asked {
    /// Connect there, so, named and shown as the form says.
    Connect(ConnectionSpec, ConnectOptions, SavedConnection),
    /// Stop the attempt under way.
    Cancel,
    /// Show the open connection at this place in the strip.
    Show(usize),
    /// Close the open connection at this place in the strip.
    Close(usize),
}
