//! The live chart of one parent: its stored tally and its counted children over stream time,
//! a vertical line where a divergence was reported (red) and where one closed (green). The
//! exact values are in the records beside it.

use bigdecimal::{BigDecimal, ToPrimitive as _};
use egui::{Color32, Ui};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints, VLine};

use crate::core::cost::Kind;
use crate::core::cost::hot::ceiling;
use crate::core::number::to_dynamodb;
use crate::core::stream::time_text;
use crate::ui::watch::log::{Chart, WatchLog};

/// Draw `parent`'s chart (nothing charted yet: say so).
pub(super) fn chart_ui(ui: &mut Ui, log: &WatchLog, parent: Option<&str>) {
    let Some((parent, chart)) = parent.and_then(|p| log.charts.get(p).map(|c| (p, c))) else {
        ui.weak("The chart shows a parent once a record of it is read.");
        return;
    };
    let Some(first) = chart.samples.front() else {
        ui.weak(format!("No record of {parent} yet."));
        return;
    };
    let origin = first.at_ms;
    ui.label(format!(
        "{parent}: stored {} and counted children, seconds since {}",
        log.tally,
        time_text(origin, false)
    ));
    if let Some(last) = chart.samples.back() {
        let shown = |v: &Option<BigDecimal>| v.as_ref().map_or("missing".to_owned(), to_dynamodb);
        ui.weak(format!(
            "Now: {} {}, children {}",
            log.tally,
            shown(&last.tally),
            shown(&last.children)
        ));
    }
    load_ui(ui, parent, chart, origin);
    let (tally, children) = series(chart, origin);
    let diverged = ui.visuals().error_fg_color;
    Plot::new(("watch_chart", parent))
        .height((ui.available_height() - 8.0).clamp(200.0, 480.0))
        .legend(Legend::default())
        .x_axis_label("seconds (stream time; a second's records spread across it in order)")
        .y_axis_label("count")
        .show(ui, |plot| {
            plot.line(Line::new(
                format!("stored {}", log.tally),
                PlotPoints::new(tally),
            ));
            plot.line(Line::new("counted children", PlotPoints::new(children)));
            for at in &chart.diverged_at {
                plot.vline(VLine::new("diverged", seconds(*at, origin)).color(diverged));
            }
            for at in &chart.closed_at {
                plot.vline(
                    VLine::new("closed", seconds(*at, origin))
                        .color(Color32::from_rgb(60, 160, 90)),
                );
            }
        });
}

/// The tally's and the children's points, as drawing coordinates. A stream stamps its records
/// rounded down to the second, so the records of one second are spread across it in their
/// order (else they would draw a vertical zigzag at one instant). Converting to `f64` is for
/// the chart only: the exact numbers are the records' text and the line above the chart.
fn series(chart: &Chart, origin: i64) -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let mut tally = Vec::new();
    let mut children = Vec::new();
    let samples: Vec<_> = chart.samples.iter().collect();
    let mut start = 0;
    while start < samples.len() {
        let at = samples[start].at_ms;
        let end = samples[start..]
            .iter()
            .position(|s| s.at_ms != at)
            .map_or(samples.len(), |n| start + n);
        let spread = if at % 1000 == 0 { 1.0 } else { 0.0 };
        for (k, sample) in samples[start..end].iter().enumerate() {
            let x = seconds(at, origin) + spread * k as f64 / (end - start) as f64;
            if let Some(y) = sample.tally.as_ref().and_then(BigDecimal::to_f64) {
                tally.push([x, y]);
            }
            if let Some(y) = sample.children.as_ref().and_then(BigDecimal::to_f64) {
                children.push([x, y]);
            }
        }
        start = end;
    }
    (tally, children)
}

/// Stream time as seconds since `origin`, a drawing coordinate.
fn seconds(at_ms: i64, origin: i64) -> f64 {
    (at_ms - origin) as f64 / 1000.0
}

/// The write units `parent`'s partition took in each second (from the item sizes in its
/// records), against the 1,000 WCU/s one partition serves at most. Nothing when no record
/// wrote (a poll).
fn load_ui(ui: &mut Ui, parent: &str, chart: &Chart, origin: i64) {
    if chart.load.is_empty() {
        return;
    }
    let points: Vec<[f64; 2]> = chart
        .load
        .iter()
        // Each second's units at its middle.
        .map(|(at, units)| [seconds(*at, origin) + 0.5, *units as f64])
        .collect();
    let ceiling = ceiling(Kind::Write) as f64;
    Plot::new(("watch_load", parent))
        .height(110.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(ceiling * 1.1)
        .y_axis_label("WCU/s")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(
                Line::new(
                    format!("{parent}: WCU/s (from item sizes)"),
                    PlotPoints::new(points),
                )
                .color(Color32::from_rgb(70, 140, 220)),
            );
            plot.hline(
                HLine::new("one partition's ceiling: 1,000 WCU/s", ceiling)
                    .color(Color32::from_rgb(200, 60, 60)),
            );
        });
}
