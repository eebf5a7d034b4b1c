//! The strip of open connections: one tab per connection, in its colour, with its name, what
//! guards it (read-only, protected), whether its last request failed, and a close button.

use egui::{RichText, Ui};

use crate::connection::asked::{Asked, Health};
use crate::connection::fields::{colour32, swatch_ui};

/// One open connection as the strip shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chip {
    /// Its name.
    pub name: String,
    /// Its colour, an index into `COLOURS`.
    pub colour: usize,
    /// Where it goes, in words (the bar's label of it).
    pub label: String,
    /// Every write refused.
    pub read_only: bool,
    /// A write needs its name typed.
    pub protected: bool,
    /// How its last request went.
    pub health: Health,
}

impl Chip {
    /// What its tab says: the name, and its guards.
    pub(crate) fn title(&self) -> String {
        let mut title = self.name.clone();
        if self.read_only {
            title.push_str(" · read-only");
        }
        if self.protected {
            title.push_str(" · protected");
        }
        title
    }
}

/// The open connections and the one shown.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Strip<'a> {
    /// Every open connection, in the order opened.
    pub chips: &'a [Chip],
    /// The one shown, if any is open.
    pub active: Option<usize>,
}

/// Draw the strip once two connections or more are open (one is named in the bar alone); a
/// tab picked shows that connection, its × closes it.
#[must_use]
pub(super) fn strip_ui(ui: &mut Ui, strip: &Strip<'_>) -> Option<Asked> {
    if strip.chips.len() < 2 {
        return None;
    }
    let mut asked = None;
    ui.horizontal_wrapped(|ui| {
        ui.weak("Connections");
        for (at, chip) in strip.chips.iter().enumerate() {
            let colour = colour32(chip.colour);
            let shown = strip.active == Some(at);
            let mut title = chip.title();
            if chip.health == Health::Failing {
                title.push_str(" · failing");
            }
            let mut text = RichText::new(title).color(colour);
            if shown {
                text = text.strong();
            }
            swatch_ui(ui, chip.colour);
            let tab = ui
                .selectable_label(shown, text)
                .on_hover_text(format!("{}: {}", chip.name, chip.label));
            if tab.clicked() && !shown {
                asked = Some(Asked::Show(at));
            }
            let close = ui
                .small_button("×")
                .on_hover_text(format!("Close {}", chip.name));
            let name = chip.name.clone();
            close.widget_info(move || {
                egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Close {name}"))
            });
            if close.clicked() {
                asked = Some(Asked::Close(at));
            }
            ui.separator();
        }
    });
    asked
}
