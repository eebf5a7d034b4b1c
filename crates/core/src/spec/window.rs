//! A window's writes checked from an incremental export: which parents gained a drift between
//! its two times, and the records that did it — the same words and JSON for every front end.

use std::path::PathBuf;

use aws_sdk_dynamodb::primitives::{DateTime, DateTimeFormat};
use bigdecimal::{BigDecimal, Zero};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::number;
use crate::report::{Line, Report, Tone, plural};
use crate::spec::RuleSpec;
use crate::table::TableInfo;
use crate::tally::{Window, WindowParent, read_window, view_of_summary, window_files};
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
        let (sources, view) = match S3Location::parse(&self.export.to_string_lossy())? {
            Some(at) => s3_sources(&connection.s3(), &at, stop).await?,
            None => {
                let data = window_files(&self.export)?;
                let files = (data.files.into_iter())
                    .map(|f| Box::new(f) as Box<dyn TextSource>)
                    .collect();
                (files, data.view)
            }
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
        .and_then(|t| t.ok())
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

    fn to_json(&self) -> Value {
        let w = &self.window;
        let drifted: Vec<Value> = w.drifted().map(parent_json).collect();
        json!({
            "table": self.table,
            "tally": self.tally,
            "files": w.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
            "records": w.records,
            "others": w.others,
            "from": w.span.map(|s| time_text(s.0)),
            "to": w.span.map(|s| time_text(s.1)),
            "parents_touched": w.parents.len(),
            "view": self.view,
            "no_old_image": w.no_old_image,
            "drifted": drifted,
        })
    }

    fn ending(&self) -> Ending {
        if self.window.drifted().next().is_some() {
            Ending::Refused
        } else {
            Ending::Done
        }
    }
}

fn parent_json(p: &WindowParent) -> Value {
    let records: Vec<Value> = (p.records.iter())
        .map(|r| {
            json!({"file": r.file.display().to_string(), "line": r.line,
            "write_timestamp_micros": r.micros, "what": r.what})
        })
        .collect();
    json!({
        "partition": p.partition,
        "parent_in_window": p.seen,
        "tally_before": p.tally.0,
        "tally_after": p.tally.1,
        "tally_moved": number::to_dynamodb(&p.tally_moved()),
        "inserted": p.inserted,
        "removed": p.removed,
        "gained": number::to_dynamodb(&p.gained()),
        "records": records,
        "record_count": p.record_count,
    })
}
