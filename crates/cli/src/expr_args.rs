//! Arguments of `dynoscope expr`, which builds a request without a connection.

use clap::Args;

/// What `dynoscope expr` builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExprKind {
    /// UpdateItem: the expression is an UpdateExpression.
    Update,
    /// DeleteItem: the expression is a ConditionExpression.
    Delete,
    /// Query: the expression is a KeyConditionExpression.
    Query,
    /// Scan: the expression is a FilterExpression.
    Scan,
}

/// `dynoscope expr`.
#[derive(Debug, Args)]
pub struct ExprArgs {
    /// The operation.
    #[arg(value_enum)]
    pub kind: ExprKind,
    /// The expression (update, condition, key condition or filter, by operation).
    pub expression: String,
    /// A ConditionExpression (update, delete).
    #[arg(long)]
    pub condition: Option<String>,
    /// A FilterExpression (query).
    #[arg(long)]
    pub filter: Option<String>,
    /// A ProjectionExpression (query, scan).
    #[arg(long)]
    pub projection: Option<String>,
    /// The table.
    #[arg(long, default_value = "TABLE")]
    pub table: String,
    /// The index (query, scan).
    #[arg(long)]
    pub index: Option<String>,
    /// A key attribute as NAME=VALUE (a string), for update and delete.
    #[arg(long = "key", value_name = "NAME=VALUE")]
    pub keys: Vec<String>,
    /// Name placeholders used in the expressions, as JSON: '{"#c": "count"}'.
    #[arg(long)]
    pub names: Option<String>,
    /// Value placeholders used in the expressions, as DynamoDB JSON: '{":one": {"N": "1"}}'.
    #[arg(long)]
    pub values: Option<String>,
    /// How to print it: json, cli, boto3, js, js-doc, ts, rust, go, java, dotnet, kotlin, php,
    /// partiql, toolbox (dynamodb-toolbox v2), electrodb (ElectroDB 3; java, dotnet, kotlin and
    /// php are not compiled by dynoscope's tests).
    #[arg(long = "as", default_value = "json")]
    pub target: String,
    /// Print a whole program that runs as it is (--as boto3, js, js-doc, ts, go, rust, cli,
    /// toolbox or electrodb): an update prints the server's new value, reports a failed condition with the item as it is
    /// (ALL_OLD; Go and the CLI read it again, exit 1)
    /// and is sent once when not safe to repeat (an unknown outcome exits 3); a query or a scan
    /// reads every page, an item a line.
    #[arg(long)]
    pub program: bool,
    /// The endpoint the printed code sends to (nothing is connected to here). The same flag as
    /// every command's, given before or after `expr`.
    #[arg(long)]
    pub endpoint_url: Option<String>,
    /// The region the printed code uses.
    #[arg(long)]
    pub region: Option<String>,
    /// The profile the printed code uses.
    #[arg(long)]
    pub profile: Option<String>,
}
