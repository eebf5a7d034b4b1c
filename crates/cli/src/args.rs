//! Command-line arguments, AWS CLI style.

use clap::{Args, Parser};

pub(crate) use crate::cost_args::{ShardsAdviceArgs, SizeArgs};
use crate::exit::EXIT_TABLE;
pub(crate) use crate::expr_args::{ExprArgs, ExprKind};
pub use crate::flags::{ConnectionFlags, OutputFlags};
pub(crate) use crate::like_args::{LikeArgs, LikeTargetArgs, StormArgs};
pub(crate) use crate::read_args::{CheckArgs, ItemsArgs, PartiqlArgs, ScanArgs, SqlArgs};
pub(crate) use crate::write_args::{DeleteArgs, ExportArgs, GetArgs, ImportArgs, PutArgs};
use dynoscope_core::counter::EditMode;

/// The version `--version` says: the crate's, and the commit it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("DYNOSCOPE_COMMIT"),
    ")"
);

/// dynoscope: inspect DynamoDB item collections and verify counters.
///
/// Without a subcommand, opens the desktop app (a headless build says it has none). `dynoscope
/// paths` says where it keeps things; `dynoscope man` and `dynoscope completions` make its man
/// pages and shell completions.
#[derive(Debug, Parser)]
#[command(
    name = "dynoscope",
    version = VERSION,
    about = "A DynamoDB table inspector for people who keep counters: the desktop app, its CLI twin and an MCP server",
    after_help = EXIT_TABLE
)]
pub struct Cli {
    /// Where to connect.
    #[command(flatten)]
    pub connection: ConnectionFlags,
    /// How results are shown.
    #[command(flatten)]
    pub output: OutputFlags,
    /// What to do; the desktop app when none.
    #[command(subcommand)]
    pub command: Option<Subcommand>,
}

impl Cli {
    /// The command line, parsed as [`clap::Parser::parse`] does, with every subcommand's
    /// `--table` held to the name rule DynamoDB holds it to (one rule, the schema's), so a name
    /// it would refuse is refused in words before anything is sent. Exits on a parse error.
    pub fn parse_checked() -> Self {
        let matches =
            crate::flags::with_table_names_checked(<Self as clap::CommandFactory>::command())
                .get_matches();
        <Self as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// List every table (all pages of ListTables).
    #[command(after_help = EXIT_TABLE)]
    Tables,
    /// Describe a table: keys, indexes, item count, size, billing, stream, TTL.
    #[command(after_help = EXIT_TABLE)]
    Describe {
        /// The table.
        #[arg(long)]
        table: String,
    },
    /// Query one item collection.
    #[command(after_help = EXIT_TABLE)]
    Items(ItemsArgs),
    /// Scan a table or index.
    #[command(after_help = EXIT_TABLE)]
    Scan(ScanArgs),
    /// Change a number attribute of an existing item by a delta: ADD (default), SET
    /// if_not_exists + d, or exact.
    ///
    /// Prints old, new and expected values and consumed capacity. A missing item is refused
    /// (exit 1) unless --create. Exit status: 0 applied, 1 refused (condition failed, item
    /// missing), 2 bad input or error before sending, 3 outcome unknown (not re-sent).
    #[command(after_help = EXIT_TABLE)]
    Add(AddArgs),
    /// Compare parents' stored tallies with their counted children (or sum a sharded counter).
    ///
    /// Prints one line per parent (pk, stored, counted, drift) and a summary. Exit status:
    /// 0 every checked parent matches, 1 any drifted or could not be checked (each listed, the
    /// others checked), 2 on error. With --repair, each drifted parent is then repaired by a
    /// guarded SET (one confirmation for all: --yes off this machine), stopping at an unknown
    /// outcome: 0 all repaired, 1 some refused (the tally moved), 3 an outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Check(CheckArgs),
    /// Like a parent as a user: one TransactWriteItems (Put the child if absent, ADD 1 to the
    /// existing parent).
    ///
    /// Exit status: 0 committed, 1 cancelled (already liked, parent missing), 2 error before
    /// sending, 3 outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Like(LikeArgs),
    /// Unlike: Delete the child if present and ADD -1, in one transaction.
    #[command(after_help = EXIT_TABLE)]
    Unlike(LikeArgs),
    /// N simulated users like (some twice, some then unlike) at concurrency K; then what the
    /// storm changed is compared: the tally must move exactly as the children did.
    ///
    /// Exit status: 0 the storm's own change was consistent, 1 it was not (or writes were
    /// refused), 2 error before it started, 3 some outcomes unknown.
    #[command(after_help = EXIT_TABLE)]
    Storm(StormArgs),
    /// Build a request from readable expressions and print it as code (no connection needed).
    ///
    /// Every name is aliased (reserved words such as `count` may be typed bare; a note on stderr
    /// says which placeholder each is sent as) and values (literals such as 1 or 'text') become
    /// placeholders; placeholders given with --names and --values are kept. Exit status: 0
    /// printed, 2 bad input (the error on stderr, at its place).
    #[command(after_help = EXIT_TABLE)]
    Expr(ExprArgs),
    /// Run one PartiQL statement (ExecuteStatement) with typed `?` parameters.
    ///
    /// A SELECT prints its items one per line, every page followed (NextToken), and a summary
    /// on stderr. INSERT, UPDATE and DELETE go through the write gateway: sent once, never
    /// again after a lost answer. Exit status: 0 read or applied, 1 refused (the WHERE did not
    /// hold, the item exists), 2 bad input or error before sending, 3 outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Partiql(PartiqlArgs),
    /// SQL over loaded rows: each --load reads a table (Scan) or one partition (Query) into an
    /// SQL table, then the SQL runs on this machine (SQLite); rows out as JSON, one per line.
    ///
    /// Numbers stay exact. Every statement runs in order; the rows printed are those of the
    /// last statement that returns rows. Exit status: 0 done, 2 bad input, a read error, or a
    /// statement SQLite cannot run (the error names its line and column).
    #[command(after_help = EXIT_TABLE)]
    Sql(SqlArgs),
    /// Write a table (Scan) or one partition (--pk) to a file: csv, jsonl (plain JSON),
    /// ddb-json (DynamoDB JSON) or s3-export (`{"Item": …}` per line, as DynamoDB's export to
    /// S3 writes), gzipped with --gzip or an --out ending in .gz. Numbers exact in all of them.
    /// The file is written beside --out and takes its name only when complete; an existing file
    /// is left as it is unless --force.
    ///
    /// Exit status: 0 written, 2 bad input (the file exists), or a read or file error.
    #[command(after_help = EXIT_TABLE)]
    Export(ExportArgs),
    /// Put every item of a file (or of an S3 export's folder) into a table, in batches of 25.
    ///
    /// Every file is read twice, streamed: first every line is read and checked (values, item
    /// size, the table's and indexes' keys, no key twice); every malformed line is listed in one
    /// read (the first 100 by file and line, then a count), and any stops the import before any
    /// write; then the lines are read again and sent, a
    /// few batches at a time. Items the server leaves unprocessed are sent again with a growing
    /// wait. Ctrl-C sends no new batch and waits for those in flight. Exit status: 0 all
    /// written or a dry run, 1 some refused or not sent (some perhaps written), 2 bad input or
    /// nothing written because the server found the input invalid, 3 some outcomes unknown.
    #[command(after_help = EXIT_TABLE)]
    Import(ImportArgs),
    /// Read one item by its key (a consistent GetItem), without a query.
    ///
    /// Prints the item on one line (plain JSON, or DynamoDB JSON with --json), numbers exact.
    /// Exit status: 0 found, 1 no item has the key, 2 bad input (a key attribute missing,
    /// mistyped or unknown) or error.
    #[command(after_help = EXIT_TABLE)]
    Get(GetArgs),
    /// Put one whole item (DynamoDB JSON), replacing any item with its key unless
    /// --create-only.
    ///
    /// Exit status: 0 applied, 1 refused (--create-only and the key exists; the item as stored
    /// is printed), 2 bad input or error before sending, 3 outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Put(PutArgs),
    /// Delete one item by its key.
    ///
    /// Exit status: 0 applied (also when there was no such item), 2 bad input or error before
    /// sending, 3 outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Delete(DeleteArgs),
    /// Serve the connection to a coding agent over MCP (stdio) until the client leaves or
    /// Ctrl-C: list, describe, query, scan, get, check tallies, reconcile, sum shards, SQL and
    /// PartiQL SELECT; the write tools only with --allow-writes (off this machine also --yes),
    /// never on a read-only connection. Every call is appended to the audit log.
    ///
    /// Exit status: 0 the client left or Ctrl-C, 2 it could not start (a bad flag, no
    /// connection, an audit log that cannot be opened).
    #[command(after_help = EXIT_TABLE)]
    Mcp(McpArgs),
    /// Watch a tally and its children move: the table's stream read and folded under a counter
    /// rule (one parent with --pk, or every parent), each record printed as it comes, each
    /// divergence named by the write that opened it, and a summary at the end.
    ///
    /// A gap between tally and children open longer than --settle is a divergence. Exit
    /// status: 0 no divergence open at the end, 1 one is (each named), 2 bad input or no stream
    /// (the message says the two ways out: --enable-stream, or --poll SECONDS).
    #[command(after_help = EXIT_TABLE)]
    Watch(crate::watch::WatchArgs),
    /// What a table's reads and writes cost on this connection: the prices and where they come
    /// from (`--price-region` picks the region; a `prices.json` in the config folder overrides
    /// the shipped table), a unit, a like, a read of the whole table, and storage a month.
    #[command(after_help = EXIT_TABLE)]
    Cost(crate::cost::CostArgs),
    /// A table's CloudWatch metrics over the last hours: consumed capacity and throttles of the
    /// table and each global index.
    #[command(after_help = EXIT_TABLE)]
    Metrics(crate::metrics::MetricsArgs),
    /// Contributor Insights: status and top keys; --enable/--disable switch it.
    #[command(after_help = EXIT_TABLE)]
    Insights(crate::metrics::InsightsArgs),
    /// The size of one item as DynamoDB counts it, what writing and reading it costs, and how
    /// far it is from 400 KB: an item given (--item, --item-file) or read (--table, --pk).
    ///
    /// Exit status: 0 sized (also over 400 KB, said), 1 no item has the key, 2 bad input.
    #[command(after_help = EXIT_TABLE)]
    Size(SizeArgs),
    /// How many shards a counter needs for a write rate, against one partition's 1,000 WCU/s,
    /// and what reading the total back costs. Exit status: 0 advised, 2 bad input.
    #[command(after_help = EXIT_TABLE)]
    ShardsAdvice(ShardsAdviceArgs),
    /// Delete every item of a table, keeping the table: counted first (--dry-run shows the count
    /// and the first keys), then deleted in batches of 25; --yes even on this machine. Exit
    /// status: 0 all deleted, 1 some left (refused, more than counted, cancelled), 2 refused
    /// before deleting, 3 an outcome unknown.
    #[command(after_help = EXIT_TABLE)]
    Truncate(crate::purge::TruncateArgs),
    /// Clone a table to another connection (--to-endpoint, --to-profile, --to-region,
    /// --to-sandbox-db): its schema (adjusted where the destination cannot take it, said so),
    /// its items (the table in a parallel scan, or one partition with --pk) in batches of 25
    /// through the write gateway, then a check: counts per partition, and a sample compared
    /// item by item.
    ///
    /// An existing destination table is used only when its keys are the source's. Ctrl-C sends
    /// no new batch, waits for those in flight, and prints the --start-key arguments that go on
    /// from there. Exit status: 0 copied and equal, 1 stopped part-way, some refused, or the
    /// check found differences, 2 bad input or refused before anything was written (read-only,
    /// not confirmed, other keys), 3 some outcomes unknown.
    #[command(name = "clone", after_help = EXIT_TABLE)]
    CloneTable(crate::clone::CloneArgs),
    /// Compare two tables by key: this one and one on another connection (--to-endpoint,
    /// --to-profile, --to-region, --to-sandbox-db) or another on this one (--to-table).
    ///
    /// One partition (--pk) or every item (--all); each side read once. Numbers compare as
    /// numbers (1 = 1.0), sets as sets. Exit status: 0 the same, 1 they differ (each
    /// difference listed), 2 bad input (the tables' keys differ).
    Diff(crate::diff::DiffArgs),
    /// Write a tally snapshot: every parent's stored tally and counted children under a rule,
    /// with the table, the place and the time (compared later by diff --snapshot).
    Snapshot(crate::snapshot::SnapshotArgs),
    /// Which way to reconcile a table, each priced and timed: a scan from here, an export then a
    /// reconcile from S3 here, an export then Athena, an incremental export; one recommended.
    #[command(after_help = EXIT_TABLE)]
    Plan(crate::export_args::PlanArgs),
    /// Manage tables: create, update, delete; back up, list backups, restore, delete a backup;
    /// export to S3 and list exports.
    #[command(subcommand)]
    Table(crate::table_args::TableCommand),
    /// Serve the seeded sandbox on a local port for other tools, until Ctrl-C.
    Sandbox {
        /// The port to listen on (127.0.0.1); 0 picks a free one.
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
    /// The shell completion script for bash, zsh, fish, powershell or elvish, on stdout
    /// (`dynoscope completions bash > ~/.local/share/bash-completion/completions/dynoscope`).
    Completions(crate::docs_args::CompletionsArgs),
    /// A man page, made from this binary's own options: `dynoscope man | man -l -`, `dynoscope
    /// man table export`, or every page with --out DIR.
    Man(crate::docs_args::ManArgs),
    /// Where dynoscope keeps things on this machine: its settings, saved queries, price table,
    /// audit log, and the AWS configuration it reads.
    Paths(crate::docs_args::PathsArgs),
}

impl Subcommand {
    /// Whether it may write (so an interrupt can leave a write's outcome unknown).
    pub fn writes(&self) -> bool {
        matches!(
            self,
            Self::Add(_)
                | Self::Like(_)
                | Self::Unlike(_)
                | Self::Storm(_)
                | Self::Partiql(_)
                | Self::Import(_)
                | Self::Put(_)
                | Self::Delete(_)
                | Self::CloneTable(_)
        ) || matches!(self, Self::Mcp(a) if a.allow_writes)
            || matches!(self, Self::Watch(a) if a.enable_stream)
            || matches!(self, Self::Insights(a) if a.enable || a.disable)
            || matches!(self, Self::Check(a) if a.repair)
            || matches!(self, Self::Table(t) if t.writes())
            || matches!(self, Self::Truncate(a) if !a.purge.dry_run)
    }

    /// The word of a subcommand whose output is not a read or a report (code, a script, a page,
    /// a server), which `--output` does not apply to.
    pub fn unshaped(&self) -> Option<&'static str> {
        match self {
            Self::Expr(_) => Some("expr prints code"),
            Self::Completions(_) => Some("completions prints a script"),
            Self::Man(_) => Some("man prints a page"),
            Self::Sandbox { .. } => Some("sandbox prints its endpoint"),
            Self::Mcp(_) => Some("mcp speaks MCP on stdout"),
            Self::Table(t) if t.prints_code() => Some("table iac prints code"),
            Self::Like(a) | Self::Unlike(a) if a.program.is_some() => {
                Some("a like's --program prints code")
            }
            Self::Check(a) if a.athena.is_some() && !a.run => Some("check --athena prints SQL"),
            Self::Check(a) if a.program.is_some() => Some("check --program prints code"),
            _ => None,
        }
    }
}

/// `dynoscope mcp`.
#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// Let the write tools write (through the write gateway); without it they send nothing.
    #[arg(long)]
    pub allow_writes: bool,
    /// Append every tool call and its outcome to this file (JSON lines); by default
    /// `mcp-audit.jsonl` in dynoscope's data folder (~/.local/share/dynoscope).
    #[arg(long, value_name = "FILE")]
    pub audit: Option<std::path::PathBuf>,
    /// Let `check_window` read incremental exports under this folder (and nowhere else); without
    /// it, the tool reads no file.
    #[arg(long, value_name = "DIR")]
    pub exports: Option<std::path::PathBuf>,
}

/// `dynoscope add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// A key attribute as NAME=VALUE; give each key attribute once.
    #[arg(long = "key", value_name = "NAME=VALUE", required = true)]
    pub keys: Vec<String>,
    /// The number attribute to change.
    #[arg(long)]
    pub attr: String,
    /// How much to add (negative to subtract), as an exact decimal.
    #[arg(long, allow_hyphen_values = true)]
    pub delta: String,
    /// How to send it: `add` (ADD, never sent again once it may have arrived), `set` (SET
    /// if_not_exists + d) or `exact` (a conditional SET of the next value, safe to retry).
    #[arg(long, default_value = "add", value_parser = edit_mode)]
    pub mode: EditMode,
    /// Create the item when it does not exist (without: a missing item is refused).
    #[arg(long)]
    pub create: bool,
}

/// `--mode`'s value: `add`, `set` or `exact`, the core's spelling.
fn edit_mode(text: &str) -> Result<EditMode, String> {
    text.parse()
}
