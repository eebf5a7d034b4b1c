//! `dynoscope items` and `scan`: the one reader's pages printed as they arrive, throttling
//! waited out (each wait on stderr), and a read that stops early (an error, throttled for too
//! long, Ctrl-C) keeps what it printed and says on stderr how to go on (`--start-key`).

use crate::context::Ctx;
use dynoscope_core::connection::Reader;
use dynoscope_core::cost::Pricing;

use crate::args::{ItemsArgs, ScanArgs};
use crate::interrupt::describe;
use crate::item_rows::ItemRows;
use crate::output::Output;
use crate::resume;
use crate::style::Form;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::document::Document;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::limits::{self, AtOnce};
use dynoscope_core::read::{self, Backoff, BrowseRequest, Page, ReadEvent, Stopped, Until};
use dynoscope_core::report::read_summary;
use dynoscope_core::spec;
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::Item;

/// `dynoscope items`: Query one item collection.
pub(crate) async fn items(cx: &mut Ctx<'_>, args: ItemsArgs) -> Result<()> {
    let (connection, stop) = (cx.connection, cx.stop);
    let out = &mut *cx.out;
    let client = &connection.reader();
    let info = describe(client, &args.table, stop).await?;
    let plan = args.spec().plan(&info)?;
    let pricing = connection.pricing(&info);
    let mut printer = Printer::new(&info, args.index.as_deref(), plan.limit, pricing, out);
    let backoff = client.backoff();
    read_one(
        client,
        &plan.request,
        plan.start,
        &backoff,
        &mut printer,
        stop,
    )
    .await
}

/// `dynoscope scan`: Scan a table or index, in parallel segments with `--segments` (more than
/// the table's size can use only with `confirmed`, `--yes`).
pub(crate) async fn scan(cx: &mut Ctx<'_>, args: ScanArgs) -> Result<()> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let client = &connection.reader();
    let info = describe(client, &args.table, stop).await?;
    limits::check_segments(args.segments, &info, confirmed)?;
    let request = BrowseRequest::scan(&info, args.index.as_deref())?;
    let pricing = connection.pricing(&info);
    let mut printer = Printer::new(&info, args.index.as_deref(), args.limit, pricing, out);
    let backoff = client.backoff();
    if args.segments == 1 {
        let start_key = match args.start_keys.as_slice() {
            [] => None,
            [key] => Some(key.clone()),
            _ => {
                return Err(Error::Invalid(
                    "--start-key is given once without --segments".into(),
                ));
            }
        };
        let plan = spec::ReadSpec {
            index: args.index.clone(),
            limit: args.limit,
            start_key,
            ..spec::ReadSpec::scan(&args.table)
        }
        .plan(&info)?;
        return read_one(
            client,
            &plan.request,
            plan.start,
            &backoff,
            &mut printer,
            stop,
        )
        .await;
    }
    let total = args.segments;
    let starts = resume::parse_segment_keys(total, &args.start_keys)?;
    if let Some(note) = AtOnce::new(total, "segments")?.note("segments") {
        printer.out.note(note);
    }
    let until = args.limit.map_or(Until::LastPage, Until::Items);
    let stopped = read::scan_segments(client, &request, starts, until, &backoff, stop, |e| {
        if let Some(note) = e.note() {
            printer.out.note(format_args!("dynoscope: {note}"));
        }
        if let read::SegmentEvent::Read {
            event: ReadEvent::Page(page),
            ..
        } = e
        {
            printer.page(page, stop);
        }
    })
    .await;
    printer
        .out
        .note(format_args!("{} · {total} segments", printer.summary()));
    let result = printer.finish(stopped.result, "Scan");
    if printer.cut_short {
        // Pages of other segments arrived meanwhile: where each stands is not what was printed.
        printer.out.error(
            "dynoscope: the output failed part-way through a page, so a parallel scan has no exact place to go on from; run it again (one segment goes on exactly)",
        );
    } else if result.is_err() && !stopped.left.finished() {
        print_resume(
            printer.out,
            &resume::segment_args(&stopped.left, &printer.keys),
        );
    }
    result
}

/// Read `request` in one go from `start`, printing its items; on an early stop, say how to go
/// on.
async fn read_one(
    client: &Reader,
    request: &BrowseRequest,
    start: Option<Item>,
    backoff: &Backoff,
    printer: &mut Printer<'_>,
    stop: &CancelToken,
) -> Result<()> {
    let until = printer.limit.map_or(Until::LastPage, Until::Items);
    let mut go_on_after = start.clone();
    let result = read::read_events(client, request, start, until, backoff, stop, |event| {
        if let Some(note) = event.note() {
            printer.out.note(format_args!("dynoscope: {note}"));
        }
        if let ReadEvent::Page(page) = event {
            let last_key = page.last_key.clone();
            printer.page(page, stop);
            // Cut short by the output: go on after the last item printed, not the page's end.
            go_on_after = if printer.cut_short {
                printer.last_printed.clone().or(go_on_after.take())
            } else {
                last_key
            };
        }
    })
    .await;
    printer.out.note(printer.summary());
    let result = printer.finish(result, request.op());
    if result.is_err()
        && let Some(key) = go_on_after
    {
        print_resume(printer.out, &resume::key_args(&key, &printer.keys));
    }
    result
}

/// On stderr, even with --quiet: the arguments that go on where the read stopped.
fn print_resume(out: &Output, args: &[String]) {
    if out.json() {
        out.error(Document::to_json(&resume::Resume::of(args)));
    } else {
        let words = resume::shell_words(args);
        out.error(format_args!(
            "dynoscope: stopped early; to go on from here, run it again with: {words}"
        ));
    }
}

/// Prints items as pages arrive, up to the limit, and counts what was read.
struct Printer<'a> {
    out: &'a mut Output,
    keys: Vec<String>,
    /// The items in the output asked for.
    rows: ItemRows,
    limit: Option<usize>,
    items: usize,
    pages: usize,
    consumed_rcu: f64,
    /// What the table's reads cost.
    pricing: Pricing,
    /// The key of the last item printed.
    last_printed: Option<Item>,
    /// The output failed before a page was all printed.
    cut_short: bool,
}

impl<'a> Printer<'a> {
    /// A printer of `info`'s items, of `index` and at most `limit` as asked, priced by
    /// `pricing`.
    fn new(
        info: &TableInfo,
        index: Option<&str>,
        limit: Option<usize>,
        pricing: Pricing,
        out: &'a mut Output,
    ) -> Self {
        let keys = info.grid_key_names(index);
        Self {
            out,
            rows: ItemRows::new(keys.clone()),
            keys,
            limit,
            items: 0,
            pages: 0,
            consumed_rcu: 0.0,
            pricing,
            last_printed: None,
            cut_short: false,
        }
    }

    /// Print a page's items (as many as the limit leaves): an item a line, or a table's or
    /// text's rows as one block; an output nobody reads stops the run.
    fn page(&mut self, page: Page, stop: &CancelToken) {
        self.pages += 1;
        self.consumed_rcu += page.consumed_rcu;
        let room = self
            .limit
            .map_or(usize::MAX, |l| l.saturating_sub(self.items));
        let items: Vec<Item> = page.items.into_iter().take(room).collect();
        let blocks: Vec<&[Item]> = match self.out.form() {
            Some(Form::Table | Form::Text) => vec![&items[..]],
            _ => items.chunks(1).collect(),
        };
        for block in blocks {
            if !self.out.open() || !self.rows.block(self.out, block) {
                // This block did not all get out.
                self.cut_short = true;
                break;
            }
            self.items += block.len();
            if let Some(last) = block.last() {
                self.last_printed = Some(
                    (last.iter())
                        .filter(|(name, _)| self.keys.contains(name))
                        .map(|(name, value)| (name.clone(), value.clone()))
                        .collect(),
                );
            }
        }
        if !self.out.open() {
            stop.cancel();
        }
    }

    fn summary(&self) -> String {
        read_summary(
            self.items,
            self.pages,
            &self.pricing.read(self.consumed_rcu),
        )
    }

    /// How the read ended: an output error first, then the read's, then a cancel.
    fn finish(&mut self, result: Result<Stopped>, op: &'static str) -> Result<()> {
        match (self.out.failure(), result) {
            (Some(error), _) | (None, Err(error)) => Err(error),
            (None, Ok(Stopped::Cancelled)) => Err(Error::Cancelled { op }),
            (None, Ok(Stopped::LastPage | Stopped::Reached)) => Ok(()),
        }
    }
}
