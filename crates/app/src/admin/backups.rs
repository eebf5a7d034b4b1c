//! Backups of the open table in its Table view: point-in-time recovery on or off, an on-demand
//! backup made, the table's backups listed (said how long ago), one restored into a new table
//! or deleted — each through the one write flow. On AWS; the embedded engine has none, and says
//! so when asked.

use std::time::Instant;

use egui::Ui;

use crate::admin::run::AdminRun;
use crate::scope::Scope;
use crate::widgets::{error_ui, write_button_ui};
use dynoscope_core::admin::{self, BackupInfo};
use dynoscope_core::report::age_text;
use dynoscope_core::schema::Described;
use dynoscope_core::spec::TableChangeSpec;
use dynoscope_core::task::Pending;
use dynoscope_core::write::WritePlan;

/// What the section holds between frames.
#[derive(Default)]
pub(super) struct BackupsForm {
    name: String,
    restore_to: String,
    /// A backup's name or ARN typed again: only that backup can be deleted for good.
    delete_named: String,
    listing: Option<Pending<Vec<BackupInfo>>>,
    listed: Option<(Vec<BackupInfo>, Instant)>,
    planning: Option<Pending<WritePlan>>,
    /// A change ended: list again when the list is shown.
    stale: bool,
    error: Option<dynoscope_core::error::Error>,
}

impl BackupsForm {
    /// A change ended: what is listed may be out of date.
    pub(super) fn changed(&mut self) {
        self.stale = true;
    }

    /// Another table: forget its backups.
    pub(super) fn forget(&mut self) {
        *self = Self::default();
    }

    fn list(&mut self, scope: &Scope<'_>) {
        let (client, table) = (scope.connection.reader(), scope.table.name.clone());
        self.error = None;
        self.listing = Some(scope.spawner.spawn("ListBackups", async move {
            admin::list_backups(&client, &table).await
        }));
    }

    /// Draw the section; changes begin on `run`.
    pub(super) fn backups_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        described: &Described,
        run: &mut AdminRun,
    ) {
        if let Some(done) = Pending::take_ready(&mut self.listing) {
            match done {
                Ok(list) => self.listed = Some((list, Instant::now())),
                Err(error) => self.error = Some(error),
            }
        }
        if let Some(done) = Pending::take_ready(&mut self.planning) {
            match done {
                Ok(plan) => run.begin(scope.spawner, scope.connection, plan),
                Err(error) => run.refuse(error),
            }
        }
        if self.stale && self.listed.is_some() && self.listing.is_none() && !run.busy() {
            self.stale = false;
            self.list(scope);
        }
        let ready = !run.busy() && self.planning.is_none();
        self.changes_ui(ui, scope, described, run, ready);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.listing.is_none(), egui::Button::new("List backups"))
                .clicked()
            {
                self.list(scope);
            }
            if self.listing.is_some() {
                ui.spinner();
            } else if let Some((_, at)) = &self.listed {
                ui.weak(format!("listed {}", age_text(at.elapsed())));
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        self.listed_ui(ui, scope, run, ready);
    }

    /// Point-in-time recovery turned on or off, and a backup made, on `run`.
    fn changes_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        described: &Described,
        run: &mut AdminRun,
        ready: bool,
    ) {
        let pitr_unread = described
            .unread
            .iter()
            .any(|u| u.starts_with("point-in-time recovery"));
        ui.horizontal(|ui| {
            ui.weak("Point-in-time recovery");
            if pitr_unread {
                ui.label("not readable here");
            } else {
                let on = described.spec.pitr;
                ui.label(if on { "on" } else { "off" });
                let text = if on { "Turn PITR off" } else { "Turn PITR on" };
                if write_button_ui(ui, scope.connection, ready, text).clicked() {
                    let wish = TableChangeSpec {
                        pitr: Some(!on),
                        ..TableChangeSpec::default()
                    };
                    let planned = wish
                        .one(&described.spec)
                        .and_then(|change| admin::change_plan(scope.connection, described, change));
                    match planned {
                        Ok(plan) => run.begin(scope.spawner, scope.connection, plan),
                        Err(error) => run.refuse(error),
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Backup name");
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(140.0))
                .labelled_by(label.id);
            if write_button_ui(ui, scope.connection, ready, "Create backup").clicked() {
                match admin::backup_plan(scope.connection, described, self.name.trim()) {
                    Ok(plan) => run.begin(scope.spawner, scope.connection, plan),
                    Err(error) => run.refuse(error),
                }
            }
        });
    }

    /// The backups listed, each to restore into the table named or to delete once its name is
    /// typed again.
    fn listed_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, run: &mut AdminRun, ready: bool) {
        let Some((backups, _)) = &self.listed else {
            return;
        };
        if backups.is_empty() {
            ui.weak("no backups");
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Restore into the new table");
            ui.add(egui::TextEdit::singleline(&mut self.restore_to).desired_width(140.0))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("Type a backup's name (or ARN) to delete it for good");
            ui.add(egui::TextEdit::singleline(&mut self.delete_named).desired_width(140.0))
                .labelled_by(label.id);
        });
        let mut chosen = None;
        for backup in backups {
            ui.horizontal_wrapped(|ui| {
                ui.label(backup.line());
                let name_typed = !self.restore_to.trim().is_empty();
                if write_button_ui(ui, scope.connection, ready && name_typed, "Restore").clicked() {
                    chosen = Some((backup.clone(), true));
                }
                let named = admin::check_backup_named(backup, self.delete_named.trim()).is_ok();
                if write_button_ui(ui, scope.connection, ready && named, "Delete backup").clicked()
                {
                    chosen = Some((backup.clone(), false));
                }
            });
        }
        match chosen {
            Some((backup, true)) => {
                let connection = scope.connection.clone();
                let to = self.restore_to.trim().to_owned();
                self.planning = Some(scope.spawner.spawn("DescribeTable", async move {
                    admin::restore_plan(&connection, &backup, &to).await
                }));
            }
            Some((backup, false)) => {
                let planned = admin::check_backup_named(&backup, self.delete_named.trim())
                    .and_then(|()| admin::delete_backup_plan(scope.connection, &backup));
                match planned {
                    Ok(plan) => run.begin(scope.spawner, scope.connection, plan),
                    Err(error) => run.refuse(error),
                }
            }
            None => {}
        }
    }
}
