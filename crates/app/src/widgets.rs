//! Small drawing helpers shared by the features.

use egui::{Color32, RichText, Ui};

use dynoscope_core::connection::Connection;
use dynoscope_core::error::Error;
use dynoscope_core::expr::codegen::Target;
use dynoscope_core::report::{Line, Tone};
use dynoscope_core::value::AttrType;
use dynoscope_core::write::{Confirmation, Destination};

/// A labelled single-line text field; the label is its accessible name.
pub(crate) fn labelled_text_ui(
    ui: &mut Ui,
    label: &str,
    text: &mut String,
    width: f32,
    hint: &str,
) -> egui::Response {
    let label_id = ui.label(label).id;
    ui.add(
        egui::TextEdit::singleline(text)
            .desired_width(width)
            .hint_text(hint),
    )
    .labelled_by(label_id)
}

/// An error shown inline, once, with the operation and the server's code: its headline on one
/// line, and the whole chain behind "details" when there is more to it.
pub(crate) fn error_ui(ui: &mut Ui, error: &Error) {
    let color = ui.visuals().error_fg_color;
    let (headline, full) = (error.headline(), error.to_string());
    ui.label(RichText::new(&headline).color(color));
    if headline != full {
        egui::CollapsingHeader::new("details")
            .id_salt(("error details", &full))
            .show(ui, |ui| {
                ui.label(RichText::new(full).small());
            });
    }
}

/// A small type tag such as `N` or `SS` in front of a value.
pub(crate) fn type_tag_ui(ui: &mut Ui, kind: AttrType) {
    let color = match kind {
        AttrType::S => Color32::from_rgb(80, 140, 200),
        AttrType::N => Color32::from_rgb(90, 170, 90),
        AttrType::Bool | AttrType::Null => Color32::from_rgb(170, 120, 200),
        _ => Color32::from_rgb(190, 150, 70),
    };
    ui.label(RichText::new(kind.tag()).small().monospace().color(color));
}

/// The colour of a good outcome.
pub(crate) const GOOD: Color32 = Color32::from_rgb(90, 180, 90);

/// One line of a core report, styled by its tone.
pub(crate) fn line_ui(ui: &mut Ui, line: &Line) {
    let mut text = RichText::new(&line.text);
    if line.text.contains('→') {
        // The proportional font has no arrow glyph; the monospace one has.
        text = text.monospace();
    }
    let text = match line.tone {
        Tone::Title => text.strong(),
        // Monospace: the proportional font has no arrow glyph.
        Tone::Figure => text.monospace().size(16.0),
        Tone::Plain => text,
        Tone::Quiet => text.weak(),
        Tone::Good => text.color(GOOD),
        Tone::Warn => text.color(ui.visuals().warn_fg_color),
        Tone::Bad => text.color(ui.visuals().error_fg_color),
    };
    ui.label(text);
}

/// Every line of a core report, one under the other.
pub(crate) fn lines_ui(ui: &mut Ui, lines: &[Line]) {
    for line in lines {
        line_ui(ui, line);
    }
}

/// Where the button next to it writes: table, item and connection, always in view; on a
/// read-only connection, that writes are off and why. Returns whether writes are on.
pub(crate) fn writes_to_ui(ui: &mut Ui, text: &str, connection: &Connection) -> bool {
    match Destination::writes_off(connection) {
        None => {
            ui.label(RichText::new(format!("Writes to {text}")).weak());
            true
        }
        Some(reason) => {
            ui.colored_label(ui.visuals().warn_fg_color, reason);
            false
        }
    }
}

/// A button that writes: disabled, saying why, on a read-only connection.
pub(crate) fn write_button_ui(
    ui: &mut Ui,
    connection: &Connection,
    enabled: bool,
    text: &str,
) -> egui::Response {
    let off = Destination::writes_off(connection);
    let button = ui.add_enabled(enabled && off.is_none(), egui::Button::new(text));
    match off {
        Some(reason) => button.on_disabled_hover_text(reason),
        None => button,
    }
}

/// The write gateway's question for a write waiting on the user: `Some(true)` when confirmed,
/// `Some(false)` when declined.
#[must_use]
pub(crate) fn confirm_ui(ui: &mut Ui, question: &mut Question) -> Option<bool> {
    let mut answer = None;
    let group = ui.group(|ui| {
        ui.colored_label(ui.visuals().warn_fg_color, &question.text);
        if let Some(name) = &question.name {
            let hint = name.clone();
            labelled_text_ui(
                ui,
                "Type the connection's name",
                &mut question.typed,
                120.0,
                &hint,
            );
        }
        let answers = Confirmation::typed_answers(question.name.as_deref(), &question.typed);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(answers, egui::Button::new("Confirm write"))
                .clicked()
            {
                answer = Some(true);
            }
            if ui.button("Don't write").clicked() {
                answer = Some(false);
            }
        });
    });
    // A question that appears below the fold is brought into view once, never again (a user
    // who scrolls away from it keeps where they scrolled to).
    if !std::mem::replace(&mut question.seen, true)
        && !ui.clip_rect().contains_rect(group.response.rect)
    {
        group
            .response
            .scroll_to_me_animation(None, egui::style::ScrollAnimation::none());
    }
    answer
}

/// On a protected connection, the field its name is typed into before a write the feature
/// confirms its own way (a count typed back, a repair's button): `true` once it is typed, and
/// always `true` on a connection that is not protected.
pub(crate) fn protected_name_ui(ui: &mut Ui, connection: &Connection, typed: &mut String) -> bool {
    let Some(name) = connection.name().filter(|_| connection.is_protected()) else {
        return true;
    };
    labelled_text_ui(ui, "Type the connection's name", typed, 120.0, &name);
    Confirmation::typed_answers(Some(&name), typed)
}

/// A question of the write gateway waiting for its answer: its words, and for a protected
/// connection the name to type and what was typed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Question {
    /// What is asked.
    pub text: String,
    /// The connection's name, to type before the write can be confirmed.
    pub name: Option<String>,
    /// What was typed.
    pub typed: String,
    /// Whether it has been brought into view: once, when it first appears (it is the next
    /// step, and may appear below a panel's fold).
    pub seen: bool,
}

impl Question {
    /// The question `confirmation` asks, if it asks one.
    pub(crate) fn of(confirmation: &Confirmation) -> Option<Self> {
        let (text, name) = confirmation.question()?;
        Some(Self {
            text: text.to_owned(),
            name: name.map(str::to_owned),
            typed: String::new(),
            seen: false,
        })
    }
}

/// Buttons drawn in a menu or popup look like buttons again (a menu draws them as items,
/// without a fill or a frame): for forms and actions placed in one.
pub(crate) fn framed_buttons(ui: &mut Ui) {
    let global = ui.ctx().global_style();
    let visuals = &mut ui.style_mut().visuals;
    visuals.button_frame = true;
    visuals.widgets.inactive = global.visuals.widgets.inactive;
    visuals.widgets.hovered = global.visuals.widgets.hovered;
    visuals.widgets.active = global.visuals.widgets.active;
    ui.style_mut().spacing.button_padding = global.spacing.button_padding;
}

/// The whole programs a request can be copied as (Like lab, Tally check, Numbers panel), each
/// with its button's words.
pub(crate) const PROGRAM_COPIES: [(Target, &str); 5] = [
    (Target::Boto3, "Copy as boto3 program"),
    (Target::JsClient, "Copy as JS program"),
    (Target::Go, "Copy as Go program"),
    (Target::Toolbox, "Copy as dynamodb-toolbox program"),
    (Target::ElectroDb, "Copy as ElectroDB program"),
];
