//! Arguments of the subcommands that write items or files: `put`, `delete`, `export`,
//! `import`.

use clap::Args;

use crate::cli::flags::{count, positive};

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
    /// The item as DynamoDB JSON (types kept) rather than plain JSON.
    #[arg(long)]
    pub json: bool,
}

/// `dynoscope delete`.
#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// A key attribute as NAME=VALUE; give each key attribute once.
    #[arg(long = "key", value_name = "NAME=VALUE", required = true)]
    pub keys: Vec<String>,
}

/// `dynoscope export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Only this partition (partition key value): a Query instead of a Scan.
    #[arg(long)]
    pub pk: Option<String>,
    /// csv, jsonl, ddb-json or s3-export.
    #[arg(long, default_value = "ddb-json")]
    pub format: String,
    /// Compress the file with gzip.
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
    /// csv, jsonl, ddb-json or s3-export (each plain or gzipped).
    #[arg(long)]
    pub format: String,
    /// Read and check everything, print the preview, write nothing.
    #[arg(long)]
    pub dry_run: bool,
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
    /// Before writing, say what the file does to this tally: its children (sort keys beginning
    /// with --child-prefix) counted per parent, and the tallies they leave behind.
    #[arg(long)]
    pub tally: Option<String>,
    /// With --tally: the sort key of parent items.
    #[arg(long, default_value = "META", requires = "tally")]
    pub parent_sk: String,
    /// With --tally: only partitions beginning with this are parents, e.g. `POST#`.
    #[arg(long, default_value = "", requires = "tally")]
    pub parent_prefix: String,
    /// With --tally: children's sort keys begin with this, e.g. `LIKE#`.
    #[arg(long, default_value = "", requires = "tally")]
    pub child_prefix: String,
    /// The file, or a folder (an S3 export: every .json and .json.gz regular file under it;
    /// links to folders are not followed).
    pub path: std::path::PathBuf,
}
