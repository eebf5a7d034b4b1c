//! A sharded counter: the total summed on read, exactly, a per-shard bar chart, the hot shard.

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, Plot};

use crate::core::number::to_dynamodb;
use crate::core::tally::ShardRule;
use crate::ui::Scope;
use crate::ui::tally::TallyFeature;
use crate::ui::widgets::labelled_text_ui;

/// Draw the sharded counter of the partition typed in, under `rule`.
pub(super) fn shards_ui(
    ui: &mut Ui,
    tally: &mut TallyFeature,
    scope: &Scope<'_>,
    rule: &ShardRule,
) {
    let info = scope.table;
    ui.heading("Sharded counter");
    ui.horizontal(|ui| {
        let label = format!(
            "Counter {} ({}) =",
            info.partition.name, info.partition.kind
        );
        labelled_text_ui(ui, &label, &mut tally.partition, 180.0, "VID#c0de");
        let busy = tally.summing.is_some();
        if ui
            .add_enabled(!busy, egui::Button::new("Sum shards"))
            .clicked()
        {
            tally.sum_shards(scope, rule);
        }
        if busy {
            ui.spinner();
        }
    });
    let Some(total) = &tally.shards else {
        return;
    };
    ui.label(RichText::new(total.headline()).size(24.0).monospace());
    ui.label(total.summary());
    if let Some(hot) = total.hot_text() {
        ui.colored_label(ui.visuals().warn_fg_color, hot);
    }
    let bars: Vec<Bar> = total
        .shards
        .iter()
        .enumerate()
        .map(|(i, (sk, v))| {
            let height = v.as_ref().and_then(as_plot_height).unwrap_or_default();
            let bar = Bar::new(i as f64, height).name(sk.clone()).width(0.7);
            if Some(i) == total.hot {
                bar.fill(ui.visuals().warn_fg_color)
            } else {
                bar
            }
        })
        .collect();
    Plot::new("shards_plot")
        .height(220.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .y_axis_label("value")
        .x_axis_label("shard")
        .show(ui, |plot| plot.bar_chart(BarChart::new("shards", bars)));
    for (sk, v) in &total.shards {
        ui.label(format!(
            "{sk}: {}",
            v.as_ref().map_or("(missing)".to_owned(), to_dynamodb)
        ));
    }
}

/// Bar heights are drawing coordinates, not data: the exact values are printed beside the chart.
fn as_plot_height(value: &bigdecimal::BigDecimal) -> Option<f64> {
    use bigdecimal::ToPrimitive as _;
    value.to_f64()
}
