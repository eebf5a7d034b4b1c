//! The arguments of `dynoscope like`, `unlike` and `storm`: where likes go, and who.

use clap::Args;

use crate::flags::positive;

/// Where likes go.
#[derive(Debug, Args)]
pub struct LikeTargetArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The parent's partition key value.
    #[arg(long, allow_hyphen_values = true)]
    pub pk: String,
    /// The parent's sort key.
    #[arg(long, default_value = "META")]
    pub parent_sk: String,
    /// The tally attribute.
    #[arg(long, default_value = "likeTally")]
    pub tally: String,
    /// Children's sort keys are this prefix followed by the user.
    #[arg(long, default_value = "LIKE#")]
    pub child_prefix: String,
    /// Create the parent when it does not exist (without: a missing parent is refused).
    #[arg(long)]
    pub create: bool,
}

/// `dynoscope like` / `unlike`.
#[derive(Debug, Args)]
pub struct LikeArgs {
    /// Where.
    #[command(flatten)]
    pub target: LikeTargetArgs,
    /// The user (the child's sort key is the child prefix followed by this).
    #[arg(long)]
    pub user: String,
    /// A ClientRequestToken (1–36 characters) to make a retry idempotent.
    #[arg(long)]
    pub token: Option<String>,
    /// Send nothing: print the like (or unlike) as a whole program in TARGET (boto3, js, ts, go, rust, cli,
    /// toolbox or electrodb),
    /// with a fresh ClientRequestToken each run (or --token), sent again with the same token
    /// after a lost answer, and a cancellation's reasons said.
    #[arg(long, value_name = "TARGET")]
    pub program: Option<String>,
}

/// `dynoscope storm`.
#[derive(Debug, Args)]
pub struct StormArgs {
    /// Where.
    #[command(flatten)]
    pub target: LikeTargetArgs,
    /// Simulated users (1–10000).
    #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = positive)]
    pub users: usize,
    /// Users acting at once (at least 1; at most 64 run at a time).
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = positive)]
    pub concurrency: usize,
}
