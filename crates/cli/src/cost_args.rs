//! Arguments of the subcommands that say what items and counters cost: `size`,
//! `shards-advice`.

use clap::Args;

use crate::flags::whole_u64;

/// `dynoscope size`.
#[derive(Debug, Args)]
pub struct SizeArgs {
    /// The item as DynamoDB JSON: '{"PK": {"S": "POST#a91f"}, "n": {"N": "42"}}'.
    #[arg(long, value_name = "DDB-JSON", conflicts_with_all = ["item_file", "pk"])]
    pub item: Option<String>,
    /// A file holding the item as DynamoDB JSON (at most 4 MB).
    #[arg(long, value_name = "PATH", conflicts_with = "pk")]
    pub item_file: Option<std::path::PathBuf>,
    /// The table: the item is read from it by --pk (and --sk), or priced as its billing.
    #[arg(long, required_unless_present_any = ["item", "item_file"])]
    pub table: Option<String>,
    /// The item's partition key value (read with one consistent GetItem).
    #[arg(long, allow_hyphen_values = true, requires = "table")]
    pub pk: Option<String>,
    /// The item's sort key value, when the table has a sort key.
    #[arg(long, allow_hyphen_values = true, requires = "pk")]
    pub sk: Option<String>,
}

/// `dynoscope shards-advice`.
#[derive(Debug, Args)]
pub struct ShardsAdviceArgs {
    /// The counter's writes a second, all shards together.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_u64)]
    pub writes_per_second: u64,
    /// The bytes of one shard's item (`dynoscope size` says them).
    #[arg(long, value_name = "B", allow_negative_numbers = true, value_parser = whole_u64)]
    pub item_bytes: u64,
    /// Each write is part of a transaction (a like: the child and the tally together).
    #[arg(long)]
    pub transactional: bool,
    /// Advise for this many shards rather than the fewest that keep up.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = crate::flags::positive_u64
    )]
    pub shards: Option<u64>,
    /// Price by this table and check it for local secondary indexes (without: us-east-1 on
    /// demand).
    #[arg(long)]
    pub table: Option<String>,
}
