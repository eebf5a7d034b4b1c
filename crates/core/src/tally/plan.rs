//! How a reconcile reads: per-parent `COUNT` queries, or one pass over every item (a parallel
//! scan of the table, or the files of an export), chosen from a cost estimate shown before it
//! runs.

use std::path::PathBuf;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::cancel::CancelToken;
use crate::connection::Reader;
use crate::cost::Pricing;
use crate::error::Result;
use crate::read;
use crate::report::plural;
use crate::rows::Rows;
use crate::table::{TableInfo, human_bytes};
use crate::tally::one_pass::OnePass;
use crate::tally::{ParentCheck, TallyRule};
use crate::transfer::{self, Format, StreamProgress};

/// Where reconcile takes its parents from.
#[derive(Debug, Clone, PartialEq)]
pub enum ParentSource {
    /// Scan the table with the parent filter.
    Scan,
    /// Query an index for one partition; the parents among the results.
    IndexQuery {
        /// The index.
        index: String,
        /// Its partition key value.
        partition: AttributeValue,
    },
    /// The rows already loaded in the grid (a clone of the store shares its chunks).
    Loaded(Rows),
}

/// How a reconcile reads the children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReconcilePlan {
    /// A `Select: COUNT` Query per parent, this many at once.
    PerParent {
        /// Parents checked at once.
        concurrency: usize,
    },
    /// One parallel scan of the whole table in this many segments, each item read once.
    OnePass {
        /// Scan segments.
        segments: usize,
    },
}

impl ReconcilePlan {
    /// The plan in a few words.
    pub fn label(self) -> String {
        match self {
            Self::PerParent { concurrency } => {
                format!("a COUNT query per parent, {concurrency} at once")
            }
            Self::OnePass { segments } => {
                format!(
                    "one pass: a parallel scan in {}",
                    plural(segments, "segment")
                )
            }
        }
    }
}

/// What each plan would cost, from the table's description, before anything is read.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// RCU of one eventually consistent scan of the whole table (`None`: size unknown).
    pub scan_rcu: Option<f64>,
    /// The fewest RCU the per-parent plan can cost: finding the parents, then at least one
    /// half-unit page per parent (`None`: the number of parents is not known yet).
    pub per_parent_rcu: Option<f64>,
    /// Parents known before the run (loaded rows), if any.
    pub parents: Option<usize>,
    /// The cheaper plan.
    pub cheaper: Cheaper,
    /// The table's size and item count as DynamoDB last reported them.
    pub size: String,
}

/// Which plan the estimate says is cheaper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cheaper {
    /// Per-parent queries.
    PerParent,
    /// One pass.
    OnePass,
}

/// How the parents are found, as far as the estimate cares.
#[derive(Clone, Copy)]
enum Finding {
    Scan,
    Loaded(usize),
    Index,
}

/// Estimate both plans with parents from `source`.
pub fn estimate(info: &TableInfo, source: &ParentSource) -> Estimate {
    estimate_by(
        info,
        match source {
            ParentSource::Scan => Finding::Scan,
            ParentSource::Loaded(rows) => Finding::Loaded(rows.len()),
            ParentSource::IndexQuery { .. } => Finding::Index,
        },
    )
}

/// [`estimate`] for parents among `rows` loaded rows, without the rows.
pub fn estimate_loaded(info: &TableInfo, rows: usize) -> Estimate {
    estimate_by(info, Finding::Loaded(rows))
}

fn estimate_by(info: &TableInfo, finding: Finding) -> Estimate {
    // An eventually consistent read is half a unit per 4 KB.
    let scan_rcu = info
        .size_bytes
        .filter(|b| *b > 0)
        .map(|bytes| (bytes as f64 / 4096.0).ceil() * 0.5);
    let parents = match finding {
        Finding::Loaded(rows) => Some(rows),
        _ => None,
    };
    let (finding_rcu, cheaper) = match finding {
        // Finding the parents by a scan reads every item: one pass reads each once instead.
        Finding::Scan => (scan_rcu, Cheaper::OnePass),
        Finding::Loaded(rows) => {
            let queries = rows as f64 * 0.5;
            let cheaper = match scan_rcu {
                Some(scan) if scan <= queries => Cheaper::OnePass,
                _ => Cheaper::PerParent,
            };
            (Some(0.0), cheaper)
        }
        Finding::Index => (Some(0.5), Cheaper::PerParent),
    };
    let per_parent_rcu = match (finding_rcu, parents) {
        (Some(found), Some(p)) => Some(found + p as f64 * 0.5),
        (Some(found), None) if matches!(finding, Finding::Scan) => Some(found),
        _ => None,
    };
    let size = match (info.size_bytes, info.item_count) {
        (Some(bytes), Some(items)) => format!("{items} items, {}", human_bytes(bytes)),
        _ => "size not reported".to_owned(),
    };
    Estimate {
        scan_rcu,
        per_parent_rcu,
        parents,
        cheaper,
        size,
    }
}

impl Estimate {
    /// The estimate in words, one line per plan, the cheaper one first, each in units and
    /// money by `pricing`.
    pub fn lines(&self, table: &str, pricing: &Pricing) -> Vec<String> {
        let one = match self.scan_rcu {
            Some(rcu) => format!(
                "One pass: a parallel scan of {table} ({}) reads each item once: about {}.",
                self.size,
                pricing.read(rcu)
            ),
            None => format!(
                "One pass: a parallel scan of {table} reads each item once ({}).",
                self.size
            ),
        };
        let per = match (self.per_parent_rcu, self.parents) {
            (Some(rcu), Some(p)) => format!(
                "Per parent: a COUNT query for each parent among the {p} loaded rows, 0.5 RCU or more each (about {} if every row were a parent with under 4 KB of children).",
                pricing.read(rcu)
            ),
            (Some(rcu), None) => format!(
                "Per parent: a scan to find the parents (about {}), then a COUNT query per parent: more than one pass.",
                pricing.read(rcu)
            ),
            (None, _) => {
                "Per parent: an index query for the parents, then a COUNT query per parent (at least 0.5 RCU each).".to_owned()
            }
        };
        match self.cheaper {
            Cheaper::OnePass => vec![one, per],
            Cheaper::PerParent => vec![per, one],
        }
    }

    /// The cheaper plan with these settings.
    pub fn plan(&self, concurrency: usize) -> ReconcilePlan {
        match self.cheaper {
            Cheaper::OnePass => ReconcilePlan::OnePass {
                segments: concurrency,
            },
            Cheaper::PerParent => ReconcilePlan::PerParent { concurrency },
        }
    }
}

/// What a one-pass read cost: items seen, pages and RCU.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PassRead {
    /// Items read.
    pub items: u64,
    /// Pages read.
    pub pages: usize,
    /// Read capacity consumed.
    pub rcu: f64,
}

/// Read every item of table `info` once in a parallel scan of `segments`, handing each page's
/// cost to `on_page`; returns the pass over them, or `None` when cancelled (a partial pass
/// counts nothing reliably).
pub(crate) async fn scan_pass(
    reader: &Reader,
    info: &TableInfo,
    rule: &TallyRule,
    segments: usize,
    cancel: &CancelToken,
    mut on_page: impl FnMut(PassRead),
) -> Result<Option<OnePass>> {
    let mut pass = OnePass::new(info, rule)?;
    let read = read::scan_whole(reader, info, segments, cancel, |page, _| {
        let (items, rcu) = (page.items.len() as u64, page.consumed_rcu);
        for item in page.items {
            pass.add(item);
        }
        on_page(PassRead {
            items,
            pages: 1,
            rcu,
        });
    })
    .await?;
    Ok(read.map(|_| pass))
}

/// Reconcile `rule` from the files of an export of table `info` (what
/// [`transfer::export_files`] found at an S3 export's folder or one of its files, or DynamoDB
/// JSON lines), streamed: no request is sent (`info` gives the keys). Returns every parent's
/// check, or `None` when cancelled, and how much was read.
pub fn check_export(
    info: &TableInfo,
    rule: &TallyRule,
    files: &[PathBuf],
    format: Format,
    cancel: &CancelToken,
    on_progress: impl FnMut(StreamProgress),
) -> Result<(Option<Vec<Result<ParentCheck>>>, StreamProgress)> {
    let mut pass = OnePass::new(info, rule)?;
    let wanted = pass.wanted();
    let mut keys = transfer::KeysSeen::new(transfer::KEYS_IN_MEMORY);
    let mut failed = None;
    let read = transfer::stream_items(
        files,
        format,
        &wanted,
        cancel,
        |item, place| {
            if let Err(e) = keys.add(&item, info, place) {
                failed.get_or_insert(e);
            }
            pass.add(item);
        },
        on_progress,
    )?;
    if cancel.is_cancelled() {
        return Ok((None, read));
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    if let Some(error) = failed {
        return Err(error);
    }
    if let Some((first, second)) = keys.finish()? {
        return Err(transfer::twice_in_export(&names, first, second));
    }
    let method = export_method(&names, read.items);
    Ok((Some(pass.finish(info, &method)), read))
}

/// The method words of a pass over an export's files (or objects): which were read, so that an
/// export's folder says what it held.
pub(crate) fn export_method(names: &[String], items: u64) -> String {
    let mut shown: Vec<String> = names.iter().take(5).cloned().collect();
    if names.len() > shown.len() {
        shown.push(format!("and {} more", names.len() - shown.len()));
    }
    format!(
        "counted in one pass over the export ({}: {}; {items} items)",
        plural(names.len(), "file"),
        shown.join(", "),
    )
}

/// The method words of a live one pass.
pub(crate) fn scan_method(info: &TableInfo, segments: usize) -> String {
    format!(
        "counted in one pass over a {}-segment Scan of {}",
        segments, info.name
    )
}
