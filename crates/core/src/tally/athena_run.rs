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
    QueryExecutionContext, QueryExecutionState, QueryExecutionStatistics, ResultConfiguration,
};
use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cancel::{CancelToken, not_stopped};
use crate::connection::Connection;
use crate::cost::{Pricing, money};
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::RuledTable;
use crate::tally::athena::{athena_statements, athena_table, data_folder};
use crate::tally::athena_report::AthenaRun;
use crate::tally::athena_rows::{NamedRow, Pages, drifted_checks};

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
    /// How long a query is followed before it is stopped, in seconds (10 minutes when not
    /// given; 1 to 86,400).
    #[serde(default)]
    pub wait_seconds: Option<u64>,
}

/// How long a query is followed when the spec does not say.
const DEFAULT_FOLLOWING: Duration = Duration::from_mins(10);

impl AthenaRunSpec {
    /// How long each query is followed before it is stopped.
    fn following(&self) -> Duration {
        self.wait_seconds.map_or(DEFAULT_FOLLOWING, |s| {
            Duration::from_secs(s.clamp(1, 86_400))
        })
    }

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

/// Run the reconcile of `table`'s rule over the export `spec` names, in Athena.
pub async fn run_in_athena(
    connection: &Connection,
    table: RuledTable<'_>,
    spec: &AthenaRunSpec,
    stop: &CancelToken,
) -> Result<AthenaRun> {
    let RuledTable { info, rule } = table;
    spec.check()?;
    if connection.is_read_only() {
        // Not a read: Athena makes a Glue table and writes the query's results to S3.
        return Err(Error::ReadOnly {
            place: format!(
                "{} (a run in Athena creates a Glue table in `{}` and writes its results to {})",
                crate::write::Destination::of(connection).place(),
                spec.database,
                spec.output
            ),
        });
    }
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
    let checks = drifted_checks(info, rule, &rows)?;
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
    let deadline = tokio::time::Instant::now() + spec.following();
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
                    .and_then(QueryExecutionStatistics::data_scanned_in_bytes);
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
        if tokio::time::Instant::now() + wait > deadline {
            // Followed as long as it may be: stopped, as a Cancel would, so its bill stops.
            let _ = client
                .stop_query_execution()
                .query_execution_id(&id)
                .send()
                .await;
            return Err(Error::Timeout {
                op: "GetQueryExecution",
                detail: format!(
                    "Athena query {id} was still {} after {} s; it was stopped (give more with \
                     --athena-wait)",
                    status
                        .and_then(|s| s.state())
                        .map_or("not finished", |s| s.as_str()),
                    spec.following().as_secs()
                ),
            });
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

#[cfg(test)]
#[path = "athena_run_tests.rs"]
mod tests;
