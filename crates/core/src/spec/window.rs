//! A window's writes checked from an incremental export: which parents gained a drift between
//! its two times, and the records that did it — the same words and JSON for every front end.

use std::path::PathBuf;

use aws_sdk_dynamodb::primitives::{DateTime, DateTimeFormat};
use bigdecimal::{BigDecimal, Zero};
use serde::{Deserialize, Serialize};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::number;
use crate::report::{Line, Report, Tone, plural};
use crate::spec::RuleSpec;
use crate::table::TableInfo;
use crate::tally::{RecordAt, Window, WindowParent, read_window, view_of_summary, window_files};
use crate::transfer::{S3Location, TextSource, manifest_text, object_sources};

/// An incremental export's window to check: `table`'s parents under `rule`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowSpec {
    /// The table the export is of (its keys).
    pub table: String,
    /// The tally rule.
    pub rule: RuleSpec,
    /// The export: its folder (`AWSDynamoDB/<ExportId>/`) or one data file, here or in S3
    /// (`s3://BUCKET/PREFIX/AWSDynamoDB/<ExportId>/`).
    pub export: PathBuf,
}

impl WindowSpec {
    /// Read the export's records and sum each parent's window (`info`: the table, described):
    /// files here, or `s3://…` read with `connection`'s S3 client.
    pub async fn run(
        &self,
        connection: &Connection,
        info: &TableInfo,
        stop: &CancelToken,
    ) -> Result<WindowReport> {
        let rule = self.rule.tally_rule()?;
        let (sources, view) = if let Some(at) = S3Location::parse(&self.export.to_string_lossy())? {
            s3_sources(&connection.s3(), &at, stop).await?
        } else {
            let data = window_files(&self.export)?;
            let files = (data.files.into_iter())
                .map(|f| Box::new(f) as Box<dyn TextSource>)
                .collect();
            (files, data.view)
        };
        let (owned, tally_rule, stop) = (info.clone(), rule.clone(), stop.clone());
        // Objects are read by blocking calls: off the runtime, as files are.
        let window =
            tokio::task::spawn_blocking(move || read_window(&owned, &tally_rule, &sources, &stop))
                .await
                .map_err(|e| Error::TaskDied {
                    op: "reading the export",
                    detail: e.to_string(),
                })??;
        Ok(WindowReport {
            table: self.table.clone(),
            tally: rule.tally,
            view,
            window,
        })
    }
}

/// The incremental export at `at` in S3: the objects its manifest names, and its view.
async fn s3_sources(
    client: &aws_sdk_s3::Client,
    at: &S3Location,
    stop: &CancelToken,
) -> Result<(Vec<Box<dyn TextSource>>, Option<String>)> {
    let view = match manifest_text(client, at, "manifest-summary.json").await? {
        Some(text) => view_of_summary(&text, &format!("{at}/manifest-summary.json"))?,
        None => None,
    };
    let sources = object_sources(client, at, stop).await?;
    Ok((sources, view))
}

/// What a window's records said: the parents that gained a drift in it, each with its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowReport {
    /// The table.
    pub table: String,
    /// The tally attribute.
    pub tally: String,
    /// The export's view, when its summary says (`NEW_AND_OLD_IMAGES`).
    pub view: Option<String>,
    /// The window, per parent.
    pub window: Window,
}

/// Microseconds since the epoch as RFC 3339 text.
fn time_text(micros: u128) -> String {
    i128::try_from(micros)
        .ok()
        .map(|m| DateTime::from_nanos(m.saturating_mul(1000)))
        .and_then(Result::ok)
        .and_then(|t| t.fmt(DateTimeFormat::DateTime).ok())
        .unwrap_or_else(|| format!("{micros} µs"))
}

fn signed(value: &BigDecimal) -> String {
    let text = number::to_dynamodb(value);
    if value > &BigDecimal::zero() {
        format!("+{text}")
    } else {
        text
    }
}

impl WindowReport {
    fn parent_line(&self, parent: &WindowParent) -> Line {
        let shown = |t: &Option<String>| t.clone().unwrap_or_else(|| "absent".into());
        let tally = if parent.seen {
            format!(
                "{} {} → {} ({})",
                self.tally,
                shown(&parent.tally.0),
                shown(&parent.tally.1),
                signed(&parent.tally_moved())
            )
        } else {
            format!("{} unchanged (no record of the parent)", self.tally)
        };
        Line::new(
            Tone::Bad,
            format!(
                "{} gained a drift of {} in the window: {tally}, children {:+} ({} inserted, {} \
                 removed)",
                parent.partition,
                signed(&parent.gained()),
                parent.children_moved(),
                parent.inserted,
                parent.removed
            ),
        )
    }

    fn record_lines(parent: &WindowParent) -> Vec<Line> {
        let mut lines: Vec<Line> = (parent.records.iter())
            .map(|r| {
                let at = (r.micros.as_deref().and_then(|m| m.parse().ok()))
                    .map_or(String::new(), |m| format!(", written {}", time_text(m)));
                Line::new(
                    Tone::Plain,
                    format!("  {}:{}  {}{at}", r.file.display(), r.line, r.what),
                )
            })
            .collect();
        let more = parent.record_count - parent.records.len() as u64;
        if more > 0 {
            lines.push(Line::new(
                Tone::Plain,
                format!("  and {} more", plural(more as usize, "record")),
            ));
        }
        lines
    }

    fn heading(&self) -> Line {
        let w = &self.window;
        let span = w.span.map_or(String::new(), |(from, to)| {
            format!(", written {} to {}", time_text(from), time_text(to))
        });
        Line::new(
            Tone::Plain,
            format!(
                "Read {} of an incremental export of {} ({}){span}: {} touched, {} gained a \
                 drift in the window.",
                plural(w.records as usize, "record"),
                self.table,
                plural(w.files.len(), "file"),
                plural(w.parents.len(), "parent"),
                w.drifted().count()
            ),
        )
    }
}

impl Report for WindowReport {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![self.heading()];
        for parent in self.window.drifted() {
            lines.push(self.parent_line(parent));
            lines.extend(Self::record_lines(parent));
        }
        if self.window.drifted().next().is_none() {
            lines.push(Line::new(
                Tone::Good,
                format!(
                    "No parent gained a drift in the window: every {} moved by its children's count.",
                    self.tally
                ),
            ));
        }
        if self.window.no_old_image && self.view.is_none() {
            lines.push(Line::new(
                Tone::Warn,
                "No record has an old image: right for a window of inserts only; an export made \
                 with the new-images view reads its updates as inserts, and its sums are wrong."
                    .to_owned(),
            ));
        }
        if self.window.others > 0 {
            lines.push(Line::new(
                Tone::Plain,
                format!(
                    "{} of items neither a parent nor a child under the rule.",
                    plural(self.window.others as usize, "record")
                ),
            ));
        }
        lines
    }

    fn ending(&self) -> Ending {
        if self.window.drifted().next().is_some() {
            Ending::Refused
        } else {
            Ending::Done
        }
    }
}

impl WindowReport {
    /// The window as its document.
    fn document(&self) -> WindowDocument {
        let w = &self.window;
        WindowDocument {
            table: self.table.clone(),
            tally: self.tally.clone(),
            files: w.files.iter().map(|f| f.display().to_string()).collect(),
            records: w.records,
            others: w.others,
            from: w.span.map(|s| time_text(s.0)),
            to: w.span.map(|s| time_text(s.1)),
            parents_touched: w.parents.len(),
            view: self.view.clone(),
            no_old_image: w.no_old_image,
            drifted: w.drifted().map(DriftedDocument::of).collect(),
        }
    }
}

crate::document_as!(WindowReport => WindowDocument, document);

/// A window's writes checked from an incremental export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct WindowDocument {
    /// The table.
    pub(crate) table: String,
    /// The tally attribute.
    pub(crate) tally: String,
    /// The export's files read.
    pub(crate) files: Vec<String>,
    /// Records read.
    pub(crate) records: u64,
    /// Records of items that are neither a parent nor a child under the rule.
    pub(crate) others: u64,
    /// The earliest write time of a record, RFC 3339; `null` when no record says.
    pub(crate) from: Option<String>,
    /// The latest write time of a record, RFC 3339; `null` when no record says.
    pub(crate) to: Option<String>,
    /// Parents a record touched.
    pub(crate) parents_touched: usize,
    /// The export's view (`NEW_AND_OLD_IMAGES`); `null` when its summary does not say.
    pub(crate) view: Option<String>,
    /// Whether no record had an old image (right for inserts only).
    pub(crate) no_old_image: bool,
    /// The parents that gained a drift in the window.
    pub(crate) drifted: Vec<DriftedDocument>,
}

/// A parent that gained a drift in the window, with its records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct DriftedDocument {
    /// The parent's partition key value.
    pub(crate) partition: String,
    /// Whether a record of the parent itself is in the window (else its tally did not move).
    pub(crate) parent_in_window: bool,
    /// The tally before the window, exactly; `null` when absent.
    pub(crate) tally_before: Option<String>,
    /// The tally after the window, exactly; `null` when absent.
    pub(crate) tally_after: Option<String>,
    /// The tally's move in the window, as a DynamoDB number.
    pub(crate) tally_moved: String,
    /// Children inserted in the window.
    pub(crate) inserted: u64,
    /// Children removed in the window.
    pub(crate) removed: u64,
    /// The drift gained in the window, as a DynamoDB number.
    pub(crate) gained: String,
    /// The first records of the parent and its children.
    pub(crate) records: Vec<RecordDocument>,
    /// The parent's records and its children's, all of them.
    pub(crate) record_count: u64,
}

impl DriftedDocument {
    fn of(p: &WindowParent) -> Self {
        Self {
            partition: p.partition.clone(),
            parent_in_window: p.seen,
            tally_before: p.tally.0.clone(),
            tally_after: p.tally.1.clone(),
            tally_moved: number::to_dynamodb(&p.tally_moved()),
            inserted: p.inserted,
            removed: p.removed,
            gained: number::to_dynamodb(&p.gained()),
            records: p.records.iter().map(RecordDocument::of).collect(),
            record_count: p.record_count,
        }
    }
}

/// One record of the export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct RecordDocument {
    /// The file it is in.
    pub(crate) file: String,
    /// Its line in the file, from 1.
    pub(crate) line: usize,
    /// Its `Metadata.WriteTimestampMicros`, as written; `null` when absent.
    pub(crate) write_timestamp_micros: Option<String>,
    /// What it did: `tally 3 → 4`, `child inserted`, `child removed`.
    pub(crate) what: String,
}

impl RecordDocument {
    fn of(r: &RecordAt) -> Self {
        Self {
            file: r.file.display().to_string(),
            line: r.line,
            write_timestamp_micros: r.micros.clone(),
            what: r.what.clone(),
        }
    }
}
