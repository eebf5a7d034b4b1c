//! The one contract between the shell and every feature of the open table: take in what its
//! work brought back (into the frame's intent list), draw its view, and start afresh when the
//! subject — the connection or the open table — changes. One verb each; no feature resets
//! itself any other way.

use egui::Ui;

use crate::intent::Intent;
use crate::scope::{Loaded, Scope};
use dynoscope_core::connection::ConnectionSpec;
use dynoscope_core::value::Item;

/// What the features work on: the active connection and the open table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Subject<'a> {
    /// The connection (`None`: none is active).
    pub connection: Option<&'a ConnectionSpec>,
    /// The open table (`None`: none is open yet on this connection).
    pub table: Option<&'a str>,
}

/// What a view is drawn with: the scope, and what other features show (the rows of the shown
/// tab for the tally check, the selected row for the builder and the number editor).
pub(crate) struct Context<'a> {
    /// The spawner, connection, table and saver.
    pub scope: &'a Scope<'a>,
    /// The rows of the shown tab on the open table, when a view reads them.
    pub loaded: Option<Loaded<'a>>,
    /// The row selected in the grid, when there is one.
    pub selected: Option<&'a Item>,
}

/// A feature of the open table, as the shell knows it.
pub(crate) trait Feature {
    /// Take in what the feature's work brought back; what it asks of other features goes into
    /// `intents`.
    fn poll(&mut self, intents: &mut Vec<Intent>);

    /// The subject changed: start afresh on it, keeping only writes under way (their outcome
    /// is still shown when it arrives).
    fn subject_changed(&mut self, subject: Subject<'_>);

    /// Draw the feature's view into `ui`; what it asks of other features goes into `intents`.
    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, intents: &mut Vec<Intent>);
}
