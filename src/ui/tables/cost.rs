//! The prices the open table is charged at (the card `dynoscope cost` prints too), and the
//! region a connection without one of its own is priced as, picked here.

use egui::{RichText, Ui};

use crate::core::connection::Connection;
use crate::core::cost::FALLBACK_REGION;
use crate::core::cost::card::card;
use crate::core::table::TableInfo;
use crate::ui::widgets::{error_ui, lines_ui};

/// Draw the cost section of `info`'s table on `connection`, with the region picker.
pub(super) fn cost_ui(ui: &mut Ui, connection: &Connection, info: &TableInfo) {
    ui.label(RichText::new("Cost").strong()).on_hover_text(
        "On demand each request unit is paid; provisioned capacity is paid by the hour, so \
         units are said as the share of a second of it they took.",
    );
    if let Some(warning) = connection.price_warning() {
        error_ui(ui, &warning);
    }
    let pricing = connection.pricing(info);
    lines_ui(ui, &card(&pricing, info.size_bytes, info.item_count));
    let own = connection
        .aws_region()
        .unwrap_or(FALLBACK_REGION)
        .to_owned();
    let before = connection.picked_price_region();
    let mut picked = before.clone();
    ui.horizontal(|ui| {
        let label = ui.weak("Price as");
        egui::ComboBox::from_id_salt("price_region")
            .selected_text(picked.clone().unwrap_or_else(|| own.clone()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut picked, None, format!("{own} (this connection)"));
                for region in connection.priced_regions() {
                    let label = region.clone();
                    ui.selectable_value(&mut picked, Some(region), label);
                }
            })
            .response
            .labelled_by(label.id);
    });
    if picked != before {
        connection.pick_price_region(picked);
    }
}
