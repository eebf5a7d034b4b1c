//! The find bar over the grid (Ctrl+F): the text, Previous/Next (Enter, Shift+Enter), the count,
//! "Only matching rows", and Esc or Close to leave it.

use egui::{Key, Modifiers, Ui};

use crate::ui::browse::results::Results;

/// Draw the find bar when it is open.
pub fn find_bar_ui(ui: &mut Ui, results: &mut Results) {
    if !results.find().open {
        return;
    }
    let mut text = results.find().text.clone();
    let mut filter = results.find().filter;
    let mut step: Option<bool> = None;
    let mut close = false;
    ui.horizontal(|ui| {
        let label = ui.label("Find");
        let field = ui.add(
            egui::TextEdit::singleline(&mut text)
                .desired_width(220.0)
                .hint_text("text in any attribute"),
        );
        let field = field.labelled_by(label.id);
        if results.take_find_focus() {
            field.request_focus();
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
            step = Some(!ui.input(|i| i.modifiers.shift));
            field.request_focus();
        }
        if field.has_focus() && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
            close = true;
        }
        if ui.button("Previous").clicked() {
            step = Some(false);
        }
        if ui.button("Next").clicked() {
            step = Some(true);
        }
        ui.checkbox(&mut filter, "Only matching rows");
        let found = results.find().matches.len();
        if !results.find().text.is_empty() {
            let words = match found {
                0 => "no loaded row holds it".to_owned(),
                _ => format!("row {} of {found} matching", results.find().current + 1),
            };
            ui.weak(words);
        }
        if ui.button("Close").clicked() {
            close = true;
        }
    });
    if text != results.find().text || filter != results.find().filter {
        results.set_find(&text, filter);
        results.jump_to_match();
    }
    if let Some(forward) = step {
        results.step_match(forward);
    }
    if close {
        results.close_find();
    }
}
