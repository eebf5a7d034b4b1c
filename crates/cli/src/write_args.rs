//! Arguments of the subcommands that write items or files: `put`, `delete`, `export`,
//! `import`.

use clap::Args;

use crate::flags::{RuleFlags, count, positive};

/// `dynoscope put`.
#[derive(Debug, Args)]
pub struct PutArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The whole item as DynamoDB JSON: '{"PK": {"S": "POST#a91f"}, "SK": {"S": "META"}}'.
    #[arg(long, value_name = "DDB-JSON")]
    pub item: String,
    /// Only when no item has this key (attribute_not_exists): never replace one.
    #[arg(long)]
    pub create_only: bool,
}

/// `dynoscope get`.
#[derive(Debug, Args)]
pub struct GetArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// A key attribute as NAME=VALUE; give each key attribute once.
    #[arg(long = "key", value_name = "NAME=VALUE", required = true)]
    pub keys: Vec<String>,
}

/// `dynoscope delete`.
#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// A key attribute as NAME=VALUE; give each key attribute once.
    #[arg(
        long = "key",
        value_name = "NAME=VALUE",
        required_unless_present = "from_query",
        conflicts_with = "from_query"
    )]
    pub keys: Vec<String>,
    /// Delete every item a Query of --pk reads (with --sk-begins-with, only those): counted
    /// first, then deleted in batches of 25 (--yes, even on this machine).
    #[arg(long, requires = "pk")]
    pub from_query: bool,
    /// With --from-query: the partition key value.
    #[arg(long, allow_hyphen_values = true)]
    pub pk: Option<String>,
    /// With --from-query: only sort keys beginning with this.
    #[arg(long, allow_hyphen_values = true, requires = "from_query")]
    pub sk_begins_with: Option<String>,
    /// With --from-query: how it is counted and confirmed.
    #[command(flatten)]
    pub purge: PurgeFlags,
}

/// `dynoscope export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Only this partition (partition key value): a Query instead of a Scan.
    #[arg(long, allow_hyphen_values = true)]
    pub pk: Option<String>,
    /// csv, jsonl, ddb-json or s3-export.
    #[arg(long, default_value = "ddb-json")]
    pub format: String,
    /// Compress the file with gzip (an --out ending in .gz always is).
    #[arg(long)]
    pub gzip: bool,
    /// The file to write: a new file, written beside it first and given this name only when
    /// complete. An existing file (or a symbolic link) is refused unless --force.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Replace the file at --out if there is one (a symbolic link is replaced itself, never
    /// the file it points to).
    #[arg(long)]
    pub force: bool,
    /// Segments of the parallel scan of a whole table (at most 64 read at once, at most 1,000 in
    /// all).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true, value_parser = positive)]
    pub segments: usize,
}

/// `dynoscope import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The table to put the items into.
    #[arg(long)]
    pub table: String,
    /// csv, jsonl, ddb-json or s3-export (each plain or gzipped); s3-export when not given
    /// with --from-export.
    #[arg(long, required_unless_present = "from_export")]
    pub format: Option<String>,
    /// Read and check everything, print the preview, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// An export of DynamoDB's to S3 instead of PATH: `s3://BUCKET/PREFIX/AWSDynamoDB/ID/`
    /// (its manifest names the data objects; each is streamed twice, checked then written,
    /// never copied here) or its download's folder here.
    #[arg(long, value_name = "LOCATION", conflicts_with = "path")]
    pub from_export: Option<std::path::PathBuf>,
    /// Skip the lines that are not items DynamoDB would take and import the others; the
    /// skipped lines are written to FILE.rejected, each after a `#` line saying why (fix them
    /// there and import that file). Exit 1 when any was skipped.
    #[arg(long)]
    pub skip_invalid: bool,
    /// How to read a CSV column: NAME=S, NAME=N, NAME=BOOL (by default each cell by its text).
    #[arg(long = "type", value_name = "NAME=TYPE")]
    pub types: Vec<String>,
    /// Batches of 25 in flight at once (at most 64; 1 sends each after the last one's answer).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true, value_parser = positive)]
    pub concurrency: usize,
    /// Items shown in the preview.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = count)]
    pub preview: usize,
    /// The counters the file's items are children of (--tally and its rule).
    #[command(flatten)]
    pub counters: RuleFlags,
    /// The file, or a folder (an S3 export: every .json and .json.gz regular file under it;
    /// links to folders are not followed), or an export in S3 (`s3://…`).
    #[arg(required_unless_present = "from_export")]
    pub path: Option<std::path::PathBuf>,
}

impl ImportArgs {
    /// What is read: PATH, or the export given with --from-export.
    pub fn source(&self) -> std::path::PathBuf {
        (self.from_export.clone().or_else(|| self.path.clone())).unwrap_or_default()
    }

    /// The format named, or the export's.
    pub fn format(&self) -> String {
        (self.format.clone()).unwrap_or_else(|| "s3-export".to_owned())
    }
}

/// How a delete of many items is counted, confirmed and told.
#[derive(Debug, Args)]
pub struct PurgeFlags {
    /// Count the items and show the first keys and the counters they move; delete nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// When the items are counted children (--tally): `repair` counts each parent's children
    /// again after the delete and sets its tally (a guarded SET), `leave` leaves the tallies
    /// too high. Without a choice, a delete that moves tallies is refused.
    #[arg(long, value_name = "repair|leave")]
    pub tallies: Option<String>,
    /// The counters the items are children of.
    #[command(flatten)]
    pub counters: RuleFlags,
}
