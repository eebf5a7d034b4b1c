//! The grid's keyboard: arrows, Page Up/Down, Home/End move the cursor (Shift extends the
//! selected rows), Enter opens the row, Ctrl+A selects every row, Ctrl+C copies the selection
//! as TSV (the cell alone when one row is selected) and Ctrl+Shift+C as JSON, Ctrl+F finds.
//! Keys are only taken while no text field has the keyboard; a click in the grid takes the
//! keyboard from any other widget.

use egui::{Event, Key, Modifiers, Ui};

use crate::browse::results::Results;
use dynoscope_core::rows::{CopyFormat, copy_text};

/// Rows a Page Up/Down moves.
const PAGE_ROWS: usize = 20;

/// Handle this frame's keys for `results`.
pub(super) fn grid_keys_ui(ui: &mut Ui, results: &mut Results) {
    let command_f = ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F));
    if command_f {
        results.open_find();
    }
    // Where the cursor is shown is a search of the view: looked up only in a frame with a key.
    let keyed = ui.input(|i| {
        i.events
            .iter()
            .any(|e| matches!(e, Event::Key { pressed: true, .. } | Event::Copy))
    });
    if !keyed || ui.ctx().text_edit_focused() || results.view().is_empty() {
        return;
    }
    let last = results.view().len() - 1;
    let columns = results.shown_columns().len().max(1);
    let (row, column) = results.cursor_position().unwrap_or((0, 0));
    let mut moved: Option<(usize, usize, bool)> = None;
    ui.input_mut(|i| {
        for (key, to) in [
            (Key::ArrowDown, (row + 1).min(last)),
            (Key::ArrowUp, row.saturating_sub(1)),
            (Key::PageDown, (row + PAGE_ROWS).min(last)),
            (Key::PageUp, row.saturating_sub(PAGE_ROWS)),
        ] {
            if i.consume_key(Modifiers::SHIFT, key) {
                moved = Some((to, column, true));
            } else if i.consume_key(Modifiers::NONE, key) {
                moved = Some((to, column, false));
            }
        }
        if i.consume_key(Modifiers::COMMAND, Key::Home) || i.consume_key(Modifiers::NONE, Key::Home)
        {
            moved = Some((0, column, false));
        }
        if i.consume_key(Modifiers::COMMAND, Key::End) || i.consume_key(Modifiers::NONE, Key::End) {
            moved = Some((last, column, false));
        }
        if i.consume_key(Modifiers::NONE, Key::ArrowRight) {
            moved = Some((row, (column + 1).min(columns - 1), false));
        }
        if i.consume_key(Modifiers::NONE, Key::ArrowLeft) {
            moved = Some((row, column.saturating_sub(1), false));
        }
    });
    if let Some((to, column, extend)) = moved {
        results.move_cursor(to, column, extend);
    }
    let (enter, select_all) = ui.input_mut(|i| {
        (
            i.consume_key(Modifiers::NONE, Key::Enter),
            i.consume_key(Modifiers::COMMAND, Key::A),
        )
    });
    if enter && let Some((position, _)) = results.cursor_position() {
        results.open_at(position);
    }
    if select_all {
        results.select_all();
    }
    if let Some(format) = copy_asked(ui) {
        ui.ctx().copy_text(selection_text(results, format));
    }
}

/// Ctrl+C (TSV) or Ctrl+Shift+C (JSON): the platform sends a Copy event, a test a key press.
fn copy_asked(ui: &Ui) -> Option<bool> {
    ui.input(|i| {
        i.events.iter().find_map(|e| match e {
            Event::Copy => Some(i.modifiers.shift),
            Event::Key {
                key: Key::C,
                pressed: true,
                modifiers,
                ..
            } if modifiers.command => Some(modifiers.shift),
            _ => None,
        })
    })
}

/// What the selection copies as: one cell alone, or whole rows with a header line.
pub(super) fn selection_text(results: &Results, json: bool) -> String {
    let columns = results.shown_columns();
    let rows = results.selected_rows();
    let single_cell = rows.len() == 1 && !json;
    match results.cursor() {
        Some((_, column)) if single_cell => {
            let cell = columns.get(column).copied().into_iter().collect::<Vec<_>>();
            copy_text(
                &results.rows,
                &rows,
                &cell,
                CopyFormat::Tsv { header: false },
            )
        }
        _ if json => copy_text(&results.rows, &rows, &columns, CopyFormat::Json),
        _ => copy_text(
            &results.rows,
            &rows,
            &columns,
            CopyFormat::Tsv { header: true },
        ),
    }
}
