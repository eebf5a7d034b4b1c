//! Save query…: the shown tab's query (its table and form, or its PartiQL or SQL text) saved by
//! name as a readable file in the config folder, written off the UI thread. Any of its texts
//! may hold `{variables}`, asked for when it is opened from the Ctrl+K palette.

use std::path::PathBuf;

use egui::Ui;

use crate::browse::tabs::TabKind;
use crate::scope::Scope;
use crate::widgets::{GOOD, error_ui, labelled_text_ui};
use dynoscope_core::error::Error;
use dynoscope_core::saved::{SavedQuery, variables};
use dynoscope_core::task::Pending;

/// The Save query… form and the save under way.
#[derive(Default)]
pub(super) struct SaveQuery {
    open: bool,
    name: String,
    saving: Option<Pending<PathBuf>>,
    saved: Option<PathBuf>,
    error: Option<Error>,
}

impl SaveQuery {
    /// Take in a save that ended.
    pub(super) fn poll(&mut self) {
        match Pending::take_ready(&mut self.saving) {
            Some(Ok(path)) => {
                self.saved = Some(path);
                self.open = false;
            }
            Some(Err(error)) => self.error = Some(error),
            None => {}
        }
    }

    /// The button that opens the form.
    pub(super) fn button_ui(&mut self, ui: &mut Ui) {
        if ui
            .button("Save query…")
            .on_hover_text("Save this tab's query by name, to open it again from Ctrl+K")
            .clicked()
        {
            self.open = !self.open;
            self.saved = None;
            self.error = None;
        }
    }

    /// The form (when open) and what the last save did, for the shown tab's kind (asked for
    /// only while the form is open: it copies the tab's form).
    pub(super) fn form_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        kind: impl FnOnce() -> TabKind,
    ) {
        if let Some(path) = &self.saved {
            ui.colored_label(GOOD, format!("Saved to {}", path.display()));
        }
        if !self.open {
            return;
        }
        let Some(store) = scope.saver.queries() else {
            ui.weak(
                "No config folder is known (set DYNOSCOPE_CONFIG_DIR): queries cannot be saved.",
            );
            return;
        };
        let kind = kind();
        let query = serde_json::to_value(&kind).unwrap_or_default();
        let names = variables(&query);
        ui.horizontal_wrapped(|ui| {
            labelled_text_ui(
                ui,
                "Query name",
                &mut self.name,
                200.0,
                "e.g. likes of a post",
            );
            let busy = self.saving.is_some();
            if ui.add_enabled(!busy, egui::Button::new("Save")).clicked() {
                self.error = None;
                let (store, saved) = (
                    store.clone(),
                    SavedQuery {
                        name: self.name.trim().to_owned(),
                        query,
                    },
                );
                self.saving = Some(
                    scope
                        .spawner
                        .spawn_blocking("Save query", move || store.save(&saved)),
                );
            }
            if ui.button("Cancel").clicked() {
                self.open = false;
            }
        });
        if names.is_empty() {
            ui.weak(format!(
                "{}. A text may hold {{variables}} (POST#{{post}}), asked for when it is opened. Saved in {}.",
                kind.summary(),
                store.dir().display()
            ));
        } else {
            let list: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
            ui.weak(format!(
                "{}. Asked for when it is opened: {}. Saved in {}.",
                kind.summary(),
                list.join(", "),
                store.dir().display()
            ));
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
    }
}
