//! Arguments of the subcommands that read: `items`, `scan`, `partiql`, `sql`, `check`.

use clap::Args;

use crate::flags::{RuleFlags, page_size, positive};
use dynoscope_core::spec::{PlanChoice, ReadSpec, RuleSpec, TallySpec};

/// `dynoscope items`.
#[derive(Debug, Args)]
pub struct ItemsArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The partition key value.
    #[arg(long, allow_hyphen_values = true)]
    pub pk: String,
    /// Query this index instead of the table.
    #[arg(long)]
    pub index: Option<String>,
    /// Sort key equals.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_eq: Option<String>,
    /// Sort key less than.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_lt: Option<String>,
    /// Sort key less than or equal.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_le: Option<String>,
    /// Sort key greater than.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_gt: Option<String>,
    /// Sort key greater than or equal.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_ge: Option<String>,
    /// Sort key begins with.
    #[arg(long, allow_hyphen_values = true, group = "sk")]
    pub sk_begins_with: Option<String>,
    /// Sort key between two values (inclusive).
    #[arg(long, allow_hyphen_values = true, group = "sk", num_args = 2, value_names = ["LOW", "HIGH"])]
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
}

impl ItemsArgs {
    /// The read the arguments describe, for the read spec to check.
    pub fn spec(&self) -> ReadSpec {
        ReadSpec {
            table: self.table.clone(),
            index: self.index.clone(),
            pk: Some(self.pk.clone()),
            sk_eq: self.sk_eq.clone(),
            sk_lt: self.sk_lt.clone(),
            sk_le: self.sk_le.clone(),
            sk_gt: self.sk_gt.clone(),
            sk_ge: self.sk_ge.clone(),
            sk_begins_with: self.sk_begins_with.clone(),
            sk_between: self.sk_between.clone(),
            descending: self.desc,
            limit: self.limit,
            page_size: None,
            start_key: self.start_key.clone(),
            max_pages: None,
            filters: Vec::new(),
            any_filter: false,
        }
    }
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
    #[arg(long, default_value_t = dynoscope_core::sql::MAX_ROWS, allow_negative_numbers = true, value_parser = positive)]
    pub max_rows: usize,
}

/// `dynoscope check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The tally rule.
    #[command(flatten)]
    pub rule: RuleFlags,
    /// Check this parent (partition key value).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "all")]
    pub pk: Option<String>,
    /// Check every parent (a Scan with the parent filter).
    #[arg(long)]
    pub all: bool,
    /// Parents counted at once (at most 64 run at a time).
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = positive)]
    pub concurrency: usize,
    /// Sum the shards whose sort key begins with this prefix (with --pk).
    #[arg(long, requires = "pk", conflicts_with = "all")]
    pub shards: Option<String>,
    /// With --all: `one-pass` (a parallel scan reading each item once), `per-parent` (a COUNT
    /// query per parent) or `auto` (the cheaper by the estimate printed first).
    #[arg(long, default_value = "auto", value_parser = plan_choice)]
    pub plan: PlanChoice,
    /// Reconcile every parent from this DynamoDB export (an S3 export's folder or file, or
    /// DynamoDB JSON lines), read locally, or from `s3://BUCKET/PREFIX` (the export's folder,
    /// its data objects streamed): no read capacity used.
    #[arg(long, conflicts_with_all = ["pk", "all", "shards"])]
    pub from_export: Option<std::path::PathBuf>,
    /// Check a window's writes from this incremental export (its folder or a data file, made
    /// with the new-and-old-images view): per parent, the children inserted minus removed
    /// against the tally's move; the parents that gained a drift, with the records that did it.
    #[arg(long, conflicts_with_all = ["pk", "all", "shards", "from_export", "athena"])]
    pub incremental_export: Option<std::path::PathBuf>,
    /// The export's format: s3-export or ddb-json.
    #[arg(long, default_value = "s3-export", requires = "from_export")]
    pub export_format: String,
    /// Print the Athena SQL reconciling the export at this S3 location (its folder or its data/
    /// folder), and read nothing; with --run, run it in Athena.
    #[arg(long, conflicts_with_all = ["pk", "all", "shards", "from_export"])]
    pub athena: Option<String>,
    /// Run the --athena SQL in Athena (StartQueryExecution, followed, every result page read):
    /// the drifted parents as every route gives them, the bytes scanned priced.
    #[arg(long, requires_all = ["athena", "athena_output"])]
    pub run: bool,
    /// Where Athena writes the query's results (s3://BUCKET/PREFIX/), with --run.
    #[arg(long, value_name = "S3_URL", requires = "run")]
    pub athena_output: Option<String>,
    /// The Athena workgroup, with --run.
    #[arg(long, default_value = "primary", requires = "run")]
    pub workgroup: String,
    /// The Glue database the export's table is made in, with --run.
    #[arg(long, default_value = "default", requires = "run")]
    pub database: String,
    /// How long each Athena query is followed before it is stopped, in seconds (1 to 86400;
    /// 600 when not given), with --run.
    #[arg(long, value_name = "SECONDS", requires = "run",
        value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub athena_wait: Option<u64>,
    /// Repair the drifted tally of --pk, or with --all every drifted parent afterwards: a
    /// guarded SET each (the tally set to the children counted, on the condition it is still
    /// what was read), through the write gateway, each parent checked again; one confirmation
    /// for all (--yes off this machine). Not from an export: its counts are as old as the
    /// export.
    #[arg(long, conflicts_with_all = ["shards", "athena", "from_export"])]
    pub repair: bool,
    /// Read nothing: print the reconcile (of --pk, or of every parent with --all) as a whole
    /// program in TARGET (boto3, js, ts, go or rust): every page read, the drifted parents printed as JSON
    /// lines, exit 1 when any.
    #[arg(
        long,
        value_name = "TARGET",
        conflicts_with_all = ["repair", "shards", "athena", "from_export", "incremental_export"]
    )]
    pub program: Option<String>,
}

impl CheckArgs {
    /// The check the arguments describe, for the tally spec to check.
    pub fn spec(&self) -> TallySpec {
        TallySpec {
            table: self.table.clone(),
            pk: self.pk.clone(),
            rule: self.rule(),
            plan: self.plan,
            concurrency: self.concurrency,
        }
    }

    /// The rule the arguments describe, for the rule spec to check.
    pub fn rule(&self) -> RuleSpec {
        self.rule.spec(self.shards.clone())
    }
}

fn plan_choice(text: &str) -> Result<PlanChoice, String> {
    PlanChoice::parse(text).map_err(|e| e.reason)
}
