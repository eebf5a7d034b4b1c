//! A Query or a Scan read from its spec as far as its bounds, said the same way wherever it is
//! asked (the MCP server's `query` and `scan`): the items in DynamoDB JSON, what the read sent
//! and cost, and the key to go on from when it stopped before the end.

use serde::Serialize;

use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Connection;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::Result;
use crate::read;
use crate::report::{Line, Report, Tone, read_summary};
use crate::spec::ReadSpec;
use crate::table::TableInfo;
use crate::value::{self, Style, json::item_to_json};

/// A Query or a Scan read as far as its bounds: a typed report, its document made by serde
/// alone.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ItemsRead {
    /// The items read, each in DynamoDB JSON, its key attributes first (the index's, then the
    /// table's).
    pub items: Vec<serde_json::Value>,
    /// How many items were returned.
    pub count: usize,
    /// How many page requests were sent (each reads at most 1 MB).
    pub pages: usize,
    /// The read capacity units the requests consumed, as DynamoDB reported them.
    pub consumed_rcu: f64,
    /// What the read cost in US dollars at the table's price, exact; `null` when unknown.
    pub usd: Usd,
    /// Where to go on from, as DynamoDB JSON text to give back as `start_key`; `null` when the
    /// read reached the end.
    pub next_start_key: Option<String>,
    /// The read's price in words.
    #[serde(skip)]
    price: String,
}

impl ReadSpec {
    /// Read this Query or Scan of `info`'s table until its limit (`default_limit` when it
    /// gives none), its last page or `max_pages` page requests (its own `max_pages` when
    /// fewer), whichever comes first; given up on once `stop` is cancelled.
    pub async fn read_bounded(
        &self,
        connection: &Connection,
        info: &TableInfo,
        default_limit: usize,
        max_pages: usize,
        stop: &CancelToken,
    ) -> Result<ItemsRead> {
        let mut plan = self.plan(info)?;
        plan.limit = Some(plan.limit.unwrap_or(default_limit));
        let keys = info.grid_key_names(self.index.as_deref());
        let reader = connection.reader();
        let bounded = read::read_bounded(&reader, &plan, &keys, max_pages);
        let read = unless_stopped(stop, plan.request.op(), bounded).await?;
        let items: Vec<serde_json::Value> = (read.items.iter())
            .map(|i| item_to_json(i, &keys, Style::Typed))
            .collect();
        let charge = connection.pricing(info).read(read.consumed_rcu);
        Ok(ItemsRead {
            count: items.len(),
            items,
            pages: read.pages,
            consumed_rcu: read.consumed_rcu,
            usd: Usd::from(&charge),
            next_start_key: (read.next.as_ref())
                .map(|k| value::item_to_dynamodb_json(k, &keys, false)),
            price: charge.to_string(),
        })
    }
}

impl Report for ItemsRead {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Figure,
            read_summary(self.count, self.pages, &self.price),
        )];
        if let Some(next) = &self.next_start_key {
            lines.push(Line::new(
                Tone::Quiet,
                format!("stopped before the end: go on from {next}"),
            ));
        }
        lines
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::ScalarType;
    use crate::replay::Replay;
    use crate::table::KeyAttr;

    fn page(keys: &[&str], last: Option<&str>) -> String {
        let items: Vec<String> = (keys.iter())
            .map(|k| format!(r#"{{"n":{{"N":"1"}},"PK":{{"S":"{k}"}}}}"#))
            .collect();
        let last = last.map_or(String::new(), |k| {
            format!(r#","LastEvaluatedKey":{{"PK":{{"S":"{k}"}}}}"#)
        });
        format!(
            r#"{{"Items":[{}],"Count":{n},"ScannedCount":{n},"ConsumedCapacity":{{"TableName":"T","CapacityUnits":0.5}}{last}}}"#,
            items.join(","),
            n = keys.len(),
        )
    }

    #[tokio::test]
    async fn a_read_cut_by_its_limit_says_its_items_cost_and_where_to_go_on() {
        let info = TableInfo::with_keys("T", KeyAttr::new("PK", ScalarType::S), None);
        let replay = Replay::new(&[(200, &page(&["a", "b", "c"], Some("c")))]);
        let connection = replay.connection().await;
        let spec = ReadSpec::scan("T");
        let read = (spec.read_bounded(&connection, &info, 2, 10, &CancelToken::default()))
            .await
            .unwrap();
        let document = crate::document::Document::to_json(&read);
        let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "items",
                "count",
                "pages",
                "consumed_rcu",
                "usd",
                "next_start_key"
            ]
        );
        assert_eq!(
            document["items"][0].to_string(),
            r#"{"PK":{"S":"a"},"n":{"N":"1"}}"#
        );
        assert_eq!(document["count"], 2);
        assert_eq!(document["pages"], 1);
        assert_eq!(document["consumed_rcu"].as_f64(), Some(0.5));
        assert_eq!(document["next_start_key"], r#"{"PK":{"S":"b"}}"#);
        let lines = read.lines();
        assert!(
            lines[0].text.starts_with("2 items · 1 page · "),
            "{lines:?}"
        );
        assert_eq!(read.ending(), Ending::Done);
        assert_eq!(replay.operations(), ["Scan"]);
    }
}
