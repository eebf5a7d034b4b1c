//! A sharded counter: the total summed on read, exactly, a per-shard bar chart, the hot shard,
//! and each shard's share of a write rate against one partition's ceiling, with the advice.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, HLine, Plot};

use crate::scope::Scope;
use crate::tally::TallyFeature;
use crate::widgets::{error_ui, labelled_text_ui, lines_ui};
use dynoscope_core::cost::Kind;
use dynoscope_core::cost::hot::{KeyRate, ceiling};
use dynoscope_core::cost::shards::ShardAdvice;
use dynoscope_core::cost::units::WriteKind;
use dynoscope_core::number::to_dynamodb;
use dynoscope_core::report::Line;
use dynoscope_core::tally::{ShardRule, ShardTotal};

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
    let pricing = scope.connection.pricing(info);
    ui.label(total.summary(&pricing));
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
    let partition = tally.partition.trim().to_owned();
    load_ui(ui, &mut tally.shard_rate, &partition, total, scope);
}

/// Each shard's share of a write rate the user types, against one partition's 1,000 WCU/s, as
/// bars with the ceiling as a line, then the shard advice for this many shards.
fn load_ui(ui: &mut Ui, rate: &mut String, partition: &str, total: &ShardTotal, scope: &Scope<'_>) {
    ui.separator();
    ui.label(RichText::new("Against a partition's ceiling").strong());
    labelled_text_ui(ui, "Writes a second (all shards)", rate, 80.0, "1000");
    let writes = match rate.trim().parse::<u64>() {
        Ok(n) if n > 0 => n,
        _ => {
            ui.weak("Type the counter's writes a second (a whole number from 1).");
            return;
        }
    };
    // A shard item is small: one write unit a write, said; `dynoscope size` sizes a real one.
    let loads = total.loads(writes, 1);
    // Shards under one partition key share its partition: the honest sum first.
    let together = KeyRate::new(partition, Kind::Write, writes as f64, 1000).line();
    lines_ui(
        ui,
        &[Line::new(
            together.tone,
            format!(
                "Every shard is under {partition}, so they share its partition until DynamoDB \
                 splits it for heat: {}",
                together.text
            ),
        )],
    );
    ui.weak(
        "Spread as the counts are, one write unit each (a shard item under 1 KB; twice that in \
         a transaction):",
    );
    let lines: Vec<_> = loads.iter().map(|(_, _, line)| line.clone()).collect();
    lines_ui(ui, &lines);
    let ceiling = ceiling(Kind::Write) as f64;
    let bars: Vec<Bar> = loads
        .iter()
        .enumerate()
        .map(|(i, (sk, units, _))| {
            Bar::new(i as f64, as_plot_height(units).unwrap_or_default())
                .name(sk.clone())
                .width(0.7)
        })
        .collect();
    Plot::new("shard_load_plot")
        .height(160.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(ceiling * 1.1)
        .y_axis_label("WCU/s")
        .x_axis_label("shard")
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("WCU/s at this rate", bars));
            plot.hline(
                HLine::new("one partition's ceiling: 1,000 WCU/s", ceiling)
                    .color(Color32::from_rgb(200, 60, 60)),
            );
        });
    let shards = u64::try_from(total.shards.len()).unwrap_or(u64::MAX);
    match ShardAdvice::new(writes, 1024, WriteKind::Standard) {
        Ok(advice) => {
            let advice = match total.hot_share() {
                Some((sk, share)) => advice.spread_as(&sk, share),
                None => advice,
            };
            let pricing = scope.connection.pricing(scope.table);
            for line in advice.lines(Some(shards.max(1)), &pricing) {
                ui.label(line);
            }
        }
        Err(error) => error_ui(ui, &error),
    }
}

/// Bar heights are drawing coordinates, not data: the exact values are printed beside the chart.
fn as_plot_height(value: &bigdecimal::BigDecimal) -> Option<f64> {
    use bigdecimal::ToPrimitive as _;
    value.to_f64()
}
