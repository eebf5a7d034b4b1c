//! The tables of the active connection and the open table: listing them, opening one (or the
//! remembered one once it is listed), and describing it.

mod cost;
mod describe;
mod list;

use std::cell::Cell;
use std::time::Instant;

use egui::Ui;

use crate::intent::Intent;
use dynoscope_core::connection::Connection;
use dynoscope_core::error::Error;
use dynoscope_core::read;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::{Pending, Spawner};

/// The open table and its description; the previous description stays while a new one loads.
struct OpenTable {
    name: String,
    info: Option<TableInfo>,
    /// When `info` was read.
    described_at: Option<Instant>,
    describing: Option<Pending<TableInfo>>,
    error: Option<Error>,
    /// Refresh was clicked: describe it again at the next poll.
    refresh_asked: Cell<bool>,
}

/// The tables feature's state.
pub(crate) struct TablesFeature {
    names: Vec<String>,
    filter: String,
    listing: Option<Pending<Vec<String>>>,
    list_error: Option<Error>,
    /// The table to open once it is listed (the one remembered from the last run).
    wanted: Option<String>,
    open: Option<OpenTable>,
    /// The open table's CloudWatch metrics and Contributor Insights.
    metrics: crate::metrics::MetricsPanel,
    /// The live price list read for this connection's region.
    live: cost::LivePrices,
    /// The Create table window.
    create: crate::admin::CreateForm,
    /// Counts the lists that arrived, so that what follows the list knows when it is new.
    listed: u64,
    /// The table that was open until a list no longer named it (deleted): said on the empty
    /// screen that follows.
    gone: Option<String>,
}

impl TablesFeature {
    /// Whether the last request about tables failed (listing or describing): the connection
    /// is in trouble, whatever it answered before.
    pub(crate) fn failing(&self) -> bool {
        let failed = |e: &Option<Error>| {
            e.as_ref()
                .is_some_and(|e| !matches!(e, Error::Cancelled { .. }))
        };
        failed(&self.list_error) || self.open.as_ref().is_some_and(|open| failed(&open.error))
    }

    /// The tables listed.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// No tables yet; `wanted` opens by itself once a list names it.
    pub(crate) fn new(wanted: Option<String>) -> Self {
        Self {
            names: Vec::new(),
            filter: String::new(),
            listing: None,
            list_error: None,
            wanted,
            open: None,
            metrics: crate::metrics::MetricsPanel::default(),
            live: cost::LivePrices::default(),
            create: crate::admin::CreateForm::default(),
            listed: 0,
            gone: None,
        }
    }

    /// How many lists have arrived (the names are those of the last).
    pub(crate) fn listed(&self) -> u64 {
        self.listed
    }

    /// A new connection: forget the old one's tables (the filter stays) and list the new ones.
    pub(crate) fn connected(&mut self, spawner: &Spawner, connection: &Connection) {
        if let Some(open) = self.open.take() {
            self.wanted = Some(open.name);
        }
        self.names.clear();
        self.live = cost::LivePrices::default();
        self.list(spawner, Some(connection));
    }

    /// List the tables again.
    fn list(&mut self, spawner: &Spawner, connection: Option<&Connection>) {
        self.list_error = None;
        if let Some(connection) = connection {
            let client = connection.reader();
            self.listing =
                Some(spawner.spawn(
                    "ListTables",
                    async move { read::list_tables(&client).await },
                ));
        } else {
            self.listing = None;
            self.list_error = Some(Error::NotConnected { op: "ListTables" });
        }
    }

    /// List the tables again (one was created, restored or deleted); the open table is
    /// closed once the list no longer names it.
    pub(crate) fn list_again(&mut self, spawner: &Spawner, connection: Option<&Connection>) {
        self.list(spawner, connection);
    }

    /// Open `table` and describe it.
    /// Open `table` (a result tab on it was chosen): describe it.
    pub(crate) fn open(&mut self, spawner: &Spawner, connection: &Connection, table: &str) {
        self.open_table(spawner, connection, table.to_owned());
    }

    fn open_table(&mut self, spawner: &Spawner, connection: &Connection, table: String) {
        let client = connection.reader();
        let name = table.clone();
        self.wanted = None;
        self.gone = None;
        self.open = Some(OpenTable {
            describing: Some(spawner.spawn("DescribeTable", async move {
                read::describe_table(&client, &name).await
            })),
            name: table,
            info: None,
            described_at: None,
            error: None,
            refresh_asked: Cell::new(false),
        });
    }

    /// Describe the open table again (its item count and size move with every write), keeping
    /// what is shown until the new description arrives.
    pub(crate) fn refresh(&mut self, spawner: &Spawner, connection: &Connection) {
        let Some(open) = &mut self.open else {
            return;
        };
        // A description under way may have been asked before the write that asks for this one.
        if let Some(describing) = open.describing.take() {
            describing.abort();
        }
        let client = connection.reader();
        let name = open.name.clone();
        open.error = None;
        open.describing = Some(spawner.spawn("DescribeTable", async move {
            read::describe_table(&client, &name).await
        }));
    }

    /// Take in what arrived; the name of a table that has just been opened (the remembered one,
    /// once listed).
    #[must_use]
    pub(crate) fn poll(
        &mut self,
        spawner: &Spawner,
        connection: Option<&Connection>,
    ) -> Option<String> {
        self.metrics.poll();
        self.live.poll(spawner, connection);
        if let Some(created) = self.create.poll() {
            // Listed again, and opened once the list names it.
            self.wanted = Some(created);
            self.open = None;
            self.list(spawner, connection);
        }
        if let Some(open) = &mut self.open
            && let Some(described) = Pending::take_ready(&mut open.describing)
        {
            match described {
                Ok(info) => {
                    open.info = Some(info);
                    open.described_at = Some(Instant::now());
                    open.error = None;
                }
                Err(error) => open.error = Some(error),
            }
        }
        if let Some(connection) = connection
            && self.open.as_ref().is_some_and(|o| o.refresh_asked.take())
        {
            self.refresh(spawner, connection);
        }
        match Pending::take_ready(&mut self.listing)? {
            Ok(names) => {
                if let Some(open) = self.open.take_if(|o| !names.contains(&o.name)) {
                    self.gone = Some(open.name);
                }
                self.names = names;
                self.listed += 1;
                let wanted = self.wanted.clone().filter(|t| self.names.contains(t));
                match (wanted, connection) {
                    (Some(table), Some(connection)) if self.open.is_none() => {
                        self.open_table(spawner, connection, table.clone());
                        Some(table)
                    }
                    _ => None,
                }
            }
            Err(error) => {
                self.list_error = Some(error);
                None
            }
        }
    }

    /// The open table's name.
    pub(crate) fn open_name(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.name.as_str())
    }

    /// The open table's description, once it arrived.
    pub(crate) fn open_info(&self) -> Option<&TableInfo> {
        self.open.as_ref().and_then(|o| o.info.as_ref())
    }

    /// Draw the list; the name of a table the user opened.
    #[must_use]
    pub(crate) fn list_ui(
        &mut self,
        ui: &mut Ui,
        spawner: &Spawner,
        connection: Option<&Connection>,
    ) -> Option<String> {
        let view = list::ListView {
            names: &self.names,
            loading: self.listing.is_some()
                || self.open.as_ref().is_some_and(|o| o.describing.is_some()),
            error: self.list_error.as_ref(),
            selected: self.open.as_ref().map(|o| o.name.as_str()),
        };
        if let Some(connection) = connection
            && self.create.open
        {
            self.create.window_ui(ui.ctx(), spawner, connection);
        }
        match list::tables_ui(ui, &view, &mut self.filter)? {
            list::ListAction::NewTable => {
                self.create.reopen();
                None
            }
            list::ListAction::Refresh => {
                self.list(spawner, connection);
                None
            }
            list::ListAction::Cancel => {
                // Reads: stopped in flight, and said so where their answer would have been.
                if let Some(listing) = self.listing.take() {
                    listing.abort();
                    self.list_error = Some(Error::Cancelled { op: "ListTables" });
                }
                if let Some(open) = &mut self.open
                    && let Some(describing) = open.describing.take()
                {
                    describing.abort();
                    open.error = Some(Error::Cancelled {
                        op: "DescribeTable",
                    });
                }
                None
            }
            list::ListAction::Open(table) => {
                let connection = connection?;
                self.open_table(spawner, connection, table.clone());
                Some(table)
            }
        }
    }

    /// Draw the description of the open table; "Browse GSI1" asks the browse form for it.
    #[must_use]
    pub(crate) fn describe_ui(
        &mut self,
        ui: &mut Ui,
        spawner: &Spawner,
        connection: Option<&Connection>,
    ) -> Option<Intent> {
        let open = self.open.as_mut()?;
        let shown = describe::Described {
            table: &open.name,
            info: open.info.as_ref(),
            at: open.described_at,
            loading: open.describing.is_some(),
            error: open.error.as_ref(),
        };
        let action = describe::describe_ui(ui, &shown);
        if let (Some(info), Some(connection)) = (&open.info, connection) {
            ui.add_space(6.0);
            cost::cost_ui(ui, connection, info, &mut self.live);
            ui.add_space(6.0);
            self.metrics.metrics_ui(ui, spawner, connection, info);
        }
        match action? {
            describe::DescribeAction::Refresh => {
                open.refresh_asked.set(true);
                None
            }
            describe::DescribeAction::Browse(index) => {
                Some(Intent::ShowQuery(crate::intent::QueryPreset {
                    index: Some(index),
                    ..Default::default()
                }))
            }
        }
    }

    /// What the central view shows while no table is described: a hint (on the sandbox, the
    /// sample's places to start, one of which may be picked: its table and partition), the
    /// describe under way, or why it failed.
    pub(crate) fn placeholder_ui(&self, ui: &mut Ui, sandbox: bool) -> Option<(String, String)> {
        if let (None, Some(gone)) = (&self.open, &self.gone) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "Table {gone} is gone: it was deleted, and the tables listed no longer name it."
                ),
            );
        }
        match &self.open {
            None if sandbox => return samples_ui(ui, &self.names),
            None => {
                ui.centered_and_justified(|ui| {
                    ui.weak("Pick a table on the left.");
                });
            }
            Some(open) if open.describing.is_some() => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Describing {}…", open.name));
                });
            }
            Some(open) => match &open.error {
                Some(error) => crate::widgets::error_ui(ui, error),
                None => {
                    ui.weak(format!("{} is not described.", open.name));
                }
            },
        }
        None
    }
}

/// The sandbox's first screen: the sample's places to start, each opening its table on its
/// partition; the one picked.
fn samples_ui(ui: &mut Ui, names: &[String]) -> Option<(String, String)> {
    let mut picked = None;
    ui.add_space(12.0);
    ui.heading("The sandbox's sample data");
    ui.label("Pick a table on the left, or start from one of these:");
    ui.add_space(6.0);
    egui::Grid::new("samples")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for sample in dynoscope_core::seed::SAMPLES {
                if !names.iter().any(|n| n == sample.table) {
                    continue;
                }
                let text = format!("{} in {}", sample.partition, sample.table);
                if ui.button(text).clicked() {
                    picked = Some((sample.table.to_owned(), sample.partition.to_owned()));
                }
                ui.weak(sample.what);
                ui.end_row();
            }
        });
    picked
}
