//! The Create table window: a table's keys, billing, indexes, stream, TTL, point-in-time
//! recovery, deletion protection, class and tags; what DynamoDB would refuse listed as it is
//! typed; the request shown as the AWS CLI commands for this connection; created through the
//! gateway and followed until it and its indexes are ACTIVE.

use egui::{RichText, Ui};

use crate::admin::fields::{IndexRow, KeyRow, index_ui, key_ui};
use crate::admin::run::AdminRun;
use crate::widgets::write_button_ui;
use dynoscope_core::admin;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::schema::{BillingSpec, ClassSpec, StreamView, TableSpec, parse_tag};
use dynoscope_core::task::Spawner;

/// The form and its run.
pub(crate) struct CreateForm {
    /// Whether the window is shown.
    pub open: bool,
    name: String,
    partition: KeyRow,
    sort: KeyRow,
    provisioned: bool,
    rcu: String,
    wcu: String,
    global: Vec<IndexRow>,
    local: Vec<IndexRow>,
    stream: Option<StreamView>,
    ttl: String,
    pitr: bool,
    deletion_protection: bool,
    class: ClassSpec,
    /// `KEY=VALUE`, one a line.
    tags: String,
    run: AdminRun,
    /// The table the last Create was for (its summary): a result shown beside another table
    /// typed since would be a result of the wrong table, so it is forgotten then.
    made_for: Option<String>,
    /// A table was created from what the form holds: the next New table… starts empty.
    created: bool,
}

impl Default for CreateForm {
    fn default() -> Self {
        Self {
            open: false,
            name: String::new(),
            partition: KeyRow::named("PK"),
            sort: KeyRow::named("SK"),
            provisioned: false,
            rcu: "5".into(),
            wcu: "5".into(),
            global: Vec::new(),
            local: Vec::new(),
            stream: None,
            ttl: String::new(),
            pitr: false,
            deletion_protection: false,
            class: ClassSpec::Standard,
            tags: String::new(),
            run: AdminRun::default(),
            made_for: None,
            created: false,
        }
    }
}

impl CreateForm {
    /// The table the form describes; what cannot be read as typed is an error in words.
    pub(crate) fn spec(&self) -> Result<TableSpec> {
        let partition = self
            .partition
            .key()
            .ok_or_else(|| Error::Invalid("a table needs a partition key".into()))?;
        let mut spec = TableSpec::new(self.name.trim(), partition, self.sort.key());
        if self.provisioned {
            spec.billing = BillingSpec::provisioned(&self.rcu, &self.wcu)?;
        }
        spec.global = self.global.iter().map(IndexRow::spec).collect();
        spec.local = self.local.iter().map(IndexRow::spec).collect();
        spec.stream = self.stream;
        let ttl = self.ttl.trim();
        spec.ttl = (!ttl.is_empty()).then(|| ttl.to_owned());
        spec.pitr = self.pitr;
        spec.deletion_protection = self.deletion_protection;
        spec.class = self.class;
        spec.tags = self
            .tags
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(parse_tag)
            .collect::<Result<_>>()?;
        Ok(spec)
    }

    /// Take in what arrived; the name of a table just created.
    pub(crate) fn poll(&mut self) -> Option<String> {
        let report = self.run.poll()?;
        let created = report.after.map(|table| table.spec.name);
        self.created |= created.is_some();
        created
    }

    /// Show the window again (New table…): after a table was created from it, empty, so that
    /// nothing of the last table is one click from being created again; else as it was left.
    pub(crate) fn reopen(&mut self) {
        if self.created && !self.run.busy() {
            *self = Self::default();
        }
        self.open = true;
    }

    /// Draw the window.
    pub(crate) fn window_ui(
        &mut self,
        ctx: &egui::Context,
        spawner: &Spawner,
        connection: &Connection,
    ) {
        let mut open = self.open;
        egui::Window::new("Create table")
            .open(&mut open)
            .default_width(640.0)
            .default_height(640.0)
            .vscroll(true)
            .show(ctx, |ui| self.form_ui(ui, spawner, connection));
        self.open = open;
    }

    fn form_ui(&mut self, ui: &mut Ui, spawner: &Spawner, connection: &Connection) {
        ui.horizontal(|ui| {
            let label = ui.label("Table name");
            ui.add(egui::TextEdit::singleline(&mut self.name).hint_text("Posts"))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            key_ui(ui, "create-pk", "Partition key", &mut self.partition);
            key_ui(ui, "create-sk", "Sort key", &mut self.sort);
        });
        ui.weak("Leave the sort key's name empty for a table without one.");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.provisioned, false, "On demand");
            ui.radio_value(&mut self.provisioned, true, "Provisioned");
            if self.provisioned {
                for (label, text) in [("RCU", &mut self.rcu), ("WCU", &mut self.wcu)] {
                    let label = ui.label(label);
                    ui.add(egui::TextEdit::singleline(text).desired_width(50.0))
                        .labelled_by(label.id);
                }
            }
        });
        self.indexes_ui(ui);
        self.options_ui(ui);
        ui.separator();
        let spec = self.spec();
        let problems = match &spec {
            Ok(spec) => spec.problems(),
            Err(error) => vec![error.to_string()],
        };
        // Nothing typed yet is not a mistake: the first thing to type is said instead.
        if self.name.trim().is_empty() {
            ui.weak("Type the table's name to create it.");
        } else {
            for problem in &problems {
                ui.colored_label(ui.visuals().warn_fg_color, problem);
            }
        }
        if let Ok(spec) = &spec
            && problems.is_empty()
        {
            ui.label(RichText::new(spec.summary()).strong());
        }
        let summary = spec.as_ref().ok().map(TableSpec::summary);
        if self.made_for.is_some() && self.made_for != summary && !self.run.busy() {
            self.run.forget();
            self.made_for = None;
        }
        let ready = problems.is_empty() && !self.run.busy();
        if write_button_ui(ui, connection, ready, "Create table").clicked()
            && let Ok(spec) = &spec
        {
            self.made_for = Some(spec.summary());
            match admin::create_plan(connection, spec) {
                Ok(plan) => self.run.begin(spawner, connection, plan),
                Err(error) => self.run.refuse(error),
            }
        }
        self.run.status_ui(ui, spawner, connection);
        if let Ok(spec) = &spec
            && problems.is_empty()
        {
            egui::CollapsingHeader::new("Request (AWS CLI)")
                .id_salt("create-request")
                .show(ui, |ui| {
                    let commands = spec.cli_commands(&connection.client_setup());
                    if ui.small_button("Copy").clicked() {
                        ui.ctx().copy_text(commands.clone());
                    }
                    ui.add(
                        egui::TextEdit::multiline(&mut commands.as_str())
                            .code_editor()
                            .desired_width(f32::INFINITY)
                            .desired_rows(6),
                    );
                });
        }
    }

    fn indexes_ui(&mut self, ui: &mut Ui) {
        for (title, rows, local) in [
            ("Global indexes", &mut self.global, false),
            ("Local indexes", &mut self.local, true),
        ] {
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("{title} ({})", rows.len())).strong());
                let add = if local {
                    "+ Local index"
                } else {
                    "+ Global index"
                };
                if ui.small_button(add).clicked() {
                    let n = rows.len() + 1;
                    rows.push(if local {
                        IndexRow::new(
                            &format!("LSI{n}"),
                            &self.partition.name,
                            &format!("LSI{n}SK"),
                        )
                    } else {
                        IndexRow::new(
                            &format!("GSI{n}"),
                            &format!("GSI{n}PK"),
                            &format!("GSI{n}SK"),
                        )
                    });
                }
            });
            rows.retain_mut(|row| {
                let id = format!("{title}-{}", row.name);
                !index_ui(ui, &id, row, true)
            });
        }
    }

    fn options_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Stream");
            egui::ComboBox::from_id_salt("create-stream")
                .selected_text(self.stream.map_or("off", StreamView::name))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.stream, None, "off");
                    for view in StreamView::ALL {
                        ui.selectable_value(&mut self.stream, Some(view), view.name());
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label("TTL attribute");
            ui.add(
                egui::TextEdit::singleline(&mut self.ttl)
                    .hint_text("off")
                    .desired_width(90.0),
            )
            .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.deletion_protection, "Deletion protection");
            ui.checkbox(&mut self.pitr, "Point-in-time recovery")
                .on_hover_text("On AWS; the embedded engine has no continuous backups");
            let label = ui.label("Class");
            egui::ComboBox::from_id_salt("create-class")
                .selected_text(self.class.name())
                .show_ui(ui, |ui| {
                    for class in [ClassSpec::Standard, ClassSpec::StandardIa] {
                        ui.selectable_value(&mut self.class, class, class.name());
                    }
                })
                .response
                .labelled_by(label.id);
        });
        let label = ui.label("Tags (KEY=VALUE, one a line)");
        ui.add(
            egui::TextEdit::multiline(&mut self.tags)
                .desired_rows(2)
                .hint_text("team=social"),
        )
        .labelled_by(label.id);
    }
}
