//! The prices the open table is charged at: where they come from, the region a connection
//! without one of its own is priced as (picked here), and what a like and a read cost.

use bigdecimal::BigDecimal;
use egui::{RichText, Ui};

use crate::core::connection::Connection;
use crate::core::cost::{FALLBACK_REGION, Kind};
use crate::core::table::TableInfo;
use crate::ui::widgets::error_ui;

/// Draw the cost section of `info`'s table on `connection`, with the region picker.
pub(super) fn cost_ui(ui: &mut Ui, connection: &Connection, info: &TableInfo) {
    ui.label(RichText::new("Cost").strong());
    if let Some(warning) = connection.price_warning() {
        error_ui(ui, &warning);
    }
    let pricing = connection.pricing(info);
    ui.label(pricing.note()).on_hover_text(
        "On demand each request unit is paid; provisioned capacity is paid by the hour, so \
         units are said as the share of a second of it they took.",
    );
    let like = pricing.charge(Kind::Write, &BigDecimal::from(4));
    ui.weak(format!(
        "A like (a transaction of two writes): {}",
        like.text()
    ))
    .on_hover_text(format!(
        "At 1,000,000 likes: {}",
        like.times(1_000_000).text()
    ));
    let read = pricing.charge(Kind::Read, &BigDecimal::from(1));
    ui.weak(format!("A strong read of up to 4 KB: {}", read.text()));
    let own = connection
        .aws_region()
        .unwrap_or(FALLBACK_REGION)
        .to_owned();
    let before = connection.picked_price_region();
    let mut picked = before.clone();
    ui.horizontal(|ui| {
        ui.weak("Price as");
        egui::ComboBox::from_id_salt("price_region")
            .selected_text(picked.clone().unwrap_or_else(|| own.clone()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut picked, None, format!("{own} (this connection)"));
                for region in connection.priced_regions() {
                    let label = region.clone();
                    ui.selectable_value(&mut picked, Some(region), label);
                }
            });
    });
    if picked != before {
        connection.pick_price_region(picked);
    }
}
