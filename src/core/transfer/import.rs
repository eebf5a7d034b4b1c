//! Importing items read from a file into a table: every item checked first (the table's key
//! attributes present and typed as the table says, no key twice), then put in batches of 25
//! through the write gateway — one confirmation for the whole import off this machine, items
//! the server leaves unprocessed sent again with a growing wait, a lost answer never guessed
//! at. The report adds up to the items read.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::core::cancel::CancelToken;
use crate::core::connection::Connection;
use crate::core::error::{Error, Result};
use crate::core::run;
use crate::core::table::TableInfo;
use crate::core::transfer::ReadItem;
use crate::core::value::{cell_text, type_tag};
use crate::core::write::{self, BatchPut, Destination, Refusal, WriteOutcome, WritePlan};

/// Check that every item can be put into the table `info` describes: each carries the table's
/// key attributes with their types, and no two share a key. The first item that cannot is an
/// error naming its file and line; nothing is written by a check.
pub fn check_items(items: &[ReadItem], info: &TableInfo) -> Result<()> {
    let keys: Vec<_> = [Some(&info.partition), info.sort.as_ref()]
        .into_iter()
        .flatten()
        .collect();
    let mut seen = HashSet::new();
    for read in items {
        let mut key_text = Vec::new();
        for key in &keys {
            let Some(value) = read.item.get(&key.name) else {
                return Err(Error::Invalid(format!(
                    "{}: the item has no `{}`, a key attribute of {}",
                    read.place(),
                    key.name,
                    info.name
                )));
            };
            if type_tag(value) != key.kind.tag() {
                return Err(Error::Invalid(format!(
                    "{}: `{}` is {} here, but the table's key attribute is {}",
                    read.place(),
                    key.name,
                    type_tag(value),
                    key.kind.tag()
                )));
            }
            key_text.push(cell_text(value));
        }
        if !seen.insert(key_text.clone()) {
            return Err(Error::Invalid(format!(
                "{}: the key {} is there twice; an import puts each item once",
                read.place(),
                key_text.join(" · ")
            )));
        }
    }
    Ok(())
}

/// Every item of the file or folder at `path` in `format` (CSV columns typed by `types`), each
/// line checked, then every item checked against table `info`: what an import would put.
/// Nothing is written.
pub fn read_for_import(
    path: &std::path::Path,
    format: crate::core::transfer::Format,
    types: &std::collections::HashMap<String, crate::core::transfer::CellType>,
    info: &TableInfo,
) -> Result<Vec<ReadItem>> {
    let mut items = Vec::new();
    for file in crate::core::transfer::export_files(path)? {
        items.extend(crate::core::transfer::read_file(&file, format, types)?);
    }
    check_items(&items, info)?;
    Ok(items)
}

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

impl std::fmt::Display for ImportProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} items sent, {} written · {:.0} items/s · {} WCU",
            self.done,
            self.total,
            self.written,
            self.per_second(),
            self.wcu
        )
    }
}

/// Items that were not written, or may not have been, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct NotWritten {
    /// Where each came from: the file and the line.
    pub places: Vec<(PathBuf, usize)>,
    /// Why, in words.
    pub reason: String,
}

/// How an import ended. `read = written + refused + unknown + not_sent`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    /// Items read from the file(s).
    pub read: usize,
    /// Items the server wrote.
    pub written: usize,
    /// Items the server refused or left unprocessed (not written), with reasons.
    pub refused: Vec<NotWritten>,
    /// Items whose batch's answer was lost: they may or may not be written.
    pub unknown: Vec<NotWritten>,
    /// Items never sent (the import was cancelled, or stopped after a lost answer).
    pub not_sent: usize,
    /// `BatchWriteItem` requests sent.
    pub requests: u32,
    /// Write capacity consumed.
    pub wcu: f64,
    /// How long the writing took.
    pub elapsed: Duration,
    /// The import wrote nothing on purpose (a dry run).
    pub dry_run: bool,
}

impl ImportReport {
    fn count(list: &[NotWritten]) -> usize {
        list.iter().map(|n| n.places.len()).sum()
    }

    /// Items refused or left unprocessed.
    pub fn refused_count(&self) -> usize {
        Self::count(&self.refused)
    }

    /// Items whose outcome is unknown.
    pub fn unknown_count(&self) -> usize {
        Self::count(&self.unknown)
    }

    /// The summary line: `import: 1,000 read, 1,000 written, 0 refused, 0 unknown, 0 not sent
    /// (40 requests, 1000 WCU, 0.8 s)`.
    pub fn summary(&self) -> String {
        if self.dry_run {
            return format!(
                "dry run: {} items read and checked; nothing was written",
                self.read
            );
        }
        format!(
            "import: {} read, {} written, {} refused, {} unknown, {} not sent ({} requests, {} WCU, {:.1} s)",
            self.read,
            self.written,
            self.refused_count(),
            self.unknown_count(),
            self.not_sent,
            self.requests,
            self.wcu,
            self.elapsed.as_secs_f64()
        )
    }

    /// Every line to print after the summary: what was not written, and why.
    pub fn details(&self) -> Vec<String> {
        let list = |what: &str, items: &[NotWritten]| {
            items
                .iter()
                .map(|n| format!("{what}: {} — {}", places_text(&n.places), n.reason))
                .collect::<Vec<_>>()
        };
        let mut lines = list("refused", &self.refused);
        lines.extend(list("unknown", &self.unknown));
        lines
    }
}

/// Put `items` (already [checked](check_items)) into `info`'s table on `connection`, in
/// batches of 25, one at a time, telling `progress` after each. `confirmed`: the user said yes
/// to [`confirmation`]'s question. Cancelling stops before the next batch; a batch whose answer
/// is lost stops the import there (its items are reported unknown, the rest not sent).
pub async fn import(
    connection: &Connection,
    info: &TableInfo,
    items: Vec<ReadItem>,
    confirmed: bool,
    cancel: &CancelToken,
    progress: impl Fn(ImportProgress),
) -> ImportReport {
    let started = Instant::now();
    let destination = Destination::of(connection);
    let mut report = ImportReport {
        read: items.len(),
        ..ImportReport::default()
    };
    let total = items.len();
    let mut chunks = items.chunks(BatchPut::MAX);
    for chunk in chunks.by_ref() {
        if cancel.is_cancelled() {
            report.not_sent += chunk.len();
            continue;
        }
        let places: Vec<(PathBuf, usize)> = chunk.iter().map(ReadItem::at).collect();
        let batch = BatchPut {
            table: info.name.clone(),
            items: chunk.iter().map(|r| r.item.clone()).collect(),
        };
        let plan = match WritePlan::batch(destination.clone(), batch, info.key_names()) {
            Ok(plan) => plan,
            Err(error) => {
                report.refused.push(NotWritten {
                    places,
                    reason: error.to_string(),
                });
                continue;
            }
        };
        let outcome = write::send(connection, &plan, confirmed).await;
        let attempts = outcome.attempts();
        report.requests += attempts;
        let mut stop = false;
        match outcome {
            WriteOutcome::Applied {
                consumed_wcu,
                unwritten,
                ..
            } => {
                report.wcu += consumed_wcu;
                report.written += chunk.len();
                if let Some(unwritten) = unwritten {
                    let left: Vec<(PathBuf, usize)> = chunk
                        .iter()
                        .filter(|r| unwritten.items.contains(&r.item))
                        .map(ReadItem::at)
                        .collect();
                    report.written -= left.len();
                    let reason = match unwritten.refusal {
                        None => format!(
                            "left unprocessed by the server after {} tries (not written)",
                            write::MAX_UNPROCESSED_ROUNDS + 1
                        ),
                        Some(refusal) => format!(
                            "left unprocessed by the server, then {} (not written)",
                            refusal_text(refusal)
                        ),
                    };
                    report.refused.push(NotWritten {
                        places: left,
                        reason,
                    });
                }
            }
            WriteOutcome::Refused { refusal, .. } => {
                // A refusal before sending (read-only, not confirmed) holds for every batch.
                stop = attempts == 0;
                report.refused.push(NotWritten {
                    places,
                    reason: refusal_text(refusal),
                });
            }
            WriteOutcome::Unknown {
                error, stored_now, ..
            } => {
                // The gateway read every item again; say how many are stored as imported.
                let as_put = stored_now
                    .iter()
                    .zip(chunk)
                    .filter(|(now, read)| matches!(now, Ok(Some(item)) if *item == read.item))
                    .count();
                report.unknown.push(NotWritten {
                    places,
                    reason: format!(
                        "{error}; not sent again. Read again: {as_put} of {} stored as imported now",
                        chunk.len()
                    ),
                });
                stop = true;
            }
        }
        progress(ImportProgress {
            done: report.written + report.refused_count() + report.unknown_count(),
            total,
            written: report.written,
            wcu: report.wcu,
            elapsed: started.elapsed(),
        });
        if stop {
            break;
        }
    }
    report.not_sent += chunks.map(<[ReadItem]>::len).sum::<usize>();
    report.elapsed = started.elapsed();
    report
}

/// Places in words, consecutive lines of a file as a range: `a.jsonl lines 26–50, b.jsonl
/// line 3`.
fn places_text(places: &[(PathBuf, usize)]) -> String {
    let mut parts: Vec<(&PathBuf, usize, usize)> = Vec::new();
    for (file, line) in places {
        match parts.last_mut() {
            Some((f, _, last)) if *f == file && *last + 1 == *line => *last = *line,
            _ => parts.push((file, *line, *line)),
        }
    }
    parts
        .into_iter()
        .map(|(file, first, last)| {
            if first == last {
                format!("{} line {first}", file.display())
            } else {
                format!("{} lines {first}–{last}", file.display())
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
    run::written("BatchWriteItem", refused, false).summary
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
mod tests {
    use super::*;

    #[test]
    fn places_run_together_into_ranges() {
        let (a, b) = (PathBuf::from("a.jsonl"), PathBuf::from("b.jsonl"));
        let places = [
            (a.clone(), 26),
            (a.clone(), 27),
            (a.clone(), 28),
            (a.clone(), 30),
            (b.clone(), 31),
            (b, 32),
        ];
        assert_eq!(
            places_text(&places),
            "a.jsonl lines 26–28, a.jsonl line 30, b.jsonl lines 31–32"
        );
    }
}
