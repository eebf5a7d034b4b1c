//! The live chart of one parent: its stored tally and its counted children over stream time,
//! the gap between them as its own series (so a gap of 1 shows), a vertical line where a
//! divergence was reported (red) and where one closed (green), and the write units a second
//! (zero in a second with no write). The legends stand above the plots, not over the lines.
//! The exact values are in the records beside it.

use bigdecimal::{BigDecimal, ToPrimitive as _};
use egui::{Color32, Ui};
use egui_plot::{HLine, Line, Plot, PlotPoints, VLine};

use crate::watch::log::{Chart, WatchLog};
use dynoscope_core::cost::Kind;
use dynoscope_core::cost::hot::ceiling;
use dynoscope_core::number::to_dynamodb;
use dynoscope_core::stream::time_text;

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
    let gap = gap_series(&tally, &children);
    let diverged = ui.visuals().error_fg_color;
    let (tally_color, children_color, gap_color) = (
        Color32::from_rgb(70, 140, 220),
        Color32::from_rgb(230, 150, 40),
        Color32::from_rgb(170, 90, 200),
    );
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(tally_color, format!("— stored {}", log.tally));
        ui.colored_label(children_color, "— counted children");
        ui.colored_label(diverged, "| diverged");
        ui.colored_label(Color32::from_rgb(60, 160, 90), "| closed");
    });
    let height = (ui.available_height() - 130.0).clamp(160.0, 400.0);
    count_plot(("watch_chart", parent), "count")
        .height(height)
        .show(ui, |plot| {
            // A count holds its value until the next record changes it: steps, not slopes.
            plot.line(
                Line::new(
                    format!("stored {}", log.tally),
                    PlotPoints::new(steps(&tally)),
                )
                .color(tally_color),
            );
            plot.line(
                Line::new("counted children", PlotPoints::new(steps(&children)))
                    .color(children_color),
            );
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
    ui.colored_label(
        gap_color,
        format!("— gap: stored {} minus counted children", log.tally),
    );
    count_plot(("watch_gap", parent), "gap")
        .height(100.0)
        .include_y(-1.0)
        .include_y(1.0)
        .show(ui, |plot| {
            plot.line(Line::new("gap", PlotPoints::new(steps(&gap))).color(gap_color));
        });
}

/// A plot of whole counts over stream time: its y-axis labels whole numbers only, spaced so
/// they can be read, and the mouse wheel scrolls the page under it (drag pans, and a double
/// click resets).
fn count_plot(id: impl egui::AsIdSalt, y_label: &str) -> Plot<'_> {
    Plot::new(id)
        .x_axis_label("seconds (stream time)")
        .y_axis_label(y_label)
        .allow_scroll(false)
        .grid_spacing(egui::Rangef::new(20.0, 300.0))
        .y_axis_formatter(|mark, _range| whole_label(mark.value))
}

/// The label of a y grid line: a whole number, or none (a count is never 2.5).
fn whole_label(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

/// `points` as steps: each value held until the next point, where it changes at once.
fn steps(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for pair in points.windows(2) {
        if out.is_empty() {
            out.push(pair[0]);
        }
        out.push([pair[1][0], pair[0][1]]);
        out.push(pair[1]);
    }
    if out.is_empty() {
        out.extend(points.first());
    }
    out
}

/// Tally minus children at each point both are known (the two series share their x's).
#[expect(
    clippy::float_cmp,
    reason = "the series share their x's: a point pairs only with one at the very same x"
)]
fn gap_series(tally: &[[f64; 2]], children: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut at = 0;
    let mut gap = Vec::new();
    for t in tally {
        while at < children.len() && children[at][0] < t[0] {
            at += 1;
        }
        if let Some(c) = children.get(at).filter(|c| c[0] == t[0]) {
            gap.push([t[0], t[1] - c[1]]);
        }
    }
    gap
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
    let ceiling = ceiling(Kind::Write) as f64;
    ui.colored_label(
        Color32::from_rgb(70, 140, 220),
        format!("— {parent}: WCU/s (from item sizes)"),
    );
    Plot::new(("watch_load", parent))
        .height(100.0)
        .include_y(0.0)
        .include_y(ceiling * 1.1)
        .y_axis_label("WCU/s")
        .allow_scroll(false)
        .show(ui, |plot| {
            // One bar a second written: a second with no write has none, zero.
            let bars = load_bars(&chart.load, origin)
                .into_iter()
                .map(|[x, y]| egui_plot::Bar::new(x, y).width(1.0))
                .collect();
            plot.bar_chart(
                egui_plot::BarChart::new(format!("{parent}: WCU/s (from item sizes)"), bars)
                    .color(Color32::from_rgb(70, 140, 220)),
            );

            plot.hline(
                HLine::new("one partition's ceiling: 1,000 WCU/s", ceiling)
                    .color(Color32::from_rgb(200, 60, 60)),
            );
        });
}

/// The write units of each second as bars: `[middle of the second, units]`, one for each second
/// written (a second with no write has no bar: zero). Converting to `f64` is for drawing only.
fn load_bars(load: &std::collections::VecDeque<(i64, u64)>, origin: i64) -> Vec<[f64; 2]> {
    load.iter()
        .map(|(at, units)| [seconds(*at, origin) + 0.5, *units as f64])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_seconds_are_zero_and_the_gap_is_its_own_series() {
        let load = std::collections::VecDeque::from([(1_000, 3), (4_000, 2)]);
        // Bars where units were written, none between: idle seconds are zero, not a slope.
        assert_eq!(load_bars(&load, 0), [[1.5, 3.0], [4.5, 2.0]]);
        let gap = gap_series(&[[0.0, 8.0], [1.0, 9.0]], &[[0.0, 7.0], [1.0, 8.0]]);
        assert_eq!(gap, [[0.0, 1.0], [1.0, 1.0]]);
    }

    #[test]
    fn a_count_is_drawn_as_steps_with_whole_labels() {
        // 3 until the record at 2 s made it 4: flat, then straight up.
        assert_eq!(
            steps(&[[0.0, 3.0], [2.0, 4.0], [5.0, 2.0]]),
            [[0.0, 3.0], [2.0, 3.0], [2.0, 4.0], [5.0, 4.0], [5.0, 2.0]]
        );
        assert_eq!(steps(&[[1.0, 7.0]]), [[1.0, 7.0]]);
        assert!(steps(&[]).is_empty());
        assert_eq!(whole_label(12.0), "12");
        assert_eq!(whole_label(12.5), "");
    }
}
