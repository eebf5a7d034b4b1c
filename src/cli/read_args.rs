//! Arguments of the subcommands that read: `items`, `scan`, `partiql`, `sql`.

use std::time::Duration;

use clap::Args;

use crate::cli::flags::{page_size, positive};

/// `dynoscope items`.
#[derive(Debug, Args)]
pub struct ItemsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The partition key value.
    #[arg(long)]
    pub pk: String,
    /// Query this index instead of the table.
    #[arg(long)]
    pub index: Option<String>,
    /// Sort key equals.
    #[arg(long, group = "sk")]
    pub sk_eq: Option<String>,
    /// Sort key less than.
    #[arg(long, group = "sk")]
    pub sk_lt: Option<String>,
    /// Sort key less than or equal.
    #[arg(long, group = "sk")]
    pub sk_le: Option<String>,
    /// Sort key greater than.
    #[arg(long, group = "sk")]
    pub sk_gt: Option<String>,
    /// Sort key greater than or equal.
    #[arg(long, group = "sk")]
    pub sk_ge: Option<String>,
    /// Sort key begins with.
    #[arg(long, group = "sk")]
    pub sk_begins_with: Option<String>,
    /// Sort key between two values (inclusive).
    #[arg(long, group = "sk", num_args = 2, value_names = ["LOW", "HIGH"])]
    pub sk_between: Option<Vec<String>>,
    /// Descending sort-key order.
    #[arg(long)]
    pub desc: bool,
    /// Stop after this many items (sent to the server as each request's Limit).
    #[arg(long, allow_negative_numbers = true, value_parser = positive)]
    pub limit: Option<usize>,
    /// Go on after this key (DynamoDB JSON), as printed when a read stopped early.
    #[arg(long, value_name = "JSON")]
    pub start_key: Option<String>,
    /// Give up when one page request has been throttled for this many seconds in all.
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = parse_throttle_wait)]
    pub max_throttle_wait: Duration,
    /// Print DynamoDB JSON, one item per line (plain JSON otherwise).
    #[arg(long)]
    pub json: bool,
}

/// `dynoscope scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Scan this index instead of the table.
    #[arg(long)]
    pub index: Option<String>,
    /// Parallel scan with this many segments (at most 64 are read at a time, at most 1,000 in
    /// all; more than 64 and than the table's size can use only with --yes); items are printed
    /// as each segment's pages arrive, so segments interleave.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = positive)]
    pub segments: usize,
    /// Stop after this many items (sent to the server as each request's Limit).
    #[arg(long, allow_negative_numbers = true, value_parser = positive)]
    pub limit: Option<usize>,
    /// Go on after this key (DynamoDB JSON), as printed when a scan stopped early. With
    /// --segments: SEGMENT=JSON, once per segment to go on with (`SEGMENT={}` or
    /// `FIRST-LAST={}` from the beginning); segments not given are done.
    #[arg(long = "start-key", value_name = "[SEGMENT=]JSON")]
    pub start_keys: Vec<String>,
    /// Give up when one page request has been throttled for this many seconds in all.
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = parse_throttle_wait)]
    pub max_throttle_wait: Duration,
    /// Print DynamoDB JSON, one item per line (plain JSON otherwise).
    #[arg(long)]
    pub json: bool,
}

/// `dynoscope partiql`.
#[derive(Debug, Args)]
pub struct PartiqlArgs {
    /// The statement, e.g. 'SELECT * FROM "Videos" WHERE PK = ?'.
    pub statement: String,
    /// The value of the next `?`, as DynamoDB JSON: '{"S": "VID#9f3a"}'. Once per `?`, in order.
    #[arg(long = "param", value_name = "DDB-JSON", allow_hyphen_values = true)]
    pub params: Vec<String>,
    /// SELECT: stop after this many items.
    #[arg(long, allow_negative_numbers = true, value_parser = positive)]
    pub limit: Option<usize>,
    /// SELECT: evaluate at most this many items per request (ExecuteStatement's Limit).
    #[arg(long, allow_negative_numbers = true, value_parser = page_size)]
    pub page_size: Option<i32>,
    /// Print DynamoDB JSON, one item per line (plain JSON otherwise); a write's report as one
    /// JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `dynoscope sql`.
#[derive(Debug, Args)]
pub struct SqlArgs {
    /// Read TABLE (a Scan) or one partition of it (a Query) into the SQL table NAME; repeat for
    /// more tables.
    #[arg(long = "load", value_name = "NAME=TABLE[:PARTITION]")]
    pub loads: Vec<String>,
    /// The SQL text (it may begin with a `--` comment).
    #[arg(allow_hyphen_values = true)]
    pub sql: String,
    /// Print at most this many rows.
    #[arg(long, default_value_t = crate::core::sql::MAX_ROWS, allow_negative_numbers = true, value_parser = positive)]
    pub max_rows: usize,
    /// Errors as a JSON object (rows are always JSON).
    #[arg(long)]
    pub json: bool,
}

/// A throttling budget in seconds: 0 (give up at the first throttle) to an hour.
fn parse_throttle_wait(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|secs| (0.0..=3600.0).contains(secs))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("`{text}` is not a number of seconds from 0 to 3600"))
}
