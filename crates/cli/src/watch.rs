//! `dynoscope watch`: a tally and its children followed through the table's stream (or polled
//! without one), records and divergences printed as they happen, a summary at the end.

use crate::context::Ctx;
use dynoscope_core::document::Document;
use std::time::Duration;

use crate::exit::Exit;
use crate::flags::RuleFlags;
use crate::interrupt::describe;
use crate::output::Output;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::cost::Pricing;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::report::Report;
use dynoscope_core::spec::{WatchFrom, WatchSpec};
use dynoscope_core::stream::{self, StreamSource, Until, time_text};
use dynoscope_core::watch::{self, Change, WatchEvent, WatchProgress, gap_text};

/// `dynoscope watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The tally rule.
    #[command(flatten)]
    pub rule: RuleFlags,
    /// Watch this parent (partition key value); without it, every parent of the rule.
    #[arg(long, allow_hyphen_values = true)]
    pub pk: Option<String>,
    /// `latest` (the writes from now on, after one exact check of --pk) or `trim-horizon` (the
    /// stream from its oldest record, up to 24 hours back: find yesterday's drift).
    #[arg(long, default_value = "latest")]
    pub from: String,
    /// Stop this many seconds after the start (from latest) or after catching up with what the
    /// stream held (from trim-horizon); 0: read what the stream holds now and stop. Until
    /// Ctrl-C without it.
    #[arg(long = "for", value_name = "SECONDS", allow_negative_numbers = true)]
    pub for_seconds: Option<f64>,
    /// Seconds of stream time a gap may stay open before it is a divergence (the two records
    /// of one transaction can arrive apart).
    #[arg(
        long,
        default_value_t = 5.0,
        value_name = "SECONDS",
        allow_negative_numbers = true
    )]
    pub settle: f64,
    /// Without a stream: read the parent and count its children every SECONDS (at least 1),
    /// its RCU said each time. Polling cannot name the write that drifted.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "pk",
        allow_negative_numbers = true
    )]
    pub poll: Option<f64>,
    /// Turn on a stream (NEW_AND_OLD_IMAGES) first when the table has none: a change to the
    /// table's settings, through the write gateway (--yes off this machine; refused when
    /// read-only).
    #[arg(long, conflicts_with = "poll")]
    pub enable_stream: bool,
}

impl WatchArgs {
    /// The watch the arguments describe, for its spec to check.
    pub fn spec(&self) -> Result<WatchSpec> {
        Ok(WatchSpec {
            table: self.table.clone(),
            pk: self.pk.clone(),
            rule: self.rule.spec(None),
            from: WatchFrom::parse(&self.from)?,
            settle_seconds: self.settle,
            poll_seconds: self.poll,
        })
    }
}

/// Run the watch: exit 0 when no divergence is open at the end, 1 when one is (each named), 2
/// on bad input or a table without a stream (the ways out said).
pub(crate) async fn watch(cx: &mut Ctx<'_>, args: WatchArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let spec = args.spec()?;
    if let Some(secs) = args.for_seconds
        && !(0.0..=86_400.0).contains(&secs)
    {
        return Err(Error::Invalid("--for is 0 to 86400 seconds".into()));
    }
    let mut info = describe(&connection.reader(), &args.table, stop).await?;
    // The input is checked before anything is written: a bad one leaves the table as it was.
    let mut plan = spec.plan(&info)?;
    // A stream turned on is a write that applied: from then on stdout's failure changes no
    // exit status (it is said when the output ends).
    let wrote = args.enable_stream && info.stream_arn.is_none();
    if wrote {
        let enabling = stream::enable_plan(connection, &info);
        let report = stream::enable(connection, &enabling, &info.name, confirmed, stop).await?;
        for line in report.lines() {
            out.note(format_args!("dynoscope: {}", line.text));
        }
        match report.listed {
            Some(table) => info = table,
            None => return Ok(Exit::from(report.ending())),
        }
        plan = spec.plan(&info)?;
    }
    if plan.poll.is_none()
        && let Err(error) = StreamSource::of(&info)
    {
        out.note(format_args!("dynoscope: {error}"));
        out.note(
            "dynoscope: --enable-stream turns one on first; --poll SECONDS --pk P polls instead",
        );
        return Ok(Exit::Error);
    }
    let (until, for_time) = run_length(args.for_seconds);
    // Stopped by Ctrl-C, or by a stdout that stopped taking lines (`| head -1`).
    let ended = CancelToken::default();
    let relay = {
        let (stop, ended) = (stop.clone(), ended.clone());
        tokio::spawn(async move {
            stop.cancelled().await;
            ended.cancel();
        })
    };
    let tally = plan.rule.tally.clone();
    let json = out.json();
    let pricing = connection.pricing(&info);
    let watched = watch::watch(
        connection,
        &info,
        &plan,
        until,
        for_time,
        &ended,
        |progress| {
            print_progress(out, &tally, &pricing, json, progress);
            out.flush();
            if !out.open() {
                ended.cancel();
            }
        },
    )
    .await;
    relay.abort();
    let watched = match watched {
        Ok(watched) => watched,
        // The stream was turned on: an error after it is said after that, and refused (1),
        // not an error before anything applied.
        Err(error) if wrote => {
            out.error(format_args!("dynoscope: stopped: {error}"));
            return Ok(Exit::Refused);
        }
        Err(error) => return Err(error),
    };
    print_summary(out, &watched, json);
    if !wrote && let Some(error) = out.failure() {
        return Err(error);
    }
    Ok(Exit::from(watched.ending()))
}

/// How long `--for SECONDS` runs: `--for 0` reads the history to now, then stops; more
/// stops that long after the start.
fn run_length(for_seconds: Option<f64>) -> (Until, Option<Duration>) {
    let until = if for_seconds.is_some_and(|secs| secs <= 0.0) {
        Until::CaughtUp
    } else {
        Until::Cancelled
    };
    (
        until,
        for_seconds
            .filter(|s| *s > 0.0)
            .map(Duration::from_secs_f64),
    )
}

/// The watch's summary: its lines, or one JSON object with the divergences still open.
fn print_summary(out: &mut Output, watched: &watch::Watched, json: bool) {
    if json {
        out.line(dynoscope_core::report::document(watched));
    } else {
        out.words(&watched.lines());
    }
    out.flush();
}

fn print_progress(
    out: &mut Output,
    tally: &str,
    pricing: &Pricing,
    json: bool,
    progress: WatchProgress,
) {
    match progress {
        WatchProgress::Started(lines) => {
            for line in lines {
                out.note(format_args!("dynoscope: {line}"));
            }
        }
        WatchProgress::Event(WatchEvent::Change(change)) if json => {
            out.line(Document::to_json(&change.document(tally)));
        }
        WatchProgress::Event(WatchEvent::Change(change)) => out.line(change_line(&change, tally)),
        WatchProgress::Event(WatchEvent::Diverged(d)) if json => {
            out.line(d.to_json(tally));
        }
        // Each event is one write that changed the gap (or the start's gap): its headline.
        WatchProgress::Event(WatchEvent::Diverged(d)) => {
            out.line(format_args!("DRIFT   {}", d.headline(tally)));
        }
        WatchProgress::Event(WatchEvent::Closed(d)) if json => out.line(d.closed_json(tally)),
        WatchProgress::Event(WatchEvent::Closed(d)) => {
            out.line(format_args!("CLOSED  {}", d.headline(tally)));
        }
        WatchProgress::Stream(
            stream::StreamEvent::Waited(note) | stream::StreamEvent::Recovered(note),
        ) => {
            out.note(format_args!("dynoscope: {note}"));
        }
        WatchProgress::Stream(_) => {}
        WatchProgress::Polled { poll, consumed_rcu } => {
            out.note(format_args!(
                "dynoscope: poll {poll}: {}",
                pricing.read(consumed_rcu)
            ));
        }
    }
}

/// A change as one line: time, sequence, kind, parent, what, and the counter after it.
pub(crate) fn change_line(change: &Change, tally: &str) -> String {
    format!(
        "{}  {}  {:<6}  {}  {}  ({tally} {}, children {}, drift {})",
        time_text(change.at_ms, false),
        change.sequence,
        change.kind.name(),
        change.parent,
        change.what(tally),
        // From history, the tally is known from the parent's first record on.
        change
            .tally_after
            .as_deref()
            .unwrap_or(if change.gap_after.is_some() {
                "not read yet"
            } else {
                "missing"
            }),
        change.children_after.as_ref().map_or(
            "not known yet".to_owned(),
            dynoscope_core::number::to_dynamodb
        ),
        gap_text(change.gap_after.as_ref())
    )
}
