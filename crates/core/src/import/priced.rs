//! A finished import said as a report: its summary priced for the table written, what was not
//! written and why, and how it ended.

use schemars::JsonSchema;
use serde::Serialize;

use crate::cost::Pricing;
use crate::cost::usd::Usd;
use crate::ending::Ending;
use crate::import::{ImportReport, NotWritten};
use crate::report::{Line, Report, Tone};

/// An import's report with the prices of the table it wrote to.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRun {
    /// What the import did.
    pub report: ImportReport,
    /// What the table's writes cost.
    pub pricing: Pricing,
}

/// A finished import: what was read, written and not, what it cost, and how it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ImportDocument {
    /// Items read from the file(s) and checked.
    pub(crate) read: usize,
    /// Items the server wrote.
    pub(crate) written: usize,
    /// Items the server refused or left unprocessed (not written).
    pub(crate) refused: usize,
    /// Items whose batch's answer was lost: they may or may not be written.
    pub(crate) unknown: usize,
    /// Items never sent (cancelled, stopped after a lost answer, or a file changed).
    pub(crate) not_sent: usize,
    /// `BatchWriteItem` requests sent.
    pub(crate) requests: u32,
    /// The write capacity units consumed.
    pub(crate) wcu: f64,
    /// What the writes cost in US dollars at the table's price.
    pub(crate) usd: Usd,
    /// How long the writing took, in seconds.
    pub(crate) seconds: f64,
    /// Whether the import wrote nothing on purpose (a dry run).
    pub(crate) dry_run: bool,
    /// Lines skipped as not items DynamoDB would take (not counted in `read`).
    pub(crate) skipped: usize,
    /// Why the import stopped before its end, when it did for a reason of its own.
    pub(crate) stopped: Option<String>,
    /// The items refused, a group per reason.
    pub(crate) refusals: Vec<NotWrittenDocument>,
    /// The items whose outcome is unknown, a group per reason.
    pub(crate) unknowns: Vec<NotWrittenDocument>,
    /// The file the skipped lines were written to with their reasons; `null` when none.
    pub(crate) rejected_file: Option<String>,
}

/// Items not written, for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct NotWrittenDocument {
    /// How many.
    pub(crate) items: usize,
    /// Why, in words.
    pub(crate) reason: String,
    /// Whether the input was at fault (the server's `ValidationException`), or nothing was
    /// sent (read-only, not confirmed): nothing the server holds disagreed.
    pub(crate) bad_input: bool,
}

impl NotWrittenDocument {
    fn of(list: &[NotWritten]) -> Vec<Self> {
        (list.iter())
            .map(|n| Self {
                items: n.items,
                reason: n.reason.clone(),
                bad_input: n.bad_input,
            })
            .collect()
    }
}

impl ImportRun {
    /// The import's document.
    pub(crate) fn document(&self) -> ImportDocument {
        let r = &self.report;
        ImportDocument {
            read: r.read,
            written: r.written,
            refused: r.refused_count(),
            unknown: r.unknown_count(),
            not_sent: r.not_sent,
            requests: r.requests,
            wcu: r.wcu,
            usd: Usd::from(self.pricing.write(r.wcu)),
            seconds: r.elapsed.as_secs_f64(),
            dry_run: r.dry_run,
            skipped: r.skipped,
            stopped: r.stopped.clone(),
            refusals: NotWrittenDocument::of(&r.refused),
            unknowns: NotWrittenDocument::of(&r.unknown),
            rejected_file: (r.rejected_file.as_ref()).map(|f| f.display().to_string()),
        }
    }
}

crate::document_as!(ImportRun => ImportDocument, document);

impl Report for ImportRun {
    fn lines(&self) -> Vec<Line> {
        let tone = match self.ending() {
            Ending::Done => Tone::Good,
            _ => Tone::Warn,
        };
        let mut lines = vec![Line::new(tone, self.report.summary(&self.pricing))];
        lines.extend(
            self.report
                .details()
                .into_iter()
                .map(|text| Line::new(Tone::Plain, text)),
        );
        lines
    }

    fn ending(&self) -> Ending {
        self.report.ending()
    }
}
