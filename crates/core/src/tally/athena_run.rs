//! The reconcile's Athena SQL run in Athena, on AWS's fleet: the export's items made a table
//! (`CREATE EXTERNAL TABLE IF NOT EXISTS`, named for the export's folder so that another export
//! never answers for this one), the query started in a workgroup with an output location,
//! followed until it ends (Cancel stops the query: it is a read, and stopping it stops its
//! bill), its rows read page after page and turned into the same parent checks every route
//! gives, and its scanned bytes priced.

use std::time::Duration;

use aws_sdk_athena::Client;
use aws_sdk_athena::error::ProvideErrorMetadata;
use aws_sdk_athena::types::{
    QueryExecutionContext, QueryExecutionState, ResultConfiguration, ResultSet, Row,
};
use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cancel::{CancelToken, not_stopped};
use crate::condition::ScalarType;
use crate::connection::Connection;
use crate::cost::{Pricing, money};
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::athena::{athena_statements, athena_table, data_folder};
use crate::tally::athena_report::AthenaRun;
use crate::tally::{Count, ParentCheck, TallyRule, drift};
use crate::value::Item;

/// The longest wait between two `GetQueryExecution`s.
const MOST_WAIT: Duration = Duration::from_secs(5);

/// The most result pages read: 1,000 rows each, a million drifted parents.
const MOST_PAGES: u32 = 1_000;

fn primary() -> String {
    "primary".to_owned()
}

fn default_database() -> String {
    "default".to_owned()
}

/// Where and how Athena runs the reconcile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AthenaRunSpec {
    /// The export: its folder (`s3://…/AWSDynamoDB/<ExportId>/`) or its `data/` folder.
    pub location: String,
    /// Where Athena writes the query's results: `s3://BUCKET/PREFIX/`.
    pub output: String,
    /// The workgroup (`primary` when not given).
    #[serde(default = "primary")]
    pub workgroup: String,
    /// The Glue database the export's table is made in (`default` when not given).
    #[serde(default = "default_database")]
    pub database: String,
}

impl AthenaRunSpec {
    fn check(&self) -> Result<()> {
        if !self.output.starts_with("s3://") {
            return Err(Error::Invalid(format!(
                "output: `{}` is not an S3 location for Athena's results (s3://bucket/prefix/)",
                self.output
            )));
        }
        let word = |what: &str, text: &str| {
            let fine = !text.is_empty()
                && text.len() <= 128
                && text
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
            if fine {
                Ok(())
            } else {
                Err(Error::Invalid(format!(
                    "{what}: `{text}` is not a name (1 to 128 letters, digits, `_`, `-`, `.`)"
                )))
            }
        };
        word("workgroup", &self.workgroup)?;
        word("database", &self.database)
    }
}

/// The export's table name in Athena: the table's, and 8 hex digits of the export's folder.
fn table_for(info: &TableInfo, location: &str) -> String {
    // FNV-1a: the same folder always names the same table.
    let hash = data_folder(location)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{}_{:08x}", athena_table(&info.name), hash & 0xffff_ffff)
}

/// Run the reconcile of `rule` over the export `spec` names, in Athena.
pub async fn run_in_athena(
    connection: &Connection,
    (info, rule): (&TableInfo, &TallyRule),
    spec: &AthenaRunSpec,
    stop: &CancelToken,
) -> Result<AthenaRun> {
    spec.check()?;
    let table = table_for(info, &spec.location);
    let statements = athena_statements(info, rule, &spec.location, &table)?;
    let ddl = statements.ddl.replacen(
        "CREATE EXTERNAL TABLE ",
        "CREATE EXTERNAL TABLE IF NOT EXISTS ",
        1,
    );
    let client = connection.athena();
    execute(&client, &ddl, spec, stop).await?;
    let (query_id, scanned) = execute(&client, &statements.query, spec, stop).await?;
    let (rows, pages) = results(&client, &query_id, stop).await?;
    let checks = rows
        .iter()
        .map(|row| parent_check(info, rule, row))
        .collect::<Result<Vec<_>>>()?;
    let pricing = connection.region_pricing();
    Ok(AthenaRun {
        table: info.name.clone(),
        athena_table: table,
        location: data_folder(&spec.location),
        checks,
        query_id,
        pages,
        scanned_bytes: scanned,
        price: price_words(&pricing, scanned),
        pricing,
    })
}

/// What `scanned` bytes cost in Athena, in words (at least its minimum a query).
fn price_words(pricing: &Pricing, scanned: Option<i64>) -> Option<String> {
    let prices = pricing.prices.as_ref()?;
    let per_tb = prices.beyond.athena_tb.as_ref()?;
    let least = prices.beyond.athena_min_mb.clone().unwrap_or_default() * BigDecimal::from(1 << 20);
    let bytes = BigDecimal::from(scanned.unwrap_or(0)).max(least);
    let amount = &bytes * per_tb / BigDecimal::from(1_u64 << 40);
    Some(format!(
        "≈ {} ({} per TB scanned, at least 10 MB a query)",
        money(&amount, &prices.sign()),
        money(per_tb, &prices.sign())
    ))
}

/// Start `sql` and follow it until it succeeds: its ID and the bytes it scanned.
async fn execute(
    client: &Client,
    sql: &str,
    spec: &AthenaRunSpec,
    stop: &CancelToken,
) -> Result<(String, Option<i64>)> {
    let started = client
        .start_query_execution()
        .query_string(sql)
        .work_group(&spec.workgroup)
        .query_execution_context(
            QueryExecutionContext::builder()
                .database(&spec.database)
                .build(),
        )
        .result_configuration(
            ResultConfiguration::builder()
                .output_location(&spec.output)
                .build(),
        )
        .send()
        .await
        .map_err(|e| Error::Invalid(format!("StartQueryExecution: {}", sdk_words(&e))))?;
    let id = started.query_execution_id().unwrap_or_default().to_owned();
    let mut wait = Duration::from_millis(200);
    loop {
        let out = client
            .get_query_execution()
            .query_execution_id(&id)
            .send()
            .await
            .map_err(|e| Error::Invalid(format!("GetQueryExecution: {}", sdk_words(&e))))?;
        let execution = out.query_execution();
        let status = execution.and_then(|e| e.status());
        match status.and_then(|s| s.state()) {
            Some(QueryExecutionState::Succeeded) => {
                let scanned = execution
                    .and_then(|e| e.statistics())
                    .and_then(|s| s.data_scanned_in_bytes());
                return Ok((id, scanned));
            }
            Some(state @ (QueryExecutionState::Failed | QueryExecutionState::Cancelled)) => {
                let why = status
                    .and_then(|s| s.state_change_reason())
                    .unwrap_or("no reason given");
                return Err(Error::Invalid(format!(
                    "Athena query {id} ended {}: {why}",
                    state.as_str()
                )));
            }
            _ => {}
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = stop.cancelled() => {
                // A read: stopping it stops its bill too.
                let _ = client.stop_query_execution().query_execution_id(&id).send().await;
                return Err(Error::Cancelled { op: "GetQueryExecution" });
            }
        }
        wait = (wait * 2).min(MOST_WAIT);
    }
}

fn sdk_words<E, R>(error: &aws_sdk_athena::error::SdkError<E, R>) -> String
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    match (error.code(), error.message()) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        _ => aws_sdk_athena::error::DisplayErrorContext(error).to_string(),
    }
}

/// One result row, by column name.
type NamedRow = Vec<(String, Option<String>)>;

/// A query's rows gathered from its `GetQueryResults` pages: the column names from the
/// result's metadata, the first page's header row (a `SELECT`'s column names) left out, and no
/// other row, whatever it holds.
#[derive(Debug, Default)]
struct Pages {
    names: Vec<String>,
    rows: Vec<NamedRow>,
    read: u32,
}

impl Pages {
    /// Add one page's result set.
    fn add(&mut self, set: Option<&ResultSet>) {
        self.read += 1;
        if self.names.is_empty() {
            self.names = (set.and_then(|s| s.result_set_metadata()))
                .map(|m| {
                    m.column_info()
                        .iter()
                        .map(|c| c.name().to_owned())
                        .collect()
                })
                .unwrap_or_default();
        }
        for (i, row) in set.map(|s| s.rows()).unwrap_or_default().iter().enumerate() {
            let values = cells(row);
            let header = self.read == 1
                && i == 0
                && (values.iter().map(|v| v.as_deref()))
                    .eq(self.names.iter().map(|n| Some(n.as_str())));
            if !header {
                self.rows
                    .push(self.names.iter().cloned().zip(values).collect());
            }
        }
    }
}

/// Every row of query `id`, page after page, by column name; the header row left out.
async fn results(client: &Client, id: &str, stop: &CancelToken) -> Result<(Vec<NamedRow>, u32)> {
    let mut pages = Pages::default();
    let mut next: Option<String> = None;
    while pages.read < MOST_PAGES {
        not_stopped(stop, "GetQueryResults")?;
        let out = client
            .get_query_results()
            .query_execution_id(id)
            .max_results(1000)
            .set_next_token(next.clone())
            .send()
            .await
            .map_err(|e| Error::Invalid(format!("GetQueryResults: {}", sdk_words(&e))))?;
        pages.add(out.result_set());
        match out.next_token() {
            Some(token) if next.as_deref() != Some(token) => next = Some(token.to_owned()),
            _ => return Ok((pages.rows, pages.read)),
        }
    }
    Err(Error::Invalid(format!(
        "Athena query {id}: over {MOST_PAGES} pages of results"
    )))
}

fn cells(row: &Row) -> Vec<Option<String>> {
    row.data()
        .iter()
        .map(|d| d.var_char_value().map(str::to_owned))
        .collect()
}

/// One row (`pk`, `stored`, `counted`) as the parent check every route gives; the drift worked
/// out here, exactly.
fn parent_check(
    info: &TableInfo,
    rule: &TallyRule,
    row: &[(String, Option<String>)],
) -> Result<ParentCheck> {
    let get = |name: &str| {
        row.iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    let pk = get("pk").ok_or_else(|| Error::Invalid("an Athena row without its pk".to_owned()))?;
    let stored = get("stored");
    let counted: u64 = get("counted")
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| Error::Invalid(format!("Athena's row of {pk}: no count of children")))?;
    let mut key = Item::new();
    let value = match info.partition.kind {
        ScalarType::N => AttributeValue::N(pk.clone()),
        _ => AttributeValue::S(pk.clone()),
    };
    key.insert(info.partition.name.clone(), value);
    if let Some(sort) = &info.sort {
        key.insert(
            sort.name.clone(),
            AttributeValue::S(rule.parents.sort_key.clone()),
        );
    }
    Ok(ParentCheck {
        key,
        partition: pk,
        drift: drift(stored.as_deref(), counted)?,
        stored,
        count: Count {
            count: counted,
            pages: 0,
            consumed_rcu: 0.0,
            elapsed_ms: 0,
            method: "counted by Athena over the export".to_owned(),
        },
        last_touched: None,
    })
}

#[cfg(test)]
#[path = "athena_run_tests.rs"]
mod tests;
