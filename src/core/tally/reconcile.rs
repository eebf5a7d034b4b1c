//! Reconciling many parents: where they come from, checking them `concurrency` at a time with a
//! cancel, the results sorted by severity with running totals, and the export of them.

use std::collections::HashSet;
use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;
use tokio::sync::Semaphore;

use crate::core::cancel::CancelToken;
use crate::core::condition::{FilterClause, FilterOp, SortOp};
use crate::core::error::{Error, Result};
use crate::core::number::{self, to_dynamodb};
use crate::core::read::{self, BrowseMode, BrowseRequest, Until};
use crate::core::rows::Rows;
use crate::core::table::TableInfo;
use crate::core::tally::plan::{PassRead, ReconcilePlan, scan_method, scan_pass};
use crate::core::tally::{ParentCheck, TallyRule, check_parent, load_parent_costed};
use crate::core::value::{Item, Layout, cell_text, json};

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

/// The parents `rule` names, from `source`, and what reading them cost.
pub async fn find_parents(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    cancel: &CancelToken,
) -> Result<(Vec<Item>, PassRead)> {
    let sort_name = info
        .sort
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let is_parent = |item: &Item| rule.parents.matches(item, &info.partition.name, &sort_name);
    let request = match source {
        ParentSource::Loaded(items) => {
            let parents = items.items().filter(|i| is_parent(i)).collect();
            return Ok((parents, PassRead::default()));
        }
        ParentSource::Scan => {
            let mut request = BrowseRequest::scan(info, None)?;
            request.filter.push(FilterClause {
                attribute: sort_name.clone(),
                op: FilterOp::Sort(SortOp::Eq),
                values: vec![AttributeValue::S(rule.parents.sort_key.clone())],
            });
            if !rule.parents.partition_prefix.is_empty() {
                request.filter.push(FilterClause {
                    attribute: info.partition.name.clone(),
                    op: FilterOp::Sort(SortOp::BeginsWith),
                    values: vec![AttributeValue::S(rule.parents.partition_prefix.clone())],
                });
            }
            request
        }
        ParentSource::IndexQuery { index, partition } => {
            BrowseRequest::query(info, Some(index), partition.clone(), None, true)?
        }
    };
    let (mut parents, mut cost) = (Vec::new(), PassRead::default());
    read::read_pages(client, &request, None, Until::LastPage, cancel, |page| {
        // Items read, the ones a filter dropped included.
        cost.items += u64::try_from(page.scanned_count).unwrap_or_default();
        cost.pages += 1;
        cost.rcu += page.consumed_rcu;
        parents.extend(page.items.into_iter().filter(|i| is_parent(i)));
    })
    .await?;
    // An index may hold only keys: read each parent for its tally.
    if matches!(request.mode, BrowseMode::Query { .. })
        && parents.iter().any(|p| !p.contains_key(&rule.tally))
    {
        let mut full = Vec::with_capacity(parents.len());
        for parent in parents {
            match parent.get(&info.partition.name).cloned() {
                Some(pk) => {
                    let (read, rcu) = load_parent_costed(client, info, rule, pk).await?;
                    cost.rcu += rcu;
                    full.extend(read);
                }
                None => full.push(parent),
            }
        }
        parents = full;
    }
    Ok((parents, cost))
}

/// What a reconcile run reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ReconcileEvent {
    /// Items read to find the parents, or in a one pass (counted into the totals' RCU).
    Read(PassRead),
    /// The parents were found; this many will be checked.
    Found(usize),
    /// One parent checked, or why it could not be.
    Checked(Box<Result<ParentCheck>>),
}

/// Check the parents `rule` names in `source` as `plan` says, reporting through `on_event` as
/// results arrive. Per parent: the parents are found, then each checked, `concurrency` at a
/// time; `cancel` stops starting new checks and the finished ones are kept. One pass: every
/// item is read once in a parallel scan, then every parent (of those `source` names) is
/// reported; a cancelled pass reports none. Returns whether the run was cancelled.
pub async fn reconcile(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    plan: ReconcilePlan,
    cancel: &CancelToken,
    mut on_event: impl FnMut(ReconcileEvent),
) -> Result<bool> {
    let concurrency = match plan {
        ReconcilePlan::PerParent { concurrency } => concurrency,
        ReconcilePlan::OnePass { segments } => {
            return reconcile_in_one_pass(client, info, rule, source, segments, cancel, on_event)
                .await;
        }
    };
    let (parents, cost) = find_parents(client, info, rule, source, cancel).await?;
    on_event(ReconcileEvent::Read(cost));
    on_event(ReconcileEvent::Found(parents.len()));
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut stopped = false;
    for parent in parents {
        if cancel.is_cancelled() {
            stopped = true;
            break;
        }
        // Wait for a free slot, handing finished results on meanwhile.
        let permit = loop {
            if let Ok(permit) = Arc::clone(&permits).try_acquire_owned() {
                break permit;
            }
            match tasks.join_next().await {
                Some(done) => on_event(ReconcileEvent::Checked(Box::new(flatten(done)))),
                None => {
                    if let Ok(permit) = Arc::clone(&permits).acquire_owned().await {
                        break permit;
                    }
                }
            }
        };
        let (client, info, rule) = (client.clone(), info.clone(), rule.clone());
        tasks.spawn(async move {
            let _permit = permit;
            check_parent(&client, &info, &rule, &parent).await
        });
    }
    while let Some(done) = tasks.join_next().await {
        on_event(ReconcileEvent::Checked(Box::new(flatten(done))));
    }
    Ok(stopped || cancel.is_cancelled())
}

/// The one-pass plan of [`reconcile`].
async fn reconcile_in_one_pass(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
    segments: usize,
    cancel: &CancelToken,
    mut on_event: impl FnMut(ReconcileEvent),
) -> Result<bool> {
    // Only the parents the source names, when it names fewer than all.
    let only: Option<HashSet<String>> = match source {
        ParentSource::Scan => None,
        other => {
            let (parents, cost) = find_parents(client, info, rule, other, cancel).await?;
            on_event(ReconcileEvent::Read(cost));
            let keys = parents.iter().filter_map(|p| p.get(&info.partition.name));
            Some(keys.map(cell_text).collect())
        }
    };
    let pass = scan_pass(client, info, rule, segments, cancel, |read| {
        on_event(ReconcileEvent::Read(read));
    })
    .await?;
    let Some(pass) = pass else {
        return Ok(true);
    };
    let checks: Vec<Result<ParentCheck>> = pass
        .finish(info, &scan_method(info, segments))
        .into_iter()
        .filter(|c| match (&only, c) {
            (Some(only), Ok(check)) => only.contains(&check.partition),
            _ => true,
        })
        .collect();
    on_event(ReconcileEvent::Found(checks.len()));
    for check in checks {
        on_event(ReconcileEvent::Checked(Box::new(check)));
    }
    Ok(cancel.is_cancelled())
}

fn flatten(
    done: std::result::Result<Result<ParentCheck>, tokio::task::JoinError>,
) -> Result<ParentCheck> {
    done.unwrap_or_else(|e| {
        Err(Error::TaskDied {
            op: "Query",
            detail: e.to_string(),
        })
    })
}

/// Totals over the checks so far, kept as results arrive rather than recounted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Parents whose tally disagrees (a missing tally included).
    pub drifted: usize,
    /// Parents with no tally.
    pub missing: usize,
    /// Sum of the stored tallies, exactly.
    pub stored: BigDecimal,
    /// Sum of the counted children.
    pub counted: u64,
    /// Read capacity consumed by every request of the run.
    pub rcu: f64,
    /// Pages read to find parents or in one pass (per-parent queries count in their checks).
    pub pages: usize,
    /// Items read to find parents or in one pass.
    pub items_read: u64,
}

impl Totals {
    /// Count `c` in (`add`) or out of the totals.
    fn apply(&mut self, c: &ParentCheck, add: bool) {
        let stored = c
            .stored
            .as_deref()
            .and_then(|s| number::parse(s).ok())
            .unwrap_or_default();
        let (drifted, missing) = (usize::from(c.drifted()), usize::from(c.stored.is_none()));
        if add {
            self.drifted += drifted;
            self.missing += missing;
            self.stored += stored;
            self.counted += c.count.count;
            self.rcu += c.count.consumed_rcu;
        } else {
            self.drifted -= drifted;
            self.missing -= missing;
            self.stored -= stored;
            self.counted -= c.count.count;
            self.rcu -= c.count.consumed_rcu;
        }
    }
}

/// Checked parents, most severe first (missing tallies, then by |drift|), with their totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// The checks, sorted.
    pub checks: Vec<ParentCheck>,
    /// Totals over `checks`.
    pub totals: Totals,
}

impl Checked {
    /// Add one result, keeping the order.
    pub fn add(&mut self, check: ParentCheck) {
        self.totals.apply(&check, true);
        let key = |c: &ParentCheck| (std::cmp::Reverse(c.severity()), c.partition.clone());
        let at = self
            .checks
            .binary_search_by_key(&key(&check), key)
            .unwrap_or_else(|i| i);
        self.checks.insert(at, check);
    }

    /// Count the cost of reading items that were not one parent's check (finding parents, a
    /// one pass) into the totals.
    pub fn add_read(&mut self, read: &PassRead) {
        self.totals.rcu += read.rcu;
        self.totals.pages += read.pages;
        self.totals.items_read += read.items;
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub fn replace(&mut self, check: ParentCheck) {
        if let Some(at) = self
            .checks
            .iter()
            .position(|c| c.partition == check.partition)
        {
            let old = self.checks.remove(at);
            self.totals.apply(&old, false);
        }
        self.add(check);
    }

    /// The totals in one line.
    pub fn summary(&self) -> String {
        let t = &self.totals;
        format!(
            "{} parents checked · {} drifted ({} missing a tally) · stored total {} · counted total {}",
            self.checks.len(),
            t.drifted,
            t.missing,
            to_dynamodb(&t.stored),
            t.counted
        )
    }

    /// The checks as CSV: `pk,stored,counted,drift,pages,rcu`, one parent a line.
    pub fn csv(&self) -> String {
        let field = |text: &str| {
            if text.contains([',', '"', '\n']) {
                format!("\"{}\"", text.replace('"', "\"\""))
            } else {
                text.to_owned()
            }
        };
        let mut out = String::from("pk,stored,counted,drift,pages,rcu\n");
        for c in &self.checks {
            out += &format!(
                "{},{},{},{},{},{}\n",
                field(&c.partition),
                c.stored.as_deref().unwrap_or(""),
                c.count.count,
                c.drift.as_ref().map(to_dynamodb).unwrap_or_default(),
                c.count.pages,
                c.count.consumed_rcu
            );
        }
        out
    }

    /// The checks as a JSON array (see [`ParentCheck::to_json`]).
    pub fn json(&self) -> String {
        let rows = self.checks.iter().map(ParentCheck::to_json).collect();
        json::text(
            &serde_json::Value::Array(rows),
            Layout::Lines { spaced: true },
        )
    }
}

impl ParentCheck {
    /// The check as a JSON object; numbers of the data as strings so they stay exact.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "pk": self.partition,
            "stored": self.stored,
            "counted": self.count.count.to_string(),
            "drift": self.drift.as_ref().map(to_dynamodb),
            "pages": self.count.pages,
            "rcu": self.count.consumed_rcu,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tally::{Count, drift};

    fn check(pk: &str, stored: Option<&str>, counted: u64) -> ParentCheck {
        ParentCheck {
            key: Item::new(),
            partition: pk.to_owned(),
            stored: stored.map(str::to_owned),
            count: Count {
                count: counted,
                pages: 1,
                consumed_rcu: 0.5,
                elapsed_ms: 1,
                method: String::new(),
            },
            drift: drift(stored, counted).unwrap(),
            last_touched: None,
        }
    }

    #[test]
    fn exports_and_ordering() {
        let mut checked = Checked::default();
        for c in [
            check("POST#ok", Some("3"), 3),
            check("POST#plus", Some("4"), 3),
            check("POST#missing", None, 7),
            check("POST#minus,odd", Some("1"), 3),
        ] {
            checked.add(c);
        }
        let order: Vec<&str> = checked
            .checks
            .iter()
            .map(|c| c.partition.as_str())
            .collect();
        assert_eq!(
            order,
            ["POST#missing", "POST#minus,odd", "POST#plus", "POST#ok"]
        );
        let csv = checked.csv();
        assert!(
            csv.starts_with("pk,stored,counted,drift,pages,rcu\nPOST#missing,,7,,1,0.5\n"),
            "{csv}"
        );
        assert!(csv.contains("\"POST#minus,odd\",1,3,-2,1,0.5"), "{csv}");
        let json: serde_json::Value = serde_json::from_str(&checked.json()).unwrap();
        assert_eq!(json[2]["drift"], "1");
        assert_eq!(checked.checks[2].drift_text(), "+1");
    }

    #[test]
    fn running_totals_equal_a_recount() {
        let mut r = Checked::default();
        r.add(check("POST#1", Some("3"), 3));
        r.add(check("POST#2", Some("226"), 225));
        r.add(check("POST#3", None, 298));
        // A repair re-checks POST#2.
        r.replace(check("POST#2", Some("225"), 225));
        assert_eq!(r.checks.len(), 3);
        assert_eq!(r.totals.drifted, 1);
        assert_eq!(r.totals.missing, 1);
        assert_eq!(to_dynamodb(&r.totals.stored), "228");
        assert_eq!(r.totals.counted, 526);
        assert_eq!(r.checks[0].partition, "POST#3", "missing tally first");
        assert_eq!(
            r.summary(),
            "3 parents checked · 1 drifted (1 missing a tally) · stored total 228 · counted total 526"
        );
    }
}
