//! The tools that only read. Each takes a spec, checks it as every front end does, and reads
//! through the one reader, bounded: a limit and a page cap, with where to go on.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use crate::server::{Answer, Server};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::exports::PlanSpec;
use dynoscope_core::exports::RoutePlan;
use dynoscope_core::listed::{TableFacts, TableNames};
use dynoscope_core::read;
use dynoscope_core::report::Answered;
use dynoscope_core::spec::{
    CompareTalliesSpec, Compared, DiffSpec, GetSpec, Got, ItemsRead, ReadSpec, ReconcileRun,
    ShardSum, SqlAnswer, SqlSpec, StatementRead, StatementSpec, TableSpec, TallyCheck, TallySpec,
    WindowReport, WindowSpec,
};

/// Page requests a read sends unless told fewer: each reads at most 1 MB.
pub(crate) const MAX_PAGES: usize = 10;

/// Items a read returns unless told otherwise.
pub(crate) const DEFAULT_LIMIT: usize = 100;

#[tool_router(router = read_tools, vis = "pub(super)")]
impl Server {
    /// List the tables.
    #[tool(
        description = "List every table on the connection (ListTables, all pages). Costs no read capacity. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<TableNames>>(),
        annotations(read_only_hint = true)
    )]
    async fn list_tables(&self) -> CallToolResult {
        self.answer("list_tables", &serde_json::Map::new(), async {
            let tables = self
                .read("ListTables", read::list_tables(&self.reader()))
                .await?;
            Answer::of(&TableNames { tables })
        })
        .await
    }

    /// Describe one table.
    #[tool(
        description = "Describe a table: keys and their types, indexes, item count, size, billing, stream, TTL (DescribeTable). Costs no read capacity. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<TableFacts<'static>>>(),
        annotations(read_only_hint = true)
    )]
    async fn describe_table(&self, Parameters(spec): Parameters<TableSpec>) -> CallToolResult {
        self.answer("describe_table", &spec.table, async {
            let info = self.describe_again(&spec.table).await?;
            Answer::of(&TableFacts(&info))
        })
        .await
    }

    /// Query one item collection.
    #[tool(
        description = "Query one item collection (pk required), with an optional sort-key condition (sk_eq, sk_lt, sk_le, sk_gt, sk_ge, sk_begins_with, sk_between), on the table or an index. Returns at most `limit` items (default 100) in DynamoDB JSON, after at most `max_pages` requests (default and most 10), and `next_start_key` to go on. Costs read capacity for what it reads: 0.5 RCU per 4 KB (eventually consistent), summed per page; the answer says what it consumed. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ItemsRead>>(),
        annotations(read_only_hint = true)
    )]
    async fn query(&self, Parameters(spec): Parameters<ReadSpec>) -> CallToolResult {
        self.answer("query", &spec, async {
            if spec.pk.is_none() {
                return Err(Error::Invalid(
                    "a query reads one item collection: give pk (scan reads every partition)"
                        .into(),
                ));
            }
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            let read = spec.read_bounded(self.connection(), &info, DEFAULT_LIMIT, MAX_PAGES, stop);
            Answer::of(&read.await?)
        })
        .await
    }

    /// Scan a table or index.
    #[tool(
        description = "Scan a table or index (no pk). Returns at most `limit` items (default 100) in DynamoDB JSON after at most `max_pages` requests (default and most 10), and `next_start_key` to go on. Costs read capacity for every item evaluated, matched or not: 0.5 RCU per 4 KB (eventually consistent); the answer says what it consumed. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ItemsRead>>(),
        annotations(read_only_hint = true)
    )]
    async fn scan(&self, Parameters(spec): Parameters<ReadSpec>) -> CallToolResult {
        self.answer("scan", &spec, async {
            if spec.pk.is_some() {
                return Err(Error::Invalid(
                    "a scan reads every partition: leave pk out (query reads one)".into(),
                ));
            }
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            let read = spec.read_bounded(self.connection(), &info, DEFAULT_LIMIT, MAX_PAGES, stop);
            Answer::of(&read.await?)
        })
        .await
    }

    /// Read one item.
    #[tool(
        description = "Read one item by its whole key (GetItem, strongly consistent): `key` names every key attribute, e.g. {\"PK\": \"POST#a91f\", \"SK\": \"META\"}. Costs 1 RCU per 4 KB of the item. Answers `found` false and ending `refused` when no item has the key (the CLI's `get` exits 1). Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<Got>>(),
        annotations(read_only_hint = true)
    )]
    async fn get_item(&self, Parameters(spec): Parameters<GetSpec>) -> CallToolResult {
        self.answer("get_item", &spec, async {
            let info = self.describe(&spec.table).await?;
            Answer::of(
                &spec
                    .read(self.connection(), &info, &self.shared.stop)
                    .await?,
            )
        })
        .await
    }

    /// Check one parent's tally.
    #[tool(
        description = "Check one parent's stored tally against its counted children: `pk` and `rule` (tally, child_prefix or index, parent_sk default META). Reads the parent (GetItem) and COUNTs its children (Query, Select COUNT): about 0.5 RCU per 4 KB of children scanned, plus 1 for the parent. Ending `refused` when the tally drifted. Never writes; repair does.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<TallyCheck>>(),
        annotations(read_only_hint = true)
    )]
    async fn check_tally(&self, Parameters(spec): Parameters<TallySpec>) -> CallToolResult {
        self.answer("check_tally", &spec, async {
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            Answer::of(&spec.check(self.connection(), &info, stop).await?)
        })
        .await
    }

    /// Reconcile every parent.
    #[tool(
        description = "Reconcile every parent of a rule (no pk): each stored tally against its counted children, `concurrency` at a time (default 8, at most 64 run at once). `plan`: one-pass (a parallel Scan reading each item once), per-parent (a Scan for parents, then a COUNT Query each) or auto (the cheaper by the estimate, which the answer includes). Costs about a whole Scan of the table (0.5 RCU per 4 KB) or more. Returns the drifted parents (the worst 100), the parents that could not be checked (`not_checked`, each with why; the others are still checked) and the totals; ending `refused` when any drifted or could not be checked. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ReconcileRun>>(),
        annotations(read_only_hint = true)
    )]
    async fn reconcile(&self, Parameters(spec): Parameters<TallySpec>) -> CallToolResult {
        self.answer("reconcile", &spec, async {
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            Answer::of(&spec.reconcile(self.connection(), &info, stop).await?)
        })
        .await
    }

    /// Compare two tables by key.
    #[tool(
        description = "Compare two tables on this connection by key (`table` as side A, `to_table` as side B, both read once): one partition (`pk`, a Query each side) or every item (a parallel Scan of each, about a whole Scan's RCU per side). Values compare as DynamoDB compares them (1 = 1.0, sets as sets). Returns what is only on one side and what differs, attribute by attribute (the first 1,000 of each, all counted); ending `refused` when they differ. With `rule` (a tally rule, no pk): every parent's stored tally and counted children on each side instead, each parent that differs or drifted named with both. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<Compared>>(),
        annotations(read_only_hint = true)
    )]
    async fn diff(&self, Parameters(spec): Parameters<DiffSpec>) -> CallToolResult {
        self.answer("diff", &spec, async {
            let info_a = self.describe(&spec.table).await?;
            let info_b = self.describe(&spec.to_table).await?;
            let connection = self.connection();
            let (a, b) = ((connection, &info_a), (connection, &info_b));
            Answer::of(&spec.compare(a, b, &self.shared.stop).await?)
        })
        .await
    }

    /// Compare two tables' counters.
    #[tool(
        description = "Compare two tables' counters on this connection under one tally `rule` (`table` as side A, `to_table` as side B): every parent's stored tally and counted children on each side, each parent that differs or drifted named with both sides and which one drifted how (`A has an extra ADD`: its tally is one more than B's over the same children). Each side is reconciled once (a Scan of the table, about a whole Scan's RCU, or the parents' Queries). Ending `refused` when any parent differs or drifted. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<Compared>>(),
        annotations(read_only_hint = true)
    )]
    async fn compare_tallies(
        &self,
        Parameters(spec): Parameters<CompareTalliesSpec>,
    ) -> CallToolResult {
        self.answer("compare_tallies", &spec, async {
            let info_a = self.describe(&spec.table).await?;
            let info_b = self.describe(&spec.to_table).await?;
            let connection = self.connection();
            let (a, b) = ((connection, &info_a), (connection, &info_b));
            let diff = spec.diff_spec();
            Answer::of(&diff.compare(a, b, &self.shared.stop).await?)
        })
        .await
    }

    /// A window's writes from an incremental export.
    #[tool(
        description = "Check a window's writes from an incremental export on this machine (`export`: the export's folder or one data file, made with the new-and-old-images view; only under the folder the server was started with, `--exports DIR`): per parent of `table` under the tally `rule`, the children inserted minus removed against the tally's move (new image − old image); the parents that gained a drift in the window, each with the export's records (file and line) that did it. Reads files only: no read capacity (one DescribeTable for the keys). Ending `refused` when a parent gained a drift. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<WindowReport>>(),
        annotations(read_only_hint = true)
    )]
    async fn check_window(&self, Parameters(spec): Parameters<WindowSpec>) -> CallToolResult {
        self.answer("check_window", &spec, async {
            self.inside_exports(&spec.export)?;
            let info = self.describe(&spec.table).await?;
            let report = spec
                .run(self.connection(), &info, &self.shared.stop)
                .await?;
            Answer::of(&report)
        })
        .await
    }

    /// Which route to reconcile a table.
    #[tool(
        description = "Which way to reconcile a whole table, each route priced and timed from the table's size and items as DynamoDB last described them (or `items` and `bytes` given): a scan from this machine, an export to S3 then a reconcile of its files here, an export then Athena, and with `hours` an incremental export; the arithmetic of each, and one recommended (a scan when it ends within the hour, else the cheapest export route). Reads nothing but DescribeTable: no read capacity. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<RoutePlan>>(),
        annotations(read_only_hint = true)
    )]
    async fn plan_routes(&self, Parameters(spec): Parameters<PlanSpec>) -> CallToolResult {
        self.answer("plan_routes", &spec, async {
            let described = match &spec.table {
                Some(table) => {
                    let info = self.describe(table).await?;
                    Some((info.item_count, info.size_bytes))
                }
                None => None,
            };
            let sized = spec.sized(described)?;
            let pricing = self.connection().region_pricing();
            Answer::of(&spec.routes(&sized, &pricing))
        })
        .await
    }

    /// Sum a sharded counter.
    #[tool(
        description = "Sum a sharded counter: the items of partition `pk` whose sort key begins with `rule.shards` (e.g. STATS#TOTAL#), adding `rule.tally` on each; the hottest shard is marked. One Query: 0.5 RCU per 4 KB of shards. Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ShardSum>>(),
        annotations(read_only_hint = true)
    )]
    async fn sum_shards(&self, Parameters(spec): Parameters<TallySpec>) -> CallToolResult {
        self.answer("sum_shards", &spec, async {
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            Answer::of(&spec.sum_shards(self.connection(), &info, stop).await?)
        })
        .await
    }

    /// SQL over rows read.
    #[tool(
        description = "Read tables (NAME=TABLE, a whole Scan) or partitions (NAME=TABLE:PARTITION, a Query) into SQL tables, then run SQLite SQL over them on this machine; rows as JSON (numbers exact), at most max_rows and 16 MiB. The SQL stops at the server's --timeout (default 10 s) or when the call is cancelled; one value holds at most 32 MiB. Costs the read capacity of every load (0.5 RCU per 4 KB read); the SQL itself costs nothing. Never writes to DynamoDB.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<SqlAnswer>>(),
        annotations(read_only_hint = true)
    )]
    async fn sql(
        &self,
        Parameters(spec): Parameters<SqlSpec>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let cancelled = context.ct.cancelled_owned();
        self.answer("sql", &spec, self.run_sql(&spec, cancelled))
            .await
    }

    /// A PartiQL SELECT.
    #[tool(
        description = "Run one PartiQL SELECT (ExecuteStatement) with `?` parameters as DynamoDB JSON. Returns at most `limit` items (default 100) after at most 10 requests. A SELECT without a key condition is a full Scan: 0.5 RCU per 4 KB evaluated. INSERT, UPDATE and DELETE are refused here (partiql_write sends them). Never writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<StatementRead>>(),
        annotations(read_only_hint = true)
    )]
    async fn partiql_select(&self, Parameters(spec): Parameters<StatementSpec>) -> CallToolResult {
        self.answer("partiql_select", &spec, async {
            let stop = &self.shared.stop;
            let read = spec.select(self.connection(), DEFAULT_LIMIT, MAX_PAGES, stop);
            Answer::of(&read.await?)
        })
        .await
    }
}

impl Server {
    /// Whether `path` lies in the folder the server may read exports from (`--exports`): an
    /// agent names files, but only there.
    fn inside_exports(&self, path: &std::path::Path) -> Result<()> {
        if path.to_string_lossy().starts_with("s3://") {
            return Err(Error::Invalid(
                "check_window reads exports on this machine only (under --exports DIR); an export \
                 in S3 is read by `dynoscope check --incremental-export s3://…`"
                    .into(),
            ));
        }
        let Some(root) = &self.shared.exports else {
            return Err(Error::Invalid(
                "this server reads no export: start it with --exports DIR to let check_window \
                 read the exports under DIR"
                    .into(),
            ));
        };
        let real = |p: &std::path::Path| {
            p.canonicalize()
                .map_err(|e| Error::Invalid(format!("{}: {e}", p.display())))
        };
        if real(path)?.starts_with(real(root)?) {
            return Ok(());
        }
        Err(Error::Invalid(format!(
            "{} is not under {}, the folder this server reads exports from",
            path.display(),
            root.display()
        )))
    }
}
