//! The load a storm puts on the parent's partition: write units a second over the storm, from
//! 0, against the 1,000 WCU/s one partition serves at most. A storm of under 10 s is drawn in
//! milliseconds (each tenth of a second its rate), a longer one by the second; a step with no
//! write is drawn at zero, not as a slope across it.

use egui::{Color32, Ui};
use egui_plot::{Bar, BarChart, HLine, Legend, Plot};

use dynoscope_core::cost::Kind;
use dynoscope_core::cost::hot::ceiling;
use dynoscope_core::likes::StormStats;

/// The storm's load as steps: `(x label, points)`, each step `width` long at its rate in
/// WCU/s, from 0 to the end of the storm. Converting to `f64` is for drawing coordinates only.
pub(super) fn load_steps(stats: &StormStats) -> (&'static str, Vec<[f64; 2]>) {
    let short = stats.elapsed_ms < 10_000 && !stats.wcu_by_tenth.is_empty();
    let (buckets, width, per_second, label) = if short {
        (
            &stats.wcu_by_tenth,
            100.0,
            10.0,
            "milliseconds since the storm started",
        )
    } else {
        (
            &stats.wcu_by_second,
            1.0,
            1.0,
            "seconds since the storm started",
        )
    };
    let mut points = vec![[0.0, 0.0]];
    for (i, units) in buckets.iter().enumerate() {
        let (from, to) = (i as f64 * width, (i + 1) as f64 * width);
        let rate = units * per_second;
        points.push([from, rate]);
        points.push([to, rate]);
    }
    let end = if short {
        stats.elapsed_ms as f64
    } else {
        stats.elapsed_ms as f64 / 1000.0
    };
    let last = points.last().map_or(0.0, |p| p[0]);
    points.push([last, 0.0]);
    if end > last {
        points.push([end, 0.0]);
    }
    (label, points)
}

/// The storm's load as bars, each step (a tenth of a second, or a second) its rate; a step with
/// no write has no bar.
fn bars(stats: &StormStats) -> Vec<Bar> {
    let short = stats.elapsed_ms < 10_000 && !stats.wcu_by_tenth.is_empty();
    let (buckets, width, per_second) = if short {
        (&stats.wcu_by_tenth, 100.0, 10.0)
    } else {
        (&stats.wcu_by_second, 1.0, 1.0)
    };
    buckets
        .iter()
        .enumerate()
        .filter(|(_, units)| **units > 0.0)
        .map(|(i, units)| Bar::new((i as f64 + 0.5) * width, units * per_second).width(width))
        .collect()
}

/// Draw the storm's load, with the per-partition ceiling as a line.
pub(super) fn load_chart_ui(ui: &mut Ui, key: &str, stats: &StormStats) {
    if stats.wcu_by_second.is_empty() {
        return;
    }
    let (label, points) = load_steps(stats);
    let end = points.last().map_or(1.0, |p| p[0]);
    let ceiling = ceiling(Kind::Write) as f64;
    Plot::new(("storm_load", key))
        .height(160.0)
        .legend(Legend::default().position(egui_plot::Corner::RightTop))
        .include_x(0.0)
        .include_x(end)
        .include_y(0.0)
        .include_y(ceiling * 1.1)
        .x_axis_label(label)
        .y_axis_label("WCU/s")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(
                BarChart::new(format!("{key}: WCU/s"), bars(stats))
                    .color(Color32::from_rgb(70, 140, 220)),
            );
            plot.hline(
                HLine::new("one partition's ceiling: 1,000 WCU/s", ceiling)
                    .color(Color32::from_rgb(200, 60, 60)),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storm_of_under_a_second_is_drawn_in_milliseconds_from_zero() {
        let stats = StormStats {
            wcu_by_second: vec![1200.0],
            wcu_by_tenth: vec![400.0, 0.0, 800.0],
            elapsed_ms: 640,
            ..StormStats::default()
        };
        let (label, points) = load_steps(&stats);
        assert_eq!(label, "milliseconds since the storm started");
        assert_eq!(
            points[0].map(f64::to_bits),
            [0.0_f64.to_bits(); 2],
            "from the origin"
        );
        assert!(points.iter().all(|p| p[0] >= 0.0), "no negative time");
        // 400 WCU in the first tenth is 4,000 WCU/s; the idle tenth is drawn at zero.
        assert!(points.contains(&[0.0, 4000.0]) && points.contains(&[200.0, 0.0]));
        assert_eq!(points.last(), Some(&[640.0, 0.0]));
        let long = StormStats {
            wcu_by_second: vec![100.0, 0.0, 50.0],
            elapsed_ms: 12_500,
            ..StormStats::default()
        };
        let (label, points) = load_steps(&long);
        assert_eq!(label, "seconds since the storm started");
        assert!(points.contains(&[1.0, 0.0]) && points.contains(&[2.0, 0.0]));
        assert_eq!(points.last(), Some(&[12.5, 0.0]));
    }
}
