//! The open table's settings, changed one at a time: stream, TTL, deletion protection, class,
//! billing, a global index added or deleted. Each change is planned from the table as last read
//! (said how long ago) and held against it by the core before it is sent.

use egui::{RichText, Ui};

use crate::admin::fields::{IndexRow, index_ui};
use crate::widgets::error_ui;
use dynoscope_core::error::Result;
use dynoscope_core::schema::{
    BillingSpec, ClassSpec, Described, StreamView, TableChange, TableSpec,
};
use dynoscope_core::spec::TableChangeSpec;

/// What the settings form holds between frames.
pub(super) struct SettingsForm {
    view: StreamView,
    ttl: String,
    rcu: String,
    wcu: String,
    index: IndexRow,
    drop_index: String,
}

impl Default for SettingsForm {
    fn default() -> Self {
        Self {
            view: StreamView::NewAndOldImages,
            ttl: String::new(),
            rcu: "5".into(),
            wcu: "5".into(),
            // Empty, with examples as hints: nothing is one click from a change nobody typed.
            index: IndexRow::new("", "", ""),
            drop_index: String::new(),
        }
    }
}

impl SettingsForm {
    /// A change was applied: the typed index, the index picked to delete and the TTL attribute
    /// are emptied (billing's units are kept: they are a setting's value, not a request).
    pub(super) fn applied(&mut self) {
        let (rcu, wcu) = (std::mem::take(&mut self.rcu), std::mem::take(&mut self.wcu));
        *self = Self {
            rcu,
            wcu,
            ..Self::default()
        };
    }

    /// Draw the settings of `table`; the change asked for, if any. `ready`: no other change
    /// is under way.
    pub(super) fn settings_ui(
        &mut self,
        ui: &mut Ui,
        table: &Described,
        ready: bool,
    ) -> Option<Result<TableChange>> {
        let spec = &table.spec;
        let mut change = None;
        // Each button asks one change, made against the table as described by the core's spec.
        let mut ask = |ui: &mut Ui, text: &str, wish: TableChangeSpec| {
            if ui.add_enabled(ready, egui::Button::new(text)).clicked() {
                change = Some(wish.one(spec));
            }
        };
        egui::Grid::new("table-settings")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                ui.weak("Stream");
                ui.horizontal(|ui| self.stream_ui(ui, spec, &mut ask));
                ui.end_row();
                ui.weak("TTL");
                ui.horizontal(|ui| self.ttl_ui(ui, spec, &mut ask));
                ui.end_row();
                ui.weak("Deletion protection");
                ui.horizontal(|ui| {
                    let on = spec.deletion_protection;
                    ui.label(if on { "on" } else { "off" });
                    let text = if on {
                        "Turn protection off"
                    } else {
                        "Turn protection on"
                    };
                    ask(ui, text, wish(|w| w.deletion_protection = Some(!on)));
                });
                ui.end_row();
                ui.weak("Class");
                ui.horizontal(|ui| {
                    ui.label(spec.class.name());
                    let other = match spec.class {
                        ClassSpec::Standard => ClassSpec::StandardIa,
                        ClassSpec::StandardIa => ClassSpec::Standard,
                    };
                    ask(
                        ui,
                        &format!("Change to {}", other.name()),
                        wish(|w| w.class = Some(other)),
                    );
                });
                ui.end_row();
                ui.weak("Billing");
                ui.horizontal(|ui| self.billing_ui(ui, spec, &mut ask));
                ui.end_row();
            });
        ui.add_space(4.0);
        self.indexes_ui(ui, spec, &mut ask);
        change
    }

    /// The stream's row: its view with a way to turn it off, or a view to pick and turn it on.
    fn stream_ui(
        &mut self,
        ui: &mut Ui,
        spec: &TableSpec,
        ask: &mut impl FnMut(&mut Ui, &str, TableChangeSpec),
    ) {
        if let Some(view) = spec.stream {
            ui.label(view.name());
            ask(ui, "Turn off", wish(|w| w.stream = Some(None)));
        } else {
            ui.label("off");
            egui::ComboBox::from_id_salt("settings-stream")
                .selected_text(self.view.name())
                .show_ui(ui, |ui| {
                    for view in StreamView::ALL {
                        ui.selectable_value(&mut self.view, view, view.name());
                    }
                });
            let view = self.view;
            ask(ui, "Turn on", wish(|w| w.stream = Some(Some(view))));
        }
    }

    /// The TTL's row: its attribute with a way to turn it off, or an attribute to type and turn
    /// it on.
    fn ttl_ui(
        &mut self,
        ui: &mut Ui,
        spec: &TableSpec,
        ask: &mut impl FnMut(&mut Ui, &str, TableChangeSpec),
    ) {
        if let Some(attribute) = &spec.ttl {
            ui.label(format!("on `{attribute}`"));
            ask(ui, "Turn TTL off", wish(|w| w.ttl = Some(None)));
        } else {
            ui.label("off");
            let label = ui.label("attribute");
            ui.add(
                egui::TextEdit::singleline(&mut self.ttl)
                    .hint_text("expiresAt")
                    .desired_width(90.0),
            )
            .labelled_by(label.id);
            if self.ttl.trim().is_empty() {
                ui.weak("type the attribute to turn TTL on");
            } else {
                let attribute = self.ttl.trim().to_owned();
                ask(ui, "Turn TTL on", wish(|w| w.ttl = Some(Some(attribute))));
            }
        }
    }

    /// A global index to add (typed), and one to delete (picked) when the table has any.
    fn indexes_ui(
        &mut self,
        ui: &mut Ui,
        spec: &TableSpec,
        ask: &mut impl FnMut(&mut Ui, &str, TableChangeSpec),
    ) {
        ui.label(RichText::new("Add a global index").strong());
        index_ui(ui, "settings-new-index", &mut self.index, false);
        let typed =
            !self.index.name.trim().is_empty() && !self.index.partition.name.trim().is_empty();
        if typed {
            ask(
                ui,
                &format!("Add index to {}", spec.name),
                wish(|w| w.add_global = Some(self.index.spec())),
            );
        } else {
            ui.weak("Type the index's name and its partition key to add it.");
        }
        if !spec.global.is_empty() {
            ui.horizontal(|ui| {
                let label = ui.label("Delete the global index");
                egui::ComboBox::from_id_salt("settings-drop-index")
                    .selected_text(&self.drop_index)
                    .show_ui(ui, |ui| {
                        for index in &spec.global {
                            ui.selectable_value(
                                &mut self.drop_index,
                                index.name.clone(),
                                &index.name,
                            );
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if !self.drop_index.is_empty() {
                    ask(
                        ui,
                        &format!("Delete index from {}", spec.name),
                        wish(|w| w.delete_global = Some(self.drop_index.clone())),
                    );
                }
            });
        }
    }

    fn billing_ui(
        &mut self,
        ui: &mut Ui,
        spec: &TableSpec,
        ask: &mut impl FnMut(&mut Ui, &str, TableChangeSpec),
    ) {
        ui.label(spec.billing.words());
        match spec.billing {
            BillingSpec::Provisioned { .. } => {
                let to = wish(|w| w.billing = Some(BillingSpec::OnDemand));
                ask(ui, "Change to on demand", to);
            }
            BillingSpec::OnDemand => {
                for (label, text) in [("RCU", &mut self.rcu), ("WCU", &mut self.wcu)] {
                    let label = ui.label(label);
                    ui.add(egui::TextEdit::singleline(text).desired_width(40.0))
                        .labelled_by(label.id);
                }
                match BillingSpec::provisioned(&self.rcu, &self.wcu) {
                    Ok(billing) => {
                        let to = wish(|w| w.billing = Some(billing));
                        ask(ui, "Change to provisioned", to);
                    }
                    Err(error) => error_ui(ui, &error),
                }
            }
        }
    }
}

/// A change spec asking only what `set` sets.
fn wish(set: impl FnOnce(&mut TableChangeSpec)) -> TableChangeSpec {
    let mut wish = TableChangeSpec::default();
    set(&mut wish);
    wish
}
