//! How a clone ended, in words and as JSON: the schema step, the items, the check.

use std::time::Duration;

use crate::admin::AdminReport;
use crate::clone::{Check, ClonePlan};
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::import::ImportReport;
use crate::read::SegmentStarts;
use crate::report::{Line, Report, Tone, plain, plural};
use crate::schema::StreamView;
use crate::write::Destination;

/// How far a clone's items are.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyProgress {
    /// Items read from the source and handed to the writers.
    pub read: usize,
    /// Items written.
    pub written: usize,
    /// Write capacity consumed at the destination.
    pub wcu: f64,
    /// Read capacity consumed at the source.
    pub rcu: f64,
    /// Since the copy began.
    pub elapsed: Duration,
    /// Batches sent whose answer is awaited.
    pub in_flight: usize,
    /// No new batch will be sent; those in flight are waited for.
    pub stopping: bool,
    /// A wait of the reader, in words (`segment 3: throttled, waiting 800 ms …`).
    pub note: Option<String>,
}

impl CopyProgress {
    /// Items written a second so far.
    pub fn per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.written as f64 / secs
        } else {
            0.0
        }
    }

    /// `25000 read, 24800 written · 5200 items/s · 24800 WCU, 310 RCU`.
    pub fn line(&self) -> String {
        if let Some(note) = &self.note {
            return note.clone();
        }
        let mut line = format!(
            "{} read, {} written · {:.0} items/s · {} WCU, {} RCU",
            self.read,
            self.written,
            self.per_second(),
            crate::report::capacity(self.wcu),
            crate::report::capacity(self.rcu)
        );
        if self.stopping {
            line.push_str(&format!(
                " · stopping: nothing more is sent, waiting for {} in flight",
                crate::report::plural(self.in_flight, "batch")
            ));
        }
        line
    }
}

/// How a clone's items ended. `items.read = written + refused + unknown + not_sent`.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyReport {
    /// The writing, counted as an import counts it (`read` is the items read from the source).
    pub items: ImportReport,
    /// Pages read from the source.
    pub pages: usize,
    /// Read capacity consumed at the source.
    pub rcu: f64,
    /// Why reading the source stopped before its end, when it failed.
    pub read_error: Option<Error>,
    /// Where each segment goes on from: after the last page written whole.
    pub left: SegmentStarts,
    /// One partition was read (one segment, a Query).
    pub partition: bool,
    /// The source's key attribute names, in order (how `left`'s keys are written).
    pub key_names: Vec<String>,
}

impl CopyReport {
    /// Every item read to the end and written.
    pub fn complete(&self) -> bool {
        self.read_error.is_none()
            && self.items.stopped.is_none()
            && self.left.finished()
            && self.items.written == self.items.read
    }

    /// The summary line: `items: 100000 read, 100000 written, 0 refused, 0 unknown, 0 not sent
    /// (4000 requests, 100000 WCU; 120 pages, 3000 RCU; 21.4 s)`.
    pub fn summary(&self) -> String {
        let i = &self.items;
        format!(
            "items: {} read, {} written, {} refused, {} unknown, {} not sent ({}, {} WCU; {}, {} RCU; {:.1} s)",
            i.read,
            i.written,
            i.refused_count(),
            i.unknown_count(),
            i.not_sent,
            plural(i.requests as usize, "request"),
            crate::report::capacity(i.wcu),
            plural(self.pages, "page"),
            crate::report::capacity(self.rcu),
            i.elapsed.as_secs_f64()
        )
    }

    /// Why it stopped, and what was not written and why (counts, not places).
    pub fn details(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(error) = &self.read_error {
            lines.push(format!("stopped: reading the source failed: {error}"));
        }
        if let Some(why) = &self.items.stopped {
            lines.push(format!("stopped: {why}"));
        }
        for (what, list) in [
            ("refused", &self.items.refused),
            ("unknown", &self.items.unknown),
        ] {
            for n in list {
                lines.push(format!(
                    "{what}: {} — {}",
                    plural(n.items, "item"),
                    n.reason
                ));
            }
        }
        lines
    }
}

/// How the destination's schema came about.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaStep {
    /// Created from the source's spec, with what was adjusted.
    Created {
        /// The creation, followed until active, with TTL and PITR set after it.
        report: Box<AdminReport>,
        /// Each adjustment, in words.
        adjusted: Vec<String>,
    },
    /// An existing table with the source's keys, said in words.
    Existing {
        /// What that means.
        note: String,
    },
}

/// The source's stream on a created copy, turned on once every item is copied.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamStep {
    /// Not turned on: the copy did not end whole.
    Waiting(StreamView),
    /// Turned on (or tried): its report.
    Sent(Box<AdminReport>),
    /// Not sent: the table could not be read, or would not take it (why).
    Failed(StreamView, String),
}

impl StreamStep {
    pub(super) fn lines(&self, to: &str) -> Vec<String> {
        match self {
            Self::Waiting(view) => vec![format!(
                "stream: not turned on, since not every item was copied: once the copy is \
                 whole, turn on {to}'s stream ({}) in its table settings",
                view.name()
            )],
            Self::Failed(view, why) => vec![format!(
                "stream: {} not turned on: {why}; turn it on in {to}'s table settings",
                view.name()
            )],
            Self::Sent(report) => report
                .lines()
                .into_iter()
                .map(|l| format!("stream: {}", l.text))
                .collect(),
        }
    }
}

/// How a clone ended.
#[derive(Debug, Clone, PartialEq)]
pub struct CloneReport {
    /// The source table.
    pub from: String,
    /// The destination table.
    pub to: String,
    /// Where the destination is.
    pub place: String,
    /// The schema.
    pub schema: SchemaStep,
    /// The items; `None` when the schema step stopped the clone before them.
    pub copy: Option<CopyReport>,
    /// The check at the end; `None` when the items were not all copied, or no check was asked.
    pub verified: Option<Result<Check>>,
    /// The source's stream on a created copy; `None` when there is none to turn on.
    pub stream: Option<StreamStep>,
    /// How the source's reads and the destination's writes are priced, once both are known.
    pub prices: Option<(crate::cost::Pricing, crate::cost::Pricing)>,
}

impl CloneReport {
    /// The report of `plan` to `target` after its schema step.
    pub(crate) fn new(plan: &ClonePlan, target: &Connection, schema: SchemaStep) -> Self {
        Self {
            from: plan.table.clone(),
            to: plan.to_table.clone(),
            place: Destination::of(target).place(),
            schema,
            copy: None,
            verified: None,
            stream: None,
            prices: None,
        }
    }
}

impl Report for CloneReport {
    /// Its class: unknown if any write's outcome is; done when every item was copied and the
    /// check (when asked) found the two sides equal; refused otherwise — a clone stopped
    /// part-way, a difference found, or a check that could not be made.
    fn ending(&self) -> Ending {
        if let Some(error) = self.failure() {
            return Ending::of_error(error);
        }
        let mut ending = match &self.schema {
            SchemaStep::Created { report, .. } => report.ending(),
            SchemaStep::Existing { .. } => Ending::Done,
        };
        let Some(copy) = &self.copy else {
            // The table was not followed to active: nothing was copied.
            return ending.graver(Ending::Refused);
        };
        if copy.items.unknown_count() > 0 {
            return Ending::Unknown;
        }
        if !copy.complete() {
            return ending.graver(Ending::Refused);
        }
        // Items were written by then: a stream that could not be turned on is a refusal, never
        // an error before anything applied.
        match &self.stream {
            Some(StreamStep::Sent(report)) => {
                ending = ending.graver(if report.failure().is_some() {
                    Ending::Refused
                } else {
                    report.ending()
                });
            }
            Some(StreamStep::Failed(..)) => ending = ending.graver(Ending::Refused),
            Some(StreamStep::Waiting(_)) | None => {}
        }
        if let Some(verified) = &self.verified {
            let agrees = verified.as_ref().is_ok_and(Check::agrees);
            if !agrees {
                ending = ending.graver(Ending::Refused);
            }
        }
        ending
    }

    /// The schema step's error when it applied nothing: said once, as the error.
    fn failure(&self) -> Option<&Error> {
        match &self.schema {
            SchemaStep::Created { report, .. } => report.failure(),
            SchemaStep::Existing { .. } => None,
        }
    }

    /// Every line to print: the schema step, the items, the check.
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![format!(
            "clone of {} into {} at {}",
            self.from, self.to, self.place
        )];
        match &self.schema {
            SchemaStep::Created { report, adjusted } => {
                lines.extend(
                    report
                        .lines()
                        .into_iter()
                        .map(|l| format!("schema: {}", l.text)),
                );
                lines.extend(adjusted.iter().map(|a| format!("schema: adjusted: {a}")));
            }
            SchemaStep::Existing { note } => lines.push(format!("schema: {note}")),
        }
        match &self.copy {
            None => lines.push(
                "items: none copied (the new table did not become active while it was \
                 followed; run the clone again to copy them into it)"
                    .to_owned(),
            ),
            Some(copy) => {
                lines.push(copy.summary());
                if let Some((source, destination)) = &self.prices {
                    lines.push(format!(
                        "cost: writing {}; reading the source {}",
                        destination
                            .charge_reported(crate::cost::Kind::Write, copy.items.wcu)
                            .text(),
                        source
                            .charge_reported(crate::cost::Kind::Read, copy.rcu)
                            .text()
                    ));
                }
                lines.extend(copy.details());
            }
        }
        match &self.verified {
            None if self.copy.as_ref().is_some_and(CopyReport::complete) => {
                lines.push("check: not made (asked not to)".to_owned());
            }
            None => lines.push("check: not made, since not every item was copied".to_owned()),
            Some(Ok(verified)) => lines.extend(verified.lines()),
            Some(Err(error)) => lines.push(format!("check: could not be made: {error}")),
        }
        if let Some(stream) = &self.stream {
            lines.extend(stream.lines(&self.to));
        }
        let mut lines = plain(Tone::Plain, super::schema::said_once(lines));
        if let Some(title) = lines.first_mut() {
            title.tone = Tone::Title;
        }
        lines
    }
}
