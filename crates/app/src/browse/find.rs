//! The find bar over the grid (Ctrl+F): the text, searched as it is typed (the first match
//! becomes the cursor and is scrolled to, down and sideways), Previous/Next (Enter,
//! Shift+Enter), the count, "Only matching rows", and Esc or Close to leave it.

use egui::{Key, Modifiers, Ui};

use crate::browse::results::Results;

/// Draw the find bar when it is open, and look through another slice of rows while the find
/// is still searching (asking for the next frame).
pub(super) fn find_bar_ui(ui: &mut Ui, results: &mut Results) {
    if !results.find().open {
        return;
    }
    if results.find_frame() {
        ui.ctx().request_repaint();
    }
    let mut step: Option<bool> = None;
    let mut close = false;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Find");
        let mut text = results.find().text.clone();
        // A stable id: the item view opening on a match moves the widgets' places, and the
        // keyboard must stay in the field (one find bar is shown at a time).
        let field = ui.add(
            egui::TextEdit::singleline(&mut text)
                .id(egui::Id::unique("find_field"))
                .desired_width(220.0)
                .hint_text("text in any attribute"),
        );
        let field = field.labelled_by(label.id);
        if results.take_find_focus() {
            field.request_focus();
        }
        // Taken in before the count below is drawn, so the count is this keystroke's.
        if text != results.find().text {
            let filter = results.find().filter;
            results.set_find(&text, filter);
            if results.find_frame() {
                ui.ctx().request_repaint();
            }
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
            step = Some(!ui.input(|i| i.modifiers.shift));
            field.request_focus();
        }
        // The field gives up the keyboard on Esc itself: Esc closes the bar whether the field
        // still has it or has just let it go, or the grid has it (not another text field).
        let elsewhere = ui.ctx().text_edit_focused() && !field.has_focus();
        if (field.has_focus() || field.lost_focus() || !elsewhere)
            && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape))
        {
            close = true;
        }
        if ui.button("Previous").clicked() {
            step = Some(false);
        }
        if ui.button("Next").clicked() {
            step = Some(true);
        }
        let mut filter = results.find().filter;
        if ui.checkbox(&mut filter, "Only matching rows").changed() {
            let text = results.find().text.clone();
            results.set_find(&text, filter);
        }
        if let Some(words) = count_words(results) {
            ui.weak(words);
        }
        if ui.button("Close find").clicked() {
            close = true;
        }
    });
    if let Some(forward) = step {
        results.step_match(forward);
    }
    if close {
        results.close_find();
    }
}

/// The count beside the field: which match the cursor is on, of how many (so far, while it is
/// still searching).
fn count_words(results: &Results) -> Option<String> {
    let find = results.find();
    if find.text.is_empty() {
        return None;
    }
    let found = find.matches().len();
    let searching = results.searching();
    Some(match (found, searching) {
        (0, true) => "searching…".to_owned(),
        (0, false) => "no loaded row holds it".to_owned(),
        (n, true) => format!("row {} of {n}+ matching, searching…", find.current + 1),
        (n, false) => format!("row {} of {n} matching", find.current + 1),
    })
}
