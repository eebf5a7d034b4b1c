//! The table's own metrics in the table panel: CloudWatch's consumed capacity and throttles
//! over the last hours, charted for the table and each global index (the provisioned capacity as
//! a line), and Contributor Insights: its status, switching it through the one write flow, and
//! its most-accessed and most-throttled keys.

mod charts;

use egui::{RichText, Ui};

use crate::widgets::{error_ui, write_button_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::Error;
use dynoscope_core::metrics::insights::{self, Insights, InsightsReport};
use dynoscope_core::metrics::{self, TableMetrics};
use dynoscope_core::stream::now_ms;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::{Pending, Spawner};
use dynoscope_core::write::{self, WriteOutcome, WritePlan};

/// Hours looked back.
const HOURS: u32 = 3;

/// What the panel read and is reading.
#[derive(Default)]
pub(crate) struct MetricsPanel {
    /// The table the figures are of.
    table: String,
    loading: Option<Pending<TableMetrics>>,
    metrics: Option<TableMetrics>,
    checking: Option<Pending<(Insights, Vec<InsightsReport>)>>,
    insights: Option<(Insights, Vec<InsightsReport>)>,
    switch: WriteFlow<WritePlan, Pending<WriteOutcome>>,
    said: Option<String>,
    error: Option<Error>,
}

impl MetricsPanel {
    /// Take in what arrived.
    pub(crate) fn poll(&mut self) {
        if let Some(done) = Pending::take_ready(&mut self.loading) {
            match done {
                Ok(m) => self.metrics = Some(m),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(done) = Pending::take_ready(&mut self.checking) {
            match done {
                Ok(i) => self.insights = Some(i),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(done) = Pending::take_ready(self.switch.sending()) {
            // The task died: the request may have left, so the outcome is unknown.
            let outcome = done.unwrap_or_else(WriteOutcome::lost);
            match outcome.failure() {
                None => self.said = Some(format!("Contributor Insights: {}.", outcome.name())),
                Some(e) => self.error = Some(e.clone()),
            }
        }
    }

    /// Draw the section for `info`'s table on `connection`.
    pub(crate) fn metrics_ui(
        &mut self,
        ui: &mut Ui,
        spawner: &Spawner,
        connection: &Connection,
        info: &TableInfo,
    ) {
        if self.table != info.name {
            *self = Self {
                table: info.name.clone(),
                switch: std::mem::take(&mut self.switch),
                ..Self::default()
            };
        }
        ui.label(RichText::new("Metrics (CloudWatch)").strong());
        if connection.aws_region().is_none() {
            ui.weak(
                "Read from the endpoint's CloudWatch (moto's server has one; the sandbox has \
                 none).",
            );
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    self.loading.is_none(),
                    egui::Button::new(format!("Load the last {HOURS} hours")),
                )
                .clicked()
            {
                let (c, i) = (connection.clone(), info.clone());
                self.error = None;
                self.loading = Some(spawner.spawn("GetMetricData", async move {
                    metrics::read_metrics(&c, &i, HOURS, now_ms()).await
                }));
            }
            if ui
                .add_enabled(
                    self.checking.is_none(),
                    egui::Button::new("Contributor Insights"),
                )
                .on_hover_text("Its status, and its most-accessed and most-throttled keys")
                .clicked()
            {
                let (c, table) = (connection.clone(), info.name.clone());
                self.error = None;
                self.checking = Some(spawner.spawn("DescribeContributorInsights", async move {
                    let now = insights::describe(&c, &table).await?;
                    let reports = if now.enabled() {
                        insights::reports(&c, &now.rules, HOURS, now_ms()).await?
                    } else {
                        Vec::new()
                    };
                    Ok((now, reports))
                }));
            }
            if self.loading.is_some() || self.checking.is_some() {
                ui.spinner();
            }
        });
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
        if let Some(m) = &self.metrics {
            charts::charts_ui(ui, m, info);
        }
        self.insights_ui(ui, spawner, connection, info);
    }

    fn insights_ui(
        &mut self,
        ui: &mut Ui,
        spawner: &Spawner,
        connection: &Connection,
        info: &TableInfo,
    ) {
        let Some((now, reports)) = &self.insights else {
            return;
        };
        ui.label(format!("Contributor Insights: {}", now.status));
        if let Some(failure) = &now.failure {
            ui.colored_label(ui.visuals().warn_fg_color, failure);
        }
        for report in reports {
            for line in insights::report_lines(report) {
                ui.label(RichText::new(line).monospace());
            }
        }
        let enable = !now.enabled();
        writes_to_ui(
            ui,
            &format!("the settings of table {}", info.name),
            connection,
        );
        let label = if enable { "Enable" } else { "Disable" };
        let send = |plan: WritePlan, confirmed: bool| {
            let c = connection.clone();
            spawner.spawn("UpdateContributorInsights", async move {
                Ok(write::send(&c, &plan, confirmed).await)
            })
        };
        if write_button_ui(ui, connection, !self.switch.busy(), label).clicked() {
            let plan = insights::switch_plan(
                dynoscope_core::write::Destination::of(connection),
                &info.name,
                enable,
            );
            let confirmation = plan.confirmation();
            self.said = None;
            self.error = self.switch.begin(plan, confirmation, send).err();
        }
        self.switch.question_ui(ui, send);
        if let Some(said) = &self.said {
            ui.label(said);
        }
    }
}
