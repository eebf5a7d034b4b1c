//! One item put or deleted from its spec, through the write gateway, and said the same way by
//! the CLI and the MCP server: what was sent, how it ended, what it cost at the table's price,
//! and the item as it came back.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::cancel::{CancelToken, not_stopped};
use crate::connection::Connection;
use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::expr::codegen::Request;
use crate::report::{Line, Report, Tone};
use crate::run::{self, RunResult};
use crate::spec::{DeleteSpec, PutSpec};
use crate::table::TableInfo;
use crate::value::{self, json::item_to_json};
use crate::write;

/// A finished write of one item.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemWrite {
    /// What was sent, where: `PutItem on table Social at …`.
    pub what: String,
    /// How it ended, in a line, with the items to show (returned, or stored now).
    pub result: RunResult,
    /// The table's key attributes, listed first in an item shown.
    pub key_names: Vec<String>,
    /// What the table's writes cost.
    pub pricing: Pricing,
    ending: Ending,
    failure: Option<Error>,
}

impl PutSpec {
    /// Put the item on `info`'s table (`confirmed`: the user said yes beforehand).
    pub async fn run(
        &self,
        connection: &Connection,
        info: &TableInfo,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<ItemWrite> {
        send_item(connection, info, &self.plan(info)?, confirmed, stop).await
    }
}

/// A delete not sent: what it would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteDryRun {
    /// The write planned, in words.
    pub what: String,
    /// Whether an item has the key now.
    pub exists: bool,
}

/// A delete not sent: what it would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct DeleteDryRunDocument {
    /// Always `true`: nothing was sent.
    pub(crate) dry_run: bool,
    /// The delete planned, in words: `DeleteItem on table Social at …`.
    pub(crate) write: String,
    /// Whether an item has the key now.
    pub(crate) exists: bool,
}

impl DeleteDryRun {
    /// The dry run's document.
    pub(crate) fn document(&self) -> DeleteDryRunDocument {
        DeleteDryRunDocument {
            dry_run: true,
            write: self.what.clone(),
            exists: self.exists,
        }
    }
}

crate::document_as!(DeleteDryRun => DeleteDryRunDocument, document);

impl Report for DeleteDryRun {
    fn lines(&self) -> Vec<Line> {
        let now = if self.exists {
            "it would delete the item stored now"
        } else {
            "no item has this key now, so it would delete nothing"
        };
        let text = format!("dry run: {} — {now}; nothing was sent", self.what);
        vec![Line::new(Tone::Plain, text)]
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}

impl DeleteSpec {
    /// Delete the item from `info`'s table (`confirmed`: the user said yes beforehand).
    pub async fn run(
        &self,
        connection: &Connection,
        info: &TableInfo,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<ItemWrite> {
        send_item(connection, info, &self.plan(info)?, confirmed, stop).await
    }

    /// What the delete would do, sending nothing: the write planned, and whether an item has
    /// the key now (one consistent GetItem).
    pub async fn dry_run(&self, connection: &Connection, info: &TableInfo) -> Result<DeleteDryRun> {
        let request = self.plan(info)?;
        let what = run::plan_write(connection, &request, info.key_names())?.what();
        let key = self.key.plan(info)?;
        let found = crate::read::get_item(&connection.reader(), &info.name, key).await?;
        Ok(DeleteDryRun {
            what,
            exists: found.is_some(),
        })
    }
}

/// Plan `request` as one write on `info`'s table and send it through the gateway; stopped
/// before it is sent, nothing is sent.
async fn send_item(
    connection: &Connection,
    info: &TableInfo,
    request: &Request,
    confirmed: bool,
    stop: &CancelToken,
) -> Result<ItemWrite> {
    let op = request.operation_name();
    let plan = run::plan_write(connection, request, info.key_names())?;
    not_stopped(stop, op)?;
    let outcome = write::send(connection, &plan, confirmed).await;
    let (ending, failure) = (outcome.ending(), outcome.failure().cloned());
    let pricing = connection.pricing(info);
    let result = run::written(op, outcome, true, Some(&pricing));
    Ok(ItemWrite {
        what: plan.what(),
        result,
        key_names: info.key_names(),
        pricing,
        ending,
        failure,
    })
}

/// One item put or deleted: what was sent, how it ended, what it cost, and the items that
/// came back.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ItemWriteDocument {
    /// What was sent, where: `PutItem on table Social at …`.
    pub(crate) write: String,
    /// How it ended, in one line.
    pub(crate) summary: String,
    /// The write capacity units consumed.
    pub(crate) consumed_wcu: f64,
    /// What the write cost in US dollars at the table's price.
    pub(crate) usd: Usd,
    /// The items to show (returned, or stored now), each in DynamoDB JSON, key attributes
    /// first.
    pub(crate) items: Vec<Value>,
}

impl ItemWrite {
    /// The write's document.
    pub(crate) fn document(&self) -> ItemWriteDocument {
        ItemWriteDocument {
            write: self.what.clone(),
            summary: self.result.summary.clone(),
            consumed_wcu: self.result.consumed,
            usd: Usd::from(self.pricing.write(self.result.consumed)),
            items: (self.result.items.iter())
                .map(|item| item_to_json(item, &self.key_names, value::Style::Typed))
                .collect(),
        }
    }
}

crate::document_as!(ItemWrite => ItemWriteDocument, document);

impl Report for ItemWrite {
    /// What was sent and how it ended, then each item shown as DynamoDB JSON.
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            self.result.tone,
            format!("{} — {}", self.what, self.result.summary),
        )];
        lines.extend(self.result.items.iter().map(|item| {
            Line::new(
                Tone::Plain,
                value::item_to_dynamodb_json(item, &self.key_names, false),
            )
        }));
        lines
    }

    fn ending(&self) -> Ending {
        self.ending
    }

    fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }
}
