//! Importing the items of a file (or of an S3 export's folder) into a table, in two passes
//! over the files, neither holding them:
//!
//! 1. [`check_import`] streams every file, parses each line or record and checks every item as
//!    DynamoDB would ([`validate::check_item`](crate::validate::check_item): values, size,
//!    the table's and its indexes' keys), finds a key given twice in bounded memory, and keeps
//!    a preview, the columns' types and the counts. Nothing is written by a check, and an import
//!    is written whole or not at all, apart from what the server refuses for reasons no client
//!    can see.
//! 2. [`import`] streams the files again, checks each item again (nothing unchecked is sent),
//!    and puts them in batches of 25 through the write gateway, a few batches in flight — one
//!    confirmation for the whole import off this machine, unprocessed items sent again with a
//!    growing wait, a lost answer never guessed at. A file that changed since it was checked
//!    stops it, said so. The report adds up to the items read.

mod batches;
mod check;
mod feed;
mod priced;
mod send;
mod sources;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::connection::Connection;
use crate::cost::Pricing;
use crate::ending::Ending;
use crate::run;
use crate::table::TableInfo;
use crate::write::{self, Destination, Refusal, WriteOutcome};

pub(crate) use batches::{Batches, Feed, send_batches};
pub use check::{CheckLimits, Columns, ImportCheck, MAX_COLUMNS, check_import};
pub use check::{CheckedFile, InvalidLines};
pub(crate) use feed::Places;
pub use feed::check_rejected_free;
pub use priced::ImportRun;
pub(crate) use send::count;
pub use send::{BATCHES_AT_ONCE, import};
pub use sources::{DataSource, ImportSources, import_sources};

/// How far an import is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImportProgress {
    /// Items sent so far (in batches that ended).
    pub done: usize,
    /// Items to send.
    pub total: usize,
    /// Items written so far.
    pub written: usize,
    /// Write capacity consumed so far.
    pub wcu: f64,
    /// Time since the first batch was sent.
    pub elapsed: Duration,
    /// Batches sent whose answer is awaited.
    pub in_flight: usize,
    /// No new batch will be sent (cancelled, an unknown outcome, a file changed): those in
    /// flight are waited for.
    pub stopping: bool,
}

impl ImportProgress {
    /// Items written per second so far.
    pub fn per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.written as f64 / secs
        } else {
            0.0
        }
    }
}

impl ImportProgress {
    /// Progress in one line, its units priced by `pricing`: `250 of 1000 items sent, 250
    /// written · 900 items/s · 250 WCU ≈ $0.00016 on demand`.
    pub fn line(&self, pricing: &Pricing) -> String {
        let mut line = format!(
            "{} of {} items sent, {} written · {:.0} items/s · {}",
            self.done,
            self.total,
            self.written,
            self.per_second(),
            pricing.write(self.wcu)
        );
        if self.stopping {
            line.push_str(&self.stopping_text());
        }
        line
    }
}

impl ImportProgress {
    /// ` · stopping: nothing more is sent, waiting for 2 batches in flight`.
    fn stopping_text(&self) -> String {
        let batches = match self.in_flight {
            1 => "1 batch".to_owned(),
            n => format!("{n} batches"),
        };
        format!(" · stopping: nothing more is sent, waiting for {batches} in flight")
    }
}

/// Lines `first` to `last` of one file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineRange {
    /// The file.
    pub file: Arc<Path>,
    /// The first line.
    pub first: usize,
    /// The last line.
    pub last: usize,
}

/// Ranges kept for one reason: beyond them the items are counted, not placed, so that a
/// report of a huge import refused item by item stays small.
const MAX_RANGES: usize = 10_000;

/// Items that were not written, or may not have been, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct NotWritten {
    /// How many.
    pub items: usize,
    /// Where they came from, as line ranges (at most 10,000 of them; `places_left_out` says
    /// when more were not kept).
    pub places: Vec<LineRange>,
    /// Some places were not kept.
    pub places_left_out: bool,
    /// Why, in words.
    pub reason: String,
    /// The refusal was about the input (the server's `ValidationException`), or came before
    /// anything was sent (read-only, not confirmed): nothing the server holds disagreed.
    pub bad_input: bool,
}

impl NotWritten {
    fn add(&mut self, places: &[(Arc<Path>, usize)]) {
        self.items += places.len();
        for (file, line) in places {
            let full = self.places.len() >= MAX_RANGES;
            match self.places.last_mut() {
                Some(r) if r.file == *file && r.last + 1 == *line => r.last = *line,
                _ if full => self.places_left_out = true,
                _ => self.places.push(LineRange {
                    file: Arc::clone(file),
                    first: *line,
                    last: *line,
                }),
            }
        }
    }
}

/// How an import ended. `read = written + refused + unknown + not_sent`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    /// Items read from the file(s) and checked.
    pub read: usize,
    /// Items the server wrote.
    pub written: usize,
    /// Items the server refused or left unprocessed (not written), with reasons.
    pub refused: Vec<NotWritten>,
    /// Items whose batch's answer was lost: they may or may not be written.
    pub unknown: Vec<NotWritten>,
    /// Items never sent (cancelled, stopped after a lost answer, or a file changed).
    pub not_sent: usize,
    /// `BatchWriteItem` requests sent.
    pub requests: u32,
    /// Write capacity consumed.
    pub wcu: f64,
    /// How long the writing took.
    pub elapsed: Duration,
    /// The import wrote nothing on purpose (a dry run).
    pub dry_run: bool,
    /// Why the import stopped before its end, when it did for a reason of its own (cancelled,
    /// a file changed since it was checked).
    pub stopped: Option<String>,
    /// Lines skipped as not items DynamoDB would take (not in `read`).
    pub skipped: usize,
    /// Where the skipped lines were written with their reasons, once every file was read.
    pub rejected_file: Option<std::path::PathBuf>,
}

impl ImportReport {
    fn count(list: &[NotWritten]) -> usize {
        list.iter().map(|n| n.items).sum()
    }

    /// The report of a dry run of what `checked` found.
    pub fn dry_run(checked: &ImportCheck) -> Self {
        Self {
            read: checked.items,
            skipped: checked.invalid.total,
            dry_run: true,
            ..Self::default()
        }
    }

    /// Items refused or left unprocessed.
    pub(crate) fn refused_count(&self) -> usize {
        Self::count(&self.refused)
    }

    /// Items whose outcome is unknown.
    pub fn unknown_count(&self) -> usize {
        Self::count(&self.unknown)
    }

    /// What the end means: unknown if any outcome is; done when all was written and no line
    /// skipped (or a dry run); bad input when nothing was written and every refusal was about
    /// the input; refused otherwise (lines skipped are lines refused).
    pub fn ending(&self) -> Ending {
        if self.unknown_count() > 0 {
            Ending::Unknown
        } else if self.dry_run || (self.written == self.read && self.skipped == 0) {
            Ending::Done
        } else if self.written == 0 && self.refused.iter().all(|n| n.bad_input) {
            Ending::BadInput
        } else {
            Ending::Refused
        }
    }

    /// Count `places` as refused (`unknown` false) or unknown, for `reason`; places of one
    /// reason run together.
    pub(crate) fn not_written(
        &mut self,
        unknown: bool,
        places: &[(Arc<Path>, usize)],
        reason: String,
        bad_input: bool,
    ) {
        let list = if unknown {
            &mut self.unknown
        } else {
            &mut self.refused
        };
        if let Some(same) = list
            .iter_mut()
            .find(|n| n.reason == reason && n.bad_input == bad_input)
        {
            same.add(places);
        } else {
            let mut entry = NotWritten {
                items: 0,
                places: Vec::new(),
                places_left_out: false,
                reason,
                bad_input,
            };
            entry.add(places);
            list.push(entry);
        }
    }

    /// The summary line: `import: 1,000 read, 1,000 written, 0 refused, 0 unknown, 0 not sent
    /// (40 requests, 1000 WCU, 0.8 s)`.
    pub fn summary(&self, pricing: &Pricing) -> String {
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!(", {} skipped", crate::report::plural(n, "invalid line")),
        };
        if self.dry_run {
            return format!(
                "dry run: {} read and checked{skipped}; nothing was written",
                crate::report::plural(self.read, "item")
            );
        }
        format!(
            "import: {} read{skipped}, {} written, {} refused, {} unknown, {} not sent ({}, {}, {:.1} s)",
            self.read,
            self.written,
            self.refused_count(),
            self.unknown_count(),
            self.not_sent,
            crate::report::plural(self.requests as usize, "request"),
            pricing.write(self.wcu),
            self.elapsed.as_secs_f64()
        )
    }

    /// Every line to print after the summary: why it stopped, what was not written and why.
    pub fn details(&self) -> Vec<String> {
        let list = |what: &str, items: &[NotWritten]| {
            items
                .iter()
                .map(|n| {
                    let more = if n.places_left_out { ", …" } else { "" };
                    format!("{what}: {}{more} — {}", places_text(&n.places), n.reason)
                })
                .collect::<Vec<_>>()
        };
        let mut lines: Vec<String> = self
            .stopped
            .iter()
            .map(|s| format!("stopped: {s}"))
            .collect();
        lines.extend(list("refused", &self.refused));
        lines.extend(list("unknown", &self.unknown));
        if self.skipped > 0 && !self.dry_run {
            lines.push(match &self.rejected_file {
                Some(file) => format!(
                    "skipped: {} written with their reasons to {} (fix them there and import that file)",
                    crate::report::plural(self.skipped, "invalid line"),
                    file.display()
                ),
                None => format!(
                    "skipped: {}, not written to a file of rejected lines (the import stopped before the end)",
                    crate::report::plural(self.skipped, "invalid line")
                ),
            });
        }
        lines
    }
}

/// Places in words, as errors place a line: `a.jsonl: lines 26–50, b.jsonl: line 3`.
fn places_text(places: &[LineRange]) -> String {
    places
        .iter()
        .map(|r| {
            if r.first == r.last {
                format!("{}: line {}", r.file.display(), r.first)
            } else {
                format!("{}: lines {}–{}", r.file.display(), r.first, r.last)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why the server refused a batch, in the words a refused write gets everywhere.
fn refusal_text(refusal: Refusal) -> String {
    let refused = WriteOutcome::Refused {
        refusal,
        attempts: 0,
    };
    run::written("BatchWriteItem", refused, false, None).summary
}

/// The question an import to `connection` needs answered first, if any (off this machine),
/// or the refusal (read-only).
pub fn confirmation(
    connection: &Connection,
    info: &TableInfo,
    items: usize,
) -> write::Confirmation {
    Destination::of(connection).confirmation(&format!(
        "table {}, {items} items put (an import)",
        info.name
    ))
}

#[cfg(test)]
mod tests;
