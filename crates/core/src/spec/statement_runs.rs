//! One PartiQL SELECT read from its spec as far as its bounds, said the same way wherever it is
//! asked (the MCP server's `partiql_select`): the items in DynamoDB JSON, what the read sent and
//! cost, and whether it reached the end. A statement that writes is refused, nothing sent.

use serde::Serialize;

use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Connection;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::partiql;
use crate::read::{Stopped, Until};
use crate::report::{Line, Report, Tone, read_summary};
use crate::spec::StatementSpec;
use crate::value::{Item, Style, json::item_to_json};
use crate::write::Destination;

/// A PartiQL SELECT read as far as its bounds: a typed report, its document made by serde
/// alone.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StatementRead {
    /// The items the SELECT returned, each in DynamoDB JSON.
    pub items: Vec<serde_json::Value>,
    /// How many items were returned.
    pub count: usize,
    /// How many ExecuteStatement requests were sent.
    pub pages: usize,
    /// The read capacity units the requests consumed, as DynamoDB reported them.
    pub consumed_rcu: f64,
    /// What the read cost in US dollars at the connection's price, exact; `null` when unknown.
    pub usd: Usd,
    /// Whether the SELECT reached its last page (otherwise the limit or the page cap stopped
    /// it first).
    pub complete: bool,
    /// The read's price in words.
    #[serde(skip)]
    price: String,
}

impl StatementSpec {
    /// Send this INSERT, UPDATE or DELETE once through the write gateway (`confirmed`: the user
    /// agreed to its question beforehand; a SELECT is refused, nothing sent), never again after
    /// a lost answer; stopped before it is sent, nothing is.
    pub async fn write(
        &self,
        connection: &Connection,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<partiql::StatementReport> {
        let plan = self.plan()?;
        if !plan.writes {
            return Err(Error::Invalid(
                "partiql_write only writes: this statement reads (partiql_select runs it); nothing was sent".into(),
            ));
        }
        let plan = partiql::plan_write(Destination::of(connection), plan.statement)?;
        // Refused before anything is sent when a confirmation is needed and not given.
        plan.confirmation().check(confirmed)?;
        crate::cancel::not_stopped(stop, "ExecuteStatement")?;
        let outcome = partiql::write(connection, &plan, confirmed).await;
        Ok(partiql::StatementReport {
            plan,
            outcome,
            pricing: connection.pricing_undescribed(),
        })
    }

    /// Run this SELECT (a statement that writes is refused, nothing sent) until its limit
    /// (`default_limit` when it gives none), its last page or `max_pages` requests, whichever
    /// comes first; given up on once `stop` is cancelled.
    pub async fn select(
        &self,
        connection: &Connection,
        default_limit: usize,
        max_pages: usize,
        stop: &CancelToken,
    ) -> Result<StatementRead> {
        let plan = self.plan()?;
        if plan.writes {
            return Err(Error::Invalid(
                "partiql_select only reads: this statement writes (partiql_write sends it); nothing was sent".into(),
            ));
        }
        let limit = plan.limit.unwrap_or(default_limit);
        let cap = CancelToken::default();
        let (mut items, mut pages, mut rcu) = (Vec::<Item>::new(), 0usize, 0.0);
        let reader = connection.reader();
        let read = partiql::read_statement(
            &reader,
            &plan.statement,
            None,
            plan.page_size,
            Until::Items(limit),
            &cap,
            |page| {
                pages += 1;
                rcu += page.consumed_rcu;
                let room = limit.saturating_sub(items.len());
                items.extend(page.items.into_iter().take(room));
                if pages >= max_pages {
                    cap.cancel();
                }
            },
        );
        let stopped = unless_stopped(stop, "ExecuteStatement", read).await?;
        let charge = connection.pricing_undescribed().read(rcu);
        Ok(StatementRead {
            items: (items.iter())
                .map(|i| item_to_json(i, &[], Style::Typed))
                .collect(),
            count: items.len(),
            pages,
            consumed_rcu: rcu,
            usd: Usd::from(&charge),
            complete: stopped == Stopped::LastPage,
            price: charge.to_string(),
        })
    }
}

impl Report for StatementRead {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Figure,
            read_summary(self.count, self.pages, &self.price),
        )];
        if !self.complete {
            lines.push(Line::new(
                Tone::Quiet,
                "stopped before the end (the limit or the page cap)",
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
    use crate::replay::Replay;

    fn spec(statement: &str) -> StatementSpec {
        StatementSpec {
            statement: statement.into(),
            ..StatementSpec::default()
        }
    }

    #[tokio::test]
    async fn a_select_says_its_items_cost_and_whether_it_reached_the_end() {
        let page = r#"{"Items":[{"PK":{"S":"a"}},{"PK":{"S":"b"}}],"ConsumedCapacity":{"TableName":"T","CapacityUnits":1.0}}"#;
        let replay = Replay::new(&[(200, page)]);
        let connection = replay.connection().await;
        let read =
            (spec(r#"SELECT * FROM "T""#).select(&connection, 1, 10, &CancelToken::default()))
                .await
                .unwrap();
        let document = crate::document::Document::to_json(&read);
        let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["items", "count", "pages", "consumed_rcu", "usd", "complete"]
        );
        assert_eq!(document["items"].to_string(), r#"[{"PK":{"S":"a"}}]"#);
        assert_eq!(document["count"], 1);
        assert_eq!(document["pages"], 1);
        assert_eq!(document["complete"], true);
        assert!(read.lines()[0].text.starts_with("1 item · 1 page · "));
        assert_eq!(replay.operations(), ["ExecuteStatement"]);
    }

    #[tokio::test]
    async fn a_statement_that_writes_is_refused_unsent() {
        let replay = Replay::new(&[]);
        let connection = replay.connection().await;
        let write = spec(r#"DELETE FROM "T" WHERE PK = 'a'"#);
        let error = (write.select(&connection, 100, 10, &CancelToken::default()))
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("this statement writes"),
            "{error}"
        );
        assert!(replay.operations().is_empty());
    }
}
