//! The load a storm puts on the parent's partition: write units in each second, against the
//! 1,000 WCU/s one partition serves at most.

use egui::{Color32, Ui};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints};

use crate::core::cost::Kind;
use crate::core::cost::hot::ceiling;

/// Draw WCU per second over the storm's seconds, with the per-partition ceiling as a line.
/// Converting to `f64` is for drawing coordinates only.
pub(super) fn load_chart_ui(ui: &mut Ui, key: &str, wcu_by_second: &[f64]) {
    if wcu_by_second.is_empty() {
        return;
    }
    let points: Vec<[f64; 2]> = wcu_by_second
        .iter()
        .enumerate()
        .flat_map(|(second, wcu)| {
            // A step a second: the rate held across the whole second.
            let start = second as f64;
            [[start, *wcu], [start + 1.0, *wcu]]
        })
        .collect();
    let ceiling = ceiling(Kind::Write) as f64;
    Plot::new(("storm_load", key))
        .height(160.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(ceiling * 1.1)
        .x_axis_label("seconds since the storm started")
        .y_axis_label("WCU/s")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new(format!("{key}: WCU/s"), PlotPoints::new(points)));
            plot.hline(
                HLine::new("one partition's ceiling: 1,000 WCU/s", ceiling)
                    .color(Color32::from_rgb(200, 60, 60)),
            );
        });
}
