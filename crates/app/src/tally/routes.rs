//! Beside Reconcile, which way to reconcile the whole table: each route priced and timed from
//! the table's size as DynamoDB last described it, the arithmetic shown, one recommended (the
//! core's `PlanSpec`, as `dynoscope plan` prints it). Worked out on the UI thread: no request.

use egui::Ui;

use crate::scope::Scope;
use crate::widgets::{error_ui, lines_ui};
use dynoscope_core::exports::PlanSpec;
use dynoscope_core::report::Report;

/// The routes for the open table, folded under "Which route?".
pub(super) fn routes_ui(ui: &mut Ui, scope: &Scope<'_>) {
    egui::CollapsingHeader::new("Which route? (scan, export, Athena)")
        .id_salt("reconcile routes")
        .show(ui, |ui| {
            let spec = PlanSpec {
                table: Some(scope.table.name.clone()),
                ..PlanSpec::default()
            };
            let size = (scope.table.item_count, scope.table.size_bytes);
            match spec.sized(Some(size)) {
                Ok(sized) => {
                    let plan = spec.routes(&sized, &scope.connection.region_pricing());
                    lines_ui(ui, &plan.lines());
                }
                Err(error) => error_ui(ui, &error),
            }
        });
}
