//! One item read by its key, said the same way by the CLI (`get`) and the MCP server
//! (`get_item`): the item or none, what the read cost, and one ending — a missing item is
//! refused, as the exit table has it (exit 1; `"ending": "refused"`).

use serde::Serialize;

use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::read;
use crate::report::{Line, Report, Tone};
use crate::spec::GetSpec;
use crate::table::TableInfo;
use crate::value::{self, Item, json::item_to_json};

/// A finished read of one item: a typed report, its document made by serde alone.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Got {
    /// The item in DynamoDB JSON, its key attributes first; `null` when no item has the key.
    pub item: Option<serde_json::Value>,
    /// Whether an item has the key.
    pub found: bool,
    /// The read capacity units the consistent GetItem consumed.
    pub consumed_rcu: f64,
    /// What the read cost in US dollars at the table's price, exact; `null` when unknown.
    pub usd: serde_json::Value,
    /// The item as read, for a front end that shows it.
    #[serde(skip)]
    pub stored: Option<Item>,
    /// No item has the key: the error saying so, key and table named (`read::item_not_found`).
    #[serde(skip)]
    missing: Option<Error>,
    /// The read's price in words.
    #[serde(skip)]
    price: String,
}

impl GetSpec {
    /// Read the item with this key from `info`'s table, consistently.
    pub async fn read(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<Got> {
        let key = self.key.plan(info)?;
        let missing = read::item_not_found(info, &key);
        let reader = connection.reader();
        let read = read::get_item_costed(&reader, &info.name, key);
        let (stored, rcu) = unless_stopped(stop, "GetItem", read).await?;
        let charge = connection.pricing(info).read(rcu);
        Ok(Got {
            item: (stored.as_ref())
                .map(|i| item_to_json(i, &info.key_names(), value::Style::Typed)),
            found: stored.is_some(),
            consumed_rcu: rcu,
            usd: charge.usd_json(),
            missing: stored.is_none().then_some(missing),
            stored,
            price: charge.to_string(),
        })
    }
}

impl Got {
    /// A missing item as the error a front end that prints only the item says (the CLI's
    /// `get`): `there is no item … in table …`, refused (exit 1), as the report's ending.
    pub fn missing(&self) -> Option<Error> {
        self.missing.clone()
    }
}

impl Report for Got {
    fn lines(&self) -> Vec<Line> {
        match &self.missing {
            None => vec![Line::new(Tone::Quiet, format!("1 item · {}", self.price))],
            Some(missing) => vec![
                Line::new(Tone::Warn, missing.to_string()),
                Line::new(Tone::Quiet, format!("0 items · {}", self.price)),
            ],
        }
    }

    fn ending(&self) -> Ending {
        if self.found {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}
