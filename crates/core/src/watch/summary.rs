//! The end of a watch in words, for the app's card and the CLI's last lines.

use serde::Serialize;

use crate::ending::Ending;
use crate::report::{Line, Report, Tone, plural};
use crate::stream::time_text;
use crate::watch::{CounterFold, Divergence, Watched, gap_text};

/// The end of a watch in lines: what was read, what is open (each named), what closed.
pub fn summary(watched: &Watched) -> Vec<Line> {
    let fold = &watched.fold;
    let tally = fold.tally_name().to_owned();
    let mut lines = Vec::new();
    lines.push(title_line(watched));
    let open = fold.open();
    if open.is_empty() {
        lines.push(Line::new(
            Tone::Good,
            format!("No divergence open: every {tally} watched moved as its children did."),
        ));
    } else {
        lines.push(Line::new(
            Tone::Bad,
            format!("{} open:", plural(open.len(), "divergence")),
        ));
        for divergence in open {
            for text in divergence.lines(&tally) {
                lines.push(Line::new(Tone::Bad, format!("  {text}")));
            }
        }
    }
    lines.extend(unsettled_lines(fold, &tally));
    let closed: Vec<_> = fold.parents().flat_map(|p| p.closed.iter()).collect();
    let settled: u64 = fold.parents().map(|p| p.settled).sum();
    if !closed.is_empty() {
        let longest = closed
            .iter()
            .filter_map(|d| d.open_for_ms())
            .max()
            .unwrap_or(0);
        lines.push(Line::new(
            Tone::Warn,
            format!(
                "{} closed again (open {}.{:03} s at most)",
                plural(closed.len(), "divergence"),
                longest / 1000,
                longest % 1000
            ),
        ));
    }
    if settled > 0 {
        lines.push(Line::new(
            Tone::Quiet,
            format!(
                "{} matched by their counterpart within the settle window ({tally} and \
                 children moved together: consistent writes, never named)",
                plural(settled as usize, "change")
            ),
        ));
    }
    lines.extend(busiest(watched));
    lines
}

/// The first line: how many parents were watched for how long, and what was read.
fn title_line(watched: &Watched) -> Line {
    let fold = &watched.fold;
    let seconds = (watched.ended_ms - watched.started_ms).max(0);
    let read = match (&watched.followed, watched.polls) {
        (Some(f), _) => format!(
            "{} read from the stream in {} ({} records outside the rule), from {} to {}",
            plural(f.records as usize, "record"),
            plural(f.requests as usize, "request"),
            fold.ignored,
            time_text(watched.started_ms, false),
            time_text(watched.ended_ms, false)
        ),
        (None, polls) => format!(
            "{} of the parent ({} in all), polling: the write that drifted cannot be named",
            plural(polls as usize, "poll"),
            watched.pricing.read(watched.consumed_rcu)
        ),
    };
    Line::new(
        Tone::Title,
        format!(
            "Watched {} for {}.{:03} s: {read}",
            plural(fold.parents().count(), "parent"),
            seconds / 1000,
            seconds % 1000
        ),
    )
}

/// The changes still waiting for their counterpart at the end (the first 20 named).
fn unsettled_lines(fold: &CounterFold, tally: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let unsettled = fold.unsettled();
    if !unsettled.is_empty() {
        lines.push(Line::new(
            Tone::Warn,
            format!(
                "{} waiting at the end for less than the settle window for its counterpart (a \
                 write may have been in flight; not counted as divergences):",
                plural(unsettled.len(), "change")
            ),
        ));
        for change in unsettled.iter().take(20) {
            lines.push(Line::new(
                Tone::Warn,
                format!(
                    "  {} {} at {}",
                    change.parent,
                    change.what(tally),
                    time_text(change.at_ms, false)
                ),
            ));
        }
    }
    lines
}

/// The parent whose partition took the most write units in one second of stream time, against
/// one partition's ceiling (a stream only; units from the items' sizes in the records).
fn busiest(watched: &Watched) -> Option<Line> {
    watched.followed.as_ref()?;
    let parent = watched
        .fold
        .parents()
        .filter(|p| p.load.peak_units > 0)
        .max_by_key(|p| p.load.peak_units)?;
    let line = parent.load.peak(&parent.pk).line();
    Some(Line::new(
        line.tone,
        format!(
            "Busiest second ({}): {} (write units from the item sizes in the records; a \
             transaction's writes cost twice)",
            time_text(parent.load.peak_ms, false),
            line.text
        ),
    ))
}

impl Divergence {
    /// The divergence as its document: the parent, its drift, when it opened, the writes
    /// named, and the gap it already had when the watch began.
    pub(crate) fn document(&self, tally: &str) -> DivergenceDocument {
        DivergenceDocument {
            kind: DivergenceKind::Divergence,
            parent: self.parent.clone(),
            drift: gap_text(self.gap.as_ref()),
            opened_ms: self.opened_ms,
            before_watch: self.before_watch,
            start_drift: self.before_watch.then(|| gap_text(self.start_gap.as_ref())),
            closed_after_ms: self.open_for_ms(),
            headline: self.headline(tally),
            causes: (self.causes.iter())
                .map(|c| CauseDocument {
                    sequence: c.sequence.as_str().to_owned(),
                    at_ms: c.at_ms,
                    cause: c.cause(tally),
                })
                .collect(),
        }
    }

    /// The divergence as one JSON object: its [`document`](Self::document) through serde.
    pub fn to_json(&self, tally: &str) -> serde_json::Value {
        crate::document::Document::to_json(&self.document(tally))
    }
}

impl Watched {
    /// The end of the watch as its document.
    fn document(&self) -> WatchedDocument {
        let tally = self.fold.tally_name();
        WatchedDocument {
            kind: SummaryKind::Summary,
            summary: summary(self).into_iter().map(|l| l.text).collect(),
            open: (self.fold.open().into_iter())
                .map(|d| d.document(tally))
                .collect(),
        }
    }
}

crate::document_as!(Watched => WatchedDocument, document);

/// The end of a watch: its summary in words and the divergences still open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct WatchedDocument {
    /// What the object is: always `summary`.
    #[serde(rename = "type")]
    pub(crate) kind: SummaryKind,
    /// The summary, a line each.
    pub(crate) summary: Vec<String>,
    /// The divergences still open at the end.
    pub(crate) open: Vec<DivergenceDocument>,
}

/// The kind of a watch's summary object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SummaryKind {
    /// The end of a watch.
    Summary,
}

/// A time a parent's tally and its children disagreed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct DivergenceDocument {
    /// What the object is: `divergence`, or `closed` for one that closed (a watch's event).
    #[serde(rename = "type")]
    pub(crate) kind: DivergenceKind,
    /// The parent's partition key.
    pub(crate) parent: String,
    /// Tally minus children as settled now, signed (`+1`), or `missing tally`.
    pub(crate) drift: String,
    /// When it opened, stream time in milliseconds since 1970.
    pub(crate) opened_ms: i64,
    /// Whether it was there when the watch started (no record opened it).
    pub(crate) before_watch: bool,
    /// The drift the start check found, when it was there at the start; else `null`.
    pub(crate) start_drift: Option<String>,
    /// How long it stayed open, in milliseconds; `null` while open.
    pub(crate) closed_after_ms: Option<i64>,
    /// The divergence in one line.
    pub(crate) headline: String,
    /// The writes that changed the drift while it was open, oldest first.
    pub(crate) causes: Vec<CauseDocument>,
}

/// The kind of a divergence object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DivergenceKind {
    /// A time a parent's tally and its children disagreed.
    Divergence,
    /// A divergence that closed: the tally and the children agree again.
    Closed,
}

/// A write that changed a divergence's drift.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct CauseDocument {
    /// The stream record's sequence number.
    pub(crate) sequence: String,
    /// When it was written, stream time in milliseconds since 1970.
    pub(crate) at_ms: i64,
    /// What it did, in words.
    pub(crate) cause: String,
}

impl Report for Watched {
    fn lines(&self) -> Vec<Line> {
        summary(self)
    }

    /// Done when no divergence is open at the end; refused (the data disagrees) when one is.
    fn ending(&self) -> Ending {
        if self.fold.open().is_empty() {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}
