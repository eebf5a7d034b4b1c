//! `dynoscope items` and `scan`: the one reader's pages printed as they arrive, throttling
//! waited out (each wait on stderr), and a read that stops early (an error, throttled for too
//! long, Ctrl-C) keeps what it printed and says on stderr how to go on (`--start-key`).

use aws_sdk_dynamodb::Client;

use crate::cli::args::{ItemsArgs, ScanArgs};
use crate::cli::exit::io_error;
use crate::cli::resume;
use crate::core::cancel::CancelToken;
use crate::core::condition::{ScalarType, SortCondition, SortOp};
use crate::core::error::{Error, Result};
use crate::core::limits::AtOnce;
use crate::core::read::{self, Backoff, BrowseRequest, Page, ReadEvent, Stopped, Until};
use crate::core::report::read_summary;
use crate::core::table::TableInfo;
use crate::core::value::{self, Item};

/// `dynoscope items`: Query one item collection.
pub async fn items(client: &Client, args: ItemsArgs, out: &mut impl std::io::Write) -> Result<()> {
    let info = read::describe_table(client, &args.table).await?;
    let (partition, _) = info
        .keys_of(args.index.as_deref())
        .ok_or_else(|| Error::Invalid(format!("`{}` has no such index", args.table)))?;
    let pk = partition.kind.parse(&args.pk)?;
    let sort = sort_condition(&args, &info)?;
    let request = BrowseRequest::query(&info, args.index.as_deref(), pk, sort, !args.desc)?;
    let start = args
        .start_key
        .as_deref()
        .map(resume::parse_key)
        .transpose()?;
    let mut printer = Printer::new(&info, args.index.as_deref(), args.limit, args.json, out);
    let backoff = backoff(args.max_throttle_wait);
    read_one(client, &request, start.flatten(), &backoff, &mut printer).await
}

/// `dynoscope scan`: Scan a table or index, in parallel segments with `--segments`.
pub async fn scan(client: &Client, args: ScanArgs, out: &mut impl std::io::Write) -> Result<()> {
    let info = read::describe_table(client, &args.table).await?;
    let request = BrowseRequest::scan(&info, args.index.as_deref())?;
    let mut printer = Printer::new(&info, args.index.as_deref(), args.limit, args.json, out);
    let backoff = backoff(args.max_throttle_wait);
    if args.segments == 1 {
        let start = match args.start_keys.as_slice() {
            [] => None,
            [key] => resume::parse_key(key)?,
            _ => {
                return Err(Error::Invalid(
                    "--start-key is given once without --segments".into(),
                ));
            }
        };
        return read_one(client, &request, start, &backoff, &mut printer).await;
    }
    let total = usize::try_from(args.segments)
        .map_err(|_| Error::Invalid("--segments must be at least 1".into()))?;
    let starts = resume::parse_segment_keys(total, &args.start_keys)?;
    if let Some(note) = AtOnce::new(total, "segments")?.note("segments") {
        eprintln!("{note}");
    }
    let (cancel, ctrl_c) = cancel_on_ctrl_c();
    let until = args.limit.map_or(Until::LastPage, Until::Items);
    let stopped = read::scan_segments(client, &request, starts, until, &backoff, &cancel, |e| {
        if let Some(note) = e.note() {
            eprintln!("dynoscope: {note}");
        }
        if let read::SegmentEvent::Read {
            event: ReadEvent::Page(page),
            ..
        } = e
        {
            printer.page(page, &cancel);
        }
    })
    .await;
    ctrl_c.abort();
    eprintln!("{} · {total} segments", printer.summary());
    let result = printer.finish(stopped.result, "Scan");
    if result.is_err() && !stopped.left.finished() {
        print_resume(
            &resume::segment_args(&stopped.left, &printer.keys),
            args.json,
        );
    }
    result
}

/// Read `request` in one go from `start`, printing its items; on an early stop, say how to go
/// on.
async fn read_one(
    client: &Client,
    request: &BrowseRequest,
    start: Option<Item>,
    backoff: &Backoff,
    printer: &mut Printer<'_, impl std::io::Write>,
) -> Result<()> {
    let (cancel, ctrl_c) = cancel_on_ctrl_c();
    let until = printer.limit.map_or(Until::LastPage, Until::Items);
    let mut go_on_after = start.clone();
    let result = read::read_events(client, request, start, until, backoff, &cancel, |event| {
        if let Some(note) = event.note() {
            eprintln!("dynoscope: {note}");
        }
        if let ReadEvent::Page(page) = event {
            go_on_after = page.last_key.clone();
            printer.page(page, &cancel);
        }
    })
    .await;
    ctrl_c.abort();
    eprintln!("{}", printer.summary());
    let result = printer.finish(result, request.op());
    if result.is_err()
        && let Some(key) = go_on_after
    {
        print_resume(&resume::key_args(&key, &printer.keys), printer.json);
    }
    result
}

/// The reader's backoff, giving up after `max_throttle_wait` of throttling on one page.
fn backoff(max_throttle_wait: std::time::Duration) -> Backoff {
    Backoff {
        throttled_for: max_throttle_wait,
        ..Backoff::default()
    }
}

/// A cancel token that Ctrl-C uses, and the task that waits for it (abort it when done).
fn cancel_on_ctrl_c() -> (CancelToken, tokio::task::JoinHandle<()>) {
    let cancel = CancelToken::default();
    let on_signal = cancel.clone();
    let task = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.cancel();
        }
    });
    (cancel, task)
}

/// On stderr: the arguments that go on where the read stopped.
fn print_resume(args: &[String], json: bool) {
    if json {
        eprintln!("{}", serde_json::json!({ "resume": args }));
    } else {
        let words = resume::shell_words(args);
        eprintln!("dynoscope: stopped early; to go on from here, run it again with: {words}");
    }
}

/// Prints items as pages arrive, up to the limit, and counts what was read.
struct Printer<'a, W> {
    out: &'a mut W,
    keys: Vec<String>,
    json: bool,
    limit: Option<usize>,
    items: usize,
    pages: usize,
    consumed_rcu: f64,
    failed: Option<Error>,
}

impl<'a, W: std::io::Write> Printer<'a, W> {
    fn new(
        info: &TableInfo,
        index: Option<&str>,
        limit: Option<usize>,
        json: bool,
        out: &'a mut W,
    ) -> Self {
        Self {
            out,
            keys: info.grid_key_names(index),
            json,
            limit,
            items: 0,
            pages: 0,
            consumed_rcu: 0.0,
            failed: None,
        }
    }

    /// Print a page's items (as many as the limit leaves); an output that fails cancels.
    fn page(&mut self, page: Page, cancel: &CancelToken) {
        self.pages += 1;
        self.consumed_rcu += page.consumed_rcu;
        for item in page.items {
            if self.failed.is_some() || self.limit.is_some_and(|l| self.items >= l) {
                return;
            }
            match print_item(self.out, &item, &self.keys, self.json) {
                Ok(()) => self.items += 1,
                Err(error) => {
                    self.failed = Some(error);
                    cancel.cancel();
                }
            }
        }
    }

    fn summary(&self) -> String {
        read_summary(self.items, self.pages, self.consumed_rcu)
    }

    /// How the read ended: an output error first, then the read's, then a cancel.
    fn finish(&mut self, result: Result<Stopped>, op: &'static str) -> Result<()> {
        match (self.failed.take(), result) {
            (Some(error), _) | (None, Err(error)) => Err(error),
            (None, Ok(Stopped::Cancelled)) => Err(Error::Cancelled { op }),
            (None, Ok(Stopped::LastPage | Stopped::Reached)) => Ok(()),
        }
    }
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

fn sort_condition(args: &ItemsArgs, info: &TableInfo) -> Result<Option<SortCondition>> {
    let kind = info
        .keys_of(args.index.as_deref())
        .and_then(|(_, s)| s.map(|s| s.kind))
        .unwrap_or(ScalarType::S);
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
