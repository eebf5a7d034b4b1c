//! The Ctrl+K palette: one search field over the tables, the views and actions, the saved
//! queries and the history of what ran. Arrows move, Enter chooses, Esc closes; a click
//! chooses too. A saved query with `{variables}` asks for them before it opens.

use std::collections::BTreeMap;

use egui::{Key, Modifiers, Ui};

use crate::browse::TabKind;
use crate::widgets::{error_ui, labelled_text_ui};
use dynoscope_core::error::Error;
use dynoscope_core::saved::{self, History, QueryStore, SavedQuery, now_secs};
use dynoscope_core::task::{Pending, Spawner};

/// Entries listed at most.
const SHOWN: usize = 30;

/// What the palette chose.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Choice {
    /// Open this table.
    Table(String),
    /// The caller's action at this place in the list it gave.
    Action(usize),
    /// Open a tab of this kind, run at once (a saved query, a history entry).
    Query(TabKind),
}

/// What an entry opens.
#[derive(Clone)]
enum Target {
    Table(String),
    Action(usize),
    Saved(usize),
    Ran(serde_json::Value),
}

/// A saved query whose variables are being filled in.
struct Asking {
    query: SavedQuery,
    values: BTreeMap<String, String>,
}

/// The palette's state.
#[derive(Default)]
pub(crate) struct Palette {
    open: bool,
    /// Focus the search field on the next frame.
    focus: bool,
    text: String,
    chosen: usize,
    listing: Option<Pending<(Vec<SavedQuery>, Vec<String>)>>,
    saved: Vec<SavedQuery>,
    unreadable: Vec<String>,
    asking: Option<Asking>,
    error: Option<Error>,
}

impl Palette {
    /// Open it (reading the saved queries of `store` again, off the UI thread), or close it.
    pub(crate) fn toggle(&mut self, spawner: &Spawner, store: Option<&QueryStore>) {
        self.open = !self.open;
        if !self.open {
            return;
        }
        self.focus = true;
        self.text.clear();
        self.chosen = 0;
        self.asking = None;
        self.error = None;
        if let Some(store) = store {
            let store = store.clone();
            self.listing = Some(spawner.spawn_blocking("List saved queries", move || store.list()));
        }
    }

    /// Whether it is shown.
    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    /// Draw it over the window when open: `tables` to open, `actions` by their words, the
    /// saved queries and `history`; what was chosen.
    #[must_use]
    pub(crate) fn ui(
        &mut self,
        ui: &mut Ui,
        tables: &[String],
        actions: &[String],
        history: &History,
    ) -> Option<Choice> {
        if !self.open {
            return None;
        }
        match Pending::take_ready(&mut self.listing) {
            Some(Ok((saved, unreadable))) => (self.saved, self.unreadable) = (saved, unreadable),
            Some(Err(error)) => self.error = Some(error),
            None => {}
        }
        let mut choice = None;
        let mut open = true;
        egui::Window::new("Go to… (Ctrl+K)")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
            .default_width(520.0)
            .open(&mut open)
            .show(ui.ctx(), |ui| {
                choice = match self.asking.take() {
                    Some(asking) => self.asking_ui(ui, asking),
                    None => self.search_ui(ui, tables, actions, history),
                };
            });
        if !open || choice.is_some() {
            self.open = false;
        }
        choice
    }

    fn search_ui(
        &mut self,
        ui: &mut Ui,
        tables: &[String],
        actions: &[String],
        history: &History,
    ) -> Option<Choice> {
        let label = ui.weak("Tables, views, saved queries and what ran: type a few letters");
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut self.text)
                    .id(egui::Id::unique("palette_search"))
                    .hint_text("e.g. social, tally, likes")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
        if std::mem::take(&mut self.focus) {
            field.request_focus();
        }
        if field.changed() {
            self.chosen = 0;
        }
        let entries = self.entries(tables, actions, history);
        let (down, up, enter, escape) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        if escape {
            self.open = false;
            return None;
        }
        if down {
            self.chosen = (self.chosen + 1).min(entries.len().saturating_sub(1));
        }
        if up {
            self.chosen = self.chosen.saturating_sub(1);
        }
        let mut picked = enter.then_some(self.chosen);
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                if entries.is_empty() {
                    ui.weak("Nothing matches.");
                }
                for (i, (label, _)) in entries.iter().enumerate() {
                    let response = ui.selectable_label(i == self.chosen, label);
                    if i == self.chosen && (up || down) {
                        response.scroll_to_me(None);
                    }
                    if response.clicked() {
                        picked = Some(i);
                    }
                }
            });
        for why in &self.unreadable {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        let (_, target) = entries.get(picked?)?.clone();
        self.choose(target)
    }

    /// The entries matching the text: every word in the entry's words, any case.
    fn entries(
        &self,
        tables: &[String],
        actions: &[String],
        history: &History,
    ) -> Vec<(String, Target)> {
        let words: Vec<String> = self
            .text
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        let matches = |label: &str| {
            let label = label.to_lowercase();
            words.iter().all(|w| label.contains(w))
        };
        let mut entries: Vec<(String, Target)> = Vec::new();
        let tables = tables
            .iter()
            .map(|t| (format!("Table: {t}"), Target::Table(t.clone())));
        let actions = actions
            .iter()
            .enumerate()
            .map(|(i, a)| (a.clone(), Target::Action(i)));
        let saved = self.saved.iter().enumerate().map(|(i, q)| {
            let names = saved::variables(&q.query);
            let asks = if names.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
                format!(" · asks {}", list.join(", "))
            };
            (format!("Saved: {}{asks}", q.name), Target::Saved(i))
        });
        let now = now_secs();
        let ran = history.search("").into_iter().map(|r| {
            (
                format!("Ran: {} · {}", r.summary, ago(now.saturating_sub(r.at))),
                Target::Ran(r.query.clone()),
            )
        });
        for entry in tables.chain(actions).chain(saved).chain(ran) {
            if matches(&entry.0) {
                entries.push(entry);
                if entries.len() == SHOWN {
                    break;
                }
            }
        }
        entries
    }

    /// What choosing `target` does: a choice, or the variables of a saved query asked for.
    fn choose(&mut self, target: Target) -> Option<Choice> {
        match target {
            Target::Table(t) => Some(Choice::Table(t)),
            Target::Action(i) => Some(Choice::Action(i)),
            Target::Ran(query) => self.kind_of(&query).map(Choice::Query),
            Target::Saved(i) => {
                let query = self.saved.get(i)?.clone();
                let names = saved::variables(&query.query);
                if names.is_empty() {
                    return self.kind_of(&query.query).map(Choice::Query);
                }
                self.asking = Some(Asking {
                    values: names.into_iter().map(|n| (n, String::new())).collect(),
                    query,
                });
                self.focus = true;
                None
            }
        }
    }

    /// The tab `query` describes, or why this version cannot read it.
    fn kind_of(&mut self, query: &serde_json::Value) -> Option<TabKind> {
        match serde_json::from_value(query.clone()) {
            Ok(kind) => Some(kind),
            Err(e) => {
                self.error = Some(Error::Invalid(format!(
                    "this query is not one this version reads ({e})"
                )));
                None
            }
        }
    }

    /// The variables of a saved query, each a field; **Open** fills them in.
    fn asking_ui(&mut self, ui: &mut Ui, mut asking: Asking) -> Option<Choice> {
        ui.strong(&asking.query.name);
        let mut enter = false;
        for (i, (name, value)) in asking.values.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                let field = labelled_text_ui(ui, &format!("{{{name}}}"), value, 240.0, "");
                if i == 0 && std::mem::take(&mut self.focus) {
                    field.request_focus();
                }
                enter |= field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            });
        }
        let mut choice = None;
        ui.horizontal(|ui| {
            if ui.button("Open").clicked() || enter {
                match saved::fill(&asking.query.query, &asking.values) {
                    Ok(filled) => choice = self.kind_of(&filled).map(Choice::Query),
                    Err(error) => self.error = Some(error),
                }
            }
            if ui.button("Back").clicked() {
                self.focus = true;
                return;
            }
            if choice.is_none() {
                self.asking = Some(Asking {
                    query: asking.query.clone(),
                    values: std::mem::take(&mut asking.values),
                });
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        choice
    }
}

/// How long ago, in a word: `12 s ago`, `3 min ago`, `2 h ago`, `4 days ago`.
fn ago(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs} s ago"),
        60..3_600 => format!("{} min ago", secs / 60),
        3_600..86_400 => format!("{} h ago", secs / 3_600),
        _ => format!("{} days ago", secs / 86_400),
    }
}
