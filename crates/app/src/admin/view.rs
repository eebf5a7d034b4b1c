//! The Table view of the open table: its settings, its items deleted in bulk, the table as
//! infrastructure code, and the table deleted. The table is read whole (`schema::read_spec`)
//! when the view is first shown and after every change, and says how old that read is.

use std::time::Instant;

use egui::{RichText, Ui};

use crate::admin::purge::PurgeForm;
use crate::admin::run::AdminRun;
use crate::admin::settings::SettingsForm;
use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::widgets::{error_ui, write_button_ui};
use dynoscope_core::admin;
use dynoscope_core::report::{Report as _, age_text};
use dynoscope_core::schema::{Described, IacFormat, read_spec, render_iac};
use dynoscope_core::tally::TallyRule;
use dynoscope_core::task::Pending;
use dynoscope_core::write::Destination;

/// The Table view's state.
#[derive(Default)]
pub(crate) struct AdminFeature {
    /// The counter rules of the open table (set by the shell), for a bulk delete's tallies.
    pub rules: Vec<TallyRule>,
    table: String,
    described: Option<(Described, Instant)>,
    describing: Option<Pending<Described>>,
    error: Option<dynoscope_core::error::Error>,
    settings: SettingsForm,
    run: AdminRun,
    purge: PurgeForm,
    backups: crate::admin::backups::BackupsForm,
    export: crate::admin::export::ExportForm,
    clone: crate::admin::clone::CloneForm,
    format: Option<IacFormat>,
    typed_name: String,
    destination: Option<Destination>,
    /// The table was deleted: the list is read again.
    dropped: bool,
}

impl AdminFeature {
    fn read(&mut self, context: &Context<'_>) {
        let client = context.scope.connection.reader();
        let table = context.scope.table.name.clone();
        self.describing = Some(context.scope.spawner.spawn("DescribeTable", async move {
            read_spec(&client, &table).await
        }));
    }
}

impl Feature for AdminFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        if let Some(done) = Pending::take_ready(&mut self.describing) {
            match done {
                Ok(described) => {
                    self.described = Some((described, Instant::now()));
                    self.error = None;
                }
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(report) = self.run.poll() {
            self.backups.changed();
            if report.ending() == dynoscope_core::ending::Ending::Done {
                // Applied: what was typed for it is done, and is not one click from again.
                self.settings.applied();
            }
            // A restore describes its new table: this one is read again instead.
            let elsewhere = report
                .after
                .as_ref()
                .is_some_and(|d| d.spec.name != self.table);
            self.described = report
                .after
                .filter(|d| d.spec.name == self.table)
                .map(|d| (d, Instant::now()));
            if let Some(destination) = &self.destination {
                intents.push(Intent::Written {
                    destination: Box::new(destination.clone()),
                    table: self.table.clone(),
                    keys: Vec::new(),
                });
            }
            if self.dropped || elsewhere {
                intents.push(Intent::ListTables);
            }
        }
        self.purge
            .poll(&self.table, intents, self.destination.clone());
        if self.clone.poll() {
            intents.push(Intent::ListTables);
        }
    }

    fn subject_changed(&mut self, subject: Subject<'_>) {
        if subject.table != Some(self.table.as_str()) {
            // A form belongs to its table: nothing typed for one is offered to another.
            self.settings = SettingsForm::default();
            self.described = None;
            self.describing = None;
            self.error = None;
            self.typed_name.clear();
            self.dropped = false;
            self.run.forget();
            self.purge.forget();
            self.backups.forget();
            self.export.forget();
            self.clone.forget();
            subject
                .table
                .unwrap_or_default()
                .clone_into(&mut self.table);
        }
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        let scope = context.scope;
        self.table.clone_from(&scope.table.name);
        self.destination = Some(Destination::of(scope.connection));
        if self.described.is_none() && self.describing.is_none() && self.error.is_none() {
            self.read(context);
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(format!("Table {}", scope.table.name));
                if self.describing.is_some() {
                    ui.spinner();
                } else if let Some((_, at)) = &self.described {
                    ui.weak(format!("read {}", age_text(at.elapsed())));
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_secs(1));
                }
                if ui
                    .add_enabled(self.describing.is_none(), egui::Button::new("Read again"))
                    .clicked()
                {
                    self.read(context);
                }
            });
            if let Some(error) = &self.error {
                error_ui(ui, error);
            }
            let Some((described, _)) = &self.described else {
                return;
            };
            let described = described.clone();
            ui.label(RichText::new(described.spec.summary()).strong());
            ui.weak(described.state());
            for unread in &described.unread {
                ui.weak(format!("not read: {unread}"));
            }
            self.run.status_ui(ui, scope.spawner, scope.connection);
            egui::CollapsingHeader::new("Settings")
                .default_open(true)
                .show(ui, |ui| {
                    let ready =
                        !self.run.busy() && Destination::writes_off(scope.connection).is_none();
                    if let Some(change) = self.settings.settings_ui(ui, &described, ready) {
                        let planned = change
                            .and_then(|c| admin::change_plan(scope.connection, &described, c));
                        match planned {
                            Ok(plan) => self.run.begin(scope.spawner, scope.connection, plan),
                            Err(error) => self.run.refuse(error),
                        }
                    }
                });
            egui::CollapsingHeader::new("Backups").show(ui, |ui| {
                self.backups
                    .backups_ui(ui, scope, &described, &mut self.run);
            });
            egui::CollapsingHeader::new("Export to S3").show(ui, |ui| {
                if self.export.export_ui(ui, scope, &described) {
                    // Point-in-time recovery was turned on: the settings shown are read again.
                    self.read(context);
                }
            });
            egui::CollapsingHeader::new("Clone").show(ui, |ui| {
                self.clone.clone_ui(ui, scope);
            });
            egui::CollapsingHeader::new("Infrastructure code")
                .show(ui, |ui| self.iac_ui(ui, &described));
            egui::CollapsingHeader::new("Delete items").show(ui, |ui| {
                self.purge.purge_ui(ui, scope, context.loaded, &self.rules);
            });
            egui::CollapsingHeader::new("Delete table")
                .show(ui, |ui| self.drop_ui(ui, context, &described));
        });
    }
}

impl AdminFeature {
    /// The table as infrastructure code in the format picked, to copy; its lines kept as
    /// written, scrolled sideways.
    fn iac_ui(&mut self, ui: &mut Ui, described: &Described) {
        ui.horizontal(|ui| {
            for format in IacFormat::ALL {
                ui.selectable_value(&mut self.format, Some(format), format.name());
            }
        });
        if let Some(format) = self.format {
            let code = render_iac(&described.spec, format);
            if ui.button(format!("Copy as {}", format.name())).clicked() {
                ui.ctx().copy_text(code.clone());
            }
            // Lines as written (HCL breaks if a line wraps): scrolled sideways instead.
            egui::ScrollArea::horizontal()
                .id_salt("iac-code")
                .show(ui, |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut code.as_str())
                            .code_editor()
                            .desired_rows(12)
                            .desired_width(f32::INFINITY)
                            .layouter(&mut |ui, text, _| {
                                let job = egui::text::LayoutJob::simple(
                                    text.as_str().to_owned(),
                                    egui::TextStyle::Monospace.resolve(ui.style()),
                                    ui.visuals().text_color(),
                                    f32::INFINITY,
                                );
                                ui.fonts_mut(|f| f.layout_job(job))
                            }),
                    );
                });
        }
    }

    fn drop_ui(&mut self, ui: &mut Ui, context: &Context<'_>, described: &Described) {
        let scope = context.scope;
        if described.spec.deletion_protection {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Deletion protection is on: DynamoDB refuses to delete this table until it is \
                 turned off in Settings, a change of its own.",
            );
            return;
        }
        ui.label(format!(
            "This deletes table {} and all its items{}. It cannot be undone.",
            described.spec.name,
            described
                .item_count
                .map(|n| format!(" (about {n}, as last reported)"))
                .unwrap_or_default()
        ));
        ui.horizontal(|ui| {
            let label = ui.label("Type the table's name");
            ui.add(egui::TextEdit::singleline(&mut self.typed_name).desired_width(160.0))
                .labelled_by(label.id);
        });
        let typed = self.typed_name == described.spec.name;
        if write_button_ui(
            ui,
            scope.connection,
            typed && !self.run.busy(),
            "Delete table",
        )
        .clicked()
        {
            match admin::delete_plan(scope.connection, described, &self.typed_name) {
                Ok(plan) => {
                    self.dropped = true;
                    self.run.begin(scope.spawner, scope.connection, plan);
                }
                Err(error) => self.run.refuse(error),
            }
        }
    }
}
