//! The metrics as charts: per second, read and write capacity of the table and of each index
//! (with the provisioned capacity as a line), then the throttles.

use egui::{Color32, Ui};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints};

use dynoscope_core::cost::Mode;
use dynoscope_core::metrics::{PERIOD_SECONDS, Series, TableMetrics};
use dynoscope_core::report::Report;
use dynoscope_core::table::TableInfo;

/// A series as drawing points: minutes before the end, and the sum per second (or per period
/// for counts). Converting to `f64` is for drawing coordinates only.
fn points(series: &Series, to_ms: i64, per_second: bool) -> Vec<[f64; 2]> {
    use bigdecimal::ToPrimitive as _;
    series
        .points
        .iter()
        .map(|p| {
            let minutes = (p.at_ms - to_ms) as f64 / 60_000.0;
            let value = p.sum.to_f64().unwrap_or_default();
            let value = if per_second {
                value / f64::from(PERIOD_SECONDS)
            } else {
                value
            };
            [minutes, value]
        })
        .collect()
}

/// The table's provisioned capacity of the metric `name` (none for an index or on demand).
fn provisioned(info: &TableInfo, name: &str, index: Option<&str>) -> Option<i64> {
    match (info.charged.mode, name, index) {
        (Mode::Provisioned { read, .. }, "ConsumedReadCapacityUnits", None) => Some(read),
        (Mode::Provisioned { write, .. }, "ConsumedWriteCapacityUnits", None) => Some(write),
        _ => None,
    }
}

/// Draw the charts of `metrics`, and each series' total in words.
pub(super) fn charts_ui(ui: &mut Ui, metrics: &TableMetrics, info: &TableInfo) {
    let mut indexes: Vec<Option<&str>> = vec![None];
    indexes.extend(
        metrics
            .series
            .iter()
            .filter_map(|s| s.index.as_deref().map(Some)),
    );
    indexes.dedup();
    for index in indexes {
        let title = index.unwrap_or(&metrics.table);
        Plot::new(("metrics", title))
            .height(120.0)
            .legend(Legend::default())
            .include_y(0.0)
            .x_axis_label("minutes")
            .y_axis_label("units/s")
            .allow_scroll(false)
            .show(ui, |plot| {
                for name in ["ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits"] {
                    let provisioned = provisioned(info, name, index);
                    if let Some(series) = metrics.get(name, index) {
                        plot.line(Line::new(
                            format!("{title}: {}", name.trim_start_matches("Consumed")),
                            PlotPoints::new(points(series, metrics.to_ms, true)),
                        ));
                    }
                    if let Some(units) = provisioned {
                        plot.hline(
                            HLine::new(format!("provisioned {units}/s"), units as f64)
                                .color(Color32::from_rgb(200, 60, 60)),
                        );
                    }
                }
            });
    }
    Plot::new(("throttles", &metrics.table))
        .height(100.0)
        .legend(Legend::default())
        .include_y(0.0)
        .x_axis_label("minutes")
        .y_axis_label("per 5 min")
        .allow_scroll(false)
        .show(ui, |plot| {
            for series in metrics
                .series
                .iter()
                .filter(|s| !s.metric.starts_with("Consumed"))
            {
                plot.line(Line::new(
                    series.name(&metrics.table),
                    PlotPoints::new(points(series, metrics.to_ms, false)),
                ));
            }
        });
    for line in Report::lines(metrics) {
        ui.weak(line.text);
    }
}
