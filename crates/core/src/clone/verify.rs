//! The check at the end of a clone: both sides read by the one reader and counted per
//! partition key, and a sample of items — the same ones every time, chosen by a hash of their
//! keys — read again consistently on both sides and compared attribute by attribute (numbers
//! as exact decimals, sets as sets). Memory holds a count per partition (by name up to
//! [`NAMED`] partitions, then in hashed buckets) and the sample's keys, never the items.

use std::collections::{BinaryHeap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::Value;
use tokio::task::JoinSet;

use crate::cancel::CancelToken;
use crate::clone::Part;
use crate::connection::{Reader, TableOn};
use crate::error::{Error, Result};
use crate::read::{self, BrowseRequest, Page, Until};
use crate::value::{self, Item};

/// Partitions counted by name; beyond them, counted in [`BUCKETS`] buckets by a hash of the key.
pub(crate) const NAMED: usize = 100_000;
const BUCKETS: u64 = 4096;
/// Differences listed by name (the rest counted).
const LISTED: usize = 20;
/// Sampled items read at once.
const AT_ONCE: usize = 8;

/// One partition whose counts differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionCount {
    /// The partition key as DynamoDB JSON, or the bucket of partitions past [`NAMED`].
    pub key: String,
    /// Items at the source.
    pub source: u64,
    /// Items at the destination.
    pub target: u64,
}

/// What the check found.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// Items read at the source and at the destination.
    pub items: (u64, u64),
    /// Partitions (or buckets of them) counted.
    pub partitions: usize,
    /// More partitions than [`NAMED`]: the rest counted in buckets.
    pub bucketed: bool,
    /// The first partitions whose counts differ, and how many differ in all.
    pub differing: (Vec<PartitionCount>, usize),
    /// Items compared one by one.
    pub sampled: usize,
    /// The first sampled items that differ, in words, and how many differ in all.
    pub sample_differences: (Vec<String>, usize),
    /// Read capacity consumed on both sides.
    pub rcu: f64,
}

impl Verified {
    /// The two sides hold the same items, as far as the check can tell.
    pub fn agrees(&self) -> bool {
        self.items.0 == self.items.1 && self.differing.1 == 0 && self.sample_differences.1 == 0
    }

    /// The check in lines.
    pub fn lines(&self) -> Vec<String> {
        let (source, target) = self.items;
        let kept = if self.bucketed {
            format!(" (past {NAMED}, counted in buckets of partitions)")
        } else {
            String::new()
        };
        let mut lines = vec![format!(
            "check: {source} items at the source, {target} at the destination, in {} partitions{kept}",
            self.partitions
        )];
        lines.push(match self.differing.1 {
            0 => "check: every partition holds as many items on both sides".to_owned(),
            n => format!(
                "check: the counts differ in {}",
                crate::report::plural(n, "partition")
            ),
        });
        for p in &self.differing.0 {
            lines.push(format!(
                "  {}: {} at the source, {} at the destination",
                p.key, p.source, p.target
            ));
        }
        lines.push(match self.sample_differences.1 {
            0 => format!(
                "check: {} sampled items read again (consistent reads): all equal",
                self.sampled
            ),
            n => format!(
                "check: {n} of {} sampled items differ (consistent reads):",
                self.sampled
            ),
        });
        lines.extend(self.sample_differences.0.iter().map(|d| format!("  {d}")));
        lines
    }

    /// The check as JSON: its document.
    pub fn to_json(&self) -> Value {
        crate::document::Document::to_json(self)
    }
}

/// FNV-1a: the same hash on every machine and every run, so the sample is the same items.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Counts per partition, source and destination.
#[derive(Default)]
struct Counts {
    named: HashMap<String, (u64, u64)>,
    buckets: HashMap<u64, (u64, u64)>,
}

impl Counts {
    fn add(&mut self, partition: String, target: bool) {
        let slot = if self.named.len() < NAMED || self.named.contains_key(&partition) {
            self.named.entry(partition).or_default()
        } else {
            self.buckets.entry(hash(&partition) % BUCKETS).or_default()
        };
        if target { slot.1 += 1 } else { slot.0 += 1 }
    }
}

/// Read `part` of `table` (the whole partition or table, from its beginning), handing each page
/// to `on_page`; the read capacity.
async fn read_all(
    table: TableOn<'_>,
    part: &Part,
    segments: usize,
    stop: &CancelToken,
    mut on_page: impl FnMut(&Page),
) -> Result<f64> {
    let mut rcu = 0.0;
    let (info, reader) = (table.info, Reader::of(&table.connection.client));
    match part {
        Part::Table(_) => {
            let read = read::scan_whole(&reader, info, segments, stop, |page, _| {
                rcu += page.consumed_rcu;
                on_page(&page);
            });
            read.await?.ok_or(Error::Cancelled { op: "Scan" })?;
        }
        Part::Partition { value, .. } => {
            let request = BrowseRequest::query(info, None, value.clone(), None, true)?;
            let read = read::read_pages(&reader, &request, None, Until::LastPage, stop, |page| {
                rcu += page.consumed_rcu;
                on_page(&page);
            });
            if read.await? == read::Stopped::Cancelled {
                return Err(Error::Cancelled { op: "Query" });
            }
        }
    }
    Ok(rcu)
}

/// Check the table at `target` against the one at `source` for `part`: both sides counted per
/// partition (a scan of `segments`, or a Query), then `sample` items compared.
pub async fn verify(
    source: TableOn<'_>,
    target: TableOn<'_>,
    part: &Part,
    segments: usize,
    sample: usize,
    stop: &CancelToken,
) -> Result<Verified> {
    let (from, to) = (source.info, target.info);
    let mut counts = Counts::default();
    let mut chosen: BinaryHeap<(u64, String)> = BinaryHeap::new();
    let (mut items, key_names) = ((0u64, 0u64), from.key_names());
    let mut rcu = read_all(source, part, segments, stop, |page| {
        for item in &page.items {
            items.0 += 1;
            if let Some(pk) = item.get(&from.partition.name) {
                counts.add(value::dynamodb_json(pk), false);
            }
            let Ok(key) = from.key_of(item) else { continue };
            let text = value::item_to_dynamodb_json(&key, &key_names, false);
            chosen.push((hash(&text), text));
            if chosen.len() > sample {
                chosen.pop();
            }
        }
    })
    .await?;
    rcu += read_all(target, part, segments, stop, |page| {
        for item in &page.items {
            items.1 += 1;
            if let Some(pk) = item.get(&to.partition.name) {
                counts.add(value::dynamodb_json(pk), true);
            }
        }
    })
    .await?;
    let partitions = counts.named.len() + counts.buckets.len();
    let bucketed = !counts.buckets.is_empty();
    let mut differing: Vec<PartitionCount> = counts
        .named
        .into_iter()
        .chain(
            counts
                .buckets
                .into_iter()
                .map(|(b, n)| (format!("partitions hashed to bucket {b}"), n)),
        )
        .filter(|(_, (s, t))| s != t)
        .map(|(key, (source, target))| PartitionCount {
            key,
            source,
            target,
        })
        .collect();
    differing.sort_by(|a, b| a.key.cmp(&b.key));
    let differ_count = differing.len();
    differing.truncate(LISTED);
    let keys: Vec<Item> = chosen
        .into_sorted_vec()
        .into_iter()
        .filter_map(|(_, text)| value::item_from_dynamodb_json(&text).ok())
        .collect();
    let sampled = keys.len();
    let (differences, sample_rcu) = compare(source, target, keys, stop).await?;
    let difference_count = differences.len();
    Ok(Verified {
        items,
        partitions,
        bucketed,
        differing: (differing, differ_count),
        sampled,
        sample_differences: (
            differences.into_iter().take(LISTED).collect(),
            difference_count,
        ),
        rcu: rcu + sample_rcu,
    })
}

/// Read each of `keys` consistently on both sides, at most [`AT_ONCE`] at a time; each item
/// that differs, in words, in the order of `keys`, and the read capacity.
async fn compare(
    source: TableOn<'_>,
    target: TableOn<'_>,
    keys: Vec<Item>,
    stop: &CancelToken,
) -> Result<(Vec<String>, f64)> {
    let names = source.info.key_names();
    let clients = (&source.connection.client, &target.connection.client);
    let mut found: Vec<Option<String>> = vec![None; keys.len()];
    let mut rcu = 0.0;
    let mut reads = JoinSet::new();
    let mut queue = keys.into_iter().enumerate();
    loop {
        while reads.len() < AT_ONCE
            && let Some((at, key)) = queue.next()
        {
            let (s, t) = (clients.0.clone(), clients.1.clone());
            let (from, to) = (source.info.name.clone(), target.info.name.clone());
            reads.spawn(async move {
                let a = read::get_item_costed(&Reader::of(&s), &from, key.clone()).await;
                let b = read::get_item_costed(&Reader::of(&t), &to, key.clone()).await;
                (at, key, a, b)
            });
        }
        let joined = tokio::select! {
            joined = reads.join_next() => joined,
            () = stop.cancelled() => return Err(Error::Cancelled { op: "GetItem" }),
        };
        let Some(joined) = joined else { break };
        let (at, key, a, b) = joined.map_err(|e| Error::TaskDied {
            op: "GetItem",
            detail: e.to_string(),
        })?;
        let ((a, ra), (b, rb)) = (a?, b?);
        rcu += ra + rb;
        let shown = crate::value::key_shown(&key, &names);
        if let Some(slot) = found.get_mut(at) {
            *slot = difference(&shown, a.as_ref(), b.as_ref());
        }
    }
    Ok((found.into_iter().flatten().collect(), rcu))
}

/// How the item at `shown` differs between the source (`a`) and the destination (`b`), if it
/// does.
fn difference(shown: &str, a: Option<&Item>, b: Option<&Item>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let mut names: Vec<&String> = a
                .keys()
                .chain(b.keys().filter(|k| !a.contains_key(*k)))
                .filter(|k| match (a.get(*k), b.get(*k)) {
                    (Some(x), Some(y)) => !same(x, y),
                    _ => true,
                })
                .collect();
            names.sort();
            let first = names.first()?;
            let side = |item: &Item| {
                item.get(*first)
                    .map_or_else(|| "absent".to_owned(), value::dynamodb_json)
            };
            let list: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
            Some(format!(
                "{shown}: attributes differ: {} (`{first}` is {} at the source, {} at the destination)",
                list.join(", "),
                side(a),
                side(b)
            ))
        }
        (Some(_), None) => Some(format!("{shown}: missing at the destination")),
        (None, Some(_)) => Some(format!(
            "{shown}: no longer at the source (deleted since it was read?), still at the destination"
        )),
        (None, None) => Some(format!(
            "{shown}: at neither side now (deleted at the source since it was read?)"
        )),
    }
}

/// Whether two values are the same DynamoDB value: numbers as exact decimals (`1.50` is
/// `1.5`), sets as sets, maps and lists member by member.
pub(crate) fn same(a: &AttributeValue, b: &AttributeValue) -> bool {
    let number = |x: &str, y: &str| {
        x == y
            || matches!((crate::number::parse(x), crate::number::parse(y)),
                (Ok(p), Ok(q)) if p == q)
    };
    match (a, b) {
        (AttributeValue::N(x), AttributeValue::N(y)) => number(x, y),
        (AttributeValue::Ns(x), AttributeValue::Ns(y)) => {
            x.len() == y.len() && x.iter().all(|v| y.iter().any(|w| number(v, w)))
        }
        (AttributeValue::M(x), AttributeValue::M(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (AttributeValue::L(x), AttributeValue::L(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w))
        }
        _ => crate::value::same(a, b),
    }
}
