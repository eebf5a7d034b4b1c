//! Counting children, finding parents, summing shards and planning repairs, against DynamoDB.
//! Functions take the connection's `&Client`.

use std::sync::Arc;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, Select};
use bigdecimal::BigDecimal;
use tokio::sync::Semaphore;

use crate::core::condition::{self, FilterClause, FilterOp, Placeholders, SortCondition, SortOp};
use crate::core::counter::{self, EditMode, Planned, UpdatePlan};
use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::ops::{self, BrowseMode, BrowseRequest};
use crate::core::table::TableInfo;
use crate::core::tally::{self, ChildSource, ShardRule, TallyRule};
use crate::core::value::{self, Item};

/// How many children were counted, and what counting cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    /// Children counted.
    pub count: u64,
    /// Query pages read.
    pub pages: u32,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
    /// Milliseconds taken.
    pub elapsed_ms: u128,
    /// How the count was made, in words.
    pub method: String,
}

/// One parent's stored tally beside its counted children.
#[derive(Debug, Clone, PartialEq)]
pub struct ParentCheck {
    /// The parent's key.
    pub key: Item,
    /// The parent's partition key, as text.
    pub partition: String,
    /// The stored tally (`None`: missing, which is not 0).
    pub stored: Option<String>,
    /// The children counted.
    pub count: Count,
    /// `stored − counted` (`None` when the tally is missing).
    pub drift: Option<BigDecimal>,
    /// An attribute of the parent telling when it was last touched, if it has one.
    pub last_touched: Option<(String, String)>,
}

impl ParentCheck {
    /// Whether the stored tally disagrees with the children (a missing tally disagrees).
    pub fn drifted(&self) -> bool {
        self.drift
            .as_ref()
            .is_none_or(|d| *d != BigDecimal::default())
    }

    /// How far off, for sorting: missing tallies first, then by |drift|.
    pub fn severity(&self) -> (bool, BigDecimal) {
        match &self.drift {
            None => (true, BigDecimal::default()),
            Some(d) => (false, d.abs()),
        }
    }

    /// The drift as text: `+1`, `-2`, `0`, or `missing tally`.
    pub fn drift_text(&self) -> String {
        match &self.drift {
            None => "missing tally".to_owned(),
            Some(d) if *d > BigDecimal::default() => format!("+{}", counter::to_dynamodb(d)),
            Some(d) => counter::to_dynamodb(d),
        }
    }
}

/// Count the children of `parent` under `rule`, exactly: `Select: COUNT`, every page followed.
pub async fn count_children(
    client: &Client,
    info: &TableInfo,
    parent: &Item,
    rule: &TallyRule,
) -> Result<Count> {
    let started = Instant::now();
    let (index, partition_name, partition_value, sort) = match &rule.children {
        ChildSource::SortKeyPrefix(prefix) => {
            let sort = info.sort.as_ref().ok_or_else(|| {
                Error::Invalid(format!(
                    "{} has no sort key, so children cannot share a partition",
                    info.name
                ))
            })?;
            let pk = parent
                .get(&info.partition.name)
                .cloned()
                .ok_or_else(|| Error::Invalid("the parent has no partition key".into()))?;
            (
                None,
                info.partition.name.clone(),
                pk,
                Some((sort.name.clone(), prefix.clone())),
            )
        }
        ChildSource::Index {
            index,
            id_attribute,
            sort_prefix,
        } => {
            let (ipk, isk) = info
                .keys_of(Some(index))
                .ok_or_else(|| Error::Invalid(format!("{} has no index {index}", info.name)))?;
            let id_name = id_attribute
                .clone()
                .unwrap_or_else(|| info.partition.name.clone());
            let id = parent.get(&id_name).cloned().ok_or_else(|| {
                Error::Invalid(format!(
                    "the parent has no `{id_name}` to query {index} with"
                ))
            })?;
            let sort = match (isk, sort_prefix.is_empty()) {
                (Some(isk), false) => Some((isk.name.clone(), sort_prefix.clone())),
                _ => None,
            };
            (Some(index.clone()), ipk.name.clone(), id, sort)
        }
    };
    let mut placeholders = Placeholders::default();
    let condition = sort.as_ref().map(|(_, prefix)| SortCondition {
        op: SortOp::BeginsWith,
        value: AttributeValue::S(prefix.clone()),
        upper: None,
    });
    let key_text = condition::key_condition(
        &mut placeholders,
        &partition_name,
        partition_value.clone(),
        sort.as_ref()
            .map(|(name, _)| name.as_str())
            .zip(condition.as_ref()),
    )?;
    let expr = placeholders.finish(key_text);
    let (mut count, mut pages, mut rcu) = (0u64, 0u32, 0.0);
    let mut start = None;
    loop {
        let out = client
            .query()
            .table_name(&info.name)
            .set_index_name(index.clone())
            .key_condition_expression(&expr.text)
            .set_expression_attribute_names(Some(expr.names.clone()))
            .set_expression_attribute_values(Some(expr.values.clone()))
            .select(Select::Count)
            .set_exclusive_start_key(start.take())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .map_err(|e| Error::from_sdk("Query", e))?;
        count += u64::try_from(out.count).unwrap_or_default();
        pages += 1;
        rcu += out
            .consumed_capacity
            .as_ref()
            .and_then(|c| c.capacity_units())
            .unwrap_or_default();
        match out.last_evaluated_key {
            Some(next) => start = Some(next),
            None => break,
        }
    }
    let on = index
        .as_deref()
        .map(|i| format!(" on {i}"))
        .unwrap_or_default();
    let method = match &sort {
        Some((name, prefix)) => format!(
            "Query{on} Select=COUNT, {partition_name} = {}, begins_with({name}, \"{prefix}\"), every page followed",
            value::cell_text(&partition_value)
        ),
        None => format!(
            "Query{on} Select=COUNT, {partition_name} = {}, every page followed",
            value::cell_text(&partition_value)
        ),
    };
    Ok(Count {
        count,
        pages,
        consumed_rcu: rcu,
        elapsed_ms: started.elapsed().as_millis(),
        method,
    })
}

/// The parent item of partition `partition` under `rule` (consistent read); `None` if absent.
pub async fn load_parent(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<Option<Item>> {
    let mut key = Item::from([(info.partition.name.clone(), partition)]);
    if let Some(sort) = &info.sort {
        key.insert(
            sort.name.clone(),
            AttributeValue::S(rule.parents.sort_key.clone()),
        );
    }
    let out = client
        .get_item()
        .table_name(&info.name)
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| Error::from_sdk("GetItem", e))?;
    Ok(out.item)
}

/// Check one loaded parent: read its stored tally and count its children.
pub async fn check_parent(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    parent: &Item,
) -> Result<ParentCheck> {
    let stored = tally::stored_tally(parent, &rule.tally)?;
    let count = count_children(client, info, parent, rule).await?;
    let drift = tally::drift(stored.as_deref(), count.count)?;
    let key: Item = info
        .key_names()
        .into_iter()
        .filter_map(|k| parent.get(&k).map(|v| (k, v.clone())))
        .collect();
    Ok(ParentCheck {
        partition: parent
            .get(&info.partition.name)
            .map(value::cell_text)
            .unwrap_or_default(),
        key,
        stored,
        count,
        drift,
        last_touched: tally::last_touched(parent),
    })
}

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
    /// The rows already loaded in the grid.
    Loaded(Arc<Vec<Item>>),
}

/// The parents `rule` names, from `source`.
pub async fn find_parents(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    source: &ParentSource,
) -> Result<Vec<Item>> {
    let sort_name = info
        .sort
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let is_parent = |item: &Item| rule.parents.matches(item, &info.partition.name, &sort_name);
    let request = match source {
        ParentSource::Loaded(items) => {
            return Ok(items.iter().filter(|i| is_parent(i)).cloned().collect());
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
    let mut parents = Vec::new();
    let mut start = None;
    loop {
        let page = ops::fetch_page(client, &request, start.take()).await?;
        parents.extend(page.items.into_iter().filter(|i| is_parent(i)));
        match page.last_key {
            Some(next) => start = Some(next),
            None => break,
        }
    }
    // An index may hold only keys: read each parent for its tally.
    if matches!(request.mode, BrowseMode::Query { .. })
        && parents.iter().any(|p| !p.contains_key(&rule.tally))
    {
        let mut full = Vec::with_capacity(parents.len());
        for parent in parents {
            let pk = parent.get(&info.partition.name).cloned();
            match pk {
                Some(pk) => full.extend(load_parent(client, info, rule, pk).await?),
                None => full.push(parent),
            }
        }
        parents = full;
    }
    Ok(parents)
}

/// Check every parent, `concurrency` at a time. Each result is handed to `on_result` as it
/// arrives; `cancelled` is asked between parents, and what finished is kept.
pub async fn reconcile(
    client: &Client,
    info: &TableInfo,
    rule: &TallyRule,
    parents: Vec<Item>,
    concurrency: usize,
    cancelled: impl Fn() -> bool,
    mut on_result: impl FnMut(Result<ParentCheck>),
) -> bool {
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut stopped = false;
    for parent in parents {
        if cancelled() {
            stopped = true;
            break;
        }
        // Wait for a free slot, handing finished results on meanwhile.
        let permit = loop {
            if let Ok(permit) = Arc::clone(&permits).try_acquire_owned() {
                break permit;
            }
            match tasks.join_next().await {
                Some(done) => on_result(flatten(done)),
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
        on_result(flatten(done));
    }
    stopped || cancelled()
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

/// The guarded repair of a drifted parent: `SET #t = :counted` on the condition that the tally
/// is still what was observed (`attribute_not_exists(#t)` when it was missing).
pub fn repair_plan(info: &TableInfo, rule: &TallyRule, check: &ParentCheck) -> Result<UpdatePlan> {
    if !check.drifted() {
        return Err(Error::Invalid(
            "the tally equals the children: nothing to repair".into(),
        ));
    }
    let counted = BigDecimal::from(check.count.count);
    let current = check
        .stored
        .as_deref()
        .map(number::parse)
        .transpose()
        .map_err(|e| Error::Invalid(format!("the stored tally: {e}")))?;
    let planned = Planned {
        delta: &counted - current.clone().unwrap_or_default(),
        current,
        expected: counted,
    };
    counter::update_plan(
        &info.name,
        check.key.clone(),
        &rule.tally,
        EditMode::Exact,
        planned,
    )
}

/// A sharded counter summed on read.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardTotal {
    /// Each shard's sort key and value (`None` when the attribute is missing).
    pub shards: Vec<(String, Option<BigDecimal>)>,
    /// The sum.
    pub total: BigDecimal,
    /// The index of the hottest shard.
    pub hot: Option<usize>,
    /// Query pages read.
    pub pages: u32,
    /// Read capacity consumed.
    pub consumed_rcu: f64,
}

/// Read every shard of `rule` in partition `partition` and sum them, exactly.
pub async fn sum_shards(
    client: &Client,
    info: &TableInfo,
    partition: AttributeValue,
    rule: &ShardRule,
) -> Result<ShardTotal> {
    let sort = info.sort.as_ref().ok_or_else(|| {
        Error::Invalid(format!(
            "{} has no sort key, so it has no shards",
            info.name
        ))
    })?;
    let cond = SortCondition {
        op: SortOp::BeginsWith,
        value: AttributeValue::S(rule.prefix.clone()),
        upper: None,
    };
    let request = BrowseRequest::query(info, None, partition, Some(cond), true)?;
    let (mut shards, mut pages, mut rcu) = (Vec::new(), 0u32, 0.0);
    let mut start = None;
    loop {
        let page = ops::fetch_page(client, &request, start.take()).await?;
        pages += 1;
        rcu += page.consumed_rcu;
        for item in page.items {
            let sk = item
                .get(&sort.name)
                .map(value::cell_text)
                .unwrap_or_default();
            let amount = match item.get(&rule.attribute) {
                Some(AttributeValue::N(n)) => {
                    Some(number::parse(n).map_err(|e| Error::Invalid(format!("{sk}: {e}")))?)
                }
                _ => None,
            };
            shards.push((sk, amount));
        }
        match page.last_key {
            Some(next) => start = Some(next),
            None => break,
        }
    }
    // Shard numbers sort numerically: #2 before #10.
    shards.sort_by_key(|(sk, _)| {
        let suffix = sk.rsplit('#').next().unwrap_or_default();
        (suffix.parse::<u64>().unwrap_or(u64::MAX), sk.clone())
    });
    let total = shards.iter().filter_map(|(_, v)| v.clone()).sum();
    let hot = shards
        .iter()
        .enumerate()
        .filter_map(|(i, (_, v))| v.as_ref().map(|v| (i, v)))
        .max_by(|a, b| a.1.cmp(b.1))
        .map(|(i, _)| i);
    Ok(ShardTotal {
        shards,
        total,
        hot,
        pages,
        consumed_rcu: rcu,
    })
}

/// Reconcile results as CSV: `pk,stored,counted,drift,pages,rcu`, one parent a line.
pub fn checks_csv(checks: &[ParentCheck]) -> String {
    let field = |text: &str| {
        if text.contains([',', '"', '\n']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_owned()
        }
    };
    let mut out = String::from("pk,stored,counted,drift,pages,rcu\n");
    for c in checks {
        out += &format!(
            "{},{},{},{},{},{}\n",
            field(&c.partition),
            c.stored.as_deref().unwrap_or(""),
            c.count.count,
            c.drift
                .as_ref()
                .map(counter::to_dynamodb)
                .unwrap_or_default(),
            c.count.pages,
            c.count.consumed_rcu
        );
    }
    out
}

/// Reconcile results as a JSON array; numbers as strings so they stay exact.
pub fn checks_json(checks: &[ParentCheck]) -> String {
    let rows: Vec<serde_json::Value> = checks
        .iter()
        .map(|c| {
            serde_json::json!({
                "pk": c.partition,
                "stored": c.stored,
                "counted": c.count.count.to_string(),
                "drift": c.drift.as_ref().map(counter::to_dynamodb),
                "pages": c.count.pages,
                "rcu": c.count.consumed_rcu,
            })
        })
        .collect();
    serde_json::to_string_pretty(&rows).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            drift: tally::drift(stored, counted).unwrap(),
            last_touched: None,
        }
    }

    #[test]
    fn exports_and_ordering() {
        let mut checks = vec![
            check("POST#ok", Some("3"), 3),
            check("POST#plus", Some("4"), 3),
            check("POST#missing", None, 7),
            check("POST#minus,odd", Some("1"), 3),
        ];
        checks.sort_by_key(|c| std::cmp::Reverse(c.severity()));
        let order: Vec<&str> = checks.iter().map(|c| c.partition.as_str()).collect();
        assert_eq!(
            order,
            ["POST#missing", "POST#minus,odd", "POST#plus", "POST#ok"]
        );
        let csv = checks_csv(&checks);
        assert!(
            csv.starts_with("pk,stored,counted,drift,pages,rcu\nPOST#missing,,7,,1,0.5\n"),
            "{csv}"
        );
        assert!(csv.contains("\"POST#minus,odd\",1,3,-2,1,0.5"), "{csv}");
        let json: serde_json::Value = serde_json::from_str(&checks_json(&checks)).unwrap();
        assert_eq!(json[2]["drift"], "1");
        assert_eq!(checks[2].drift_text(), "+1");
    }
}
