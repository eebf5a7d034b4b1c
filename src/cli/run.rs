//! Running a subcommand: thin glue from arguments to core functions and back to text.

use std::collections::VecDeque;
use std::io::Write as _;
use std::process::ExitCode;

use aws_sdk_dynamodb::Client;

use crate::cli::args::{ConnectionFlags, ItemsArgs, ScanArgs, Subcommand};
use crate::cli::exit::{Exit, io_error, print_error};
use crate::core::cancel::CancelToken;
use crate::core::condition::{SortCondition, SortOp};
use crate::core::connection::{self, ConnectionSpec};
use crate::core::error::{Error, Result};
use crate::core::likes::LikeOp;
use crate::core::limits::AtOnce;
use crate::core::read::{self, BrowseMode, BrowseRequest, Until};
use crate::core::report::read_summary;
use crate::core::table::TableInfo;
use crate::core::value::{self, Item};

/// Run `command` against the connection `spec`, with the `--timeout`, `--read-only` and `--yes`
/// of `flags`; prints results on stdout and errors on stderr (once), and returns the exit status
/// of the one table ([`EXIT_TABLE`](crate::cli::EXIT_TABLE)).
pub async fn run(spec: ConnectionSpec, flags: &ConnectionFlags, command: Subcommand) -> ExitCode {
    let json = command.json();
    match run_inner(spec, flags, command).await {
        Ok(exit) => exit.code(),
        Err(error) => {
            print_error(&error, json);
            if matches!(error, Error::NotConfirmed { .. }) && !json {
                eprintln!(
                    "dynoscope: add --yes to confirm writes to an endpoint that is not on this machine"
                );
            }
            Exit::of_error(&error).code()
        }
    }
}

async fn run_inner(
    spec: ConnectionSpec,
    flags: &ConnectionFlags,
    command: Subcommand,
) -> Result<Exit> {
    if let Subcommand::Expr(args) = command {
        return crate::cli::expr::expr(args);
    }
    if let Subcommand::Sql(args) = command {
        return crate::cli::sql::sql(spec, flags, args).await;
    }
    if let Subcommand::Sandbox { port } = command {
        serve_sandbox(spec, port).await?;
        return Ok(Exit::Done);
    }
    let connection = connection::connect_with(spec, flags.options()).await?;
    let client = &connection.client;
    let confirmed = flags.yes;
    let mut out = std::io::stdout().lock();
    match command {
        Subcommand::Tables => {
            for name in read::list_tables(client).await? {
                writeln!(out, "{name}").map_err(io_error)?;
            }
        }
        Subcommand::Describe { table } => {
            let info = read::describe_table(client, &table).await?;
            write!(out, "{}", describe_text(&info)).map_err(io_error)?;
        }
        Subcommand::Items(args) => items(client, args, &mut out).await?,
        Subcommand::Scan(args) => scan(client, args, &mut out).await?,
        Subcommand::Add(args) => return crate::cli::add::add(&connection, args, confirmed).await,
        Subcommand::Check(args) => return crate::cli::check::check(client, args).await,
        Subcommand::Like(args) => {
            return crate::cli::likes::like(&connection, LikeOp::Like, args, confirmed).await;
        }
        Subcommand::Unlike(args) => {
            return crate::cli::likes::like(&connection, LikeOp::Unlike, args, confirmed).await;
        }
        Subcommand::Storm(args) => {
            return crate::cli::likes::storm(&connection, args, confirmed).await;
        }
        Subcommand::Sandbox { .. } | Subcommand::Expr(_) | Subcommand::Sql(_) => {}
    }
    Ok(Exit::Done)
}

/// The describe panel as text: the same facts, a line each.
pub fn describe_text(info: &TableInfo) -> String {
    let mut text = format!("{:<14} {}\n", "Table", info.name);
    for (name, value) in info.facts() {
        text += &format!("{name:<14} {value}\n");
    }
    for index in &info.indexes {
        text += &format!(
            "{:<14} {}: {} · projection {}\n",
            index.kind_name(),
            index.name,
            index.keys_text(),
            index.projection
        );
    }
    if let Some(arn) = &info.arn {
        text += &format!("{:<14} {arn}\n", "ARN");
    }
    text
}

fn sort_condition(args: &ItemsArgs, info: &TableInfo) -> Result<Option<SortCondition>> {
    let kind = info
        .keys_of(args.index.as_deref())
        .and_then(|(_, s)| s.map(|s| s.kind))
        .unwrap_or(crate::core::condition::ScalarType::S);
    let single = [
        (SortOp::Eq, &args.sk_eq),
        (SortOp::Lt, &args.sk_lt),
        (SortOp::Le, &args.sk_le),
        (SortOp::Gt, &args.sk_gt),
        (SortOp::Ge, &args.sk_ge),
        (SortOp::BeginsWith, &args.sk_begins_with),
    ];
    for (op, value) in single {
        if let Some(value) = value {
            return Ok(Some(SortCondition {
                op,
                value: kind.parse(value)?,
                upper: None,
            }));
        }
    }
    match args.sk_between.as_deref() {
        Some([low, high]) => Ok(Some(SortCondition {
            op: SortOp::Between,
            value: kind.parse(low)?,
            upper: Some(kind.parse(high)?),
        })),
        _ => Ok(None),
    }
}

async fn items(client: &Client, args: ItemsArgs, out: &mut impl std::io::Write) -> Result<()> {
    let info = read::describe_table(client, &args.table).await?;
    let (partition, _) = info
        .keys_of(args.index.as_deref())
        .ok_or_else(|| Error::Invalid(format!("`{}` has no such index", args.table)))?;
    let pk = partition.kind.parse(&args.pk)?;
    let sort = sort_condition(&args, &info)?;
    let request = BrowseRequest::query(&info, args.index.as_deref(), pk, sort, !args.desc)?;
    let keys = info.grid_key_names(args.index.as_deref());
    let stats = print_all(client, &request, args.limit, args.json, &keys, out).await?;
    eprintln!("{stats}");
    Ok(())
}

async fn scan(client: &Client, args: ScanArgs, out: &mut impl std::io::Write) -> Result<()> {
    let info = read::describe_table(client, &args.table).await?;
    let base = BrowseRequest::scan(&info, args.index.as_deref())?;
    let keys = info.grid_key_names(args.index.as_deref());
    if args.segments == 1 {
        let stats = print_all(client, &base, args.limit, args.json, &keys, out).await?;
        eprintln!("{stats}");
        return Ok(());
    }
    let segments = usize::try_from(args.segments)
        .map_err(|_| Error::Invalid("--segments must be at least 1".into()))?;
    let at_once = AtOnce::new(segments, "segments")?;
    if let Some(note) = at_once.note("segments") {
        eprintln!("{note}");
    }
    // A window of at most `at_once` segments in flight; items are printed in segment order.
    let mut window = VecDeque::new();
    let mut next = 0;
    let mut total = Stats::default();
    let mut printed = 0usize;
    loop {
        while next < segments && window.len() < at_once.at_once {
            let mut request = base.clone();
            request.mode = BrowseMode::Scan {
                segment: Some((next as i32, args.segments)),
            };
            let client = client.clone();
            let limit = args.limit;
            window.push_back(tokio::spawn(async move {
                let mut sink = Vec::new();
                collect_pages(&client, &request, limit, &mut |item| sink.push(item))
                    .await
                    .map(|s| (s, sink))
            }));
            next += 1;
        }
        let Some(task) = window.pop_front() else {
            break;
        };
        let (stats, items) = task.await.map_err(|e| Error::TaskDied {
            op: "Scan",
            detail: e.to_string(),
        })??;
        total.pages += stats.pages;
        total.rcu += stats.rcu;
        for item in items {
            if args.limit.is_some_and(|l| printed >= l) {
                break;
            }
            print_item(out, &item, &keys, args.json)?;
            printed += 1;
        }
        if args.limit.is_some_and(|l| printed >= l) {
            // Enough items: the segments still in flight are dropped, and none are started.
            break;
        }
    }
    for task in window {
        task.abort();
    }
    total.items = printed;
    eprintln!("{total} · {} segments", args.segments);
    Ok(())
}

#[derive(Debug, Default)]
struct Stats {
    items: usize,
    pages: usize,
    rcu: f64,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&read_summary(self.items, self.pages, self.rcu))
    }
}

async fn collect_pages(
    client: &Client,
    request: &BrowseRequest,
    limit: Option<usize>,
    on_item: &mut impl FnMut(Item),
) -> Result<Stats> {
    let mut stats = Stats::default();
    let until = limit.map_or(Until::LastPage, Until::Items);
    read::read_pages(
        client,
        request,
        None,
        until,
        &CancelToken::default(),
        |page| {
            stats.pages += 1;
            stats.rcu += page.consumed_rcu;
            for item in page.items {
                if limit.is_some_and(|l| stats.items >= l) {
                    return;
                }
                on_item(item);
                stats.items += 1;
            }
        },
    )
    .await?;
    Ok(stats)
}

async fn print_all(
    client: &Client,
    request: &BrowseRequest,
    limit: Option<usize>,
    json: bool,
    keys: &[String],
    out: &mut impl std::io::Write,
) -> Result<Stats> {
    let mut failed = None;
    let stats = collect_pages(client, request, limit, &mut |item| {
        if failed.is_none()
            && let Err(e) = print_item(out, &item, keys, json)
        {
            failed = Some(e);
        }
    })
    .await?;
    failed.map_or(Ok(stats), Err)
}

fn print_item(
    out: &mut (impl std::io::Write + ?Sized),
    item: &Item,
    keys: &[String],
    json: bool,
) -> Result<()> {
    let line = if json {
        value::item_to_dynamodb_json(item, keys, false)
    } else {
        value::item_to_plain_json(item, keys, false)
    };
    writeln!(out, "{line}").map_err(io_error)
}

#[cfg(feature = "sandbox")]
async fn serve_sandbox(spec: ConnectionSpec, port: u16) -> Result<()> {
    let db_path = match spec {
        ConnectionSpec::Sandbox { db_path } => db_path,
        _ => None,
    };
    let sandbox = crate::core::sandbox::Sandbox::start(db_path.as_deref(), port).await?;
    if let Some(report) = sandbox.seeded() {
        eprintln!(
            "seeded {} items in {} tables in {} ms",
            report.items, report.tables, report.elapsed_ms
        );
    }
    println!("{}", sandbox.endpoint());
    eprintln!(
        "serving until Ctrl-C; try: aws dynamodb list-tables --endpoint-url {}",
        sandbox.endpoint()
    );
    let _ = std::io::stdout().flush();
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| Error::Sandbox(format!("cannot wait for Ctrl-C: {e}")))?;
    drop(sandbox);
    Ok(())
}

#[cfg(not(feature = "sandbox"))]
async fn serve_sandbox(_spec: ConnectionSpec, _port: u16) -> Result<()> {
    Err(Error::Sandbox(
        "this build has no sandbox (built without the `sandbox` feature)".into(),
    ))
}
