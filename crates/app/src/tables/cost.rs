//! The prices the open table is charged at (the card `dynoscope cost` prints too), and the
//! region a connection without one of its own is priced as, picked here.

use egui::{RichText, Ui};

use crate::widgets::{error_ui, lines_ui};
use dynoscope_core::connection::Connection;
use dynoscope_core::cost::FALLBACK_REGION;
use dynoscope_core::cost::card::card;
use dynoscope_core::error::Error;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::{Pending, Spawner};

/// Reading the connection's region's prices from AWS's live price list, and what it said.
#[derive(Default)]
pub(super) struct LivePrices {
    /// "Read live prices" was clicked: start at the next poll.
    asked: bool,
    reading: Option<Pending<Option<String>>>,
    /// The note of the last read, or why it failed (the shipped prices are kept then).
    said: Option<Result<String, Error>>,
}

impl LivePrices {
    /// Start the read asked for; take in what arrived.
    pub(super) fn poll(&mut self, spawner: &Spawner, connection: Option<&Connection>) {
        if std::mem::take(&mut self.asked)
            && self.reading.is_none()
            && let Some(connection) = connection
        {
            let connection = connection.clone();
            self.said = None;
            self.reading =
                Some(spawner.spawn(
                    "GetProducts",
                    async move { connection.load_live_prices().await },
                ));
        }
        if let Some(read) = Pending::take_ready(&mut self.reading) {
            self.said = match read {
                Ok(note) => note.map(Ok),
                Err(error) => Some(Err(error)),
            };
        }
    }

    /// The button (on AWS only), the read under way, and what the last one said.
    fn ui(&mut self, ui: &mut Ui, connection: &Connection) {
        let Some(region) = connection.aws_region() else {
            return;
        };
        if self.reading.is_some() || self.asked {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.weak(format!("Reading live prices for {region}…"));
            });
        } else if ui
            .button("Read live prices")
            .on_hover_text(format!(
                "Read {region}'s DynamoDB prices from the AWS Price List API (it needs \
                 pricing:GetProducts); they replace the shipped ones until dynoscope closes."
            ))
            .clicked()
        {
            self.asked = true;
        }
        match &self.said {
            Some(Ok(note)) => {
                ui.weak(note);
            }
            Some(Err(error)) => {
                error_ui(ui, error);
                ui.weak("The shipped prices are kept.");
            }
            None => {}
        }
    }
}

/// Draw the cost section of `info`'s table on `connection`, with the region picker and, on
/// AWS, the live prices' button.
pub(super) fn cost_ui(
    ui: &mut Ui,
    connection: &Connection,
    info: &TableInfo,
    live: &mut LivePrices,
) {
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
    live.ui(ui, connection);
}
